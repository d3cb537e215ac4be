import { BrepscopeError, toErrorPayload, type ErrorPayload } from '../errors';
import type { OC } from '../kernel';
import { timerDelay } from '../timerDelay';
import { runSelfCheckJob, type SelfCheckAnswer, type SelfCheckJob, type SelfCheckThread } from './selfCheckJob';
import type { ValidationIssue } from './shapeIssues';

/**
 * The self-check thread of every host (Node's worker thread, the browser's nested web worker): the
 * job protocol, the host side that starts the thread, waits for its kernel and stops the thread one
 * second past the budget, and the thread side that answers jobs. The host gives only how a thread
 * is started and talked to (SelfCheckPlatform), so neither side knows Node or the DOM.
 */
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
  /** The thread's kernel could not be loaded (a browser worker's failed promise raises no error event). */
  | { startFailed: ErrorPayload }
  | { id: number; progress: [done: number, planned: number]; found: ValidationIssue[] }
  | { id: number; answer: SelfCheckAnswer }
  | { id: number; error: ErrorPayload };

/** How long past the job's end the thread may take to stop between kernel calls before it is stopped. */
export const STOP_GRACE_MS = 1000;
/** The thread's start (its kernel: about 4 s, several times that on a loaded machine) is bounded on its own. */
export const START_LIMIT_MS = 120_000;

/** One started thread as the host sees it. */
export interface SelfCheckWorker {
  post(request: SelfCheckRequest): void;
  /** Each listener is called with every reply; the returned function removes it. */
  onReply(listener: (reply: SelfCheckReply) => void): () => void;
  /** The thread failed or ended on its own; the returned function removes the listener. */
  onFailure(listener: (error: Error) => void): () => void;
  /** Node's resolves once the thread has ended. */
  terminate(): void | Promise<unknown>;
}

export interface SelfCheckPlatform {
  /** A new thread on the self-check entry; it loads its kernel at once (serveSelfCheckJobs). */
  start(): SelfCheckWorker;
}

export interface SelfCheckHostOptions {
  /** Tests only: job number `job` (1 the first) spins after `afterChecks` checks (see SelfCheckRequest.hangForTest). */
  hangForTest?: { job: number; afterChecks: number };
}

export interface SelfCheckHost extends SelfCheckThread {
  /** Tests only: the next job spins after `afterChecks` checks, as a kernel call that never returns. */
  hangNextJobForTest(afterChecks: number): void;
  /** Stops the thread, if any. */
  dispose(): Promise<void>;
}

interface Started {
  worker: SelfCheckWorker;
  /** Resolves once the thread's kernel is loaded; rejects if the thread fails first. */
  ready: Promise<void>;
}

const failed = (e: unknown): BrepscopeError =>
  new BrepscopeError('INTERNAL_ERROR', `the self-intersection thread stopped: ${e instanceof Error ? e.message : String(e)}`);

/**
 * The engine's SelfCheckThread on a platform's threads: one thread started on first use (warm) and
 * kept for the next job; a job still running one second past its budget is abandoned with its
 * thread (the checks done so far reported), and the next job starts a new one.
 */
export function createSelfCheckHost(platform: SelfCheckPlatform, options: SelfCheckHostOptions = {}): SelfCheckHost {
  let current: Started | undefined;
  let nextId = 0;
  let hang = options.hangForTest;
  const start = (): Started => {
    if (current) return current;
    const worker = platform.start();
    const ready = new Promise<void>((resolve, reject) => {
      worker.onReply((reply) => {
        if ('ready' in reply) resolve();
        else if ('startFailed' in reply) reject(new Error(reply.startFailed.message));
      });
      worker.onFailure(reject);
    });
    // A failure before anyone waits is seen by the next run, not reported as unhandled.
    ready.catch(() => undefined);
    worker.onFailure(() => {
      if (current?.worker === worker) current = undefined;
    });
    return (current = { worker, ready });
  };
  const stop = (w: SelfCheckWorker): void => {
    if (current?.worker === w) current = undefined;
    void w.terminate();
  };
  return {
    warm: () => void start(),
    hangNextJobForTest(afterChecks) {
      hang = { job: nextId + 1, afterChecks };
    },
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
      const seconds = (): number => Number(((Date.now() - postedAt) / 1000).toFixed(3));
      let checks = 0, checksDone = 0;
      let found: ValidationIssue[] = [];
      return new Promise((resolve, reject) => {
        const finish = (): void => {
          clearTimeout(timer);
          offReply();
          offFailure();
        };
        // A budget past a timer's range is unbounded in effect; the host's deadline stops the call.
        const timer = setTimeout(() => {
          finish();
          stop(w);
          resolve({ abandoned: true, checks, checksDone, seconds: seconds(), found });
        }, timerDelay(job.budgetMs + STOP_GRACE_MS));
        const offReply = w.onReply((reply) => {
          if (!('id' in reply) || reply.id !== id) return;
          if ('progress' in reply) {
            [checksDone, checks] = reply.progress;
            found = reply.found;
            progress?.(checksDone, checks);
            return;
          }
          finish();
          // seconds from the job's start, the shape's reading included, as for an abandoned job.
          if ('answer' in reply) resolve({ ...reply.answer, report: { ...reply.answer.report, seconds: seconds() } });
          else reject(new BrepscopeError(reply.error.code, reply.error.message));
        });
        const offFailure = w.onFailure((e) => {
          finish();
          stop(w);
          reject(failed(e));
        });
        const hangForTest = hang?.job === id ? hang.afterChecks : undefined;
        w.post({ id, job, endAt, hangForTest });
      });
    },
    async dispose() {
      const w = current?.worker;
      current = undefined;
      await w?.terminate();
    },
  };
}

/** The thread's end of a channel to its host. */
export interface SelfCheckPort {
  post(reply: SelfCheckReply): void;
  onRequest(listener: (request: SelfCheckRequest) => void): void;
}

/**
 * The thread side: the kernel (loading now, so the host's job finds it ready), then each job run to
 * its end (endAt) with progress and what was found so far, which the host keeps if it stops the thread.
 */
export function serveSelfCheckJobs(port: SelfCheckPort, kernel: Promise<OC>): void {
  kernel.then(
    () => port.post({ ready: true }),
    (e: unknown) => port.post({ startFailed: toErrorPayload(e) }),
  );
  port.onRequest((request) => void answer(port, kernel, request));
}

async function answer(port: SelfCheckPort, kernel: Promise<OC>, request: SelfCheckRequest): Promise<void> {
  const { id, job, endAt } = request;
  try {
    const oc = await kernel;
    const answer = runSelfCheckJob(oc, job, endAt, (done, planned, found) => {
      port.post({ id, progress: [done, planned], found: found() });
      if (done === request.hangForTest) for (;;); // a kernel call that never returns, as far as the host can tell
    });
    port.post({ id, answer });
  } catch (e) {
    port.post({ id, error: toErrorPayload(e) });
  }
}
