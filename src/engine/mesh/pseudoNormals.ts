import { weldVertexIds } from './weld';
import { Feature } from './closestPointOnTriangle';
import type { MeshHit } from './closestPoint';
import type { TriMesh } from './TriMesh';

/**
 * Angle-weighted pseudo-normals (Baerentzen & Aanaes, "Signed distance computation using the angle
 * weighted pseudonormal", IEEE TVCG 2005). For a closed, consistently wound 2-manifold, the sign of
 * (p - c) . n, with c the nearest point and n the pseudo-normal of the feature c lies on (face
 * normal, edge normal = sum of the two face normals, vertex normal = sum of incident face normals
 * weighted by their corner angles), is the correct inside/outside sign even where plain face normals
 * disagree (a point diagonal from a cube corner).
 *
 * Corners are welded by exact coordinates first: BREP tessellations repeat vertices on face
 * boundaries, and a vertex that is not shared would give each face its own "vertex normal".
 */
export interface PseudoNormals {
  /** Unit face normal per triangle (zero for a zero-area triangle). */
  faceNormals: Float64Array;
  /** Per triangle: edge ids of edges ab, bc, ca. */
  triangleEdges: Uint32Array;
  /** Per edge: sum of the unit normals of the triangles using it (not normalised: only signs are read). */
  edgeNormals: Float64Array;
  /** Per triangle: welded vertex id of corners a, b, c. */
  triangleVertices: Uint32Array;
  /** Per welded vertex: angle-weighted sum of incident unit face normals. */
  vertexNormals: Float64Array;
}

export function buildPseudoNormals(mesh: TriMesh): PseudoNormals {
  const idx = mesh.indices;
  const pos = mesh.positions;
  const T = idx.length / 3;
  const { ids: weld, count: W } = weldVertexIds(pos);
  const triangleVertices = new Uint32Array(3 * T);
  for (let i = 0; i < 3 * T; i++) triangleVertices[i] = weld[idx[i]!]!;

  const faceNormals = new Float64Array(3 * T);
  const vertexNormals = new Float64Array(3 * W);
  for (let t = 0; t < T; t++) {
    const a = idx[3 * t]! * 3, b = idx[3 * t + 1]! * 3, c = idx[3 * t + 2]! * 3;
    const ux = pos[b]! - pos[a]!, uy = pos[b + 1]! - pos[a + 1]!, uz = pos[b + 2]! - pos[a + 2]!;
    const vx = pos[c]! - pos[a]!, vy = pos[c + 1]! - pos[a + 1]!, vz = pos[c + 2]! - pos[a + 2]!;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz);
    if (!(len > 0)) continue;
    nx /= len;
    ny /= len;
    nz /= len;
    faceNormals[3 * t] = nx;
    faceNormals[3 * t + 1] = ny;
    faceNormals[3 * t + 2] = nz;
    for (let k = 0; k < 3; k++) {
      const o = idx[3 * t + k]! * 3;
      const p = idx[3 * t + ((k + 1) % 3)]! * 3;
      const q = idx[3 * t + ((k + 2) % 3)]! * 3;
      const angle = cornerAngle(pos, o, p, q);
      const w = triangleVertices[3 * t + k]! * 3;
      vertexNormals[w] = vertexNormals[w]! + angle * nx;
      vertexNormals[w + 1] = vertexNormals[w + 1]! + angle * ny;
      vertexNormals[w + 2] = vertexNormals[w + 2]! + angle * nz;
    }
  }

  const { triangleEdges, count: E } = edgeIds(triangleVertices, W);
  const edgeNormals = new Float64Array(3 * E);
  for (let t = 0; t < T; t++) {
    for (let k = 0; k < 3; k++) {
      const e = triangleEdges[3 * t + k]! * 3;
      edgeNormals[e] = edgeNormals[e]! + faceNormals[3 * t]!;
      edgeNormals[e + 1] = edgeNormals[e + 1]! + faceNormals[3 * t + 1]!;
      edgeNormals[e + 2] = edgeNormals[e + 2]! + faceNormals[3 * t + 2]!;
    }
  }
  return { faceNormals, triangleEdges, edgeNormals, triangleVertices, vertexNormals };
}

/** Writes the pseudo-normal of the feature `hit` lies on into out[0..2] (not unit length). */
export function pseudoNormalAt(pn: PseudoNormals, triangle: number, feature: Feature, out: Float64Array): Float64Array {
  let src: Float64Array;
  let o: number;
  switch (feature) {
    case Feature.face:
      src = pn.faceNormals;
      o = 3 * triangle;
      break;
    case Feature.edgeAB:
    case Feature.edgeBC:
    case Feature.edgeCA:
      src = pn.edgeNormals;
      o = 3 * pn.triangleEdges[3 * triangle + feature - Feature.edgeAB]!;
      break;
    default:
      src = pn.vertexNormals;
      o = 3 * pn.triangleVertices[3 * triangle + feature - Feature.vertexA]!;
  }
  out[0] = src[o]!;
  out[1] = src[o + 1]!;
  out[2] = src[o + 2]!;
  return out;
}

const nScratch = new Float64Array(3);

/**
 * The side of the reference surface p is on, as the origin defines it: +1 when (p - c) . n >= 0,
 * else -1, with c the hit's closest point and n the pseudo-normal of its feature. A point on the
 * surface is +1.
 */
export function sideOf(pn: PseudoNormals, hit: MeshHit, px: number, py: number, pz: number): 1 | -1 {
  pseudoNormalAt(pn, hit.triangle, hit.feature, nScratch);
  const s = (px - hit.x) * nScratch[0]! + (py - hit.y) * nScratch[1]! + (pz - hit.z) * nScratch[2]!;
  return s >= 0 ? 1 : -1;
}

function cornerAngle(pos: Float64Array, o: number, p: number, q: number): number {
  const ux = pos[p]! - pos[o]!, uy = pos[p + 1]! - pos[o + 1]!, uz = pos[p + 2]! - pos[o + 2]!;
  const vx = pos[q]! - pos[o]!, vy = pos[q + 1]! - pos[o + 1]!, vz = pos[q + 2]! - pos[o + 2]!;
  // atan2 of |u x v| and u . v keeps accuracy at angles near 0 and pi, where acos does not.
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  return Math.atan2(Math.hypot(cx, cy, cz), ux * vx + uy * vy + uz * vz);
}

/** Numbers the undirected edges of welded triangles; per triangle, the ids of ab, bc, ca. */
function edgeIds(tv: Uint32Array, W: number): { triangleEdges: Uint32Array; count: number } {
  const n = tv.length;
  let cap = 16;
  while (cap < 2 * n) cap *= 2;
  const mask = cap - 1;
  const keyLo = new Uint32Array(cap);
  const keyHi = new Uint32Array(cap);
  const value = new Int32Array(cap).fill(-1);
  const triangleEdges = new Uint32Array(n);
  let count = 0;
  for (let t = 0; t < n; t += 3) {
    for (let k = 0; k < 3; k++) {
      const u = tv[t + k]!, w = tv[t + ((k + 1) % 3)]!;
      const lo = u < w ? u : w, hi = u < w ? w : u;
      let slot = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + W, 0x85ebca6b)) >>> 0;
      slot = (slot ^ (slot >>> 16)) & mask;
      for (;;) {
        const e = value[slot]!;
        if (e < 0) {
          keyLo[slot] = lo;
          keyHi[slot] = hi;
          value[slot] = count;
          triangleEdges[t + k] = count++;
          break;
        }
        if (keyLo[slot] === lo && keyHi[slot] === hi) {
          triangleEdges[t + k] = e;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }
  return { triangleEdges, count };
}
