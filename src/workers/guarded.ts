import * as Comlink from 'comlink';
import {
  settle,
  type Engine,
  type KernelState,
  type Outcome,
  type RestoreReport,
  type RunOptions,
  type RunOutcome,
  type SceneSnapshot,
  type ToolArgs,
  type ToolManifest,
  type ToolName,
  type ToolResult,
} from '../engine';

export type Progress = (fraction: number, message?: string) => void;

/**
 * A file's contents as the page hands them over: bytes (moved), or the dropped File / a Blob itself,
 * which crosses to the worker as a handle (structured clone, no copy) and is read there, so a 50 MB
 * scan costs the page's thread no copy.
 */
export type FileData = Uint8Array | Blob;

/** A scene snapshot as the page keeps it: each body's file as bytes or as the Blob it was read from. */
export interface PageSnapshot {
  bodies: (Omit<SceneSnapshot['bodies'][number], 'bytes'> & { bytes: FileData })[];
}


/** What the host of a guarded engine adds: a stop signal (same thread), and data added to results before they are sent. */
export interface GuardHost {
  signal?: AbortSignal;
  /** Adds the host's data to a successful result (in place) and returns the buffers to move with it. */
  decorate?: (tool: string, result: unknown) => ArrayBuffer[];
}

/**
 * At most one progress message per 100 ms, so a tight loop does not flood the page; always the last
 * (1) and the first of a new stage (its message changed), so the page names the stage as it starts.
 */
function throttled(report: Progress): Progress {
  let last = 0;
  let stage: string | undefined;
  return (fraction, message) => {
    const now = performance.now();
    if (fraction < 1 && now - last < 100 && message === stage) return;
    last = now;
    stage = message;
    void Promise.resolve(report(fraction, message)).catch(() => undefined);
  };
}

/**
 * The engine as a worker exposes it: every call answers with a value (exceptions never cross the
 * boundary), display buffers are moved instead of copied, progress is throttled. Cancelling is the
 * owner's job: a worker is terminated; an engine in the same thread is stopped through `signal`.
 */
export function guarded(engine: Engine, host: GuardHost = {}) {
  function options(onProgress: Progress | undefined): RunOptions {
    return { ...(onProgress ? { progress: throttled(onProgress) } : {}), ...(host.signal ? { signal: host.signal } : {}) };
  }

  async function answer<R>(name: string, work: () => Promise<RunOutcome<R>>): Promise<Outcome<RunOutcome<R>>> {
    const outcome = await settle(work);
    if (!outcome.ok) return outcome;
    // Output bytes stay copies: the engine's files keep theirs.
    const added = host.decorate?.(name, outcome.value.result) ?? [];
    return Comlink.transfer(outcome, [...new Set([...engine.transferables(name, outcome.value.result), ...added])]);
  }

  function run<N extends ToolName>(name: N, args: NoInfer<ToolArgs<N>>, onProgress?: Progress): Promise<Outcome<RunOutcome<ToolResult<N>>>>;
  function run(name: string, args: unknown, onProgress?: Progress): Promise<Outcome<RunOutcome<unknown>>> {
    return answer(name, () => engine.runJson(name, args, options(onProgress)));
  }

  function runJson<N extends ToolName>(name: N, args: unknown, onProgress?: Progress): Promise<Outcome<RunOutcome<ToolResult<N>>>>;
  function runJson(name: string, args: unknown, onProgress?: Progress): Promise<Outcome<RunOutcome<unknown>>>;
  function runJson(name: string, args: unknown, onProgress?: Progress): Promise<Outcome<RunOutcome<unknown>>> {
    return answer(name, () => engine.runJson(name, args, options(onProgress)));
  }

  return {
    run,
    runJson,
    async tools(): Promise<ToolManifest[]> {
      return engine.tools();
    },
    /**
     * A file the page loaded (bytes, or a Blob kept as it is: an STL, PLY or OBJ is then read from it in
     * pieces, never whole); tools read it by this name (`import_file {path: name}`).
     */
    async putFile(name: string, data: FileData): Promise<void> {
      engine.putFile(name, data);
    },
    /** Checks a tool name and its arguments without running anything (a batch checks every run first). */
    validate(name: string, args: unknown): Promise<Outcome<void>> {
      return settle(async () => engine.validate(name, args));
    },
    /** The scene as files (a host that keeps them to restore the scene after losing the engine). */
    async snapshot(): Promise<{ bodies: (SceneSnapshot['bodies'][number] | PageSnapshot['bodies'][number])[] }> {
      // A mesh streamed from a given Blob keeps no bytes: its file is that Blob (a handle, no copy).
      const { bodies } = engine.snapshot();
      return {
        bodies: bodies.map((b) => {
          const given = b.bytes ? undefined : engine.givenFile(b.path);
          return given ? { ...b, bytes: given } : b;
        }),
      };
    },
    restore(snapshot: PageSnapshot): Promise<Outcome<RestoreReport>> {
      // Each file is given by its name (a Blob as it is) and read from there, so a mesh streams again.
      return settle(async () => {
        for (const b of snapshot.bodies) engine.putFile(b.path, b.bytes);
        return engine.restore({ bodies: snapshot.bodies.map(({ bytes: _bytes, ...b }) => b) }, { giveFiles: false });
      });
    },
    async kernelState(): Promise<KernelState> {
      return engine.kernelState();
    },
    /** Calls `listener` now and on every kernel status change. */
    async subscribeKernelState(listener: (state: KernelState) => void): Promise<void> {
      engine.onKernelState(listener);
      listener(engine.kernelState());
    },
    /** Starts loading the kernel at once (mesh work never waits for it). */
    loadKernel(): Promise<KernelState> {
      return engine.loadKernel();
    },
  };
}

export type GuardedEngine = ReturnType<typeof guarded>;
