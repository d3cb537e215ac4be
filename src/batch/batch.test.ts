import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxStl, writeBatchFixture, type BatchFixture } from '../test/batchJobs';
import type { JobResult } from './jobRunner';
import { runLocalBatch } from './localBatch';
import { parseManifest, readManifest } from './manifest';
import { progressLine } from './progress';
import { batchKeyOf, runQueuedBatch } from './queueBatch';
import { openResults, readResults } from './resultsFile';
import { testRoot } from '../test/testEngine';
import { startThrowawayRedis } from '../test/throwawayRedis';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The binary, run from testRoot(): a relative path a run writes lands there, never in the checkout. */
const BIN = join(ROOT, 'bin', 'brepscope.js');

describe('batch manifest', () => {
  it('resolves body paths and file arguments against the manifest directory', () => {
    const [job] = parseManifest(
      JSON.stringify({ id: 'a', bodies: { p: 'parts/a.step' }, runs: [{ tool: 'deviation_histogram', args: { fromBodyId: 'p', referenceBodyId: 'p', outputPath: 'out/h.png', bins: 10 } }] }),
      '/data/batch',
    );
    expect(job!.bodies).toEqual({ p: '/data/batch/parts/a.step' });
    expect(job!.runs[0]!.args).toEqual({ fromBodyId: 'p', referenceBodyId: 'p', outputPath: '/data/batch/out/h.png', bins: 10 });
    expect(job!.line).toBe(1);
  });

  it('names every bad line and refuses the whole manifest', () => {
    const text = [
      '{"id": "ok", "bodies": {"p": "a.stl"}, "runs": [{"tool": "compute_metrics", "args": {"bodyId": "p"}}]}',
      '# a comment',
      '{"id": "broken", ',
      '{"id": "ok", "bodies": {"p": "a.stl"}, "runs": [{"tool": "list_bodies"}]}',
      '{"id": "norun", "bodies": {"p": "a.stl"}, "runs": []}',
      '{"id": "twice", "bodies": {"p": "a.stl", "p": "b.stl"}, "runs": [{"tool": "list_bodies"}]}',
      '',
    ].join('\n');
    try {
      parseManifest(text, '/x');
      expect.unreachable();
    } catch (e) {
      const err = e as { code: string; message: string };
      expect(err.code).toBe('MANIFEST_INVALID');
      expect(err.message).toContain('4 bad line(s)');
      expect(err.message).toContain('manifest line 3: not JSON');
      expect(err.message).toContain('manifest line 4: job id "ok" is also on line 1');
      expect(err.message).toContain('manifest line 5: runs: a job needs at least one run');
      expect(err.message).toContain('manifest line 6: bodies.p: given twice');
    }
    expect(() => parseManifest('\n# nothing\n', '/x')).toThrow(/no jobs/);
  });
});

describe('results file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'brepscope-results-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('never replaces a results file unless told; --resume keeps finished jobs and reruns a line cut short', () => {
    const path = join(dir, 'r.jsonl');
    writeFileSync(path, '{"id":"a","status":"ok","runs":[],"outputs":[],"ms":1}\n{"id":"b","status":"failed","runs":[],"outputs":[],"ms":1}\n{"id":"c","sta');
    expect(() => openResults(path, {})).toThrow(expect.objectContaining({ code: 'FILE_EXISTS' }));
    const resumed = openResults(path, { resume: true });
    expect([...resumed.done].sort()).toEqual(['a', 'b']);
    resumed.append({ id: 'c', status: 'ok', runs: [], outputs: [], ms: 2 });
    expect([...readResults(path).keys()].sort()).toEqual(['a', 'b', 'c']);
    openResults(path, { overwrite: true });
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('progress line: counts, rate and time left', () => {
    expect(progressLine({ total: 10, done: 3, failed: 1, running: 2, skipped: 0 }, 60_000)).toBe(
      '[##########..............] 4/10 ok 3 failed 1 running 2 | 4.0 jobs/min | left 1m30s',
    );
  });
});

/** A result without its timings, which differ from run to run. */
function timeless(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(timeless);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'ms' && k !== 'seconds' && !/Ms$/.test(k)).map(([k, v]) => [k, timeless(v)]));
  }
  return value;
}

function firstError(result: JobResult): { code: string } | undefined {
  return result.error ?? result.runs.map((r) => ('error' in r ? r.error : undefined)).find((e) => e !== undefined);
}

