import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxStl } from '../test/batchJobs';
import { dataPath } from '../test/data';

// Issue 35, item 5, the fault test: Redis stopped for a while mid-batch, a worker and the collector
// killed with SIGKILL; the collector started again the documented way (--resume), nothing else done
// by hand. Every job has exactly one result. Processes as a user runs them: bin/brepscope.js.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let port = 0;
let redis: ChildProcess | undefined;
const started: ChildProcess[] = [];

function startRedis(): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: 'ignore' });
}
const cli = (...args: string[]): string => spawnSync('redis-cli', ['-p', String(port), ...args]).stdout?.toString().trim() ?? '';

/** `node bin/brepscope.js ...`, its stderr collected. */
function brepscope(args: string[]): { child: ChildProcess; log: () => string } {
  let log = '';
  const child = spawn(process.execPath, ['bin/brepscope.js', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  started.push(child);
  return { child, log: () => log };
}

const exited = (child: ChildProcess): Promise<number | null> => (child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((done) => child.once('exit', done)));
const lines = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '') : []);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-faults-'));
  port = await freePort();
  redis = startRedis();
  await waitFor(() => cli('ping') === 'PONG', 'redis-server did not answer');
});

afterAll(() => {
  for (const child of [...started, redis]) if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('queue batch faults: Redis away mid-batch, a worker and the collector killed', () => {
  it('every job has exactly one result, with no step by hand but starting the collector again with --resume', async () => {
    // 8 jobs of a few seconds each (a BRepMesh that runs for minutes, stopped at the job's 3 s deadline:
    // TIMEOUT) and 4 quick ones (a box's volume).
    const jobs: unknown[] = [];
    for (let i = 0; i < 8; i++) {
      jobs.push({ id: `slow${i}`, bodies: { scan: dataPath('occt/sh1.stl'), part: dataPath('occt/bottle.brep') }, runs: [{ tool: 'measure_deviation', args: { fromBodyId: 'scan', toBodyId: 'part', deflection: 1e-5 } }], deadline: 3 });
    }
    for (let i = 0; i < 4; i++) {
      writeFileSync(join(dir, `box${i}.stl`), boxStl([0, 0, 0], [2 + i, 3, 4]));
      jobs.push({ id: `box${i}`, bodies: { box: join(dir, `box${i}.stl`) }, runs: [{ tool: 'compute_metrics', args: { bodyId: 'box', metrics: ['volume'] } }] });
    }
    const manifest = join(dir, 'jobs.jsonl');
    writeFileSync(manifest, jobs.map((j) => JSON.stringify(j)).join('\n') + '\n');
    const out = join(dir, 'results.jsonl');
    const queue = ['--queue', `redis://127.0.0.1:${port}/0`, '--queue-name', `faults-${process.pid}`];

    const workers = [0, 1].map(() => brepscope(['worker', ...queue, '--workers', '1', '--stall-check', '4']));
    const collector = brepscope(['batch', manifest, '--out', out, ...queue, '--no-progress']);

    // A worker killed in the middle of a job, once two results are in.
    await waitFor(() => lines(out).length >= 2, 'no results came in');
    const victim = workers.find((w) => /started \(attempt/.test(w.log().split('\n').at(-2) ?? '')) ?? workers[0]!;
    victim.child.kill('SIGKILL');
    // Redis away for 15 s; the collector killed while it is away.
    cli('SHUTDOWN');
    await exited(redis!);
    await new Promise((r) => setTimeout(r, 5_000));
    collector.child.kill('SIGKILL');
    await exited(collector.child);
    await new Promise((r) => setTimeout(r, 10_000));
    redis = startRedis();
    await waitFor(() => cli('ping') === 'PONG', 'redis-server did not come back');

    const again = brepscope(['batch', manifest, '--out', out, ...queue, '--no-progress', '--resume']);
    const code = await exited(again.child);
    const survivor = workers.find((w) => w !== victim)!;
    expect(code, `${again.log()}\n---\n${survivor.log()}`).toBe(2); // the slow jobs end in TIMEOUT: failed jobs, exit 2
    const ids = lines(out).map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids.slice().sort()).toEqual(jobs.map((j) => (j as { id: string }).id).sort());
    type Line = { status: string; error?: { code: string }; runs: { error?: { code: string }; result?: { volume: number } }[] };
    const results = new Map(lines(out).map((l) => [(JSON.parse(l) as { id: string }).id, JSON.parse(l) as Line]));
    for (let i = 0; i < 8; i++) {
      // The 3 s deadline bounds loading the files too: on a busy machine it can pass while the BREP loads (a job-level error).
      const result = results.get(`slow${i}`)!;
      expect(result.error?.code ?? result.runs[0]?.error?.code, JSON.stringify(result)).toBe('TIMEOUT');
    }
    for (let i = 0; i < 4; i++) expect(results.get(`box${i}`)!.runs[0]!.result?.volume, `box${i}`).toBeCloseTo((2 + i) * 12, 9);
  }, 600_000);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port: p } = server.address() as { port: number };
      server.close(() => resolve(p));
    });
    server.on('error', reject);
  });
}

/** Polls `check` every 100 ms, at most 3000 times (a bound on the count, not a timing budget). */
async function waitFor(check: () => boolean, message: string): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i >= 3000) throw new Error(message);
    await new Promise((r) => setTimeout(r, 100));
  }
}
