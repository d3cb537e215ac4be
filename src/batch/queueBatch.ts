import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { BrepscopeError, resultJson } from '../engine/hostFacts';
import { EngineHost } from '../node/EngineHost';
import { batchKeyOf } from './jobOutputs';
import { runJob, type JobResult } from './jobRunner';
import { jobOwner, peakRssMb, validateJobs, type BatchSummary, type EngineLimitsForJobs } from './localBatch';
import type { BatchJob } from './manifest';
import { ProgressReporter, type ProgressCounts } from './progress';
import { openResults } from './resultsFile';

export const DEFAULT_QUEUE_NAME = 'brepscope-batch';
/** Attempts of a job whose worker died (a crash, a killed process); a job's own failures are results, not retried. */
export const JOB_ATTEMPTS = 3;
const BACKOFF_MS = 5_000;
const SWEEP_MS = 500;
/** How long the collector waits out a Redis it cannot reach (a restart, a failover) before it gives up with QUEUE_UNAVAILABLE. */
export const OUTAGE_LIMIT_MS = 10 * 60_000;
/** The collector's waits between attempts while Redis is away: doubling from the first to the last. */
const OUTAGE_BACKOFF_MS = [500, 10_000] as const;

/** A kept result outlives a collector that is away this long (it is deleted once written to --out). */
const KEPT_RESULT_TTL_S = 7 * 24 * 3600;

/**
 * Where a worker keeps a job's result before the job is acknowledged: an outage or a lapsed lock
 * after the job ran then delays its result, never loses it, and an attempt run again (BullMQ gives
 * a job whose lock lapsed to another worker) returns the kept result instead of running the job again.
 */
export function keptResultKey(queueName: string, queuedId: string): string {
  return `brepscope:${queueName}:result:${queuedId}`;
}

/** What a queued job carries: the job with absolute paths, and the batch's default deadline. */
interface QueuedJob {
  job: BatchJob;
  deadlineMs: number | undefined;
  /** Who the job's outputs belong to (jobOwner); absent in jobs queued before it was added. */
  owner?: string | undefined;
}

