import { KernelError } from './kernel/KernelError';

/** Stable error codes: tests, the CLI, the worker boundary and the MCP server rely on these strings. */
export type ErrorCode =
  | 'BODY_NOT_FOUND'
  | 'BODY_EXISTS'
  | 'SELECTION_NOT_FOUND'
  | 'INVALID_ARGUMENT'
  | 'UNKNOWN_TOOL'
  | 'UNSUPPORTED_FORMAT'
  | 'PARSE_FAILED'
  /** The kernel raised an exception while reading or converting a user's file. */
  | 'FILE_UNREADABLE'
  /** The kernel aborted (trap, stack overflow, out of memory) on a user's file: the host must replace it. */
  | 'FILE_ABORTED_KERNEL'
  /** A tool (or a metric) that needs a surface or topology was given a point cloud. */
  | 'POINT_CLOUD_UNSUPPORTED'
  /** A point cloud was given as a deviation reference: it has no surface to measure against; swap the roles. */
  | 'POINT_CLOUD_REFERENCE'
  | 'EMPTY_FILE'
  | 'EMPTY_MESH'
  /** A deviation direction in which no sample has a counterpart on the reference (docs/deviation.md, "No data"). */
  | 'NO_COVERAGE'
  | 'FILE_NOT_FOUND'
  | 'FILE_TOO_LARGE'
  | 'INVALID_GEOMETRY'
  | 'KERNEL_ERROR'
  | 'KERNEL_ABORTED'
  | 'KERNEL_UNAVAILABLE'
  | 'NOT_IMPLEMENTED'
  | 'CANCELLED'
  /** A call ran past its host's deadline: the engine was stopped and replaced (issue 13). */
  | 'TIMEOUT'
  /** A call took the engine past its host's memory ceiling: the engine was stopped and replaced. */
  | 'OUT_OF_MEMORY'
  /** The thread or process running the engine ended unexpectedly (our defect, not the input's). */
  | 'ENGINE_CRASHED'
  /** A write would replace a file this call did not create; the caller did not pass overwrite: true. */
  | 'FILE_EXISTS'
  /** A write would replace a file that is loaded in the scene. */
  | 'FILE_IN_USE'
  /** A read or write outside the directories the host allows (the MCP server's roots). */
  | 'PATH_OUTSIDE_ROOTS'
  | 'WRITE_FAILED'
  /** A batch manifest line that is not a job (bad JSON, a missing field, a run whose arguments its tool refuses). */
  | 'MANIFEST_INVALID'
  /** A batch run not attempted because an earlier run of its job failed (later runs may depend on it). */
  | 'SKIPPED'
  /** The batch queue's Redis server cannot be reached or refused a command. */
  | 'QUEUE_UNAVAILABLE'
  | 'INTERNAL_ERROR';

/** An expected failure: bad input, a missing body, a file that cannot be read. */
export class BrepscopeError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'BrepscopeError';
  }
}

export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** The one place where any thrown value becomes the `{code, message}` every host reports. */
export function toErrorPayload(e: unknown): ErrorPayload {
  if (e instanceof BrepscopeError) {
    return e.details === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, details: e.details };
  }
  if (e instanceof KernelError) return { code: e.code, message: e.message };
  // A trap or abort() outside a withKernel scope (an importer, a binding called directly).
  if (e instanceof WebAssembly.RuntimeError) return { code: 'KERNEL_ABORTED', message: `kernel aborted: ${e.message}` };
  if (e instanceof Error) return { code: 'INTERNAL_ERROR', message: `${e.name}: ${e.message}` };
  return { code: 'INTERNAL_ERROR', message: String(e) };
}

/**
 * After this failure the engine's kernel cannot be trusted: the host replaces the engine and restores
 * its scene. KERNEL_ABORTED in a tool, FILE_ABORTED_KERNEL while reading a user's file (bad input,
 * but the kernel is just as gone).
 */
export function isKernelAbort(error: { code: string }): boolean {
  return error.code === 'KERNEL_ABORTED' || error.code === 'FILE_ABORTED_KERNEL';
}

/** A call's answer as a value: what crosses a worker boundary, where exceptions do not travel. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErrorPayload };

/** Settles a promise into an Outcome; every exception becomes its `{code, message}`. */
export async function settle<T>(work: Promise<T> | (() => Promise<T>)): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await (typeof work === 'function' ? work() : work) };
  } catch (e) {
    return { ok: false, error: toErrorPayload(e) };
  }
}

export function invalidArgument(message: string): BrepscopeError {
  return new BrepscopeError('INVALID_ARGUMENT', message);
}

/** Throws CANCELLED when the caller's signal fired: long loops call it between chunks. */
export function checkCancelled(ctx: { signal?: AbortSignal | undefined }, tool?: string): void {
  if (ctx.signal?.aborted) throw new BrepscopeError('CANCELLED', tool ? `${tool}: cancelled by the caller` : 'cancelled by the caller');
}
