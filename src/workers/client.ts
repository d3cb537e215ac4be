import * as Comlink from 'comlink';
import type { Outcome, RestoreReport, RunOutcome, ToolArgs, ToolName, ToolResult } from '../engine';
import type { CompiledKernelApi } from './browserKernel';
import type { GuardedEngine, PageSnapshot, Progress } from './guarded';
import type { WorkerTestHooks } from './testHooks';

export type { FileData, GuardedEngine, PageSnapshot, Progress } from './guarded';
export type { MeshWorkerStats, WorkerTestHooks } from './testHooks';

/**
 * The engine as the page calls it: the worker's guarded engine (typed as the engine's own
 * signatures), plus what only the owner of a worker can do.
 */
export interface EngineClient extends GuardedEngine {
  /** Called once if the worker fails (an uncaught error or an unreadable message): it must be replaced. */
  onCrash(listener: (reason: string) => void): void;
  terminate(): void;
  /** Only in test builds (vite build --mode e2e). */
  testHooks?: WorkerTestHooks;
}

/**
 * The kernel as the page's first worker compiled it (55 MB of wasm). Each later worker (Cancel,
 * crash, kernel abort) is given it before it starts loading: no download and no compilation again.
 */
let compiledKernel: WebAssembly.Module | undefined;

/** The one place the app constructs a Worker: the engine (scene, tools, kernel) runs in it. */
export function createEngineClient(): EngineClient {
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'brepscope-engine' });
  // Comlink's Remote<T> maps methods through conditional types, which keep one overload and erase
  // type parameters; the worker exposes guarded(engine) itself, so that is the remote's type.
  const proxy = Comlink.wrap<unknown>(worker);
  const remote = proxy as unknown as GuardedEngine & WorkerTestHooks & CompiledKernelApi;
  // The first message the worker gets, so it arrives before any call that loads the kernel.
  // A browser that cannot send a module to a worker fails the call; the worker then compiles its own.
  if (compiledKernel) void remote.useCompiledKernel(compiledKernel).catch(() => undefined);
  else
    void remote.compiledKernel().then(
      (module) => (compiledKernel ??= module),
      () => undefined,
    );
  const proxied = (onProgress: Progress | undefined) => (onProgress ? Comlink.proxy(onProgress) : undefined);

  function run<N extends ToolName>(name: N, args: NoInfer<ToolArgs<N>>, onProgress?: Progress): Promise<Outcome<RunOutcome<ToolResult<N>>>>;
  function run(name: string, args: unknown, onProgress?: Progress): Promise<Outcome<RunOutcome<unknown>>> {
    return remote.runJson(name, args, proxied(onProgress));
  }

  function runJson<N extends ToolName>(name: N, args: unknown, onProgress?: Progress): Promise<Outcome<RunOutcome<ToolResult<N>>>>;
  function runJson(name: string, args: unknown, onProgress?: Progress): Promise<Outcome<RunOutcome<unknown>>>;
  function runJson(name: string, args: unknown, onProgress?: Progress): Promise<Outcome<RunOutcome<unknown>>> {
    return remote.runJson(name, args, proxied(onProgress));
  }

  let crashed: ((reason: string) => void) | undefined;
  const fire = (reason: string) => {
    const listener = crashed;
    crashed = undefined;
    listener?.(reason);
  };
  worker.addEventListener('error', (e) => {
    // Handled here: the page reports it and restarts the worker, so it is not a console error.
    e.preventDefault();
    fire(e.message || 'the engine worker failed');
  });
  worker.addEventListener('messageerror', () => fire('the engine worker sent an unreadable message'));

  return {
    run,
    runJson,
    tools: () => remote.tools(),
    validate: (name, args) => remote.validate(name, args),
    snapshot: () => remote.snapshot(),
    // The buffer is transferred: `bytes` is empty afterwards.
    // Bytes are moved; a Blob (a dropped File) goes as a handle and the worker reads it.
    putFile: (name, data) => remote.putFile(name, data instanceof Uint8Array ? Comlink.transfer(data, [data.buffer]) : data),
    restore: (snapshot: PageSnapshot): Promise<Outcome<RestoreReport>> =>
      remote.restore(Comlink.transfer(snapshot, [...new Set(snapshot.bodies.map((b) => (b.bytes instanceof Uint8Array ? b.bytes.buffer : null)).filter((b) => b instanceof ArrayBuffer))])),
    kernelState: () => remote.kernelState(),
    subscribeKernelState: (listener) => remote.subscribeKernelState(Comlink.proxy(listener)),
    loadKernel: () => remote.loadKernel(),
    onCrash: (listener) => {
      crashed = listener;
    },
    terminate: () => {
      proxy[Comlink.releaseProxy]();
      worker.terminate();
    },
    ...(import.meta.env.MODE === 'e2e' ? {
          testHooks: {
            crashForTest: () => remote.crashForTest(),
            traceCounts: () => remote.traceCounts(),
            meshWorkerStats: () => remote.meshWorkerStats(),
            holdTool: (tool: string) => remote.holdTool(tool),
            releaseTool: (tool: string) => remote.releaseTool(tool),
            abortNextRun: (tool: string, bodyId: string) => remote.abortNextRun(tool, bodyId),
            hangSelfCheckForTest: (afterChecks: number) => remote.hangSelfCheckForTest(afterChecks),
          },
        } : {}),
  };
}
