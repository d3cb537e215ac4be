import { afterAll, describe, expect, it } from 'vitest';
import { BrepscopeError } from '../engine/errors';
import { box, cylinder, grid, seededRandom, uvSphere } from '../engine/mesh/generators';
import type { SignMode } from '../engine/mesh/signedDeviation';
import type { TriMesh } from '../engine/mesh/TriMesh';
import { parseStl, writeBinaryStl } from '../engine/scene/import/stl';
import { MeshBody } from '../engine/scene/Body';
import type { Directions, DirectionsJob } from '../engine/deviation/meshWorkers';
import { bothDirections } from '../engine/deviation/directions';
import type { ToolContext } from '../engine/tools/defineTool';
import { directedDeviation } from '../engine/deviation/directed';
import { measureDirected } from '../engine/deviation/measure';
import { Pacer } from '../engine/deviation/pacer';
import { surfaceOf } from '../engine/deviation/surfaces';
import { buildOpenBoundary } from '../engine/mesh/openBoundary';
import { buildPseudoNormals } from '../engine/mesh/pseudoNormals';
import { sampleSurface } from '../engine/mesh/sampleSurface';
import { prepareDeviationReference } from '../engine/mesh/signedDeviation';
import { addShapeBody } from '../engine/scene/addShapeBody';
import { addMeshBody, thinWallCandidate, thinWallReference } from '../test/deviationFixtures';
import { makeCylinder } from '../test/kernelShapes';
import { createMeshWorkers } from './meshWorkers';
import { nodeKernel } from './nodeEngine';
import { testEngine } from '../test/testEngine';

const workers = createMeshWorkers({ threads: 2 });
const oneThread = createMeshWorkers({ threads: 1 });
afterAll(() => Promise.all([workers.close(), oneThread.close()]));

/** Runs on the threads (a failure rejects: nothing falls back here). */
async function onThreads(j: DirectionsJob, signal?: AbortSignal): Promise<Directions> {
  const before = workers.stats.parallel;
  const result = await workers.deviationDirections!(j, signal ? { signal } : {});
  expect(workers.stats.parallel).toBe(before + 1);
  return result;
}

function surfaces(j: DirectionsJob) {
  const body = (id: string, mesh: TriMesh) => surfaceOf(new MeshBody({ bodyId: id, name: id, sourceFormat: 'stl', source: undefined }, mesh));
  const from = body(j.fromBodyId, j.from);
  const to = j.to === j.from ? from : body(j.toBodyId, j.to);
  return { from, to };
}

/** The serial path itself: the tool's cached directedDeviation on bodies holding the same meshes. */
async function serialDirections(j: DirectionsJob): Promise<Directions> {
  const { from, to } = surfaces(j);
  const forward = await directedDeviation({}, undefined, from, j.maxSamples, to, j.signMode, 'exact', 'fromToTo');
  const backward = await directedDeviation({}, undefined, to, j.maxSamples, from, j.signMode, 'exact', 'toToFrom');
  return { forward, backward };
}

/** The tool's own path with a one-thread host: the larger mesh's side on the thread, the rest on this one (a failure rejects). */
async function withOneThread(j: DirectionsJob): Promise<Directions> {
  const { from, to } = surfaces(j);
  const before = oneThread.stats.parallel;
  const result = await bothDirections({ meshWorkers: oneThread } as unknown as ToolContext, undefined, from, to, j.maxSamples, j.signMode, 'exact');
  // A mesh against itself is one body: its second direction is the first one kept, nothing to send.
  expect(oneThread.stats.parallel).toBe(before + 1);
  // What is kept and handed on is plain memory, not the threads' shared arrays.
  for (const d of [result.forward, result.backward]) for (const a of [d.distance, d.signed, d.beyond]) expect(a.buffer).toBeInstanceOf(ArrayBuffer);
  return result;
}

/** A sphere with a ripple, so that distances and signs vary from sample to sample. */
function rippled(radius: number, segments: number, rings: number, amplitude: number): TriMesh {
  const m = uvSphere(radius, segments, rings);
  const p = m.positions;
  for (let v = 0; v < p.length; v += 3) {
    const r = Math.hypot(p[v]!, p[v + 1]!, p[v + 2]!);
    const s = (radius + amplitude * Math.sin(5 * Math.atan2(p[v + 1]!, p[v]!)) * Math.cos(3 * Math.acos(p[v + 2]! / r))) / r;
    p[v]! *= s;
    p[v + 1]! *= s;
    p[v + 2]! *= s;
  }
  return m;
}

