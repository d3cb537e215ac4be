/** An exception raised inside OCCT, carrying OCCT's own message. */
export class KernelError extends Error {
  readonly code = 'KERNEL_ERROR' as const;
  constructor(message: string) {
    super(message);
    this.name = 'KernelError';
  }
}
