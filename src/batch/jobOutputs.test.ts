import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineHost } from '../node/EngineHost';
import { boxStl } from '../test/batchJobs';
import { claimPathOf } from './jobOutputs';
import { runJob, type JobResult } from './jobRunner';
import type { BatchJob } from './manifest';

// Issue 35, item 5: a job killed after writing its PNG failed on its rerun with FILE_EXISTS on its own
// output, and its later runs were skipped. A job's outputs now belong to the job: the files its
// arguments name and the files a tool names itself inside an outputDir alike.

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
function job(id: string, png: string, overwrite = false): BatchJob {
  return {
    id,
    line: 1,
    bodies: { scan: join(dir, 'inner.stl'), part: join(dir, 'outer.stl') },
    runs: [
      { tool: 'deviation_histogram', args: { fromBodyId: 'scan', referenceBodyId: 'part', outputPath: png, maxSamples: 500, ...(overwrite ? { overwrite } : {}) } },
      { tool: 'compute_metrics', args: { bodyId: 'scan', metrics: ['volume'] } },
    ],
  };
}

/** Section overlays the tool names itself (section_00.png, section_01.png) in `outputDir`, then the volume. */
function sectionsJob(id: string, outputDir: string, overwrite = false): BatchJob {
  return {
    id,
    line: 1,
    bodies: { scan: join(dir, 'inner.stl'), part: join(dir, 'outer.stl') },
    runs: [
      { tool: 'cross_section_compare', args: { fromBodyId: 'scan', referenceBodyId: 'part', axis: [0, 0, 1], stations: 2, outputDir, ...(overwrite ? { overwrite } : {}) } },
      { tool: 'compute_metrics', args: { bodyId: 'scan', metrics: ['volume'] } },
    ],
  };
}

const codes = (r: JobResult): string[] => r.runs.map((run) => ('error' in run ? run.error.code : 'ok'));

describe('a job owns the outputs it writes', () => {
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

    // Another job of the batch naming the same file: refused even with overwrite: true; the file is
    // the first job's still. A job of another batch (an edited manifest): refused without overwrite.
    const before = readFileSync(png);
    const message = (r: JobResult): string => (r.runs[0] as { error: { message: string } }).error.message;
    for (const [owner, overwrite] of [['batchA/p2', false], ['batchA/p2', true], ['batchB/p1', false]] as const) {
      const other = await runJob(host, job(owner.slice(7), png, overwrite), undefined, owner);
      expect(codes(other), `${owner} overwrite ${overwrite}`).toEqual(['FILE_EXISTS', 'SKIPPED']);
      expect(message(other)).toContain(owner.startsWith('batchA') ? 'written by job "p1" of this batch;' : 'written by job "p1" of another batch');
    }
    expect(readFileSync(png).equals(before)).toBe(true);
    expect(readFileSync(claimPathOf(png), 'utf8')).toBe('batchA/p1');
    // With overwrite: true the other batch's job replaces it and the file is that job's from then on.
    expect(codes(await runJob(host, job('p1', png, true), undefined, 'batchB/p1'))).toEqual(['ok', 'ok']);
    expect(readFileSync(claimPathOf(png), 'utf8')).toBe('batchB/p1');
    expect(codes(await runJob(host, job('p1', png), undefined, 'batchA/p1'))).toEqual(['FILE_EXISTS', 'SKIPPED']);

    // A file nobody claimed (the user's): refused and kept, and not claimed; with overwrite: true it
    // is replaced and becomes the job's.
    const mine = join(dir, 'out', 'mine.png');
    writeFileSync(mine, 'not a batch output');
    expect(codes(await runJob(host, job('p3', mine), undefined, 'batchA/p3'))).toEqual(['FILE_EXISTS', 'SKIPPED']);
    expect(readFileSync(mine, 'utf8')).toBe('not a batch output');
    expect(existsSync(claimPathOf(mine))).toBe(false);
    expect(codes(await runJob(host, job('p3', mine, true), undefined, 'batchA/p3'))).toEqual(['ok', 'ok']);
    expect(isPng(mine)).toBe(true);
    expect(readFileSync(claimPathOf(mine), 'utf8')).toBe('batchA/p3');

    // Outside a batch (no owner) nothing is claimed: the tool's own rule.
    const plain = join(dir, 'out', 'plain.png');
    expect(codes(await runJob(host, job('solo', plain)))).toEqual(['ok', 'ok']);
    expect(existsSync(claimPathOf(plain))).toBe(false);
    expect(codes(await runJob(host, job('solo', plain)))).toEqual(['FILE_EXISTS', 'SKIPPED']);
  });

  it("files a tool names itself in an outputDir: the rerun replaces its own, another job's of the batch are refused (FILE_EXISTS) even with overwrite: true", async () => {
    const sections = join(dir, 'sections');
    const first = await runJob(host, sectionsJob('s1', sections), undefined, 'batchA/s1');
    expect(codes(first)).toEqual(['ok', 'ok']);
    const pngs = readdirSync(sections).filter((f) => f.endsWith('.png')).sort();
    expect(pngs).toEqual(['section_00.png', 'section_01.png']);
    expect(first.outputs.slice().sort()).toEqual(pngs.map((f) => join(sections, f)));
    for (const f of pngs) expect(readFileSync(claimPathOf(join(sections, f)), 'utf8')).toBe('batchA/s1');

    // Killed after writing its first overlay (cut short here): the rerun, without overwrite, replaces both.
    const cut = join(sections, pngs[0]!);
    const whole = readFileSync(cut);
    writeFileSync(cut, whole.subarray(0, 50));
    rmSync(join(sections, pngs[1]!));
    const rerun = await runJob(host, sectionsJob('s1', sections), undefined, 'batchA/s1');
    expect(codes(rerun)).toEqual(['ok', 'ok']);
    expect(readFileSync(cut).equals(whole)).toBe(true);
    expect(isPng(join(sections, pngs[1]!))).toBe(true);

    // Another job writing the same overlays: refused, with or without overwrite; the files stay s1's.
    const kept = pngs.map((f) => readFileSync(join(sections, f)));
    for (const overwrite of [false, true]) {
      const other = await runJob(host, sectionsJob('s2', sections, overwrite), undefined, 'batchA/s2');
      expect(codes(other), `overwrite ${overwrite}`).toEqual(['FILE_EXISTS', 'SKIPPED']);
    }
    pngs.forEach((f, k) => expect(readFileSync(join(sections, f)).equals(kept[k]!), f).toBe(true));
    for (const f of pngs) expect(readFileSync(claimPathOf(join(sections, f)), 'utf8')).toBe('batchA/s1');
  });
});
