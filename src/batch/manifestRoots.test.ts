import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootDirs } from '../node/confinedFiles';
import { boxStl } from '../test/batchJobs';
import { runLocalBatch } from './localBatch';
import { parseManifest, readManifest } from './manifest';
import { readResults } from './resultsFile';

const BIN = fileURLToPath(new URL('../../bin/brepscope.js', import.meta.url));

/** A batch folder `jobs/` beside a folder `elsewhere/` it must not touch: the bad-input sweep's layout. */
let top: string;
let jobs: string;
let elsewhere: string;

beforeAll(() => {
  top = mkdtempSync(join(tmpdir(), 'brepscope-batch-roots-'));
  jobs = join(top, 'jobs');
  elsewhere = join(top, 'elsewhere');
  mkdirSync(jobs);
  mkdirSync(elsewhere);
  writeFileSync(join(jobs, 'box.stl'), boxStl([0, 0, 0], [2, 3, 4]));
  writeFileSync(join(elsewhere, 'box.stl'), boxStl([0, 0, 0], [2, 3, 4]));
});

afterAll(() => rmSync(top, { recursive: true, force: true }));

const histogram = (outputPath: string): unknown => ({ tool: 'deviation_histogram', args: { fromBodyId: 'a', referenceBodyId: 'a', outputPath, maxSamples: 200 } });
const line = (id: string, body: string, runs: unknown[]): string => JSON.stringify({ id, bodies: { a: body }, runs });

describe('batch manifest roots: files outside the manifest directory', () => {
  it('a body or an output path that leads out (.., absolute) refuses the manifest, naming each line', () => {
    const text = [
      line('inside', 'box.stl', [histogram('out/h.png')]),
      line('body-up', '../elsewhere/box.stl', [{ tool: 'compute_metrics', args: { bodyId: 'a' } }]),
      line('output-up', 'box.stl', [histogram('out/../../elsewhere/h.png')]),
      line('output-abs', 'box.stl', [histogram(join(elsewhere, 'h.png'))]),
    ].join('\n');
    let error: { code?: string; details?: { lines: string[] } } = {};
    try {
      parseManifest(text, jobs);
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('MANIFEST_INVALID');
    const lines = error.details?.lines ?? [];
    expect(lines.map((l) => /^manifest line (\d+): PATH_OUTSIDE_ROOTS/.exec(l)?.[1])).toEqual(['2', '3', '4']);
    expect(lines[1]).toContain(`outputPath: ${join(elsewhere, 'h.png')}`);
  });

  it('a directory given as a root is allowed; paths inside the manifest directory always are', () => {
    const text = [line('body-up', '../elsewhere/box.stl', [histogram('../elsewhere/h.png')]), line('inside', 'box.stl', [histogram('out/h.png')])].join('\n');
    const parsed = parseManifest(text, jobs, [jobs, elsewhere]);
    expect(parsed.map((j) => j.bodies.a)).toEqual([join(elsewhere, 'box.stl'), join(jobs, 'box.stl')]);
  });

  it('a link inside the manifest directory that leads out: the run fails PATH_OUTSIDE_ROOTS, nothing is written outside, the next job measures the box', async () => {
    const dir = join(top, 'linked');
    mkdirSync(dir);
    writeFileSync(join(dir, 'box.stl'), boxStl([0, 0, 0], [2, 3, 4]));
    symlinkSync(elsewhere, join(dir, 'out'));
    const manifest = join(dir, 'jobs.jsonl');
    writeFileSync(manifest, [line('through-link', 'box.stl', [histogram('out/h.png')]), line('volume', 'box.stl', [{ tool: 'compute_metrics', args: { bodyId: 'a', metrics: ['volume'] } }])].join('\n') + '\n');
    const before = readdirSync(elsewhere);
    const results = join(dir, 'results.jsonl');
    const summary = await runLocalBatch(readManifest(manifest), results, { workers: 1, roots: rootDirs([dir]) });
    expect(summary).toMatchObject({ jobs: 2, ok: 1, failed: 1 });
    const done = readResults(results);
    expect(done.get('through-link')!.runs[0]).toMatchObject({ error: { code: 'PATH_OUTSIDE_ROOTS' } });
    expect(readdirSync(elsewhere)).toEqual(before);
    expect((done.get('volume')!.runs[0] as { result: { volume: number } }).result.volume).toBeCloseTo(24, 9);
  }, 120_000);

  it('brepscope batch: a `..` output path is MANIFEST_INVALID (exit 2) and writes nothing; with --root the same manifest runs', async () => {
    const manifest = join(jobs, 'cli.jsonl');
    writeFileSync(manifest, line('up', 'box.stl', [histogram('../elsewhere/cli.png')]) + '\n');
    const run = (extra: string[]): Promise<{ code: number; stdout: string }> =>
      new Promise((done) =>
        execFile(process.execPath, [BIN, 'batch', manifest, '--out', join(jobs, `r${extra.length}.jsonl`), '--workers', '1', '--no-progress', ...extra], { cwd: top, timeout: 120_000 }, (e, stdout) =>
          done({ code: e ? (e.code as number) : 0, stdout }),
        ),
      );
    const refused = await run([]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'MANIFEST_INVALID' } });
    expect(existsSync(join(elsewhere, 'cli.png'))).toBe(false);
    expect(existsSync(join(jobs, 'r0.jsonl'))).toBe(false);
    const allowed = await run(['--root', elsewhere]);
    expect(allowed.code).toBe(0);
    expect(existsSync(join(elsewhere, 'cli.png'))).toBe(true);
  }, 180_000);
});
