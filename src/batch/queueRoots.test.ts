import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxStl } from '../test/batchJobs';
import { startThrowawayRedis } from '../test/throwawayRedis';
import type { BatchJob } from './manifest';
import { runQueuedBatch, startQueueWorker } from './queueBatch';
import { readResults } from './resultsFile';

/**
 * A queue worker's roots are its own defence: the jobs here are queued as built, without the
 * manifest check the CLI's submitter makes, so only the worker's engines stand between a job and a
 * file outside its roots.
 */
describe('brepscope worker --root, on BullMQ over a real redis-server', () => {
  let redis: ChildProcess | undefined;
  let url = '';
  const dir = mkdtempSync(join(tmpdir(), 'brepscope-queue-roots-'));
  const root = join(dir, 'root'), outside = join(dir, 'outside');

  beforeAll(async () => {
    ({ url, process: redis } = await startThrowawayRedis());
    mkdirSync(root);
    mkdirSync(outside);
    writeFileSync(join(root, 'box.stl'), boxStl([0, 0, 0], [10, 20, 30]));
    writeFileSync(join(outside, 'box.stl'), boxStl([0, 0, 0], [10, 20, 30]));
  });

  afterAll(() => {
    redis?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a job inside its roots; a body or an output outside is PATH_OUTSIDE_ROOTS and nothing is written there', async () => {
    const queueName = `roots-${process.pid}-${Date.now()}`;
    const worker = await startQueueWorker({ url, queueName, workers: 1, roots: [root] });
    try {
      const histogram = (outputPath: string) => [{ tool: 'deviation_histogram', args: { fromBodyId: 'scan', referenceBodyId: 'part', outputPath } }];
      const jobs: BatchJob[] = [
        { id: 'inside', line: 1, bodies: { b: join(root, 'box.stl') }, runs: [{ tool: 'compute_metrics', args: { bodyId: 'b', metrics: ['volume'] } }] },
        { id: 'body-outside', line: 2, bodies: { b: join(outside, 'box.stl') }, runs: [{ tool: 'compute_metrics', args: { bodyId: 'b', metrics: ['volume'] } }] },
        { id: 'output-outside', line: 3, bodies: { scan: join(root, 'box.stl'), part: join(root, 'box.stl') }, runs: histogram(join(outside, 'histogram.png')) },
        { id: 'output-inside', line: 4, bodies: { scan: join(root, 'box.stl'), part: join(root, 'box.stl') }, runs: histogram(join(root, 'histogram.png')) },
      ];
      const out = join(dir, 'results.jsonl');
      const summary = await runQueuedBatch(jobs, out, { url, queueName, batchKey: `roots-${Date.now()}` });
      expect(summary).toMatchObject({ jobs: 4, ok: 2, failed: 2 });
      const results = readResults(out);
      const inside = results.get('inside')!;
      expect(inside.status).toBe('ok');
      expect((inside.runs[0] as { result: { volume: number } }).result.volume).toBeCloseTo(6000, 6);
      expect(results.get('body-outside')).toMatchObject({ status: 'failed', error: { code: 'PATH_OUTSIDE_ROOTS' } });
      expect(results.get('output-outside')).toMatchObject({ status: 'failed', runs: [{ tool: 'deviation_histogram', error: { code: 'PATH_OUTSIDE_ROOTS' } }] });
      expect(results.get('output-inside')!.status).toBe('ok');
      expect(existsSync(join(root, 'histogram.png'))).toBe(true);
      expect(existsSync(join(outside, 'histogram.png'))).toBe(false);
      expect(readFileSync(join(outside, 'box.stl'), 'utf8')).toBe(boxStl([0, 0, 0], [10, 20, 30]));
    } finally {
      await worker.close();
    }
  }, 180_000);
});