/** Opens a Redis connection and checks it answers, so a wrong URL is QUEUE_UNAVAILABLE in seconds, not a silent wait. */
export async function connectQueue(url: string, purpose: 'client' | 'worker'): Promise<Redis> {
  let redis: Redis;
  try {
    // Workers block on Redis: BullMQ requires maxRetriesPerRequest null for them.
    redis = new Redis(url, { maxRetriesPerRequest: purpose === 'worker' ? null : 3, lazyConnect: true, connectTimeout: 5_000, retryStrategy: (n) => Math.min(n * 500, 5_000) });
  } catch (e) {
    throw new BrepscopeError('INVALID_ARGUMENT', `--queue ${url}: not a Redis URL (redis://host:port/db): ${(e as Error).message}`);
  }
  const failed = (e: unknown): BrepscopeError => new BrepscopeError('QUEUE_UNAVAILABLE', `cannot reach the queue at ${url}: ${(e as Error).message}`);
  redis.on('error', () => undefined); // reported through the calls that fail, not as an unhandled event
  try {
    await withTimeout(redis.connect(), 6_000);
    await withTimeout(redis.ping(), 6_000);
  } catch (e) {
    redis.disconnect();
    throw failed(e);
  }
  return redis;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The queue id of a manifest's job: the same manifest (path and content) gives the same ids, so a
 * resumed collector finds the jobs it queued before, and BullMQ's unique job ids keep a job from being
 * queued twice.
 */
export function queuedJobId(batchKey: string, jobId: string): string {
  // BullMQ refuses ':' in a custom id (its key separator).
  return `${batchKey}.${encodeURIComponent(jobId)}`;
}

// The manifest's key is jobOutputs' (a local batch needs it too, without loading BullMQ).
export { batchKeyOf };

export interface QueueBatchOptions extends EngineLimitsForJobs {
  url: string;
  queueName?: string | undefined;
  batchKey: string;
  resume?: boolean | undefined;
  overwrite?: boolean | undefined;
  progress?: { write: (text: string) => void; tty: boolean } | undefined;
  /** How long a Redis outage is waited out (default OUTAGE_LIMIT_MS). */
  outageLimitMs?: number | undefined;
  /** Told when the queue becomes unreachable and when it is back (the CLI: stderr). */
  log?: ((line: string) => void) | undefined;
}

/**
 * Runs queue commands through a Redis outage: a command that fails for want of Redis is tried again
 * with a growing wait (the connection reconnects by itself meanwhile) until the outage has lasted
 * `limitMs`; then QUEUE_UNAVAILABLE. Our own errors (BrepscopeError) pass through at once.
 */
export function outageRider(limitMs: number, url: string, log?: (line: string) => void): <T>(work: () => Promise<T>) => Promise<T> {
  let since: number | undefined;
  return async (work) => {
    for (let wait: number = OUTAGE_BACKOFF_MS[0]; ; wait = Math.min(wait * 2, OUTAGE_BACKOFF_MS[1])) {
      try {
        const value = await work();
        if (since !== undefined) log?.(`the queue at ${url} is back after ${((Date.now() - since) / 1000).toFixed(1)} s`);
        since = undefined;
        return value;
      } catch (e) {
        if (e instanceof BrepscopeError) throw e;
        if (since === undefined) {
          since = Date.now();
          log?.(`the queue at ${url} cannot be reached (${(e as Error).message}); waiting up to ${limitMs / 1000} s for it`);
        }
        if (Date.now() - since >= limitMs) {
          throw new BrepscopeError('QUEUE_UNAVAILABLE', `the queue at ${url} was unreachable for ${((Date.now() - since) / 1000).toFixed(0)} s: ${(e as Error).message}`);
        }
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  };
}

/**
 * Enqueues the manifest's jobs and collects their results into the results file as workers finish
 * them, each job once. Returns when every job has a result.
 */
export async function runQueuedBatch(jobs: readonly BatchJob[], resultsPath: string, options: QueueBatchOptions): Promise<BatchSummary> {
  const started = Date.now();
  const checker = EngineHost.start({ keepScene: false });
  try {
    await validateJobs(checker, jobs);
  } finally {
    await checker.dispose();
  }
  const connection = await connectQueue(options.url, 'client');
  const results = openResults(resultsPath, options);
  const todo = jobs.filter((j) => !results.done.has(j.id));
  const counts: ProgressCounts = { total: jobs.length, done: 0, failed: 0, running: 0, skipped: jobs.length - todo.length };
  const queue = new Queue<QueuedJob, JobResult>(options.queueName ?? DEFAULT_QUEUE_NAME, { connection });
  const reporter = options.progress ? new ProgressReporter(() => counts, options.progress.write, options.progress.tty) : undefined;
  const ride = outageRider(options.outageLimitMs ?? OUTAGE_LIMIT_MS, options.url, options.log);
  // Connection errors come back through the commands that fail (ride); as events they would be unhandled.
  queue.on('error', () => undefined);
  try {
    const pending = new Map(todo.map((j) => [queuedJobId(options.batchKey, j.id), j]));
    // Jobs whose result is written but which are still in Redis (a removal cut off by an outage).
    const written = new Set<string>();
    // A job id already in the queue (a resumed collector, or an add cut off by an outage and tried
    // again) is left as it is: BullMQ ignores the add.
    await ride(() =>
      queue.addBulk(
        todo.map((job) => ({
          name: job.id,
          data: { job, deadlineMs: options.jobDeadlineMs, owner: jobOwner(options.batchKey, job.id) },
          opts: { jobId: queuedJobId(options.batchKey, job.id), attempts: JOB_ATTEMPTS, backoff: { type: 'exponential', delay: BACKOFF_MS } },
        })),
      ),
    );
    reporter?.start();
    const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
    const take = (id: string, result: JobResult): void => {
      // Written (synchronously) before the job leaves Redis: an outage from here on loses nothing,
      // and the job, no longer pending, is never written twice.
      results.append(result);
      pending.delete(id);
      written.add(id);
      if (result.status === 'ok') counts.done++;
      else counts.failed++;
    };
    while (pending.size > 0 || written.size > 0) {
      await ride(async () => {
        counts.running = await queue.getActiveCount();
        // Results the workers kept, whether or not BullMQ took the job's completion (an outage, a lapsed lock).
        const ids = [...pending.keys()];
        for (let at = 0; at < ids.length; at += 1000) {
          const chunk = ids.slice(at, at + 1000);
          const kept = await connection.mget(...chunk.map((id) => keptResultKey(queueName, id)));
          chunk.forEach((id, k) => {
            if (kept[k]) take(id, JSON.parse(kept[k]!) as JobResult);
          });
        }
        for (const queued of await queue.getJobs(['completed', 'failed'])) {
          if (!queued?.id || !pending.has(queued.id)) continue;
          const job = pending.get(queued.id)!;
          const result = await finishedResult(queued, job);
          if (result) take(queued.id, result);
        }
        for (const id of written) {
          // A job still locked by a worker (an attempt returning the kept result) is removed on a later sweep.
          if ((await queue.remove(id)) !== 1 && (await queue.getJobState(id)) === 'active') continue;
          await connection.del(keptResultKey(queueName, id));
          written.delete(id);
        }
      });
      if (pending.size > 0) await new Promise((r) => setTimeout(r, SWEEP_MS));
    }
  } catch (e) {
    if (e instanceof BrepscopeError) throw e;
    throw new BrepscopeError('QUEUE_UNAVAILABLE', `the queue at ${options.url} failed: ${(e as Error).message}`);
  } finally {
    reporter?.stop();
    await queue.close();
    connection.disconnect();
  }
  return { jobs: jobs.length, ok: counts.done, failed: counts.failed, resumed: counts.skipped, workers: 0, ms: Date.now() - started, peakRssMb: peakRssMb(), results: resultsPath };
}

/** A finished queue job as a result line; a job that failed in BullMQ (its workers died every attempt) is a failed result saying so. */
async function finishedResult(queued: Job<QueuedJob, JobResult>, job: BatchJob): Promise<JobResult | undefined> {
  const state = await queued.getState();
  if (state === 'completed') return queued.returnvalue;
  if (state !== 'failed') return undefined;
  return {
    id: job.id,
    status: 'failed',
    runs: [],
    outputs: [],
    ms: 0,
    error: { code: 'ENGINE_CRASHED', message: `no worker finished the job in ${queued.attemptsMade} attempt(s): ${queued.failedReason}` },
  };
}

function engineCrashed(result: JobResult): boolean {
  return result.error?.code === 'ENGINE_CRASHED' || result.runs.some((r) => 'error' in r && r.error.code === 'ENGINE_CRASHED');
}

/**
 * BullMQ's lock and stalled-check periods for `--stall-check` seconds. A dead worker's lock lapses at
 * most one lock duration after its last renewal, and the next stalled check (every interval, on any
 * live worker) then gives the job back: half the time to each, so the job is back within stallMs
 * (with both at stallMs, as before, it took 46 to 53 s for 30). Live workers renew every quarter.
 */
export function stallTimings(stallMs: number): { lockDuration: number; stalledInterval: number; lockRenewTime: number } {
  const half = Math.max(500, Math.floor(stallMs / 2));
  return { lockDuration: half, stalledInterval: half, lockRenewTime: Math.floor(half / 2) };
}

export interface QueueWorkerOptions extends EngineLimitsForJobs {
  url: string;
  queueName?: string | undefined;
  workers: number;
  /** How soon a job whose worker died goes back to the queue (BullMQ's lock duration). */
  stallMs?: number | undefined;
  log?: (line: string) => void;
}

/** A running queue worker; `close` finishes the jobs in hand and stops. */
export interface QueueWorker {
  close(): Promise<void>;
}

/**
 * Runs queued jobs with `workers` engines, each job with the same runner as a local batch, until closed.
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const connection = await connectQueue(options.url, 'worker');
  const free = Array.from({ length: Math.max(1, options.workers) }, () => EngineHost.start({ keepScene: false, maxMemoryMb: options.maxMemoryMb, roots: options.roots }));
  const all = [...free];
  const stallMs = options.stallMs ?? 30_000;
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const worker = new Worker<QueuedJob, JobResult>(
    queueName,
    async (queued) => {
      const host = free.pop();
      if (!host) throw new Error('no free engine (concurrency above the engine count)');
      try {
        const key = keptResultKey(queueName, queued.id!);
        const kept = await connection.get(key);
        if (kept) {
          options.log?.(`job ${queued.data.job.id} has a kept result (attempt ${queued.attemptsMade + 1}): not run again`);
          return JSON.parse(kept) as JobResult;
        }
        options.log?.(`job ${queued.data.job.id} started (attempt ${queued.attemptsMade + 1})`);
        const result = await runJob(host, queued.data.job, queued.data.deadlineMs ?? options.jobDeadlineMs, queued.data.owner);
        options.log?.(`job ${queued.data.job.id} ${result.status} in ${result.ms} ms`);
        // An engine that crashed is our failure, maybe passing: BullMQ retries with backoff; the last attempt's result stands.
        if (engineCrashed(result) && queued.attemptsMade + 1 < JOB_ATTEMPTS) throw new Error(`job ${queued.data.job.id}: the engine crashed; retrying`);
        // Kept before the job is acknowledged; through an outage the command waits for Redis (a worker's
        // connection retries without limit), so a result is never lost to it.
        await connection.set(key, resultJson(result), 'EX', KEPT_RESULT_TTL_S);
        return result;
      } finally {
        free.push(host);
      }
    },
    { connection, concurrency: all.length, ...stallTimings(stallMs), maxStalledCount: JOB_ATTEMPTS - 1, autorun: true },
  );
  worker.on('error', (e) => options.log?.(`queue error: ${e.message}`));
  return {
    async close() {
      await worker.close();
      await Promise.all(all.map((h) => h.dispose()));
      connection.disconnect();
    },
  };
}
