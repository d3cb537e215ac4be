import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boxStl } from '../src/test/batchJobs';
import { dataPath } from '../src/test/data';
import { round, type BenchCase, type Figures } from './harness';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const JOBS = 24;

/**
 * A fixed set of 24 jobs of three kinds, each loading its own files as a production batch does:
 * a BREP part checked (metrics, validity, its tessellation against its exact surface), a STEP part's
 * metrics, and a scan-like mesh pair's deviation.
 */
function writeJobs(dir: string): string {
  copyFileSync(dataPath('occt/Pump_Nut.brep'), join(dir, 'nut.brep'));
  copyFileSync(dataPath('occt/screw.step'), join(dir, 'screw.step'));
  writeFileSync(join(dir, 'inner.stl'), boxStl([0, 0, 0], [10, 8, 6]));
  writeFileSync(join(dir, 'outer.stl'), boxStl([-0.1, -0.1, -0.1], [10.1, 8.1, 6.1]));
  const lines: string[] = [];
  for (let i = 0; i < JOBS / 3; i++) {
    lines.push(
      JSON.stringify({
        id: `nut-${i}`,
        bodies: { part: 'nut.brep' },
        runs: [
          { tool: 'compute_metrics', args: { bodyId: 'part' } },
          { tool: 'validate_geometry', args: { bodyId: 'part' } },
          { tool: 'measure_deviation', args: { fromBodyId: 'part', toBodyId: 'part' } },
        ],
      }),
      JSON.stringify({ id: `screw-${i}`, bodies: { part: 'screw.step' }, runs: [{ tool: 'compute_metrics', args: { bodyId: 'part' } }] }),
      JSON.stringify({ id: `mesh-${i}`, bodies: { scan: 'inner.stl', part: 'outer.stl' }, runs: [{ tool: 'measure_deviation', args: { fromBodyId: 'scan', toBodyId: 'part' } }] }),
    );
  }
  const manifest = join(dir, 'jobs.jsonl');
  writeFileSync(manifest, lines.join('\n') + '\n');
  return manifest;
}

/** `brepscope batch` in a fresh process, as a user runs it: its summary and the results' job times. */
function batch(manifest: string, out: string, workers: number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    execFile(process.execPath, ['bin/brepscope.js', 'batch', manifest, '--out', out, '--workers', String(workers), '--no-progress', '--overwrite'], { cwd: ROOT, timeout: 1_800_000 }, (error, stdout, stderr) => {
      const wallMs = performance.now() - t0;
      if (error && error.code !== 2) return reject(new Error(`batch failed: ${error.message}\n${stderr}`));
      const summary = JSON.parse(stdout) as { ok: number; failed: number; peakRssMb: number };
      const jobMs = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { ms: number }).ms)
        .sort((a, b) => a - b);
      resolve({
        ok: summary.ok,
        failed: summary.failed,
        wallMs: round(wallMs, 0),
        jobsPerMinute: round((JOBS / wallMs) * 60_000, 1),
        // Wall time a job costs a worker, process and kernel start included.
        perJobWorkerMs: round((wallMs * workers) / JOBS, 0),
        jobMedianMs: jobMs[jobMs.length >> 1]!,
        peakRssMb: summary.peakRssMb,
      });
    });
  });
}

export const batchCases: BenchCase[] = [
  {
    name: 'batch: 24 jobs (BREP check, STEP metrics, mesh deviation), brepscope batch on 1 and 2 workers',
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'brepscope-bench-batch-'));
      try {
        const manifest = writeJobs(dir);
        const one = await batch(manifest, join(dir, 'r1.jsonl'), 1);
        const two = await batch(manifest, join(dir, 'r2.jsonl'), 2);
        return { workers1: one, workers2: two, speedup: round((one.wallMs as number) / (two.wallMs as number), 2) };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
