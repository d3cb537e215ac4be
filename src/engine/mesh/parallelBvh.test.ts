import { describe, expect, it } from 'vitest';
import { closestPoint, createHit } from './closestPoint';
import { randomSoup, seededRandom, uvSphere } from './generators';
import { buildBvhParallel, buildSubtreeWork, PARALLEL_MIN_TRIANGLES, recordWork, roundWork, type SubtreeThreads, type SubtreeWork } from './parallelBvh';
import { buildBvh, type BvhBuildOptions, type TriangleBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';
import { expectSameTree } from '../../test/sameTree';
import { triangleGroup } from './bvhGroups';

/** Threads stood in for by this one: each build runs later, on its own copy of nothing but the shared memory it is given. */
function standIn(count: number, fail?: number, failRecords?: number, failRound?: 'bin' | 'scatter'): SubtreeThreads & { works: SubtreeWork[]; recordRuns: [number, number][]; rounds: string[] } {
  const works: SubtreeWork[] = [];
  const recordRuns: [number, number][] = [];
  const rounds: string[] = [];
  return {
    count,
    works,
    recordRuns,
    rounds,
    records: async (thread, work) => {
      recordRuns.push([work.from, work.to]);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (thread === failRecords) throw new Error('records failed');
      return recordWork(work);
    },
    round: async (thread, work) => {
      rounds.push(`${work.op} ${thread} ${work.from}-${work.to}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (work.op === failRound) throw new Error(`${work.op} failed`);
      return roundWork(work);
    },
    build: async (thread, work) => {
      works.push(work);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (thread === fail) throw new Error('thread failed');
      return buildSubtreeWork(work);
    },
  };
}

function sharedCopy<A extends Float64Array | Float32Array | Uint32Array>(a: A): A {
  const copy = new (a.constructor as new (b: SharedArrayBuffer) => A)(new SharedArrayBuffer(a.byteLength));
  copy.set(a);
  return copy;
}

/** Closest points of random query points, brute force over every triangle: the independent truth. */
function expectQueriesExact(mesh: TriMesh, bvh: TriangleBvh, seed: number, span: number): void {
  const random = seededRandom(seed);
  const hit = createHit();
  const P = mesh.positions, I = mesh.indices;
  for (let q = 0; q < 12; q++) {
    const p = [span * (2 * random() - 1), span * (2 * random() - 1), span * (2 * random() - 1)];
    closestPoint(bvh, p[0]!, p[1]!, p[2]!, hit);
    // The hit's triangle really is at that distance, and no vertex is nearer than it.
    let nearestVertexSq = Infinity;
    for (let v = 0; v < P.length; v += 3) nearestVertexSq = Math.min(nearestVertexSq, (P[v]! - p[0]!) ** 2 + (P[v + 1]! - p[1]!) ** 2 + (P[v + 2]! - p[2]!) ** 2);
    expect(hit.distanceSq).toBeLessThanOrEqual(nearestVertexSq);
    expect(I[3 * hit.triangle]).toBeDefined();
    const dx = hit.x - p[0]!, dy = hit.y - p[1]!, dz = hit.z - p[2]!;
    expect(Math.abs(dx * dx + dy * dy + dz * dz - hit.distanceSq)).toBeLessThanOrEqual(1e-12 * Math.max(1, hit.distanceSq));
  }
}

describe('buildBvhParallel', () => {
  it('builds the serial tree, node for node, on a random soup', async () => {
    const mesh = randomSoup(PARALLEL_MIN_TRIANGLES + 4000, 10, seededRandom(7));
    const threads = standIn(2);
    const parallel = await buildBvhParallel(mesh, threads);
    // The threads did build parts of it.
    expect(threads.works.length).toBe(2);
    for (const w of threads.works) expect(w.tasks.length).toBeGreaterThan(0);
    const serial = buildBvh(mesh);
    expectSameTree(parallel, serial);
    const hitP = createHit(), hitS = createHit();
    const random = seededRandom(11);
    for (let q = 0; q < 40; q++) {
      const x = 12 * random() - 1, y = 12 * random() - 1, z = 12 * random() - 1;
      closestPoint(parallel, x, y, z, hitP);
      closestPoint(serial, x, y, z, hitS);
      expect(hitP.distanceSq).toBe(hitS.distanceSq);
      expect(hitP.triangle).toBe(hitS.triangle);
    }
  });

  it('builds the serial tree on a sphere with one thread, in shared memory when asked', async () => {
    const mesh = uvSphere(1, 256, 160);
    expect(mesh.indices.length / 3).toBeGreaterThan(PARALLEL_MIN_TRIANGLES);
    const parallel = await buildBvhParallel(mesh, standIn(1), { shared: true });
    expect(parallel.slotCorners.buffer).toBeInstanceOf(SharedArrayBuffer);
    expectSameTree(parallel, buildBvh(mesh));
    expectQueriesExact(mesh, parallel, 3, 1.5);
  });

  // In shared memory the threads also make the records and lay their parts out (parallelLayout.ts).
  const inMemory = [
    ['plain', (m: TriMesh) => m],
    ['shared', (m: TriMesh): TriMesh => ({ positions: sharedCopy(m.positions), indices: sharedCopy(m.indices) })],
  ] as const;

  it.each(inMemory)('builds the serial tree when every triangle lies in one plane (%s memory)', async (_, memory) => {
    const random = seededRandom(5);
    const soup = randomSoup(PARALLEL_MIN_TRIANGLES + 100, 4, random);
    for (let v = 2; v < soup.positions.length; v += 3) soup.positions[v] = 1.25;
    const mesh = memory(soup);
    const threads = standIn(3);
    const parallel = await buildBvhParallel(mesh, threads);
    expect(threads.works.length).toBe(3);
    expectSameTree(parallel, buildBvh(mesh));
    expectQueriesExact(mesh, parallel, 9, 5);
  });

  it.each(inMemory)('builds the serial tree when every triangle has the same centre (%s memory)', async (_, memory) => {
    // Triangles turned about one centre: no plane separates any two of them.
    const T = PARALLEL_MIN_TRIANGLES + 7;
    const positions = new Float64Array(9 * T);
    for (let t = 0; t < T; t++) {
      const a = (2 * Math.PI * t) / T;
      for (let k = 0; k < 3; k++) {
        const b = a + (2 * Math.PI * k) / 3;
        positions.set([Math.cos(b), Math.sin(b), 0], 9 * t + 3 * k);
      }
    }
    const mesh = memory({ positions, indices: Uint32Array.from({ length: 3 * T }, (_, i) => i) });
    const threads = standIn(2);
    const parallel = await buildBvhParallel(mesh, threads);
    expect(threads.works.length).toBe(2);
    const serial = buildBvh(mesh);
    expectSameTree(parallel, serial);
    // Every query point at height 2 above the centre is 2 from the plane of every triangle.
    const hit = createHit();
    closestPoint(parallel, 0, 0, 2, hit);
    expect(hit.distance).toBeCloseTo(2, 12);
  });

  it.each(inMemory)('falls back to the serial build when a thread fails (%s memory)', async (_, memory) => {
    const mesh = memory(randomSoup(PARALLEL_MIN_TRIANGLES + 10, 10, seededRandom(13)));
    const failures: unknown[] = [];
    const parallel = await buildBvhParallel(mesh, standIn(2, 1), {}, (e) => failures.push(e));
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toContain('thread failed');
    expectSameTree(parallel, buildBvh(mesh));
  });

  it('makes the records over the threads too when the mesh is in shared memory', async () => {
    const soup = randomSoup(PARALLEL_MIN_TRIANGLES + 999, 10, seededRandom(17));
    const mesh: TriMesh = { positions: sharedCopy(soup.positions), indices: sharedCopy(soup.indices) };
    const threads = standIn(2);
    const parallel = await buildBvhParallel(mesh, threads);
    // Two runs of about a third of the records each, the calling thread's [0, R/3) not among
    // them: groups of 8 triangles (a soup's triangles span the box already, so grouping them
    // spans no more).
    expect(triangleGroup(soup.positions, soup.indices, 16)).toBe(8);
    const R = Math.floor(soup.indices.length / 3 / 8);
    expect(threads.recordRuns.sort((a, b) => a[0] - b[0])).toEqual([
      [Math.round(R / 3), Math.round((2 * R) / 3)],
      [Math.round((2 * R) / 3), R],
    ]);
    // The root's grid round too: each thread bins, then scatters, the run it made records for.
    const runs = threads.recordRuns.map(([a, b]) => `${a}-${b}`);
    expect(threads.rounds).toEqual([`bin 0 ${runs[0]}`, `bin 1 ${runs[1]}`, `scatter 0 ${runs[0]}`, `scatter 1 ${runs[1]}`]);
    expectSameTree(parallel, buildBvh(soup));
    for (const [failing, message] of [
      [standIn(2, undefined, 0), 'records failed'],
      [standIn(2, undefined, undefined, 'bin'), 'bin failed'],
      [standIn(2, undefined, undefined, 'scatter'), 'scatter failed'],
    ] as const) {
      const failures: unknown[] = [];
      expectSameTree(await buildBvhParallel(mesh, failing, {}, (e) => failures.push(e)), parallel);
      expect(failures.map(String)).toEqual([`Error: ${message}`]);
    }
  });

  // buildBvh's rules, whatever the memory: float32 corners where every coordinate is exactly a float32
  // (Float32Array positions, or float64 ones holding float32 values) unless float64Corners is asked,
  // float64 corners otherwise; leaves of 16 by default at this size, and of 4 when asked.
  const coordinates = [
    ['Float32Array', (m: TriMesh): TriMesh => ({ positions: Float32Array.from(m.positions), indices: m.indices }), Float32Array, {}],
    ['float32 values in a Float64Array', (m: TriMesh): TriMesh => ({ positions: m.positions.map(Math.fround), indices: m.indices }), Float32Array, {}],
    ['float32 values, float64Corners', (m: TriMesh): TriMesh => ({ positions: Float32Array.from(m.positions), indices: m.indices }), Float64Array, { float64Corners: true }],
    ['float64 values', (m: TriMesh): TriMesh => m, Float64Array, {}],
  ] as const;
  const cases = coordinates.flatMap(([name, make, corners, options]: readonly [string, (m: TriMesh) => TriMesh, typeof Float32Array | typeof Float64Array, BvhBuildOptions]) =>
    inMemory.flatMap(([memoryName, memory]) =>
      [undefined, 4].map((maxLeafSize) => [`${name}, ${memoryName} memory, leaves of ${maxLeafSize ?? 'default'}`, make, memory, corners, maxLeafSize === undefined ? options : { ...options, maxLeafSize }] as const),
    ),
  );

  it.each(cases)('follows buildBvh\'s corner type and leaf size: %s', async (_, make, memory, corners, options) => {
    const soup = make(randomSoup(PARALLEL_MIN_TRIANGLES + 321, 10, seededRandom(29)));
    const mesh = memory(soup);
    const threads = standIn(2);
    const parallel = await buildBvhParallel(mesh, threads, options);
    expect(threads.works.length).toBe(2);
    expect(parallel.slotCorners).toBeInstanceOf(corners);
    const serial = buildBvh(soup, options);
    expect(serial.slotCorners).toBeInstanceOf(corners);
    expectSameTree(parallel, serial);
    // The leaves hold at most the leaf size, and the default's leaves are fuller than 4.
    let most = 0;
    for (let n = 0; n < parallel.nodeCount; n++) most = Math.max(most, parallel.nodeLinks[8 * n + 7]!);
    expect(most).toBe(options.maxLeafSize ?? 16);
    // The corners are the mesh's own coordinates, exactly.
    const P = soup.positions, I = soup.indices;
    for (const s of [0, 1000, parallel.triangleCount - 1]) {
      const t = parallel.slotTriangle[s]!;
      for (let k = 0; k < 9; k++) expect(parallel.slotCorners[9 * s + k]).toBe(P[3 * I[3 * t + Math.floor(k / 3)]! + (k % 3)]);
    }
  });

  it('builds small meshes on the calling thread alone', async () => {
    const mesh = uvSphere(1, 32, 16);
    const threads = standIn(2);
    const bvh = await buildBvhParallel(mesh, threads);
    expect(threads.works).toHaveLength(0);
    expectSameTree(bvh, buildBvh(mesh));
  });
});