/** Through a binary STL, as the CLI reads meshes (float32 coordinates, welded, distinctPositions). */
function viaStl(mesh: TriMesh): TriMesh {
  return parseStl(writeBinaryStl(mesh));
}

function expectSameArray(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  expect(a.length, what).toBe(b.length);
  let first = -1;
  for (let i = 0; i < a.length && first < 0; i++) if (!Object.is(a[i], b[i])) first = i;
  expect(first, `${what}: first difference at ${first}`).toBe(-1);
}

function expectSameDirections(parallel: Directions, serial: Directions): void {
  for (const side of ['forward', 'backward'] as const) {
    const p = parallel[side], s = serial[side];
    expectSameArray(p.distance, s.distance, `${side} distance`);
    expectSameArray(p.signed, s.signed, `${side} signed`);
    expectSameArray(p.beyond, s.beyond, `${side} beyond the open boundary`);
    expectSameArray(p.samples.points, s.samples.points, `${side} sample points`);
    expectSameArray(p.samples.normals, s.samples.normals, `${side} sample normals`);
    expect({ ...p.samples, points: 0, normals: 0 }).toEqual({ ...s.samples, points: 0, normals: 0 });
  }
}

// Both are mesh bodies in serialDirections: both apply the open-boundary test as references.
const job = (from: TriMesh, to: TriMesh, maxSamples: number, signMode: SignMode): DirectionsJob => ({
  from,
  to,
  fromBodyId: 'from',
  toBodyId: 'to',
  maxSamples,
  signMode,
  fromBoundary: true,
  toBoundary: true,
});

/** The triangles of a mesh whose centroid lies above z = 0: an open scan, its rim at the equator. */
function upperHalf(mesh: TriMesh): TriMesh {
  const kept: number[] = [];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    let z = 0;
    for (let k = 0; k < 3; k++) z += mesh.positions[3 * mesh.indices[t + k]! + 2]!;
    if (z > 0) kept.push(mesh.indices[t]!, mesh.indices[t + 1]!, mesh.indices[t + 2]!);
  }
  return { positions: mesh.positions, indices: new Uint32Array(kept) };
}

