/**
 * The Node host's self-check thread (the engine's SelfCheckThread): validate_geometry's
 * self-intersection and interference checks run in a worker thread with a kernel of its own, so
 * that a kernel call still running past the budget is abandoned by stopping the thread (a call
 * cannot be interrupted from JavaScript; one took 28 s on a pair of B-spline faces). The thread
 * starts on first use (about 4 s and 0.6 GB for its kernel) and is kept for the next check. The
 * protocol and the stop at the budget are the engine's (createSelfCheckHost), shared with the
 * browser's nested worker (src/workers/browserSelfCheck.ts); this file only starts Node threads.
 */
import type { Worker } from 'node:worker_threads';
import { createSelfCheckHost, type SelfCheckHost, type SelfCheckHostOptions, type SelfCheckReply, type SelfCheckWorker } from '../engine';
import { startNodeThread } from './meshThreadStart';

export type NodeSelfCheckThreadOptions = SelfCheckHostOptions;

export function createSelfCheckThread(options: NodeSelfCheckThreadOptions = {}): SelfCheckHost {
  return createSelfCheckHost({ start: () => nodeSelfCheckWorker(startNodeThread('selfCheckWorker', 'brepscope-self-check')) }, options);
}

function nodeSelfCheckWorker(worker: Worker): SelfCheckWorker {
  // An idle thread must not keep the process alive; a running job holds it by its timer.
  worker.unref();
  return {
    post: (request) => worker.postMessage(request),
    onReply(listener) {
      const l = (reply: SelfCheckReply): void => listener(reply);
      worker.on('message', l);
      return () => void worker.off('message', l);
    },
    onFailure(listener) {
      const onError = (e: unknown): void => listener(e instanceof Error ? e : new Error(String(e)));
      const onExit = (code: number): void => listener(new Error(`exit code ${code}`));
      worker.on('error', onError);
      worker.on('exit', onExit);
      return () => {
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
    },
    terminate: () => worker.terminate(),
  };
}
