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
  /** When the checks must stop, in Date.now() milliseconds (set once the thread is ready). */
  endAt: number;
  /** Tests only: after this many checks the thread spins as a kernel call that never returns would. */
  hangForTest?: number | undefined;
}

export type SelfCheckReply =
  | { ready: true }
  | { id: number; progress: [done: number, planned: number]; found: ValidationIssue[] }
  | { id: number; answer: SelfCheckAnswer }
  | { id: number; error: ErrorPayload };

/** How long past the job's end the thread may take to stop between kernel calls before it is stopped. */
export const STOP_GRACE_MS = 1000;
/** The thread's start (its kernel: about 4 s, several times that on a loaded machine) is bounded on its own. */
export const START_LIMIT_MS = 120_000;

export interface NodeSelfCheckThreadOptions {
  /** Tests only: job number `job` (1 the first) spins after `afterChecks` checks (see SelfCheckRequest.hangForTest). */
  hangForTest?: { job: number; afterChecks: number };
}

interface Started {
  worker: Worker;
  /** Resolves once the thread's kernel is loaded; rejects if the thread fails first. */
  ready: Promise<void>;
}

export function createSelfCheckThread(options: NodeSelfCheckThreadOptions = {}): SelfCheckThread & { dispose(): Promise<void> } {
  let current: Started | undefined;
  let nextId = 0;
  const start = (): Started => {
    if (current) return current;
    const worker = startNodeThread('selfCheckWorker', 'brepscope-self-check');
    // An idle thread must not keep the process alive; a running job holds it by its timer.
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (reply: SelfCheckReply) => void ('ready' in reply && resolve()));
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`exit code ${code}`)));
    });
    // A failure before anyone waits is seen by the next run, not reported as unhandled.
    ready.catch(() => undefined);
    worker.on('exit', () => {
      if (current?.worker === worker) current = undefined;
    });
    return (current = { worker, ready });
  };
  const stop = (w: Worker): void => {
    if (current?.worker === w) current = undefined;
    void w.terminate();
  };
  const failed = (e: unknown): BrepscopeError =>
    new BrepscopeError('INTERNAL_ERROR', `the self-intersection thread stopped: ${e instanceof Error ? e.message : String(e)}`);
  return {
    warm: () => void start(),
    async run(job, progress) {
      const { worker: w, ready } = start();
      let startTimer: ReturnType<typeof setTimeout> | undefined;
      const started = await Promise.race([
        ready.then(() => true),
        new Promise<false>((resolve) => (startTimer = setTimeout(() => resolve(false), START_LIMIT_MS))),
      ]).catch((e: unknown) => {
        stop(w);
        throw failed(e);
      });
      clearTimeout(startTimer);
      if (!started) {
        stop(w);
        return { abandoned: true, checks: 0, checksDone: 0, seconds: 0, found: [] };
      }
      const id = ++nextId;
      const postedAt = Date.now();
      const endAt = postedAt + job.budgetMs;
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
          resolve({ abandoned: true, checks, checksDone, seconds: Number(((Date.now() - postedAt) / 1000).toFixed(3)), found });
        }, job.budgetMs + STOP_GRACE_MS);
        const onMessage = (reply: SelfCheckReply): void => {
          if ('ready' in reply || reply.id !== id) return;
          if ('progress' in reply) {
            [checksDone, checks] = reply.progress;
            found = reply.found;
            progress?.(checksDone, checks);
            return;
          }
          finish();
          // seconds from the job's start, the shape's reading included, as for an abandoned job.
          if ('answer' in reply) resolve({ ...reply.answer, report: { ...reply.answer.report, seconds: Number(((Date.now() - postedAt) / 1000).toFixed(3)) } });
          else reject(new BrepscopeError(reply.error.code, reply.error.message));
        };
        const onFailure = (e?: unknown): void => {
          finish();
          stop(w);
          reject(failed(e instanceof Error ? e : `exit code ${String(e)}`));
        };
        w.on('message', onMessage);
        w.on('error', onFailure);
        w.on('exit', onFailure);
        w.postMessage({ id, job, endAt, hangForTest: id === options.hangForTest?.job ? options.hangForTest.afterChecks : undefined } satisfies SelfCheckRequest);
      });
    },
    async dispose() {
      if (current) await current.worker.terminate();
      current = undefined;
    },
  };
}
