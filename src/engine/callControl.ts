/** What a caller gives long work to cancel it and hear of its progress (tools, mesh threads, pacers). */
export interface CallControl {
  /** Set when the caller may cancel; long loops check it between chunks. */
  signal?: AbortSignal | undefined;
  /** Reports progress in [0, 1] for long work. */
  progress?: ((fraction: number, message?: string) => void) | undefined;
}
