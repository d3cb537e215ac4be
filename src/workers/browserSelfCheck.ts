import { createSelfCheckHost, type SelfCheckHost, type SelfCheckReply, type SelfCheckWorker } from '../engine';
import type { CompiledKernel } from './browserKernel';

/**
 * The browser's self-check thread (the engine's SelfCheckThread, as Node's src/node/selfCheckThread.ts):
 * validate_geometry's self-intersection and interference checks run in a web worker nested in the
 * engine's worker (selfCheck.worker.ts) with a kernel of its own, so that a kernel call still
 * running one second past the budget is abandoned by terminating the worker (one call took 28 s).
 * The worker starts on first use and instantiates the module the engine's worker compiled (no second
 * download or compilation; about 0.6 GB for its kernel); it is kept for the next check.
 */
let thread: SelfCheckHost | null | undefined;

/** This worker's self-check thread (made once; null where workers cannot be started). */
export function browserSelfCheckThread(kernel: CompiledKernel): SelfCheckHost | null {
  if (thread !== undefined) return thread;
  thread = typeof Worker === 'undefined' ? null : createSelfCheckHost({ start: () => startWorker(kernel) });
  return thread;
}

/** The thread made by browserSelfCheckThread, if any (test hooks). */
export function currentBrowserSelfCheckThread(): SelfCheckHost | null {
  return thread ?? null;
}

function startWorker(kernel: CompiledKernel): SelfCheckWorker {
  const worker = new Worker(new URL('./selfCheck.worker.ts', import.meta.url), { type: 'module', name: 'brepscope-self-check' });
  // The first message: the compiled kernel, once the engine's worker has it (it has, by the time a
  // body is there to check). Messages sent before the worker's code runs are queued for it.
  void kernel.ready.then((module) => worker.postMessage({ compiledKernel: module }));
  return {
    post: (request) => worker.postMessage(request),
    onReply(listener) {
      const l = (event: MessageEvent<SelfCheckReply>): void => listener(event.data);
      worker.addEventListener('message', l);
      return () => worker.removeEventListener('message', l);
    },
    onFailure(listener) {
      const onError = (event: ErrorEvent): void => listener(new Error(event.message || 'the self-check worker failed to start or crashed'));
      const onMessageError = (): void => listener(new Error('a message of the self-check worker could not be read'));
      worker.addEventListener('error', onError);
      worker.addEventListener('messageerror', onMessageError);
      return () => {
        worker.removeEventListener('error', onError);
        worker.removeEventListener('messageerror', onMessageError);
      };
    },
    terminate: () => worker.terminate(),
  };
}
