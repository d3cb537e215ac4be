import * as Comlink from 'comlink';
import type { EngineApi, KernelState, Outcome } from './engine.worker';

export type { EngineApi, KernelState, Outcome } from './engine.worker';

/** The one place the app constructs a Worker: the engine (scene, tools, kernel) runs in it. */
export interface EngineClient {
  api: Comlink.Remote<EngineApi>;
  /** Gives a file to the worker (the buffer is transferred: `bytes` is empty afterwards). */
  putFile(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  runTool<T = unknown>(name: string, args: unknown): Promise<Outcome<T>>;
  subscribeKernelStatus(listener: (state: KernelState) => void): Promise<void>;
  terminate(): void;
}

export function createEngineClient(): EngineClient {
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'brepscope-engine' });
  const api = Comlink.wrap<EngineApi>(worker);
  return {
    api,
    putFile: (name, bytes) => api.putFile(name, Comlink.transfer(bytes, [bytes.buffer])),
    runTool: <T>(name: string, args: unknown) => api.runTool(name, args) as Promise<Outcome<T>>,
    subscribeKernelStatus: (listener) => api.subscribeKernelStatus(Comlink.proxy(listener)),
    terminate: () => {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
