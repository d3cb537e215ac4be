/**
 * Messages between the calling thread and the mesh worker threads (host.ts, workerCore.ts), the
 * same in Node (worker_threads) and in the browser (Web Workers).
 *
 * A job is a list of steps per worker, planned on the main thread. Steps name meshes by an id the
 * main thread gave them when it sent the mesh (once per worker, in shared memory) and name the
 * structures built from them; a worker keeps what it built for later jobs on the same mesh.
 * `send` and `await` hand a mesh's samples to the other worker over a direct MessagePort. Each
 * worker builds the pseudo-normals it needs itself: they are computed per feature as queries ask
 * (pseudoNormals.ts), so there is nothing worth handing over.
 *
 * A BREP body's exact faces stay on the main thread (their kernel adaptors cannot move): against
 * them, the workers do the mesh's side only, `post` hands the mesh's samples to the main thread
 * and `given` brings the main thread's exact samples to a `measureGiven` step. The plan (which
 * worker builds what) stays on the main thread.
 */
import type { ErrorPayload } from '../errors';
import type { TriMesh } from '../mesh/TriMesh';
import type { SurfaceSamples } from '../mesh/sampleSurface';
import type { SignMode } from '../mesh/signedDeviation';
import type { TriangleBvh } from '../mesh/TriangleBvh';
import type { SharedOutput } from '../deviation/measure';
import type { RecordWork, RoundWork, SubtreeAnswer, SubtreeWork } from '../mesh/parallelBvh';
import type { BinnedRun } from '../mesh/bvhBuilder';

/**
 * The end of a channel a thread listens on and posts to: a MessagePort, a Worker from its host's
 * side, or a worker's own global scope, in Node and in browsers alike (all are EventTargets with
 * postMessage; a port's messages flow once it is started).
 */
export interface ThreadPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  start?(): void;
}

/** Listens to a port's messages (starting it, which a MessagePort needs before it delivers any). */
export function listen<T>(port: ThreadPort, handler: (message: T) => void): void {
  port.addEventListener('message', (event) => handler(event.data as T));
  port.start?.();
}

export type Step =
  /** With `shared`, the BVH (and the normal bounds a robust measure needs) is built in shared memory and posted to the main thread (`bvh`). */
  | { op: 'bvh'; mesh: number; shared?: boolean; signMode?: SignMode }
  | { op: 'samples'; mesh: number; maxSamples: number; bodyId: string }
  | { op: 'send'; mesh: number; part: 'samples'; maxSamples: number }
  | { op: 'await'; mesh: number; part: 'samples'; maxSamples: number }
  /** Samples of one mesh against another as the reference; posts `measured`. */
  | { op: 'measure'; samplesOf: number; maxSamples: number; against: number; signMode: SignMode; label: string; boundary: boolean }
  /** Posts a mesh's samples to the main thread (`samples`). */
  | { op: 'post'; mesh: number; maxSamples: number }
  /**
   * The samples the main thread gives this job (`given`) against a mesh as the reference; posts
   * `measured`. When the given samples come with shared output, chunks are claimed from it, so the
   * main thread can measure some of them too (against the BVH posted by a shared `bvh` step).
   */
  | { op: 'measureGiven'; against: number; signMode: SignMode; label: string; boundary: boolean };

export type ToWorker =
  | { type: 'peer'; port: ThreadPort }
  | { type: 'mesh'; id: number; mesh: TriMesh }
  | { type: 'drop'; ids: number[] }
  | { type: 'run'; job: number; steps: Step[] }
  | { type: 'given'; job: number; samples: SurfaceSamples; output?: SharedOutput | undefined }
  | { type: 'cancel'; job: number }
  /** Parts of a BVH built over several threads (mesh/parallelBvh.ts): answered by `subtrees` / `records` or `failed`. */
  | { type: 'subtrees'; job: number; work: SubtreeWork }
  | { type: 'records'; job: number; work: RecordWork }
  | { type: 'round'; job: number; work: RoundWork };

export type FromWorker =
  | { type: 'done'; job: number }
  | { type: 'failed'; job: number; error: ErrorPayload }
  | { type: 'measured'; job: number; label: string; distance: Float64Array; signed: Float64Array; beyond: Uint8Array; samples: SurfaceSamples }
  | { type: 'samples'; job: number; samples: SurfaceSamples }
  | { type: 'bvh'; job: number; bvh: TriangleBvh; normalBounds: Int8Array | null }
  | { type: 'subtrees'; job: number; answer: SubtreeAnswer }
  | { type: 'records'; job: number; centres: Float64Array }
  | { type: 'round'; job: number; answer: BinnedRun | Float64Array };

/** A part one worker hands the other. */
export type Part = { mesh: number; part: 'samples'; maxSamples: number; value: SurfaceSamples };

/**
 * A copy of an object whose typed-array fields live in SharedArrayBuffers (fields already shared
 * are kept), so that posting it copies no array and both threads can keep it.
 */
export function shareArrays<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) out[key] = ArrayBuffer.isView(field) && !(field.buffer instanceof SharedArrayBuffer) ? shared(field) : field;
  return out as T;
}

function shared(view: ArrayBufferView): ArrayBufferView {
  const Ctor = view.constructor as new (buffer: SharedArrayBuffer, offset: number, length: number) => ArrayBufferView & { set(a: ArrayBufferView): void; length: number };
  const length = (view as unknown as { length: number }).length;
  const copy = new Ctor(new SharedArrayBuffer(view.byteLength), 0, length);
  copy.set(view);
  return copy;
}
