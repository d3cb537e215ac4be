import { describe, expect, it } from 'vitest';
import { LINK_OFFSET, NODE_STRIDE } from './bvhLayout';
import { buildBvh, bvhSplits, SMALL_TREE } from './TriangleBvh';
import { closestPointOnTriangle } from './closestPointOnTriangle';
import { closestCompatiblePoint, closestPoint, createHit, createNearestTriangles, kNearestTriangles } from './closestPoint';
import { mergeMeshes, randomSoup, seededRandom, uvSphere } from './generators';
import type { TriMesh } from './TriMesh';

/** The mesh as a float32 STL would hold it: every coordinate rounded to float32, then read back as doubles. */
function asFloat32(mesh: TriMesh): TriMesh {
  return { positions: mesh.positions.map((v) => Math.fround(v)), indices: mesh.indices };
}

/** Brute force over the mesh's own float64 positions: the smallest distance and the first triangle at it. */
function bruteForce(mesh: TriMesh, px: number, py: number, pz: number): number {
  const c = new Float64Array(9), out = new Float64Array(4);
  let best = Infinity;
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) c[3 * k + j] = mesh.positions[3 * mesh.indices[3 * t + k]! + j]!;
    best = Math.min(best, closestPointOnTriangle(c, 0, px, py, pz, out));
  }
  return best;
}

describe('float32 slot corners', () => {
  const rnd = seededRandom(11);
  // A sphere with a soup beside it, rounded to float32 as an STL's vertices are.
  const soup = randomSoup(400, 3, rnd);
  // Every tenth triangle exactly collinear (corners on a 1/1024 lattice, c the midpoint of ab): the searches' rare path.
  for (let i = 0; i < soup.positions.length; i += 90) {
    for (let k = 0; k < 6; k++) soup.positions[i + k] = Math.round(soup.positions[i + k]! * 1024) / 1024;
    for (let k = 0; k < 3; k++) soup.positions[i + 6 + k] = (soup.positions[i + k]! + soup.positions[i + 3 + k]!) / 2;
  }
  const stl = asFloat32(mergeMeshes(uvSphere(7, 64, 32, [0.3, -1.7, 2.9]), soup));

  it('are chosen exactly when every coordinate is a float32', () => {
    expect(buildBvh(stl).slotCorners).toBeInstanceOf(Float32Array);
    expect(buildBvh(stl, { float64Corners: true }).slotCorners).toBeInstanceOf(Float64Array);
    const wide = uvSphere(7, 64, 32, [0.3, -1.7, 2.9]);
    expect(buildBvh(wide).slotCorners).toBeInstanceOf(Float64Array);
    const almost = asFloat32(wide);
    almost.positions[17] = almost.positions[17]! + 2 ** -40;
    expect(buildBvh(almost).slotCorners).toBeInstanceOf(Float64Array);
  });

  it.each([4, 16])('hold the same values, and give the same hits bit for bit, as float64 corners (leaves of %i)', (maxLeafSize) => {
    const narrow = buildBvh(stl, { maxLeafSize }), wide = buildBvh(stl, { maxLeafSize, float64Corners: true });
    expect(Array.from(narrow.slotCorners)).toEqual(Array.from(wide.slotCorners));
    const a = createHit(), b = createHit();
    const ka = createNearestTriangles(5), kb = createNearestTriangles(5);
    for (let i = 0; i < 1500; i++) {
      const px = 24 * rnd() - 12, py = 24 * rnd() - 12, pz = 24 * rnd() - 10;
      for (const [bvh, hit] of [[narrow, a], [wide, b]] as const) closestPoint(bvh, px, py, pz, hit);
      expect([a.distanceSq, a.x, a.y, a.z, a.triangle, a.feature]).toEqual([b.distanceSq, b.x, b.y, b.z, b.triangle, b.feature]);
      // And the exact minimum over the triangles, not just agreement.
      if (i % 10 === 0) expect(a.distanceSq).toBe(bruteForce(stl, px, py, pz));
      const nx = 2 * rnd() - 1, ny = 2 * rnd() - 1, nz = 2 * rnd() - 1;
      closestCompatiblePoint(narrow, px, py, pz, nx, ny, nz, a);
      closestCompatiblePoint(wide, px, py, pz, nx, ny, nz, b);
      expect([a.distanceSq, a.x, a.y, a.z, a.triangle]).toEqual([b.distanceSq, b.x, b.y, b.z, b.triangle]);
      kNearestTriangles(narrow, px, py, pz, ka);
      kNearestTriangles(wide, px, py, pz, kb);
      expect(Array.from(ka.distanceSq)).toEqual(Array.from(kb.distanceSq));
    }
  });
});

describe('default leaf size', () => {
  const largestLeaf = (mesh: TriMesh) => {
    const bvh = buildBvh(mesh);
    let most = 0;
    for (let n = 0; n < bvh.nodeCount; n++) most = Math.max(most, bvh.nodeLinks[NODE_STRIDE * n + LINK_OFFSET + 1]!);
    return most;
  };

  it('is 4 below SMALL_TREE triangles and 16 from there', () => {
    const small = uvSphere(5, 100, 50), large = uvSphere(5, 160, 160);
    expect(small.indices.length / 3).toBeLessThan(SMALL_TREE);
    expect(large.indices.length / 3).toBeGreaterThanOrEqual(SMALL_TREE);
    expect(largestLeaf(small)).toBe(4);
    expect(largestLeaf(large)).toBeGreaterThan(4);
    expect(largestLeaf(large)).toBeLessThanOrEqual(16);
  });
});

describe('bvhSplits then buildBvh({ tree })', () => {
  it('lays out the tree buildBvh builds in one call, byte for byte, float32 and float64, leaves of 4 and 16', () => {
    const rnd = seededRandom(23);
    const sphere = uvSphere(5, 260, 130, [0.1, 1e3 / 3, -7.7]);
    const big = mergeMeshes(sphere, randomSoup(20_000, 40, rnd));
    for (const mesh of [big, asFloat32(big), { positions: Float32Array.from(big.positions, (v) => Math.fround(v)), indices: big.indices }]) {
      expect(big.indices.length / 3).toBeGreaterThan(SMALL_TREE);
      for (const options of [{}, { maxLeafSize: 4 }]) {
        const one = buildBvh(mesh, options), two = buildBvh(mesh, { ...options, tree: bvhSplits(mesh, options) });
        expect(two.nodeCount).toBe(one.nodeCount);
        expect(two.maxDepth).toBe(one.maxDepth);
        expect(Buffer.from(two.nodeBounds.buffer).equals(Buffer.from(one.nodeBounds.buffer))).toBe(true);
        expect(Buffer.from(two.slotTriangle.buffer).equals(Buffer.from(one.slotTriangle.buffer))).toBe(true);
        expect(two.slotCorners.constructor).toBe(one.slotCorners.constructor);
        expect(Buffer.from(two.slotCorners.buffer).equals(Buffer.from(one.slotCorners.buffer))).toBe(true);
      }
    }
  });
});