describe('batch: the same file twice (issue 34)', () => {
  it('a job naming one file for two bodies runs: two bodies, the deviation of a mesh against itself is 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'brepscope-batch-same-'));
    try {
      writeFileSync(join(dir, 'box.stl'), boxStl([0, 0, 0], [1, 2, 3]));
      const runs = [
        { tool: 'measure_deviation', args: { fromBodyId: 'a', toBodyId: 'b' } },
        { tool: 'compute_metrics', args: { bodyId: 'b', metrics: ['volume'] } },
      ];
      writeFileSync(join(dir, 'jobs.jsonl'), JSON.stringify({ id: 'same', bodies: { a: 'box.stl', b: 'box.stl' }, runs }) + '\n');
      const out = join(dir, 'out.jsonl');
      expect(await runLocalBatch(readManifest(join(dir, 'jobs.jsonl')), out, { workers: 1 })).toMatchObject({ jobs: 1, ok: 1, failed: 0 });
      const result = readResults(out).get('same')!;
      const [deviation, metrics] = result.runs as { result: Record<string, unknown> }[];
      expect((deviation!.result.fromToTo as { max: number }).max).toBe(0);
      expect(metrics!.result.volume as number).toBeCloseTo(6, 9);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('batch: GD&T from the STEP\'s PMI (issue 30)', () => {
  it('a manifest runs read_pmi and evaluate_gdt: the PMI of NIST CTC 1; the STEP as its own scan passes every characteristic, the flatness of A reads 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'brepscope-batch-gdt-'));
    try {
      copyFileSync(join(ROOT, 'test-data', 'nist', 'nist_ctc_01_asme1_ap242-e1.stp'), join(dir, 'ctc1.stp'));
      const runs = [
        { tool: 'read_pmi', args: { bodyId: 'part' } },
        { tool: 'evaluate_gdt', args: { actualBodyId: 'scan', nominalBodyId: 'part' } },
      ];
      writeFileSync(join(dir, 'jobs.jsonl'), JSON.stringify({ id: 'ctc1', bodies: { part: 'ctc1.stp', scan: 'ctc1.stp' }, runs }) + '\n');
      const out = join(dir, 'out.jsonl');
      expect(await runLocalBatch(readManifest(join(dir, 'jobs.jsonl')), out, { workers: 1 })).toMatchObject({ jobs: 1, ok: 1, failed: 0 });
      const [pmi, gdt] = readResults(out).get('ctc1')!.runs as { result: Record<string, unknown> }[];
      expect((pmi!.result.tolerances as unknown[]).length).toBe(6);
      expect((pmi!.result.datums as { label: string }[]).map((d) => d.label)).toEqual(['A', 'B', 'C']);
      const characteristics = gdt!.result.characteristics as { id: string; pass: boolean | null; tolerance: number | null; actual: number }[];
      // 6 tolerances and the 8 dimensions with a value (docs/gdt.md).
      expect(characteristics).toHaveLength(14);
      expect(characteristics.slice(0, 6).map((c) => c.id)).toEqual([0, 1, 2, 3, 4, 5].map((n) => `tolerance[${n}]`));
      // The flatness of A (a large plane) on the nominal's own surface: 0, PASS.
      const flatness = characteristics.find((c) => c.id === 'tolerance[5]')!;
      expect(flatness.pass).toBe(true);
      expect(flatness.actual).toBeLessThan(1e-9);
      // The STEP read as the scan is sampled over its exact faces: a noise-free scan of the nominal
      // passes every characteristic (its diameters failed when read from its tessellation nodes).
      expect(characteristics.filter((c) => c.pass !== true).map((c) => c.id)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('batch of 21 jobs, local pool and Redis queue (issue 17)', () => {
  let fixture: BatchFixture;
  let local: Map<string, JobResult>;

  beforeAll(async () => {
    fixture = writeBatchFixture(mkdtempSync(join(tmpdir(), 'brepscope-batch-')));
    const out = join(fixture.dir, 'local.jsonl');
    const summary = await runLocalBatch(readManifest(fixture.manifest), out, { workers: 2 });
    expect(summary).toMatchObject({ jobs: 21, ok: 16, failed: 5, resumed: 0, workers: 2 });
    local = readResults(out);
  }, 300_000);
  afterAll(() => rmSync(fixture.dir, { recursive: true, force: true }));

  it('every job has one result, with the closed-form figure or the code of its bad input', () => {
    const lines = readFileSync(join(fixture.dir, 'local.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(21);
    expect([...local.keys()].sort()).toEqual([...fixture.expected.keys()].sort());
    for (const [id, expectation] of fixture.expected) {
      const result = local.get(id)!;
      expect(result.status, id).toBe(expectation.status);
      if (expectation.status === 'failed') {
        expect(firstError(result)?.code, id).toBe(expectation.code);
        if (expectation.at === 'body') expect(result.runs, id).toEqual([]);
        continue;
      }
      const first = (result.runs[0] as { result: Record<string, unknown> }).result;
      if (expectation.volume !== undefined) expect(first.volume as number, id).toBeCloseTo(expectation.volume, 9);
      if (expectation.maxDeviation !== undefined) {
        const fromToTo = first.fromToTo as { max: number; signedMean: number };
        expect(fromToTo.max, id).toBeCloseTo(expectation.maxDeviation, 9);
        expect(Math.abs(fromToTo.signedMean), id).toBeCloseTo(expectation.maxDeviation, 9);
      }
    }
    const wrongBody = local.get('wrong-body')!;
    expect(wrongBody.runs[1]).toMatchObject({ tool: 'compute_metrics', error: { code: 'SKIPPED' } });
  });

  it('--resume runs only the jobs missing from the results, including one cut short', async () => {
    const out = join(fixture.dir, 'resumed.jsonl');
    const keep = readFileSync(join(fixture.dir, 'local.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter((l) => !/"id":"box-metrics-[12]"/.test(l));
    const cut = keep.findIndex((l) => l.includes('"id":"box-metrics-3"'));
    const partial = keep.splice(cut, 1)[0]!.slice(0, 40);
    writeFileSync(out, keep.join('\n') + '\n' + partial);
    const summary = await runLocalBatch(readManifest(fixture.manifest), out, { workers: 1, resume: true });
    expect(summary).toMatchObject({ jobs: 21, ok: 3, failed: 0, resumed: 18 });
    const resumed = readResults(out);
    expect(resumed.size).toBe(21);
    for (const [id, result] of local) expect(timeless(resumed.get(id)), id).toEqual(timeless(result));
  }, 120_000);

  it('an invalid run anywhere stops the batch before it starts and leaves no results file', async () => {
    const bad = join(fixture.dir, 'bad.jsonl');
    writeFileSync(bad, readFileSync(fixture.manifest, 'utf8') + '{"id":"typo","bodies":{"p":"box0.stl"},"runs":[{"tool":"compute_metrix","args":{}}]}\n');
    const out = join(fixture.dir, 'never.jsonl');
    await expect(runLocalBatch(readManifest(bad), out, { workers: 1 })).rejects.toMatchObject({
      code: 'MANIFEST_INVALID',
      message: expect.stringContaining('manifest line 22 (job typo), run 1 (compute_metrix): UNKNOWN_TOOL'),
    });
    expect(existsSync(out)).toBe(false);
  });

  describe('on BullMQ over a real redis-server, two worker processes, one killed mid-job', () => {
    let redis: ChildProcess | undefined;
    const workers: ChildProcess[] = [];
    let url = '';

    beforeAll(async () => {
      ({ url, process: redis } = await startThrowawayRedis());
    });

    afterAll(async () => {
      for (const w of workers) w.kill('SIGKILL');
      redis?.kill('SIGKILL');
    });

    it('every job completes exactly once, with the results of the local run', async () => {
      const queueName = `test-${process.pid}-${Date.now()}`;
      const logs: string[] = ['', ''];
      let killed: string | undefined;
      for (const i of [0, 1]) {
        const worker = spawn(process.execPath, [BIN, 'worker', '--queue', url, '--queue-name', queueName, '--workers', '1', '--stall-check', '2'], { cwd: testRoot(), stdio: ['ignore', 'ignore', 'pipe'] });
        workers.push(worker);
        worker.stderr!.on('data', (chunk: Buffer) => {
          logs[i] += chunk.toString();
          // The first worker to start the slow job (kernel start + exact metrics) dies in the middle of it.
          if (killed === undefined && /job nut-metrics started/.test(logs[i]!)) {
            killed = `worker ${i}`;
            worker.kill('SIGKILL');
          }
        });
      }
      const out = join(fixture.dir, 'queued.jsonl');
      const text = readFileSync(fixture.manifest, 'utf8');
      const summary = await runQueuedBatch(readManifest(fixture.manifest), out, { url, queueName, batchKey: batchKeyOf(fixture.manifest, text) });
      expect(killed, logs.join('\n---\n')).toBeDefined();
      expect(summary).toMatchObject({ jobs: 21, ok: 16, failed: 5 });
      const lines = readFileSync(out, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(21);
      const queued = readResults(out);
      for (const [id, result] of local) expect(timeless(queued.get(id)), id).toEqual(timeless(result));
      // The killed worker's job was taken up by the other one.
      const survivor = logs[killed === 'worker 0' ? 1 : 0]!;
      expect(survivor).toMatch(/job nut-metrics started \(attempt \d\)/);
      expect(survivor).toMatch(/job nut-metrics ok/);
    }, 300_000);
  });
});
