import type { KeptBody, LoadRequest, Outcome, RestoreReport, RunOutcome, SceneSnapshot, ToolManifest } from '../engine';

/**
 * What the host tells an engine thread in its first message (a thread can be started before the
 * host exists: bin/brepscope.js starts one before it loads the command line).
 */
export interface ThreadSetup {
  /** Shared with the host: the thread's WebAssembly memory size, refused growths and ceiling (wasmMemory.ts). */
  cells: Int32Array;
  /** Reads and writes only inside these directories; null: anywhere the process may. */
  roots: string[] | null;
  /** Adds the methods that break the engine on purpose (tests only). */
  testHooks: boolean;
}

/** A body of the thread's scene; the stamp changes when its id is given to another file. */
export interface SceneEntry {
  bodyId: string;
  stamp: number;
}

export interface ThreadMemory {
  /** The kernel's WebAssembly heap (0 before the kernel is loaded). */
  wasmBytes: number;
  /** The part of that heap in use (0 before the kernel is loaded); see kernelInUseBytes in engineThread.ts. */
  kernelInUseBytes: number;
  /** The thread's V8 heap in use. */
  jsHeapBytes: number;
}

/** The engine thread's methods, as the host calls them. */
export interface ThreadMethods {
  /** `owner`: the batch job whose outputs the call writes (src/node/ownedFiles.ts); null outside a batch. */
  run(name: string, args: unknown, owner: string | null): RunOutcome<unknown>;
  load(request: LoadRequest): string;
  validate(name: string, args: unknown): void;
  tools(): ToolManifest[];
  /** The kept files of these bodies (copies cross to the host). */
  kept(bodyIds: string[]): KeptBody[];
  restore(snapshot: SceneSnapshot): RestoreReport;
  /** Empties the scene (every body's kernel objects freed); the kernel stays loaded. */
  clear(): void;
  setRoots(roots: string[] | null): void;
  memory(): ThreadMemory;
  /** Test hooks: a real trap inside the kernel's WebAssembly, and an uncaught error in the thread (at its next message). */
  abortKernelForTest(): void;
  crashForTest(): void;
}

export type Method = keyof ThreadMethods;

export type Request = { [M in Method]: { id: number; method: M; params: Parameters<ThreadMethods[M]>; progress: boolean } }[Method];

export type ThreadMessage = Request | { cancel: number } | { setup: ThreadSetup };

export type Reply =
  | { id: number; outcome: Outcome<unknown>; scene: SceneEntry[] }
  | { id: number; progress: [number, string | undefined] }
  /** The kernel started loading (for whatever call needed it first), or is ready after `loadMs`. */
  | { kernel: 'loading' | 'ready'; loadMs?: number | undefined }
  /** The answer to setup: the thread has loaded its modules and listens (its start is not counted against a call's deadline). */
  | { booted: true };
