/**
 * Messages between the main thread and the mesh workers (meshWorkers.ts, meshWorker.ts).
 *
 * A job is a list of steps per worker, planned on the main thread. Steps name meshes by an id the
 * main thread gave them when it sent the mesh (once per worker, in shared memory) and name the
 * structures built from them; a worker keeps what it built for later jobs on the same mesh.
 * `send` and `await` hand a part to the other worker over a direct MessagePort (large parts are
 * moved, small ones copied).
 *
 * A BREP body's exact faces stay on the main thread (their kernel adaptors cannot move): against
 * them, the workers do the mesh's side only, `post` hands the mesh's samples to the main thread
 * and `given` brings the main thread's exact samples to a `measureGiven` step. The plan (which
 * worker builds what) stays on the main thread.
 */
import type { MessagePort } from 'node:worker_threads';
import type { ErrorPayload, PseudoNormals, SignMode, SurfaceSamples, TriMesh } from '../engine/meshWork';

export type Step =
  | { op: 'bvh'; mesh: number }
  | { op: 'pseudoNormals'; mesh: number }
  /** The open boundary of a mesh whose pseudo-normals the worker holds (for a later measure step). */
  | { op: 'boundary'; mesh: number }
  | { op: 'samples'; mesh: number; maxSamples: number; bodyId: string }
  | { op: 'send'; mesh: number; part: 'pseudoNormals' | 'samples'; maxSamples?: number }
  | { op: 'await'; mesh: number; part: 'pseudoNormals' | 'samples'; maxSamples?: number }
  /** Samples of one mesh against another as the reference; posts `measured`. */
  | { op: 'measure'; samplesOf: number; maxSamples: number; against: number; signMode: SignMode; label: string; boundary: boolean }
  /** Posts a mesh's samples to the main thread (`samples`). */
  | { op: 'post'; mesh: number; maxSamples: number }
  /** The samples the main thread gives this job (`given`) against a mesh as the reference; posts `measured`. */
  | { op: 'measureGiven'; against: number; signMode: SignMode; label: string; boundary: boolean };

export type ToWorker =
  | { type: 'peer'; port: MessagePort }
  | { type: 'mesh'; id: number; mesh: TriMesh }
  | { type: 'drop'; ids: number[] }
  | { type: 'run'; job: number; steps: Step[] }
  | { type: 'given'; job: number; samples: SurfaceSamples }
  | { type: 'cancel'; job: number };

export type FromWorker =
  | { type: 'done'; job: number }
  | { type: 'failed'; job: number; error: ErrorPayload }
  | { type: 'measured'; job: number; label: string; distance: Float64Array; signed: Float64Array; beyond: Uint8Array; samples: SurfaceSamples }
  | { type: 'samples'; job: number; samples: SurfaceSamples };

/** A part one worker hands the other. */
export type Part =
  | { mesh: number; part: 'pseudoNormals'; maxSamples?: undefined; value: PseudoNormals }
  | { mesh: number; part: 'samples'; maxSamples: number | undefined; value: SurfaceSamples };

/** The ArrayBuffers behind an object's typed-array fields that can be moved (shared memory is not). */
export function ownBuffers(value: object): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const field of Object.values(value)) if (ArrayBuffer.isView(field) && field.buffer instanceof ArrayBuffer) buffers.add(field.buffer);
  return [...buffers];
}

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
