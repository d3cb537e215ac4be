import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineHost } from '../node/EngineHost';
import { boxStl } from '../test/batchJobs';
import { claimPathOf, outputPathsOf } from './jobOutputs';
import { runJob, type JobResult } from './jobRunner';
import type { BatchJob } from './manifest';

// Issue 35, item 5: a job killed after writing its PNG failed on its rerun with FILE_EXISTS on its own
// output, and its later runs were skipped. A job's outputs now belong to the job.

let dir: string;
let host: EngineHost;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-job-outputs-'));
  writeFileSync(join(dir, 'inner.stl'), boxStl([0, 0, 0], [10, 8, 6]));
  writeFileSync(join(dir, 'outer.stl'), boxStl([-0.1, -0.1, -0.1], [10.1, 8.1, 6.1]));
  host = EngineHost.start({ keepScene: false });
});
afterAll(async () => {
  await host.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const PNG = [0x89, 0x50, 0x4e, 0x47];
const isPng = (path: string): boolean => PNG.every((b, i) => readFileSync(path)[i] === b);

/** A histogram to `png`, then the volume: the second run is skipped when the first fails. */
function job(id: string, png: string): BatchJob {
  return {
    id,
    line: 1,
    bodies: { scan: join(dir, 'inner.stl'), part: join(dir, 'outer.stl') },
    runs: [
      { tool: 'deviation_histogram', args: { fromBodyId: 'scan', referenceBodyId: 'part', outputPath: png, maxSamples: 500 } },
      { tool: 'compute_metrics', args: { bodyId: 'scan', metrics: ['volume'] } },
    ],
  };
}

const codes = (r: JobResult): string[] => r.runs.map((run) => ('error' in run ? run.error.code : 'ok'));

describe('a job owns the outputs it writes', () => {
  it('outputPathsOf: outputPath and output*Path only (path and inputPath are inputs)', () => {
    expect(outputPathsOf({ path: '/a', inputPath: '/b', outputPath: '/c', outputHtmlPath: '/d', outputDir: '/e', n: 3 })).toEqual(['/c', '/d']);
  });

  it("an attempt killed after writing its PNG: the rerun replaces its own file and runs on; another job's file and the user's are refused (FILE_EXISTS) and kept", async () => {
    const png = join(dir, 'out', 'p1.png');
    const first = await runJob(host, job('p1', png), undefined, 'batchA/p1');
    expect(codes(first)).toEqual(['ok', 'ok']);
    expect(readFileSync(claimPathOf(png), 'utf8')).toBe('batchA/p1');
    // What a killed attempt leaves: its claim and a file it was writing (cut short here).
    writeFileSync(png, readFileSync(png).subarray(0, 100));

    const rerun = await runJob(host, job('p1', png), undefined, 'batchA/p1');
    expect(codes(rerun)).toEqual(['ok', 'ok']);
    expect(rerun.outputs).toEqual([png]);
    expect(isPng(png) && readFileSync(png).length).toBeGreaterThan(100);

    // Another job of the batch naming the same file: refused, the file is the first job's still.
    const before = readFileSync(png);
    const other = await runJob(host, job('p2', png), undefined, 'batchA/p2');
    expect(codes(other)).toEqual(['FILE_EXISTS', 'SKIPPED']);
    expect(readFileSync(png).equals(before)).toBe(true);
    expect(readFileSync(claimPathOf(png), 'utf8')).toBe('batchA/p1');

    // A file nobody claimed (the user's): refused and kept, and not claimed.
    const mine = join(dir, 'out', 'mine.png');
    writeFileSync(mine, 'not a batch output');
    expect(codes(await runJob(host, job('p3', mine), undefined, 'batchA/p3'))).toEqual(['FILE_EXISTS', 'SKIPPED']);
    expect(readFileSync(mine, 'utf8')).toBe('not a batch output');
    expect(existsSync(claimPathOf(mine))).toBe(false);
  });
});
