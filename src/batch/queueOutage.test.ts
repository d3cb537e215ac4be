import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxStl } from '../test/batchJobs';
import { dataPath, TEST_DATA_DIR } from '../test/data';
import { readManifest } from './manifest';
import { batchKeyOf, runQueuedBatch, stallTimings, startQueueWorker, type QueueWorker } from './queueBatch';
import { readResults } from './resultsFile';
import { freePort } from '../test/freePort';

// Issue 35, item 5: the queue collector exited on a 5 s Redis outage (QUEUE_UNAVAILABLE) and needed
// a manual --resume. It now waits the outage out, reconnects, and every job gets its result once.

let dir: string;
let port = 0;
let redis: ChildProcess | undefined;
let worker: QueueWorker | undefined;

/** A Redis that keeps its data across a restart (append-only file in the test's folder), loopback only. */
function startRedis(): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: 'ignore' });
}
const cli = (...args: string[]): string => spawnSync('redis-cli', ['-p', String(port), ...args]).stdout?.toString().trim() ?? '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-outage-'));
  port = await freePort();
  redis = startRedis();
  await waitFor(() => cli('ping') === 'PONG', 'redis-server did not answer');
});

afterAll(async () => {
  await worker?.close();
  redis?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('queue collector through a Redis outage', () => {
  it('Redis stopped after the jobs are queued and started again ~10 s later: the collector waits, reconnects, and writes each of the 6 results once', async () => {
    const sizes = Array.from({ length: 6 }, (_, i) => [10 + i, 7, 3 + i] as const);
    sizes.forEach((size, i) => writeFileSync(join(dir, `box${i}.stl`), boxStl([0, 0, 0], [...size])));
    const manifest = join(dir, 'jobs.jsonl');
    const text = sizes.map((_, i) => JSON.stringify({ id: `box${i}`, bodies: { box: `box${i}.stl` }, runs: [{ tool: 'compute_metrics', args: { bodyId: 'box', metrics: ['volume'] } }] })).join('\n') + '\n';
    writeFileSync(manifest, text);
    const out = join(dir, 'results.jsonl');
    const queueName = `outage-${process.pid}`;
    const logs: string[] = [];
    const collecting = runQueuedBatch(readManifest(manifest), out, { url: `redis://127.0.0.1:${port}/0`, queueName, batchKey: batchKeyOf(manifest, text), log: (line) => logs.push(line) }).then(
      (summary) => ({ summary }),
      (error: unknown) => ({ error }),
    );

    // No worker yet: the six jobs wait in Redis, and the collector polls for results.
    await waitFor(() => cli('LLEN', `bull:${queueName}:wait`) === '6', 'the jobs were not queued');
    const jobKey = `bull:${queueName}:${batchKeyOf(manifest, text)}.box0`;
    expect(cli('EXISTS', jobKey)).toBe('1');
    cli('SHUTDOWN');
    await new Promise((done) => redis!.once('exit', done));
    await waitFor(() => logs.some((l) => l.includes('cannot be reached')), 'the collector did not notice the outage');
    await new Promise((r) => setTimeout(r, 8_000));
    redis = startRedis();
    await waitFor(() => cli('ping') === 'PONG', 'redis-server did not come back');
    worker = await startQueueWorker({ url: `redis://127.0.0.1:${port}/0`, queueName, workers: 1 });

    const outcome = await collecting;
    expect(outcome, JSON.stringify(logs)).toHaveProperty('summary');
    expect((outcome as { summary: unknown }).summary).toMatchObject({ jobs: 6, ok: 6, failed: 0 });
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(6);
    const results = readResults(out);
    sizes.forEach((size, i) => {
      const run = results.get(`box${i}`)!.runs[0] as { result: { volume: number } };
      expect(run.result.volume).toBeCloseTo(size[0] * size[1] * size[2], 9);
    });
    expect(logs.some((l) => /is back after \d+\.\d s/.test(l)), JSON.stringify(logs)).toBe(true);
    // Nothing of the batch is left in Redis once its results are written.
    expect(cli('EXISTS', jobKey)).toBe('0');
  }, 180_000);
});

describe('a worker whose job ends while Redis is away, past its lock', () => {
  it('the result is kept before the job is acknowledged: written once, and the job is not run a second time', async () => {
    // A job that ends at its own 6 s deadline (a BRepMesh at 1e-5 runs for minutes): TIMEOUT, a result.
    const manifest = join(dir, 'hang.jsonl');
    const text = JSON.stringify({ id: 'hang', bodies: { scan: dataPath('occt/sh1.stl'), part: dataPath('occt/bottle.brep') }, runs: [{ tool: 'measure_deviation', args: { fromBodyId: 'scan', toBodyId: 'part', deflection: 1e-5 } }], deadline: 6 }) + '\n';
    writeFileSync(manifest, text);
    const out = join(dir, 'hang-results.jsonl');
    const queueName = `kept-${process.pid}`;
    const url = `redis://127.0.0.1:${port}/0`;
    const workerLog: string[] = [];
    // A 4 s stall check: the lock lasts 2 s, so it lapses during the outage below.
    const hangWorker = await startQueueWorker({ url, queueName, workers: 1, stallMs: 4_000, log: (line) => workerLog.push(line) });
    try {
      // The bodies are test-data's, outside the manifest's directory: a root of the batch.
      const collecting = runQueuedBatch(readManifest(manifest, [TEST_DATA_DIR]), out, { url, queueName, batchKey: batchKeyOf(manifest, text) }).then(
        (summary) => ({ summary }),
        (error: unknown) => ({ error }),
      );
      await waitFor(() => workerLog.some((l) => l.includes('job hang started')), 'the job did not start');
      cli('SHUTDOWN');
      await new Promise((done) => redis!.once('exit', done));
      // The job ends (TIMEOUT at its deadline) while Redis is away; then the lock lapses for sure.
      await waitFor(() => workerLog.some((l) => l.includes('job hang failed in')), 'the job did not end');
      await new Promise((r) => setTimeout(r, 5_000));
      redis = startRedis();
      await waitFor(() => cli('ping') === 'PONG', 'redis-server did not come back');

      const outcome = await collecting;
      expect(outcome, JSON.stringify(workerLog)).toHaveProperty('summary');
      expect((outcome as { summary: unknown }).summary).toMatchObject({ jobs: 1, ok: 0, failed: 1 });
      const lines = readFileSync(out, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ id: 'hang', status: 'failed', runs: [{ tool: 'measure_deviation', error: { code: 'TIMEOUT' } }] });
      expect(workerLog.filter((l) => l.includes('job hang started')), JSON.stringify(workerLog)).toHaveLength(1);
    } finally {
      await hangWorker.close();
    }
  }, 240_000);
});

describe('stalled jobs: back in the queue within --stall-check', () => {
  it('a lapsed lock (at most one lock duration after the last renewal) plus the next check (one interval) fit in the stall time; live workers renew well before it lapses', () => {
    for (const stallMs of [1000, 2000, 30_000, 45_001]) {
      const t = stallTimings(stallMs);
      expect(t.lockDuration + t.stalledInterval, String(stallMs)).toBeLessThanOrEqual(stallMs);
      expect(t.lockRenewTime * 2, String(stallMs)).toBeLessThanOrEqual(t.lockDuration);
    }
  });
});


/** Polls `check` every 100 ms, at most 600 times (a bound on the count, not a timing budget). */
async function waitFor(check: () => boolean, message: string): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i >= 600) throw new Error(message);
    await new Promise((r) => setTimeout(r, 100));
  }
}
