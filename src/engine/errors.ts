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
  | 'POINT_CLOUD_UNSUPPORTED'
  | 'EMPTY_FILE'
  | 'EMPTY_MESH'
  | 'FILE_NOT_FOUND'
  | 'FILE_TOO_LARGE'
  | 'INVALID_GEOMETRY'
  | 'KERNEL_ERROR'
  | 'KERNEL_UNAVAILABLE'
  | 'NOT_IMPLEMENTED'
  | 'CANCELLED'
  | 'WRITE_FAILED'
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
  if (e instanceof KernelError) return { code: 'KERNEL_ERROR', message: e.message };
  if (e instanceof Error) return { code: 'INTERNAL_ERROR', message: `${e.name}: ${e.message}` };
  return { code: 'INTERNAL_ERROR', message: String(e) };
}

export function invalidArgument(message: string): BrepscopeError {
  return new BrepscopeError('INVALID_ARGUMENT', message);
}
