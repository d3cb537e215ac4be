/**
 * The self-check worker, nested in the engine's worker (browserSelfCheck.ts): a kernel of its own
 * that runs validate_geometry's self-intersection and interference checks, so that the engine's
 * worker can abandon a kernel call that runs past the budget by terminating this worker.
 */
import wasmUrl from 'opencascade.js/dist/opencascade.full.wasm?url';
import { getKernel, serveSelfCheckJobs, setKernelLoader, type SelfCheckRequest } from '../engine';
import { CompiledKernel, createBrowserKernelLoader } from './browserKernel';

/** A dedicated worker's scope, as far as used here (the app's types are the page's, DOM). */
interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'messageerror', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message' | 'messageerror', listener: (event: MessageEvent) => void): void;
}
const scope = self as unknown as WorkerScope;

/** The kernel loads at once: the engine's worker starts this one (warm) before it needs it. */
function start(module: WebAssembly.Module | undefined): void {
  scope.removeEventListener('message', first);
  scope.removeEventListener('messageerror', unreadable);
  const compiled = new CompiledKernel(wasmUrl);
  if (module) compiled.give(module);
  setKernelLoader(createBrowserKernelLoader(compiled));
  serveSelfCheckJobs(
    {
      post: (reply) => scope.postMessage(reply),
      onRequest: (listener) => scope.addEventListener('message', (e) => listener(e.data as SelfCheckRequest)),
    },
    getKernel(),
  );
}

// The first message hands over the module the engine's worker compiled. A browser that cannot send
// a module to a worker fails that message: this worker then compiles its own, as the first did.
const first = (event: MessageEvent): void => start((event.data as { compiledKernel?: WebAssembly.Module }).compiledKernel);
const unreadable = (): void => start(undefined);
scope.addEventListener('message', first);
scope.addEventListener('messageerror', unreadable);
