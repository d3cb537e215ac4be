/**
 * A mesh worker thread (started by meshWorkers.ts): holds meshes it was sent and the query
 * structures built from them, and runs the steps of a job in order. Two workers talk directly
 * through a MessagePort to hand each other parts (pseudo-normals, samples) without the main thread.
 * No kernel is loaded here: everything is the engine's pure mesh code.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import {
  boundaryPart,
  measurePart,
  meshBvhPart,
  pseudoNormalsPart,
  referencePart,
  samplesPart,
  toErrorPayload,
  type DirectedDeviation,
  type OpenBoundary,
  type PseudoNormals,
  type SignMode,
  type SurfaceSamples,
  type TriangleBvh,
  type TriMesh,
} from '../engine/meshWork';
import { ownBuffers, type FromWorker, type Part, type Step, type ToWorker } from './meshWorkerProtocol';

interface Held {
  mesh: TriMesh;
  bvh?: TriangleBvh | undefined;
  pseudoNormals?: PseudoNormals | undefined;
  /** The open boundary (null: closed), once a step asked for it. */
  boundary?: OpenBoundary | null | undefined;
  /** By maxSamples. */
  samples: Map<number, SurfaceSamples>;
}

const held = new Map<number, Held>();
/** Steps waiting for a part from the other worker, by part key. */
const arrived = new Map<string, () => void>();
/** Parts that came before their mesh did (the two ports are not ordered with each other). */
const early = new Map<number, Part[]>();
/** Samples the main thread gave a job, and a measureGiven step waiting for them. */
const given = new Map<number, SurfaceSamples>();
const givenWaits = new Map<number, () => void>();
let peer: MessagePort | undefined;
let cancelled = new Set<number>();

const port = parentPort;
if (!port) throw new Error('meshWorker: not started as a worker thread');

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'peer':
      peer = message.port;
      peer.on('message', (part: Part) => receivePart(part));
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
      given.set(message.job, message.samples);
      givenWaits.get(message.job)?.();
      break;
    case 'run':
      void run(message.job, message.steps);
      break;
  }
});

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
  h.pseudoNormals ??= pseudoNormalsPart(h.mesh);
  return h.pseudoNormals;
}

function bvhOf(h: Held): TriangleBvh {
  h.bvh ??= meshBvhPart(h.mesh);
  return h.bvh;
}

async function runStep(job: number, step: Step): Promise<void> {
  switch (step.op) {
    case 'bvh':
      bvhOf(entry(step.mesh));
      return;
    case 'pseudoNormals':
      pseudoNormalsOf(entry(step.mesh));
      return;
    case 'boundary':
      boundaryOf(entry(step.mesh));
      return;
    case 'samples': {
      const h = entry(step.mesh);
      if (!h.samples.has(step.maxSamples)) h.samples.set(step.maxSamples, samplesPart(h.mesh, pseudoNormalsOf(h), step.maxSamples, step.bodyId));
      return;
    }
    case 'send': {
      const h = entry(step.mesh);
      if (step.part === 'pseudoNormals') {
        // Moved, not copied (a copy of a 1M-triangle mesh's would be 100 MB): this worker has
        // used them for its samples and rebuilds them if a later job needs them again.
        const value = pseudoNormalsOf(h);
        h.pseudoNormals = undefined;
        peer!.postMessage({ mesh: step.mesh, part: 'pseudoNormals', value } satisfies Part, ownBuffers(value));
      } else {
        // Small: both keep a copy.
        peer!.postMessage({ mesh: step.mesh, part: 'samples', maxSamples: step.maxSamples, value: h.samples.get(step.maxSamples!)! } satisfies Part);
      }
      return;
    }
    case 'await': {
      const h = entry(step.mesh);
      const has = () => (step.part === 'pseudoNormals' ? h.pseudoNormals !== undefined : h.samples.has(step.maxSamples!));
      while (!has()) {
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
      postMeasured(job, step.label, await measureAgainst(given.get(job)!, entry(step.against), step));
      return;
    }
  }
}

/** Samples against a held mesh as the reference, with the open-boundary test when the step asks for it (boundaryPart). */
function measureAgainst(samples: SurfaceSamples, against: Held, step: { signMode: SignMode; label: string; boundary: boolean }): Promise<DirectedDeviation> {
  return measurePart(samples, referencePart(bvhOf(against), pseudoNormalsOf(against)), step.signMode, step.label, step.boundary ? boundaryOf(against) : null);
}

function boundaryOf(h: Held): OpenBoundary | null {
  if (h.boundary === undefined) h.boundary = boundaryPart(pseudoNormalsOf(h));
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
  if (part.part === 'pseudoNormals') h.pseudoNormals = part.value;
  else h.samples.set(part.maxSamples!, part.value);
  const key = partKey(part.mesh, part.part, part.maxSamples);
  arrived.get(key)?.();
  arrived.delete(key);
}

function partKey(mesh: number, part: string, maxSamples: number | undefined): string {
  return `${mesh}/${part}/${maxSamples ?? ''}`;
}
