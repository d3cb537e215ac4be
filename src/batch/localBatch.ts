import { availableParallelism, totalmem } from 'node:os';
import { BrepscopeError, toErrorPayload } from '../engine/hostFacts';
import { EngineHost } from '../node/EngineHost';
import { runJob, type JobResult } from './jobRunner';
import type { BatchJob } from './manifest';
import { ProgressReporter, type ProgressCounts } from './progress';
import { openResults } from './resultsFile';

/** Memory one worker needs: the kernel (~0.6 GiB started) plus a large pair's meshes and caches. */
const WORKER_MEMORY_BYTES = 1.5 * 2 ** 30;

/** One worker per core, as many as memory allows (leaving 1 GiB to the system), at least one. */
export function defaultWorkerCount(cores = availableParallelism(), memoryBytes = totalmem()): number {
  return Math.max(1, Math.min(cores, Math.floor((memoryBytes - 2 ** 30) / WORKER_MEMORY_BYTES)));
}

export interface EngineLimitsForJobs {
  /** Per job, unless the job sets its own (jobRunner's default otherwise). */
  jobDeadlineMs?: number | undefined;
  /** Each worker's engine memory ceiling (EngineHost). */
  maxMemoryMb?: number | undefined;
  /** Confine every engine's reads and writes to these directories (absolute, links resolved: rootDirs); default: no confinement. */
  roots?: readonly string[] | undefined;
}

export interface LocalBatchOptions extends EngineLimitsForJobs {
  workers: number;
  resume?: boolean | undefined;
  overwrite?: boolean | undefined;
  /** Progress on stderr; `tty` redraws in place. */
  progress?: { write: (text: string) => void; tty: boolean } | undefined;
  /** Names the batch (batchKeyOf): a job's outputs are claimed for `<batchKey>/<job id>`. */
  batchKey?: string | undefined;
}

export interface BatchSummary {
  jobs: number;
  ok: number;
  failed: number;
  /** In the results file before this run (--resume). */
  resumed: number;
  workers: number;
  ms: number;
  /** This process's peak resident memory, every engine thread included. */
  peakRssMb: number;
  results: string;
}

/** Who a job's outputs belong to: the job of this manifest (its path and content, batchKeyOf) with this id. */
export function jobOwner(batchKey: string, jobId: string): string {
  return `${batchKey}/${jobId}`;
}

export function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
}

/**
 * Every run's tool and arguments checked against the registry's schemas before any job starts: a
 * typo on line 900 should not surface after eight hours.
 */
export async function validateJobs(host: Pick<EngineHost, 'validate'>, jobs: readonly BatchJob[]): Promise<void> {
  const problems: string[] = [];
  for (const job of jobs) {
    for (const [index, run] of job.runs.entries()) {
      try {
        await host.validate(run.tool, run.args);
      } catch (e) {
        const { code, message } = toErrorPayload(e);
        problems.push(`manifest line ${job.line} (job ${job.id}), run ${index + 1} (${run.tool}): ${code}: ${message}`);
      }
    }
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? [`... and ${problems.length - shown.length} more`] : [];
    throw new BrepscopeError('MANIFEST_INVALID', [`${problems.length} run(s) of the manifest are invalid; nothing was run:`, ...shown, ...more].join('\n'), { lines: problems });
  }
}

/** A pool of engines, each in its own worker thread with its own kernel, taking the next job when free. */
export async function runLocalBatch(jobs: readonly BatchJob[], resultsPath: string, options: LocalBatchOptions): Promise<BatchSummary> {
  const started = Date.now();
  const hosts = [EngineHost.start({ keepScene: false, maxMemoryMb: options.maxMemoryMb, roots: options.roots })];
  let reporter: ProgressReporter | undefined;
  let counts: ProgressCounts | undefined;
  try {
    // Before the results file is touched: an invalid manifest leaves nothing behind.
    await validateJobs(hosts[0]!, jobs);
    const results = openResults(resultsPath, options);
    const todo = jobs.filter((j) => !results.done.has(j.id));
    const live: ProgressCounts = { total: jobs.length, done: 0, failed: 0, running: 0, skipped: jobs.length - todo.length };
    counts = live;
    const workers = Math.max(1, Math.min(options.workers, todo.length || 1));
    while (hosts.length < workers) hosts.push(EngineHost.start({ keepScene: false, maxMemoryMb: options.maxMemoryMb, roots: options.roots }));
    if (options.progress) reporter = new ProgressReporter(() => live, options.progress.write, options.progress.tty);
    reporter?.start();
    let next = 0;
    const record = (result: JobResult): void => {
      results.append(result);
      live.running--;
      if (result.status === 'ok') live.done++;
      else live.failed++;
    };
    await Promise.all(
      hosts.map(async (host) => {
        for (let job = todo[next++]; job !== undefined; job = todo[next++]) {
          live.running++;
          record(await runJob(host, job, options.jobDeadlineMs, options.batchKey === undefined ? undefined : jobOwner(options.batchKey, job.id)));
        }
      }),
    );
  } finally {
    reporter?.stop();
    await Promise.all(hosts.map((h) => h.dispose()));
  }
  return { jobs: jobs.length, ok: counts.done, failed: counts.failed, resumed: counts.skipped, workers: hosts.length, ms: Date.now() - started, peakRssMb: peakRssMb(), results: resultsPath };
}