describe('mesh workers: the two directions in two threads', () => {
  const rnd = seededRandom(11);
  const cases: [string, TriMesh, TriMesh][] = [
    ['small candidate against a large reference (STL)', viaStl(rippled(50.1, 96, 48, 0.3)), viaStl(uvSphere(50, 300, 150))],
    ['large candidate against a small reference', rippled(10, 200, 100, 0.05), box([-9, -9, -9], [9, 9, 9], 6)],
    ['thin-walled open reference (the robust rule rejects the near skin)', thinWallCandidate(), thinWallReference()],
    ['open sheets, unwelded (pseudo-normals weld them)', grid(40, 10), { ...grid(30, 10), positions: grid(30, 10).positions.map((v, i) => (i % 3 === 2 ? v + 0.1 * rnd() : v)) }],
    ['a mesh against itself', cylinder({ radius: 3, height: 8, segments: 64, stacks: 8, caps: true }), undefined as unknown as TriMesh],
    ['a whole sphere against an open half-sphere scan (samples beyond its rim are no data)', rippled(50.1, 96, 48, 0.3), viaStl(upperHalf(uvSphere(50, 300, 150)))],
  ];
  for (const [name, from, toOrSelf] of cases) {
    const to = toOrSelf ?? from;
    for (const signMode of ['robust', 'nearest'] as const) {
      for (const maxSamples of [20000, 700]) {
        it(`equals the serial path bit for bit: ${name}, ${signMode}, maxSamples ${maxSamples}`, async () => {
          const parallel = await onThreads(job(from, to, maxSamples, signMode));
          const serial = await serialDirections(job(from, to, maxSamples, signMode));
          expectSameDirections(parallel, serial);
          if (name.startsWith('a whole sphere against an open')) expect(serial.forward.beyond.reduce((a, b) => a + b, 0)).toBeGreaterThan(0.3 * serial.forward.beyond.length);
        });
      }
    }
  }

  for (const [name, from, toOrSelf] of cases) {
    const to = toOrSelf ?? from;
    it(`with one thread beside the calling one, equals the serial path bit for bit: ${name}`, async () => {
      for (const signMode of ['robust', 'nearest'] as const) {
        for (const maxSamples of [20000, 700]) {
          expectSameDirections(await withOneThread(job(from, to, maxSamples, signMode)), await serialDirections(job(from, to, maxSamples, signMode)));
        }
      }
    });
  }

  it("applies each reference's own open-boundary flag: an open scan as the larger mesh tests its rim, a tessellation as the smaller does not", async () => {
    // As a BREP tessellation in tessellated mode is measured against: no boundary test (toBoundary false).
    const scan = viaStl(upperHalf(uvSphere(50, 300, 150)));
    const part = rippled(50.1, 96, 48, 0.3);
    for (const [from, to, fromBoundary, toBoundary] of [
      [scan, part, true, false],
      [part, scan, false, true],
    ] as const) {
      const j = { ...job(from, to, 20000, 'robust'), fromBoundary, toBoundary };
      const directed = async (samplesOf: TriMesh, reference: TriMesh, boundary: boolean, label: string) => {
        const pn = buildPseudoNormals(reference);
        return measureDirected(sampleSurface(samplesOf, 20000), prepareDeviationReference(reference), 'robust', new Pacer({}), label, boundary ? buildOpenBoundary(pn, true) : null);
      };
      const serial: Directions = { forward: await directed(from, to, toBoundary, 'fromToTo'), backward: await directed(to, from, fromBoundary, 'toToFrom') };
      const onScan = from === scan ? serial.backward : serial.forward;
      expect(onScan.beyond.reduce((a, b) => a + b, 0)).toBeGreaterThan(0.3 * onScan.beyond.length);
      expectSameDirections(await onThreads(j), serial);
    }
  });

  it('answers a second call on the same meshes from what the threads kept, identically', async () => {
    const [, from, to] = cases[0]!;
    const first = await onThreads(job(from, to, 20000, 'robust'));
    const again = await onThreads(job(from, to, 20000, 'robust'));
    expectSameDirections(again, first);
  });

  it('reports a surface of zero area as the serial path does (EMPTY_MESH naming the body): the threads fail, the tool computes it', async () => {
    const flat: TriMesh = { positions: new Float64Array([0, 0, 0, 1, 0, 0, 2, 0, 0]), indices: new Uint32Array([0, 1, 2]) };
    const sphere = uvSphere(1, 16, 8);
    for (const [from, to] of [
      [flat, sphere],
      [sphere, flat],
      [flat, flat],
    ] as const) {
      const failed = workers.stats.failed;
      await expect(workers.deviationDirections!(job(from, to, 100, 'robust'), {})).rejects.toMatchObject({ code: 'EMPTY_MESH' });
      expect(workers.stats.failed).toBe(failed + 1);
      const measure = (withWorkers: boolean) => {
        const engine = testEngine(withWorkers ? { meshWorkers: workers } : {});
        engine.scene.add(new MeshBody({ bodyId: 'from', name: 'from', sourceFormat: 'stl', source: undefined }, from));
        engine.scene.add(new MeshBody({ bodyId: 'to', name: 'to', sourceFormat: 'stl', source: undefined }, to));
        return engine.run('measure_deviation', { fromBodyId: 'from', toBodyId: 'to', maxSamples: 100 }).catch((e: unknown) => e);
      };
      const [threads, serial] = [await measure(true), await measure(false)];
      expect(serial).toBeInstanceOf(BrepscopeError);
      expect(threads).toBeInstanceOf(BrepscopeError);
      expect((threads as BrepscopeError).code).toBe('EMPTY_MESH');
      expect((threads as BrepscopeError).message).toBe((serial as BrepscopeError).message);
    }
  });

  it('stops at once when cancelled, and the next call starts fresh threads', async () => {
    const [, from, to] = cases[0]!;
    const controller = new AbortController();
    const pending = workers.deviationDirections!(job(viaStl(uvSphere(20, 400, 200)), to, 20000, 'robust'), { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
    const after = await onThreads(job(from, to, 20000, 'robust'));
    expectSameDirections(after, await serialDirections(job(from, to, 20000, 'robust')));
  });

  it('gives measure_deviation the same result with and without the threads, sections included', async () => {
    const run = async (withWorkers: boolean) => {
      const engine = testEngine(withWorkers ? { meshWorkers: workers } : {});
      addMeshBody(engine.scene, 'scan', uvSphere(50, 200, 100));
      addMeshBody(engine.scene, 'part', rippled(50, 120, 60, 0.3));
      return (await engine.run('measure_deviation', { fromBodyId: 'part', toBodyId: 'scan', sectionAxis: [0, 0, 1], sections: 5 })).result;
    };
    const before = workers.stats.parallel;
    expect(await run(true)).toEqual(await run(false));
    expect(workers.stats.parallel).toBe(before + 1);
  });
  for (const [host, hostWorkers] of [['two threads', workers], ['one thread', oneThread]] as const) {
  it(`measures BREP bodies as the serial path does in both surface modes (${host}): tessellations on the threads, exact faces here, a mesh against exact faces split`, async () => {
    const oc = await nodeKernel();
    const cyl = makeCylinder(oc, 10, 40);
    const wider = makeCylinder(oc, 10.2, 40, -0.1);
    try {
      const run = async (withWorkers: boolean, surface: 'exact' | 'tessellated', fromBodyId: string, toBodyId: string) => {
        const engine = testEngine(withWorkers ? { meshWorkers: hostWorkers } : {});
        addShapeBody(oc, engine.scene, 'cyl', cyl);
        addShapeBody(oc, engine.scene, 'wider', wider);
        addMeshBody(engine.scene, 'scan', cylinder({ radius: 10.1, height: 40, segments: 200, stacks: 40, caps: true }));
        return (await engine.run('measure_deviation', { fromBodyId, toBodyId, surface, maxSamples: 3000, sectionAxis: [0, 0, 1], sections: 4 })).result;
      };
      for (const [fromBodyId, toBodyId] of [
        ['wider', 'cyl'],
        ['scan', 'cyl'],
        ['cyl', 'scan'],
      ] as const) {
        for (const surface of ['tessellated', 'exact'] as const) {
          const before = hostWorkers.stats.parallel;
          const threads = await run(true, surface, fromBodyId, toBodyId);
          // Two BREP bodies in exact mode are measured here alone; a mesh against exact faces sends the mesh's side.
          const onThreads = surface === 'tessellated' || fromBodyId === 'scan' || toBodyId === 'scan';
          expect(hostWorkers.stats.parallel, `${fromBodyId} > ${toBodyId}, ${surface}: on the threads`).toBe(before + (onThreads ? 1 : 0));
          const serial = await run(false, surface, fromBodyId, toBodyId);
          expect(threads, `${fromBodyId} > ${toBodyId}, ${surface}`).toEqual(serial);
          expect(threads.surface).toBe(surface);
        }
      }
      // A mesh of zero area (one triangle, both sides) against exact faces: the job fails, the tool
      // reports the serial path's error.
      const failed = hostWorkers.stats.failed;
      const flat = async (withWorkers: boolean) => {
        const engine = testEngine(withWorkers ? { meshWorkers: hostWorkers } : {});
        addShapeBody(oc, engine.scene, 'cyl', cyl);
        engine.scene.add(new MeshBody({ bodyId: 'flat', name: 'flat', sourceFormat: 'stl', source: undefined }, { positions: new Float64Array([0, 0, 0, 1, 0, 0, 2, 0, 0]), indices: new Uint32Array([0, 1, 2, 0, 2, 1]) }));
        return engine.run('measure_deviation', { fromBodyId: 'cyl', toBodyId: 'flat', deflection: 0.5 }).catch((e: unknown) => e);
      };
      const [threads, serial] = [await flat(true), await flat(false)];
      // Two threads: the sampling thread fails. One: this thread samples the mesh and finds it, abandoning the thread's job.
      expect(hostWorkers.stats.failed).toBe(failed + (hostWorkers.threads === 2 ? 1 : 0));
      expect((threads as BrepscopeError).code).toBe('EMPTY_MESH');
      expect((threads as BrepscopeError).message).toBe((serial as BrepscopeError).message);
    } finally {
      cyl.delete();
      wider.delete();
    }
  });
  }
});
