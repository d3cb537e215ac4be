import { describe, expect, it } from 'vitest';
import { hypot3 } from '../math/hypot3';
import { buildEdgeMap } from './edgeMap';
import { box, cylinder, grid, mergeMeshes, randomSoup, seededRandom, uvSphere } from './generators';
import { buildOpenBoundary } from './openBoundary';
import { buildPseudoNormals } from './pseudoNormals';
import { weldVertexIds } from './weld';
import type { TriMesh } from './TriMesh';

/**
 * The oracle: pseudo-normals of the whole mesh as they were computed before they became lazy
 * (commit 62bf059): every face normal, an edge map of the welded corners, every edge's and every
 * vertex's sum in one pass over the triangles. The lazy per-feature answers must equal these to
 * the last bit, so that no deviation figure moved.
 */
function wholeMesh(mesh: TriMesh) {
  const idx = mesh.indices, pos = mesh.positions;
  const T = idx.length / 3;
  let tv: Uint32Array, W: number;
  if (mesh.distinctPositions) {
    tv = idx;
    W = pos.length / 3;
  } else {
    const weld = weldVertexIds(pos);
    W = weld.count;
    tv = Uint32Array.from(idx, (i) => weld.ids[i]!);
  }
  const angle = (o: number, p: number, q: number) => {
    const ux = pos[3 * p]! - pos[3 * o]!, uy = pos[3 * p + 1]! - pos[3 * o + 1]!, uz = pos[3 * p + 2]! - pos[3 * o + 2]!;
    const vx = pos[3 * q]! - pos[3 * o]!, vy = pos[3 * q + 1]! - pos[3 * o + 1]!, vz = pos[3 * q + 2]! - pos[3 * o + 2]!;
    return Math.atan2(hypot3(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx), ux * vx + uy * vy + uz * vz);
  };
  const faceNormals = new Float64Array(3 * T);
  const vertexNormals = new Float64Array(3 * W);
  for (let t = 0; t < T; t++) {
    const a = idx[3 * t]!, b = idx[3 * t + 1]!, c = idx[3 * t + 2]!;
    const ux = pos[3 * b]! - pos[3 * a]!, uy = pos[3 * b + 1]! - pos[3 * a + 1]!, uz = pos[3 * b + 2]! - pos[3 * a + 2]!;
    const vx = pos[3 * c]! - pos[3 * a]!, vy = pos[3 * c + 1]! - pos[3 * a + 1]!, vz = pos[3 * c + 2]! - pos[3 * a + 2]!;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = hypot3(nx, ny, nz);
    if (!(len > 0)) continue;
    const angles = [Math.atan2(len, ux * vx + uy * vy + uz * vz), angle(b, c, a), angle(c, a, b)];
    nx /= len;
    ny /= len;
    nz /= len;
    faceNormals.set([nx, ny, nz], 3 * t);
    for (let k = 0; k < 3; k++) {
      const w = 3 * tv[3 * t + k]!;
      vertexNormals[w] = vertexNormals[w]! + angles[k]! * nx;
      vertexNormals[w + 1] = vertexNormals[w + 1]! + angles[k]! * ny;
      vertexNormals[w + 2] = vertexNormals[w + 2]! + angles[k]! * nz;
    }
  }
  const edges = buildEdgeMap(tv, W);
  const edgeNormals = new Float64Array(3 * edges.count);
  for (let t = 0; t < T; t++) {
    for (let k = 0; k < 3; k++) {
      const e = 3 * edges.triangleEdges[3 * t + k]!;
      for (let i = 0; i < 3; i++) edgeNormals[e + i] = edgeNormals[e + i]! + faceNormals[3 * t + i]!;
    }
  }
  const vertexOpen = new Uint8Array(W);
  for (let h = 0; h < 3 * T; h++) {
    const a = tv[h]!, b = tv[h % 3 === 2 ? h - 2 : h + 1]!;
    if (edges.corners[edges.triangleEdges[h]!] === 1 && a !== b) vertexOpen[a] = vertexOpen[b] = 1;
  }
  return { tv, W, faceNormals, vertexNormals, edgeNormals, edges, vertexOpen };
}

const same = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).every((x, i) => Object.is(x, b[i]));

