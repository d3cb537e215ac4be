/**
 * The Node host's self-check thread (the engine's SelfCheckThread): validate_geometry's
 * self-intersection and interference checks run in a worker thread with a kernel of its own, so
 * that a kernel call still running past the budget is abandoned by stopping the thread (a call
 * cannot be interrupted from JavaScript; one took 28 s on a pair of B-spline faces). The thread
 * starts on first use (about 4 s and 0.6 GB for its kernel) and is kept for the next check.
 */
import type { Worker } from 'node:worker_threads';
import { BrepscopeError, type ErrorPayload, type SelfCheckAnswer, type SelfCheckJob, type SelfCheckThread, type ValidationIssue } from '../engine';
import { startNodeThread } from './meshThreadStart';

export interface SelfCheckRequest {
  id: number;
  job: SelfCheckJob;
  /** Tests only: after this many checks the thread spins as a kernel call that never returns would. */
  hangForTest?: number | undefined;
}

export type SelfCheckReply = { id: number; progress: [done: number, planned: number]; found: ValidationIssue[] } | { id: number; answer: SelfCheckAnswer } | { id: number; error: ErrorPayload };

/** How long past the job's end the thread may take to stop between kernel calls before it is stopped. */
export const STOP_GRACE_MS = 1000;

export interface NodeSelfCheckThreadOptions {
  /** Tests only: job number `job` (1 the first) spins after `afterChecks` checks (see SelfCheckRequest.hangForTest). */
  hangForTest?: { job: number; afterChecks: number };
}

export function createSelfCheckThread(options: NodeSelfCheckThreadOptions = {}): SelfCheckThread & { dispose(): Promise<void> } {
  let worker: Worker | undefined;
  let nextId = 0;
  const start = (): Worker => {
    if (worker) return worker;
    const started = startNodeThread('selfCheckWorker', 'brepscope-self-check');
    // An idle thread must not keep the process alive; a running job holds it by its timer.
    started.unref();
    started.on('exit', () => {
      if (worker === started) worker = undefined;
    });
    return (worker = started);
  };
  const stop = (w: Worker): void => {
    if (worker === w) worker = undefined;
    void w.terminate();
  };
  return {
    warm: () => void start(),
    run(job, progress) {
      const w = start();
      const id = ++nextId;
      let checks = 0, checksDone = 0;
      let found: ValidationIssue[] = [];
      return new Promise((resolve, reject) => {
        const finish = (): void => {
          clearTimeout(timer);
          w.off('message', onMessage);
          w.off('error', onFailure);
          w.off('exit', onFailure);
        };
        const timer = setTimeout(() => {
          finish();
          stop(w);
          resolve({ abandoned: true, checks, checksDone, found });
        }, Math.max(0, job.endAt - Date.now()) + STOP_GRACE_MS);
        const onMessage = (reply: SelfCheckReply): void => {
          if (reply.id !== id) return;
          if ('progress' in reply) {
            [checksDone, checks] = reply.progress;
            found = reply.found;
            progress?.(checksDone, checks);
            return;
          }
          finish();
          if ('answer' in reply) resolve(reply.answer);
          else reject(new BrepscopeError(reply.error.code, reply.error.message));
        };
        const onFailure = (e?: unknown): void => {
          finish();
          stop(w);
          reject(new BrepscopeError('INTERNAL_ERROR', `the self-intersection thread stopped: ${e instanceof Error ? e.message : `exit code ${String(e)}`}`));
        };
        w.on('message', onMessage);
        w.on('error', onFailure);
        w.on('exit', onFailure);
        w.postMessage({ id, job, hangForTest: id === options.hangForTest?.job ? options.hangForTest.afterChecks : undefined } satisfies SelfCheckRequest);
      });
    },
    async dispose() {
      if (worker) await worker.terminate();
      worker = undefined;
    },
  };
}
