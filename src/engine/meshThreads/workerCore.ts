/**
 * A mesh worker thread (started by host.ts): holds meshes it was sent and the query structures
 * built from them, and runs the steps of a job in order. Two workers talk directly through a
 * MessagePort to hand each other a mesh's samples without the calling thread. No kernel is loaded
 * here: everything is the engine's pure mesh code. The thread's entry (src/node/meshWorker.ts, the
 * browser's src/workers/mesh.worker.ts) hands runMeshWorker its channel to the host.
 */
import { toErrorPayload } from '../errors';
import { normalBoundsOf } from '../mesh/closestPoint';
import { buildOpenBoundary, type OpenBoundary } from '../mesh/openBoundary';
import { buildPseudoNormals, type PseudoNormals } from '../mesh/pseudoNormals';
import type { SurfaceSamples } from '../mesh/sampleSurface';
import { deviationReferenceOf, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import { narrowCorners } from '../mesh/bvhLayoutRules';
import { buildsInGroups } from '../mesh/bvhGroups';
import { buildBvh, bvhSplits, type TriangleBvh } from '../mesh/TriangleBvh';
import { buildSubtreeWork, recordWork, roundWork, type SubtreeWork } from '../mesh/parallelBvh';
import type { TriMesh } from '../mesh/TriMesh';
import { measurePart, samplesPart } from '../deviation/threadParts';
import { measureClaimed, type DirectedDeviation, type SharedOutput } from '../deviation/measure';
import { listen, type FromWorker, type Part, type Step, type ThreadPort, type ToWorker } from './protocol';

interface Held {
  mesh: TriMesh;
  bvh?: TriangleBvh | undefined;
  pseudoNormals?: PseudoNormals | undefined;
  boundary?: OpenBoundary | undefined;
  /** By maxSamples. */
  samples: Map<number, SurfaceSamples>;
}

const held = new Map<number, Held>();
/** Steps waiting for a part from the other worker, by part key. */
const arrived = new Map<string, () => void>();
/** Parts that came before their mesh did (the two ports are not ordered with each other). */
const early = new Map<number, Part[]>();
/** Samples the main thread gave a job, and a measureGiven step waiting for them. */
const given = new Map<number, { samples: SurfaceSamples; output?: SharedOutput | undefined }>();
const givenWaits = new Map<number, () => void>();
let peer: ThreadPort | undefined;
let cancelled = new Set<number>();
let port: ThreadPort | undefined;

/** What the thread's platform offers beyond messages. */
export interface MeshWorkerOptions {
  /**
   * A full garbage collection now, where the platform has one (Node): called in a BVH build of
   * BIG_BUILD triangles or more built triangle by triangle (not in groups, bvhGroups.ts) between
   * the split decisions and the layout, when the decisions' scratch (64 bytes a triangle) has become garbage, so that it is never held beside the tree's
   * corners (36) nor kept through the measuring: the peak of a whole deviation run.
   */
  collectGarbage?: (() => void) | undefined;
}

/** Triangles from which a BVH build is followed by a garbage collection (MeshWorkerOptions). */
const BIG_BUILD = 1_000_000;
let options: MeshWorkerOptions = {};

/** Serves the host on `host` (this thread's channel to it) until the thread ends. */
export function runMeshWorker(host: ThreadPort, platform: MeshWorkerOptions = {}): void {
  if (port) throw new Error('meshWorker: already running');
  port = host;
  options = platform;
  listen<ToWorker>(host, onMessage);
}

function onMessage(message: ToWorker): void {
  switch (message.type) {
    case 'peer':
      peer = message.port;
      listen<Part>(peer, receivePart);
      break;
    case 'mesh':
      held.set(message.id, { mesh: message.mesh, samples: new Map() });
      for (const part of early.get(message.id) ?? []) receivePart(part);
      early.delete(message.id);
      break;
    case 'drop':
      for (const id of message.ids) held.delete(id);
      break;
    case 'cancel':
      cancelled.add(message.job);
      for (const wake of arrived.values()) wake();
      givenWaits.get(message.job)?.();
      break;
    case 'given':
      given.set(message.job, { samples: message.samples, output: message.output });
      givenWaits.get(message.job)?.();
      break;
    case 'run':
      void run(message.job, message.steps);
      break;
    case 'subtrees':
      subtrees(message.job, message.work);
      break;
    case 'records':
      answerBvhPart(message.job, () => ({ type: 'records', job: message.job, centres: recordWork(message.work) }));
      break;
    case 'round':
      answerBvhPart(message.job, () => ({ type: 'round', job: message.job, answer: roundWork(message.work) }));
      break;
  }
}

/** Posts a parallel BVH's part, or the error making it. */
function answerBvhPart(job: number, make: () => FromWorker): void {
  let answer: FromWorker;
  try {
    answer = make();
  } catch (e) {
    answer = { type: 'failed', job, error: toErrorPayload(e) };
  }
  port!.postMessage(answer);
}

/** Builds a share of a parallel BVH in the shared memory it names; its nodes go back moved, not copied. */
function subtrees(job: number, work: SubtreeWork): void {
  try {
    const answer = buildSubtreeWork(work);
    const moved = 'nodes' in answer ? [answer.nodes.links.buffer, answer.nodes.boxes.buffer] : [answer.blocks.words.buffer, answer.blocks.sizes.buffer, answer.blocks.depths.buffer];
    port!.postMessage({ type: 'subtrees', job, answer } satisfies FromWorker, moved as ArrayBuffer[]);
  } catch (e) {
    port!.postMessage({ type: 'failed', job, error: toErrorPayload(e) } satisfies FromWorker);
  }
}

async function run(job: number, steps: Step[]): Promise<void> {
  try {
    for (const step of steps) {
      if (cancelled.has(job)) return;
      await runStep(job, step);
    }
    port!.postMessage({ type: 'done', job });
  } catch (e) {
    port!.postMessage({ type: 'failed', job, error: toErrorPayload(e) });
  } finally {
    given.delete(job);
    givenWaits.delete(job);
    cancelled.delete(job);
    if (cancelled.size > 64) cancelled = new Set();
  }
}

function entry(id: number): Held {
  const h = held.get(id);
  if (!h) throw new Error(`meshWorker: mesh ${id} was never sent`);
  return h;
}

function pseudoNormalsOf(h: Held): PseudoNormals {
  h.pseudoNormals ??= buildPseudoNormals(h.mesh);
  return h.pseudoNormals;
}

function bvhOf(h: Held, shared = false): TriangleBvh {
  if (h.bvh) return h.bvh;
  const collect = options.collectGarbage;
  // Groups build in the corners' own memory (bvhGroups.ts): no scratch to free.
  if (collect && h.mesh.indices.length / 3 >= BIG_BUILD && !buildsInGroups(h.mesh)) {
    // Float32 corners: the splits in a scratch of their own, freed before the corners exist.
    const tree = narrowCorners(h.mesh.positions, undefined) ? bvhSplits(h.mesh) : undefined;
    collect();
    h.bvh = buildBvh(h.mesh, { shared, tree });
    collect();
    return h.bvh;
  }
  h.bvh = buildBvh(h.mesh, { shared });
  return h.bvh;
}

async function runStep(job: number, step: Step): Promise<void> {
  switch (step.op) {
    case 'bvh': {
      const bvh = bvhOf(entry(step.mesh), step.shared);
      // A tree built earlier without sharing stays here: the main thread then leaves the measuring to this thread.
      if (step.shared && bvh.slotCorners.buffer instanceof SharedArrayBuffer) {
        const normalBounds = step.signMode === 'robust' ? normalBoundsOf(bvh, true) : null;
        port!.postMessage({ type: 'bvh', job, bvh, normalBounds } satisfies FromWorker);
      }
      return;
    }
    case 'samples': {
      const h = entry(step.mesh);
      if (!h.samples.has(step.maxSamples)) h.samples.set(step.maxSamples, samplesPart(h.mesh, pseudoNormalsOf(h), step.maxSamples, step.bodyId));
      return;
    }
    case 'send': {
      // Small: both keep a copy.
      const h = entry(step.mesh);
      peer!.postMessage({ mesh: step.mesh, part: 'samples', maxSamples: step.maxSamples, value: h.samples.get(step.maxSamples)! } satisfies Part);
      return;
    }
    case 'await': {
      const h = entry(step.mesh);
      while (!h.samples.has(step.maxSamples)) {
        if (cancelled.has(job)) throw new Error('meshWorker: cancelled');
        await new Promise<void>((resolve) => arrived.set(partKey(step.mesh, step.part, step.maxSamples), resolve));
      }
      return;
    }
    case 'measure': {
      const samples = entry(step.samplesOf).samples.get(step.maxSamples)!;
      const against = entry(step.against);
      postMeasured(job, step.label, await measureAgainst(samples, against, step));
      return;
    }
    case 'post': {
      const samples = entry(step.mesh).samples.get(step.maxSamples)!;
      port!.postMessage({ type: 'samples', job, samples } satisfies FromWorker);
      return;
    }
    case 'measureGiven': {
      while (!given.has(job)) {
        if (cancelled.has(job)) throw new Error('meshWorker: cancelled');
        await new Promise<void>((resolve) => givenWaits.set(job, resolve));
      }
      const { samples, output } = given.get(job)!;
      if (!output) {
        postMeasured(job, step.label, await measureAgainst(samples, entry(step.against), step));
        return;
      }
      const against = entry(step.against);
      await measureClaimed(samples, referenceOf(against), step.signMode, step.boundary ? boundaryOf(against) : null, output);
      // The arrays are shared: posted as they are (the main thread reads them once its own chunks are done too).
      port!.postMessage({ type: 'measured', job, label: step.label, distance: output.distance, signed: output.signed, beyond: output.beyond, samples } satisfies FromWorker);
      return;
    }
  }
}

/** Samples against a held mesh as the reference, with the open-boundary test when the step asks for it. */
function measureAgainst(samples: SurfaceSamples, against: Held, step: { signMode: SignMode; label: string; boundary: boolean }): Promise<DirectedDeviation> {
  return measurePart(samples, referenceOf(against), step.signMode, step.label, step.boundary ? boundaryOf(against) : null);
}

/** The held mesh as a deviation reference, from the same builders the serial path's caches call. */
function referenceOf(h: Held): DeviationReference {
  return deviationReferenceOf(bvhOf(h), pseudoNormalsOf(h));
}

function boundaryOf(h: Held): OpenBoundary {
  h.boundary ??= buildOpenBoundary(pseudoNormalsOf(h), true);
  return h.boundary;
}

function postMeasured(job: number, label: string, d: DirectedDeviation): void {
  // distance, signed and beyond are fresh arrays of the step: moved, not copied.
  port!.postMessage({ type: 'measured', job, label, distance: d.distance, signed: d.signed, beyond: d.beyond, samples: d.samples } satisfies FromWorker, [
    d.distance.buffer as ArrayBuffer,
    d.signed.buffer as ArrayBuffer,
    d.beyond.buffer as ArrayBuffer,
  ]);
}

function receivePart(part: Part): void {
  const h = held.get(part.mesh);
  if (!h) {
    early.set(part.mesh, [...(early.get(part.mesh) ?? []), part]);
    return;
  }
  h.samples.set(part.maxSamples, part.value);
  const key = partKey(part.mesh, part.part, part.maxSamples);
  arrived.get(key)?.();
  arrived.delete(key);
}

function partKey(mesh: number, part: string, maxSamples: number): string {
  return `${mesh}/${part}/${maxSamples}`;
}
