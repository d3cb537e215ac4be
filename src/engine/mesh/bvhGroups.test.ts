import { describe, expect, it } from 'vitest';
import { GROUP, triangleGroup } from './bvhGroups';
import { LINK_OFFSET, NODE_STRIDE } from './bvhLayout';
import { closestPoint, createHit } from './closestPoint';
import { closestPointOnTriangle } from './closestPointOnTriangle';
import { seededRandom, uvSphere } from './generators';
import { buildBvhParallel, recordWork, roundWork, buildSubtreeWork, type SubtreeThreads } from './parallelBvh';
import { buildBvh, type TriangleBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';
import { checkStructure, corners } from '../../test/bvhStructure';
import { expectSameTree } from '../../test/sameTree';
import { sharedMesh } from '../../test/sharedMesh';

/** 2 x 331 x 101 = 66,862 triangles: above the parallel build's floor, and 2 more than whole groups. */
const sphere = uvSphere(5, 331, 102);

/** The same triangles in a shuffled order: neighbours in the file are no longer neighbours in space. */
function shuffled(mesh: TriMesh, seed: number): TriMesh {
  const T = mesh.indices.length / 3, random = seededRandom(seed);
  const order = Array.from({ length: T }, (_, t) => t);
  for (let i = T - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const indices = new Uint32Array(3 * T);
  order.forEach((t, i) => indices.set(mesh.indices.subarray(3 * t, 3 * t + 3), 3 * i));
  return { positions: mesh.positions, indices };
}

/** Threads stood in for by this one. */
function standIn(count: number): SubtreeThreads {
  return { count, records: async (_, w) => recordWork(w), round: async (_, w) => roundWork(w), build: async (_, w) => buildSubtreeWork(w) };
}

/** Nearest distance, brute force over every triangle. */
function bruteDistanceSq(mesh: TriMesh, p: readonly number[]): number {
  const out = new Float64Array(4);
  let best = Infinity;
  for (let t = 0; t < mesh.indices.length / 3; t++) best = Math.min(best, closestPointOnTriangle(corners(mesh, t), 0, p[0]!, p[1]!, p[2]!, out));
  return best;
}

function largestLeaf(bvh: TriangleBvh): number {
  let most = 0;
  for (let n = 0; n < bvh.nodeCount; n++) most = Math.max(most, bvh.nodeLinks[NODE_STRIDE * n + LINK_OFFSET + 1]!);
  return most;
}

describe('triangle groups', () => {
  it('are used on a large mesh in a coherent order, not on a shuffled one, a small one or small leaves', () => {
    expect(sphere.indices.length / 3).toBe(66862);
    expect(triangleGroup(sphere.positions, sphere.indices, 16)).toBe(GROUP);
    expect(triangleGroup(shuffled(sphere, 3).positions, shuffled(sphere, 3).indices, 16)).toBe(1);
    expect(triangleGroup(sphere.positions, sphere.indices, 4)).toBe(1);
    const small = uvSphere(5, 100, 100);
    expect(triangleGroup(small.positions, small.indices, 16)).toBe(1);
  });

  it('give a tree of whole triangles: every one in one leaf of at most 16, the last two in a leaf of their own', () => {
    const bvh = buildBvh(sphere);
    checkStructure(bvh, sphere, 16);
    // The root's right child is the tail: the 66,862 - 66,860 triangles past the last group.
    const right = bvh.nodeLinks[LINK_OFFSET]!;
    expect(bvh.nodeLinks[NODE_STRIDE * right + LINK_OFFSET + 1]).toBe(2);
    expect(Array.from(bvh.slotTriangle.subarray(66860))).toEqual([66860, 66861]);
    // Grouped leaves are whole groups: 4 consecutive triangles from a multiple of 4.
    expect(largestLeaf(bvh)).toBe(16);
    // Counted, then one expect: an expect a slot took 10 s.
    const broken: number[] = [];
    for (let s = 0; s < 66860; s += GROUP) {
      let whole = bvh.slotTriangle[s]! % GROUP === 0;
      for (let i = 1; i < GROUP; i++) whole &&= bvh.slotTriangle[s + i] === bvh.slotTriangle[s]! + i;
      if (!whole) broken.push(s);
    }
    expect(broken).toEqual([]);
  });

  it('answer the exact nearest distance, as the triangle tree of the shuffled mesh does', () => {
    const grouped = buildBvh(sphere), single = buildBvh(shuffled(sphere, 5));
    const random = seededRandom(9), hit = createHit();
    for (let q = 0; q < 25; q++) {
      const p = [14 * random() - 7, 14 * random() - 7, 14 * random() - 7];
      const truth = bruteDistanceSq(sphere, p);
      expect(closestPoint(grouped, p[0]!, p[1]!, p[2]!, hit).distanceSq).toBe(truth);
      expect(closestPoint(single, p[0]!, p[1]!, p[2]!, hit).distanceSq).toBe(truth);
    }
  });

  it.each([
    ['in shared memory', sharedMesh(sphere)],
    ['in this thread', sphere],
  ])('build the serial tree byte for byte over threads (%s)', async (_, mesh) => {
    const failures: unknown[] = [];
    const parallel = await buildBvhParallel(mesh, standIn(2), {}, (e) => failures.push(e));
    expect(failures).toEqual([]);
    expectSameTree(parallel, buildBvh(sphere));
  });
});
