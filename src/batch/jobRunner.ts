import { toErrorPayload, type ErrorPayload } from '../engine/hostFacts';
import type { EngineHost } from '../node/EngineHost';
import type { BatchJob } from './manifest';

/** Per job, unless the batch or the job sets its own: long enough for any real pair in test-data, short enough that a stuck job does not hold a worker for the night. */
export const DEFAULT_JOB_DEADLINE_MS = 5 * 60_000;

export type RunRecord = { tool: string; result: unknown } | { tool: string; error: ErrorPayload };

/** One line of the results file. */
export interface JobResult {
  id: string;
  status: 'ok' | 'failed';
  runs: RunRecord[];
  /** Files the job's runs wrote. */
  outputs: string[];
  ms: number;
  /** Why the job failed before its runs could start (a body that did not load). */
  error?: ErrorPayload;
}

/** The engine calls a job needs: an EngineHost, or anything shaped like one (tests). */
export type JobEngine = Pick<EngineHost, 'runJson' | 'load' | 'clear'>;

/**
 * Runs one job in a fresh scene on an engine that is not shared with any other job meanwhile. The
 * local pool and the queue worker both call this, so their results are the same. Never throws: every
 * failure is in the result. Runs stop at the first failure (a later run may need an earlier one, e.g.
 * an alignment applied before a deviation); the runs not attempted say so with SKIPPED.
 */
export async function runJob(engine: JobEngine, job: BatchJob, defaultDeadlineMs = DEFAULT_JOB_DEADLINE_MS, owner?: string): Promise<JobResult> {
  const started = Date.now();
  const deadlineMs = job.deadlineMs ?? defaultDeadlineMs;
  const endAt = started + deadlineMs;
  const budget = () => ({ deadlineMs: Math.max(1, endAt - Date.now()), deadlineLabel: `the job's ${deadlineMs / 1000} s deadline` });
  const runs: RunRecord[] = [];
  const outputs: string[] = [];
  const finish = (status: JobResult['status'], error?: ErrorPayload): JobResult => ({
    id: job.id,
    status,
    runs,
    outputs,
    ms: Date.now() - started,
    ...(error ? { error } : {}),
  });
  try {
    await engine.clear();
    for (const [bodyId, path] of Object.entries(job.bodies)) {
      try {
        await engine.load({ path, bodyId }, budget());
      } catch (e) {
        const error = toErrorPayload(e);
        return finish('failed', { ...error, message: `body ${bodyId} (${path}): ${error.message}` });
      }
    }
    let failedAt = -1;
    for (const [index, run] of job.runs.entries()) {
      if (failedAt >= 0) {
        runs.push({ tool: run.tool, error: { code: 'SKIPPED', message: `not run: run ${failedAt + 1} (${job.runs[failedAt]!.tool}) failed` } });
        continue;
      }
      try {
        // Every file the run writes is the job's (src/node/ownedFiles.ts): an earlier attempt's file
        // is replaced, another job's never.
        const outcome = await engine.runJson(run.tool, run.args, { ...budget(), owner });
        runs.push({ tool: run.tool, result: outcome.result });
        outputs.push(...outcome.outputs.map((o) => o.path));
      } catch (e) {
        runs.push({ tool: run.tool, error: toErrorPayload(e) });
        failedAt = index;
      }
    }
    return finish(failedAt >= 0 ? 'failed' : 'ok');
  } catch (e) {
    return finish('failed', toErrorPayload(e));
  } finally {
    // Frees the job's bodies now rather than when the next job starts; a failure here is retried then.
    await engine.clear().catch(() => undefined);
  }
}
