import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { BatchSummary } from '../batch/localBatch';
import type { CliIo } from './cliIo';
import { engineLimits, megabytes, positiveSeconds } from './limits';

interface BatchFlags {
  out: string;
  workers?: number;
  jobDeadline?: number;
  maxMemory?: number;
  resume?: boolean;
  overwrite?: boolean;
  queue?: string;
  queueName?: string;
  progress?: boolean;
  root: string[];
}

interface WorkerFlags {
  queue: string;
  queueName?: string;
  workers?: number;
  jobDeadline?: number;
  maxMemory?: number;
  stallCheck?: number;
  root: string[];
}

function count(value: string): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || n < 1 || n > 256) throw new InvalidArgumentError('expected a whole number from 1 to 256');
  return n;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The options `batch` and `worker` share: the queue's name, each machine's engines and the directories they may use. */
function withEngineOptions(cmd: Command, workersHelp: string, deadlineHelp: string, rootHelp: string): Command {
  return cmd
    .option('--root <dir>', rootHelp, collect, [])
    .option('--queue-name <name>', 'the BullMQ queue (default brepscope-batch)')
    .option('--workers <n>', workersHelp, count)
    .option('--job-deadline <seconds>', deadlineHelp, positiveSeconds)
    .option('--max-memory <MiB>', "each engine's memory ceiling (as for tool)", megabytes);
}

const ms = (s: number | undefined): number | undefined => (s === undefined ? undefined : Math.round(s * 1000));

/**
 * `brepscope batch` and `brepscope worker` (docs/batch.md). The batch modules (and BullMQ) load only
 * when one of these commands runs.
 */
export function addBatchCommands(program: Command, io: CliIo, env: NodeJS.ProcessEnv, printJson: (value: unknown) => void, setExit: (code: number) => void): void {
  withEngineOptions(
    program
      .command('batch')
      .description('run a JSON Lines manifest of jobs (docs/batch.md) on a pool of local engines, or through a Redis queue (--queue)')
      .argument('<manifest>', 'JSON Lines: {"id", "bodies": {bodyId: path}, "runs": [{"tool", "args"}]} per line'),
    'engines run at once (default: one per core, as memory allows, about 1.5 GiB each)',
    'stop a job after this many seconds: TIMEOUT in its result (default 300; a job may set "deadline")',
    "a directory the jobs may read and write besides the manifest's own (repeatable); other paths are PATH_OUTSIDE_ROOTS",
  )
    .requiredOption('--out <results.jsonl>', 'results, one JSON line per job, written as jobs finish')
    .option('--resume', 'skip the jobs already in --out')
    .option('--overwrite', 'replace an existing --out')
    .option('--queue <redis-url>', 'enqueue the jobs on BullMQ at redis://host:port/db and collect the results that `brepscope worker` processes write')
    .option('--no-progress', 'no progress line on stderr')
    .action(async (manifest: string, flags: BatchFlags) => {
      const { readManifest } = await import('../batch/manifest');
      const { rootDirs } = await import('../node/confinedFiles');
      const jobs = readManifest(manifest, flags.root);
      // The engines are confined to the directories the manifest was checked against (links resolved:
      // a link inside them that leads out is PATH_OUTSIDE_ROOTS in the job's result).
      const roots = rootDirs([dirname(resolve(manifest)), ...flags.root]);
      const limits = { jobDeadlineMs: ms(flags.jobDeadline), maxMemoryMb: flags.maxMemory ?? engineLimits({}, env).maxMemoryMb, roots };
      const progress = flags.progress === false ? undefined : { write: io.stderr, tty: process.stderr.isTTY === true };
      let summary: BatchSummary;
      if (flags.queue) {
        const { batchKeyOf, runQueuedBatch } = await import('../batch/queueBatch');
        const path = resolve(manifest);
        summary = await runQueuedBatch(jobs, flags.out, {
          ...limits,
          url: flags.queue,
          queueName: flags.queueName,
          batchKey: batchKeyOf(path, readFileSync(path, 'utf8')),
          resume: flags.resume,
          overwrite: flags.overwrite,
          progress,
          log: (line: string) => io.stderr(`brepscope batch: ${line}\n`),
        });
      } else {
        const { defaultWorkerCount, runLocalBatch } = await import('../batch/localBatch');
        const { batchKeyOf } = await import('../batch/jobOutputs');
        const path = resolve(manifest);
        summary = await runLocalBatch(jobs, flags.out, {
          ...limits,
          workers: flags.workers ?? defaultWorkerCount(),
          resume: flags.resume,
          overwrite: flags.overwrite,
          progress,
          batchKey: batchKeyOf(path, readFileSync(path, 'utf8')),
        });
      }
      printJson(summary);
      // A failed job is the input's problem (the batch itself ran): exit 2, as for a tool's bad input.
      if (summary.failed > 0) setExit(2);
    });

  withEngineOptions(
    program.command('worker'),
    'jobs run at once on this machine (default: one per core, as memory allows)',
    'per job, unless the batch or the job sets one (default 300)',
    'confine the jobs\' reads and writes to this directory (repeatable; default: not confined, the collector checked the manifest)',
  )
    .description('process batch jobs from a Redis queue until stopped (SIGTERM or SIGINT: finish the jobs in hand, then exit)')
    .requiredOption('--queue <redis-url>', 'redis://host:port/db')
    .option('--stall-check <seconds>', 'how soon a job of a worker that died is given to another (default 30)', positiveSeconds)
    .action(async (flags: WorkerFlags) => {
      const { defaultWorkerCount } = await import('../batch/localBatch');
      const { startQueueWorker } = await import('../batch/queueBatch');
      const workers = flags.workers ?? defaultWorkerCount();
      const worker = await startQueueWorker({
        url: flags.queue,
        queueName: flags.queueName,
        workers,
        jobDeadlineMs: ms(flags.jobDeadline),
        maxMemoryMb: flags.maxMemory ?? engineLimits({}, env).maxMemoryMb,
        stallMs: ms(flags.stallCheck),
        roots: flags.root.length > 0 ? (await import('../node/confinedFiles')).rootDirs(flags.root) : undefined,
        log: (line) => io.stderr(`${new Date().toISOString()} ${line}\n`),
      });
      io.stderr(`brepscope worker: ${workers} engine(s) on ${flags.queue}\n`);
      await new Promise<void>((done) => {
        const stop = (): void => {
          io.stderr('brepscope worker: stopping after the jobs in hand\n');
          void worker.close().then(done);
        };
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
      printJson({ stopped: true });
    });
}
