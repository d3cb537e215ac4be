import * as Comlink from 'comlink';
import type { EngineApi, KernelState, Outcome } from './engine.worker';

export type { EngineApi, KernelState, Outcome } from './engine.worker';
export type { DisplayEdges, HeatmapData, HeatmapOptions } from '../engine';

/** The one place the app constructs a Worker: the engine (scene, tools, kernel) runs in it. */
export interface EngineClient {
  api: Comlink.Remote<EngineApi>;
  /** Gives a file to the worker (the buffer is transferred: `bytes` is empty afterwards). */
  putFile(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  runTool<T = unknown>(name: string, args: unknown, onProgress?: (fraction: number, message?: string) => void): Promise<Outcome<T>>;
  subscribeKernelStatus(listener: (state: KernelState) => void): Promise<void>;
  /** Called once if the worker fails (an uncaught error or an unreadable message): it must be replaced. */
  onCrash(listener: (reason: string) => void): void;
  terminate(): void;
}

export function createEngineClient(): EngineClient {
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'brepscope-engine' });
  const api = Comlink.wrap<EngineApi>(worker);
  return {
    api,
    putFile: (name, bytes) => api.putFile(name, Comlink.transfer(bytes, [bytes.buffer])),
    runTool: <T>(name: string, args: unknown, onProgress?: (fraction: number, message?: string) => void) =>
      (onProgress ? api.runTool(name, args, Comlink.proxy(onProgress)) : api.runTool(name, args)) as Promise<Outcome<T>>,
    subscribeKernelStatus: (listener) => api.subscribeKernelStatus(Comlink.proxy(listener)),
    onCrash: (listener) => {
      let fired = false;
      const fire = (reason: string) => {
        if (fired) return;
        fired = true;
        listener(reason);
      };
      worker.addEventListener('error', (e) => {
        // Handled here: the page reports it and restarts the worker, so it is not a console error.
        e.preventDefault();
        fire(e.message || 'the engine worker failed');
      });
      worker.addEventListener('messageerror', () => fire('the engine worker sent an unreadable message'));
    },
    terminate: () => {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
