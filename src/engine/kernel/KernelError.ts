/** An exception raised inside OCCT, carrying OCCT's own message. */
export class KernelError extends Error {
  readonly code: 'KERNEL_ERROR' | 'KERNEL_ABORTED' = 'KERNEL_ERROR';
  constructor(message: string) {
    super(message);
    this.name = 'KernelError';
  }
}

/**
 * The WASM instance trapped or called abort(): its memory and state can no longer be trusted, so
 * the host must replace the engine (and restore its scene) before the next call.
 */
export class KernelAbortedError extends KernelError {
  override readonly code = 'KERNEL_ABORTED' as const;
  constructor(message: string) {
    super(message);
    this.name = 'KernelAbortedError';
  }
}
