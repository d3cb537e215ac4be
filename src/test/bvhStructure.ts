import { expect } from 'vitest';
import { LINK_OFFSET, NODE_STRIDE } from '../engine/mesh/bvhLayout';
import type { TriangleBvh } from '../engine/mesh/TriangleBvh';
import type { TriMesh } from '../engine/mesh/TriMesh';

/** Triangle t's nine corner coordinates. */
export function corners(mesh: TriMesh, t: number): Float64Array {
  const c = new Float64Array(9);
  for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) c[3 * k + j] = mesh.positions[3 * mesh.indices[3 * t + k]! + j]!;
  return c;
}

/** The nearest float32 to v on the side `direction` (-1 below, 1 above), v itself when it is one. */
function float32Outward(v: number, direction: -1 | 1): number {
  const f = Math.fround(v);
  if (f === v || (direction < 0 ? f < v : f > v)) return f;
  const bits = new DataView(new ArrayBuffer(4));
  bits.setFloat32(0, f);
  const n = bits.getInt32(0);
  // Away from zero adds one to the magnitude's bits; towards it takes one.
  bits.setInt32(0, f === 0 ? (direction < 0 ? 0x80000001 | 0 : 1) : (f > 0) === (direction > 0) ? n + 1 : n - 1);
  return bits.getFloat32(0);
}

/**
 * A tree's structure against its mesh: every triangle in exactly one leaf of at most maxLeaf,
 * each slot's corners the mesh's, every box the tightest float32 box of what is below it.
 */
export function checkStructure(bvh: TriangleBvh, mesh: TriMesh, maxLeaf: number): void {
  const seen = new Uint8Array(bvh.triangleCount);
  const wrong: string[] = [];
  const link = (node: number, k: number) => bvh.nodeLinks[NODE_STRIDE * node + LINK_OFFSET + k]!;
  const boxOf = (node: number) => bvh.nodeBounds.subarray(NODE_STRIDE * node, NODE_STRIDE * node + 6);
  for (let node = 0; node < bvh.nodeCount; node++) {
    const count = link(node, 1);
    const b = boxOf(node);
    const contains = (x: number, y: number, z: number) => x >= b[0]! && y >= b[1]! && z >= b[2]! && x <= b[3]! && y <= b[4]! && z <= b[5]!;
    if (count === 0) {
      const l = boxOf(node + 1), r = boxOf(link(node, 0));
      // Tight: exactly the union of the children's boxes.
      expect(Array.from(b)).toEqual([0, 1, 2].map((k) => Math.min(l[k]!, r[k]!)).concat([3, 4, 5].map((k) => Math.max(l[k]!, r[k]!))));
      continue;
    }
    expect(count).toBeLessThanOrEqual(maxLeaf);
    // Tight: the smallest float32 box that holds the leaf's corners.
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let s = link(node, 0); s < link(node, 0) + count; s++) {
      const c = corners(mesh, bvh.slotTriangle[s]!);
      for (let k = 0; k < 9; k++) {
        lo[k % 3] = Math.min(lo[k % 3]!, c[k]!);
        hi[k % 3] = Math.max(hi[k % 3]!, c[k]!);
      }
    }
    expect(Array.from(b)).toEqual(lo.map((v) => float32Outward(v, -1)).concat(hi.map((v) => float32Outward(v, 1))));
    for (let s = link(node, 0); s < link(node, 0) + count; s++) {
      const t = bvh.slotTriangle[s]!;
      seen[t]!++;
      const c = corners(mesh, t);
      // Collected rather than expected one by one: a tree of 60,000 triangles has half a million corners.
      for (let k = 0; k < 9; k++) if (bvh.slotCorners[9 * s + k] !== c[k]) wrong.push(`slot ${s} corner ${k}: ${bvh.slotCorners[9 * s + k]} for ${c[k]}`);
      // Float32 boxes must still hold the float64 corners: they are rounded outward.
      for (let k = 0; k < 9; k += 3) if (!contains(c[k]!, c[k + 1]!, c[k + 2]!)) wrong.push(`slot ${s} corner ${k / 3} outside node ${node}`);
    }
  }
  expect(wrong.slice(0, 5)).toEqual([]);
  expect(Array.from(seen).every((n) => n === 1)).toBe(true);
}
