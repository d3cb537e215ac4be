import { afterAll, describe, expect, it } from 'vitest';
import { BrepscopeError } from '../engine/errors';
import { seededRandom, uvSphere } from '../engine/mesh/generators';
import { buildBvhParallel, PARALLEL_MIN_TRIANGLES } from '../engine/mesh/parallelBvh';
import { buildBvh, type TriangleBvh } from '../engine/mesh/TriangleBvh';
import { createMeshWorkers } from './meshWorkers';

const workers = createMeshWorkers({ threads: 2 });
afterAll(() => workers.close());

function bytes(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

function expectSameTree(a: TriangleBvh, b: TriangleBvh): void {
  expect(a.nodeCount).toBe(b.nodeCount);
  expect(a.maxDepth).toBe(b.maxDepth);
  expect(bytes(a.nodeBounds).equals(bytes(b.nodeBounds))).toBe(true);
  expect(bytes(a.slotTriangle).equals(bytes(b.slotTriangle))).toBe(true);
  expect(bytes(a.slotCorners).equals(bytes(b.slotCorners))).toBe(true);
}

describe('a BVH built over the mesh threads', () => {
  it('is the serial tree, with parts built on both threads', async () => {
    const sphere = uvSphere(2, 300, 200);
    // Jitter, so no two triangles are alike and the split is the SAH's, not the grid's symmetry.
    const random = seededRandom(21);
    for (let i = 0; i < sphere.positions.length; i++) sphere.positions[i]! += 1e-3 * (random() - 0.5);
    // In shared memory, as the mesh threads hold meshes: the threads make records too.
    const mesh = { positions: new Float64Array(new SharedArrayBuffer(sphere.positions.byteLength)), indices: new Uint32Array(new SharedArrayBuffer(sphere.indices.byteLength)) };
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
