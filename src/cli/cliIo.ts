/** Where the CLI prints: the process's streams, or a test's buffers. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}
