import { afterAll, describe, expect, it } from 'vitest';
import { BrepscopeError } from '../engine/errors';
import { seededRandom, uvSphere } from '../engine/mesh/generators';
import { buildBvhParallel, PARALLEL_MIN_TRIANGLES } from '../engine/mesh/parallelBvh';
import { buildBvh } from '../engine/mesh/TriangleBvh';
import { createMeshWorkers } from './meshWorkers';
import { expectSameTree } from '../test/sameTree';

const workers = createMeshWorkers({ threads: 2 });
afterAll(() => workers.close());

describe('a BVH built over the mesh threads', () => {
  // Float32 coordinates (an STL's) get float32 corners, float64 ones float64 corners, on the threads as in buildBvh.
  it.each([
    ['float64', Float64Array],
    ['float32', Float32Array],
  ] as const)('is the serial tree, with parts built on both threads (%s coordinates)', async (_, Positions) => {
    const jittered = uvSphere(2, 300, 200);
    // Jitter, so no two triangles are alike and the split is the SAH's, not the grid's symmetry.
    const random = seededRandom(21);
    for (let i = 0; i < jittered.positions.length; i++) jittered.positions[i]! += 1e-3 * (random() - 0.5);
    const sphere = { positions: Positions.from(jittered.positions), indices: jittered.indices };
    // In shared memory, as the mesh threads hold meshes: the threads make records too.
    const shared = new SharedArrayBuffer(sphere.positions.byteLength);
    const mesh = { positions: Positions === Float32Array ? new Float32Array(shared) : new Float64Array(shared), indices: new Uint32Array(new SharedArrayBuffer(sphere.indices.byteLength)) };
    mesh.positions.set(sphere.positions);
    mesh.indices.set(sphere.indices);
    expect(mesh.indices.length / 3).toBeGreaterThan(PARALLEL_MIN_TRIANGLES);
    const threads = workers.subtreeThreads!;
    expect(threads.count).toBe(2);
    const asked: number[] = [], recorded: number[] = [], rounds: string[] = [];
    const counted = {
      count: threads.count,
      records: (i: number, w: Parameters<typeof threads.records>[1]) => (recorded.push(i), threads.records(i, w)),
      round: (i: number, w: Parameters<typeof threads.round>[1]) => (rounds.push(`${w.op} ${i}`), threads.round(i, w)),
      build: (i: number, w: Parameters<typeof threads.build>[1]) => (asked.push(i), threads.build(i, w)),
    };
    const fallbacks: unknown[] = [];
    const parallel = await buildBvhParallel(mesh, counted, {}, (e) => fallbacks.push(e));
    expect(fallbacks).toEqual([]);
    expect(asked.sort()).toEqual([0, 1]);
    expect(recorded.sort()).toEqual([0, 1]);
    expect(rounds.sort()).toEqual(['bin 0', 'bin 1', 'scatter 0', 'scatter 1']);
    expect(parallel.slotCorners).toBeInstanceOf(Positions);
    expectSameTree(parallel, buildBvh(sphere));
  });

  it('falls back to the serial build when a thread fails its part, and the threads serve the next build', async () => {
    const threads = workers.subtreeThreads!;
    const mesh = uvSphere(1, 256, 160);
    // Thread 1 gets a scratch too small for the triangles it claims: its builder refuses it.
    const failing = { count: threads.count, records: threads.records, round: threads.round, build: (i: number, w: Parameters<typeof threads.build>[1]) => threads.build(i, i === 1 ? { ...w, scratch: new SharedArrayBuffer(64) } : w) };
    const fallbacks: unknown[] = [];
    const serial = buildBvh(mesh);
    expectSameTree(await buildBvhParallel(mesh, failing, {}, (e) => fallbacks.push(e)), serial);
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toBeInstanceOf(BrepscopeError);
    expect((fallbacks[0] as Error).message).toContain('scratch buffer too small');
    fallbacks.length = 0;
    expectSameTree(await buildBvhParallel(mesh, threads, {}, (e) => fallbacks.push(e)), serial);
    expect(fallbacks).toEqual([]);
  });

  it('falls back to the serial build when the threads end mid-build', async () => {
    const own = createMeshWorkers({ threads: 1 });
    const threads = own.subtreeThreads!;
    const mesh = uvSphere(1, 256, 160);
    // The threads are stopped while they build their parts (as a cancelled job stops them).
    const ending = {
      ...threads,
      count: threads.count,
      build: (i: number, w: Parameters<typeof threads.build>[1]) => {
        const built = threads.build(i, w);
        void own.close();
        return built;
      },
    };
    const fallbacks: unknown[] = [];
    expectSameTree(await buildBvhParallel(mesh, ending, {}, (e) => fallbacks.push(e)), buildBvh(mesh));
    expect(fallbacks.map(String)).toEqual(['Error: mesh workers closed']);
  });
});