function expectIdentical(mesh: TriMesh): void {
  const oracle = wholeMesh(mesh);
  const pn = buildPseudoNormals(mesh);
  const boundary = buildOpenBoundary(pn);
  expect(pn.vertexCount).toBe(oracle.W);
  expect(Array.from(pn.triangleVertices)).toEqual(Array.from(oracle.tv));
  const out = new Float64Array(3);
  let mismatches = 0;
  const T = mesh.indices.length / 3;
  for (let t = 0; t < T; t++) {
    if (!same(pn.faceNormal(t, out), oracle.faceNormals.subarray(3 * t, 3 * t + 3))) mismatches++;
    for (let k = 0; k < 3; k++) {
      const e = oracle.edges.triangleEdges[3 * t + k]!;
      if (!same(pn.edgeNormal(t, k, out), oracle.edgeNormals.subarray(3 * e, 3 * e + 3))) mismatches++;
      const a = oracle.tv[3 * t + k]!, b = oracle.tv[3 * t + ((k + 1) % 3)]!;
      if (pn.edgeUses(a, b) !== oracle.edges.corners[e]) mismatches++;
      if (boundary.edgeOpen(t, k) !== (oracle.edges.corners[e] === 1 && a !== b)) mismatches++;
    }
  }
  for (let w = 0; w < oracle.W; w++) {
    if (!same(pn.vertexNormal(w, out), oracle.vertexNormals.subarray(3 * w, 3 * w + 3))) mismatches++;
    if (boundary.vertexOpen(w) !== (oracle.vertexOpen[w] === 1)) mismatches++;
  }
  expect(mismatches).toBe(0);
  // The whole arrays (heat maps, labels) are the oracle's too, and answers read from them do not change.
  expect(same(pn.faceNormals, oracle.faceNormals)).toBe(true);
  expect(same(pn.vertexNormals, oracle.vertexNormals)).toBe(true);
  for (let w = 0; w < oracle.W; w++) if (!same(pn.vertexNormal(w, out), oracle.vertexNormals.subarray(3 * w, 3 * w + 3))) mismatches++;
  // Asked again, the answers come from what was kept: the same.
  for (let t = 0; t < T; t++) {
    if (!same(pn.faceNormal(t, out), oracle.faceNormals.subarray(3 * t, 3 * t + 3))) mismatches++;
    for (let k = 0; k < 3; k++) {
      const e = oracle.edges.triangleEdges[3 * t + k]!;
      if (!same(pn.edgeNormal(t, k, out), oracle.edgeNormals.subarray(3 * e, 3 * e + 3))) mismatches++;
    }
  }
  expect(mismatches).toBe(0);
}

/** A mesh with what breaks naive code: a collapsed triangle (two equal corners), a zero-area sliver, a repeated triangle, an edge used by three triangles, and an open rim. */
function awkward(): TriMesh {
  const positions = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 1, 2, 0, 0, 0, 0, 0, 0.5, 0.5, -1]);
  const indices = new Uint32Array([0, 1, 2, 1, 3, 2, 0, 1, 4, 1, 0, 6, 0, 0, 4, 0, 1, 5, 1, 3, 2, 0, 1, 7, 2, 6, 4]);
  return { positions, indices };
}

describe('lazy pseudo-normals equal the whole-mesh computation to the last bit', () => {
  it('on a UV sphere (poles with hundreds of triangles), marked distinct like a parsed STL', () => {
    const sphere = uvSphere(5, 96, 48);
    expectIdentical(sphere);
    expectIdentical({ ...sphere, distinctPositions: true });
  });

  it('on a box whose faces repeat their vertices (a BREP tessellation), a cylinder and an open grid', () => {
    expectIdentical(box([-1, -2, -3], [4, 5, 6], 3));
    expectIdentical(cylinder({ radius: 2, height: 5, segments: 40 }));
    expectIdentical(grid(12, 3));
  });

  it('on degenerate and non-manifold input, and a random soup', () => {
    expectIdentical(awkward());
    expectIdentical(mergeMeshes(awkward(), box([0, 0, 0], [1, 1, 1], 2)));
    expectIdentical(randomSoup(400, 3, seededRandom(5)));
  });
});
