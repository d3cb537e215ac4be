import { describe, expect, it } from 'vitest';
import { GROUP_SIZES, triangleGroup } from './bvhGroups';
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

/**
 * 2 x 331 x 101 = 66,862 triangles: above the parallel build's floor, and 6 more than whole
 * groups of 8 (2 more than whole groups of 4).
 */
const sphere = uvSphere(5, 331, 102);

/**
 * The same triangles in a shuffled order of runs of `run` (1: every triangle on its own):
 * neighbours in the file are neighbours in space only within a run. The last T mod run stay last.
 */
function shuffled(mesh: TriMesh, seed: number, run = 1): TriMesh {
  const runs = Math.floor(mesh.indices.length / 3 / run), random = seededRandom(seed);
  const order = Array.from({ length: runs }, (_, r) => r);
  for (let i = runs - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const indices = mesh.indices.slice();
  order.forEach((r, i) => indices.set(mesh.indices.subarray(3 * run * r, 3 * run * (r + 1)), 3 * run * i));
  return { positions: mesh.positions, indices };
}

/** The sphere's runs of 4 triangles (patches of 2 x 1 quads) in random order: compact at 4, not at 8. */
const patches = shuffled(sphere, 11, 4);

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
  it('are of 8 on a large mesh in a coherent order, of 4 where only runs of 4 are compact, none on a shuffled one, a small one or small leaves', () => {
    expect(GROUP_SIZES.map((g) => g.size)).toEqual([8, 4]);
    expect(sphere.indices.length / 3).toBe(66862);
    expect(triangleGroup(sphere.positions, sphere.indices, 16)).toBe(8);
    expect(triangleGroup(patches.positions, patches.indices, 16)).toBe(4);
    expect(triangleGroup(shuffled(sphere, 3).positions, shuffled(sphere, 3).indices, 16)).toBe(1);
    // Leaves of 16 or more that 8 does not divide take groups of 4.
    expect(triangleGroup(sphere.positions, sphere.indices, 20)).toBe(4);
    expect(triangleGroup(sphere.positions, sphere.indices, 4)).toBe(1);
    expect(triangleGroup(sphere.positions, sphere.indices, 8)).toBe(1);
    const small = uvSphere(5, 100, 100);
    expect(triangleGroup(small.positions, small.indices, 16)).toBe(1);
  });

  it.each([
    ['groups of 8, the last 6 in a leaf of their own', sphere, 8],
    ['groups of 4, the last 2 in a leaf of their own', patches, 4],
  ] as const)('give a tree of whole triangles: every one in one leaf of at most 16 (%s)', (_, mesh, group) => {
    const bvh = buildBvh(mesh);
    checkStructure(bvh, mesh, 16);
    // The root's right child is the tail: the triangles past the last whole group.
    const whole = 66862 - (66862 % group);
    const right = bvh.nodeLinks[LINK_OFFSET]!;
    expect(bvh.nodeLinks[NODE_STRIDE * right + LINK_OFFSET + 1]).toBe(66862 - whole);
    expect(Array.from(bvh.slotTriangle.subarray(whole))).toEqual(Array.from({ length: 66862 - whole }, (_, i) => whole + i));
    // Grouped leaves are whole groups: `group` consecutive triangles from a multiple of it.
    expect(largestLeaf(bvh)).toBe(16);
    // Counted, then one expect: an expect a slot took 10 s.
    const broken: number[] = [];
    for (let s = 0; s < whole; s += group) {
      let intact = bvh.slotTriangle[s]! % group === 0;
      for (let i = 1; i < group; i++) intact &&= bvh.slotTriangle[s + i] === bvh.slotTriangle[s]! + i;
      if (!intact) broken.push(s);
    }
    expect(broken).toEqual([]);
  });

  it('answer the exact nearest distance, as the triangle tree of the shuffled mesh does', () => {
    const trees = [buildBvh(sphere), buildBvh(patches), buildBvh(shuffled(sphere, 5))];
    const random = seededRandom(9), hit = createHit();
    for (let q = 0; q < 25; q++) {
      const p = [14 * random() - 7, 14 * random() - 7, 14 * random() - 7];
      const truth = bruteDistanceSq(sphere, p);
      for (const bvh of trees) expect(closestPoint(bvh, p[0]!, p[1]!, p[2]!, hit).distanceSq).toBe(truth);
    }
  });

  it.each([
    ['groups of 8, in shared memory', sphere, true],
    ['groups of 8, in this thread', sphere, false],
    ['groups of 4, in shared memory', patches, true],
    ['groups of 4, in this thread', patches, false],
  ] as const)('build the serial tree byte for byte over threads (%s)', async (_, mesh, shared) => {
    const failures: unknown[] = [];
    const parallel = await buildBvhParallel(shared ? sharedMesh(mesh) : mesh, standIn(2), {}, (e) => failures.push(e));
    expect(failures).toEqual([]);
    expectSameTree(parallel, buildBvh(mesh));
  });
});
