import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxStl } from '../test/batchJobs';
import { dataPath, TEST_DATA_DIR } from '../test/data';
import { freePort } from '../test/freePort';

// Issue 35, the fault test: Redis stopped for 30 s mid-batch, a worker and the collector killed with
// SIGKILL; every job has exactly one result, with no step by hand: the collector is started again with
// the very command line it was first started with (as a supervisor restarts it), and the surviving
// worker rides the outage out by itself. Processes as a user runs them: bin/brepscope.js.
//
// Every step waits for the event it needs (a line a process prints, a process's exit), never for a
// time that usually suffices; the one timer is the outage's length, which is what the test is about.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUTAGE_MS = 30_000;
let dir: string;
let port = 0;
const started: ChildProcess[] = [];

/** A child process whose output lines can be awaited. */
class Proc {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  private partial = '';
  private readonly waiters = new Set<() => void>();
  readonly exited: Promise<number | null>;

  constructor(command: string, args: readonly string[], stream: 'stdout' | 'stderr') {
    this.child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', stream === 'stdout' ? 'pipe' : 'ignore', stream === 'stderr' ? 'pipe' : 'ignore'] });
    started.push(this.child);
    this.child[stream]!.on('data', (chunk: Buffer) => {
      const parts = (this.partial + chunk.toString()).split('\n');
      this.partial = parts.pop()!;
      this.lines.push(...parts);
      for (const wake of [...this.waiters]) wake();
    });
    this.exited = new Promise((done) => this.child.once('exit', (code) => done(code)));
    void this.exited.then(() => {
      for (const wake of [...this.waiters]) wake();
    });
  }

  get log(): string {
    return this.lines.join('\n');
  }

  /** The first line matching `pattern` at index `from` or later; rejected if the process exits without one. */
  line(pattern: RegExp, from = 0): Promise<{ text: string; index: number }> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const index = this.lines.findIndex((l, i) => i >= from && pattern.test(l));
        if (index >= 0) {
          this.waiters.delete(check);
          resolve({ text: this.lines[index]!, index });
        } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          this.waiters.delete(check);
          reject(new Error(`${pattern} never came (exited ${this.child.exitCode ?? this.child.signalCode}):\n${this.log}`));
        }
      };
      this.waiters.add(check);
      check();
    });
  }
}

function startRedis(): Proc {
  return new Proc('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], 'stdout');
}
const redisCli = (...args: string[]): string => spawnSync('redis-cli', ['-p', String(port), ...args]).stdout?.toString().trim() ?? '';
const brepscope = (args: readonly string[]): Proc => new Proc(process.execPath, ['bin/brepscope.js', ...args], 'stderr');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-faults-'));
  port = await freePort();
});

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const STARTED = /job (\S+) started \(attempt/;
const startsOf = (p: Proc, id: string): number => p.lines.filter((l) => STARTED.exec(l)?.[1] === id).length;

/**
 * The held job a worker is running: its last line at index `from` or later says it started one.
 * Waits for such a line if need be. A held job lasts its 3 s deadline from that line on.
 */
async function runningHeld(p: Proc, from = 0): Promise<string> {
  for (;;) {
    const id = p.lines.length > from ? STARTED.exec(p.lines.at(-1)!)?.[1] : undefined;
    if (id?.startsWith('slow')) return id;
    await p.line(/./, p.lines.length);
  }
}

describe('queue batch faults: Redis away for 30 s mid-batch, a worker and the collector killed', () => {
  it('every job has exactly one result; the collector is started again with its first command line, nothing else is done by hand', async () => {
    // 4 quick jobs (a box's volume), then 5 held until their 3 s deadline (a BRepMesh that would run
    // for minutes: TIMEOUT, a result). At least two held jobs are still to run when Redis goes away.
    const jobs: { id: string }[] = [];
    for (let i = 0; i < 4; i++) {
      writeFileSync(join(dir, `box${i}.stl`), boxStl([0, 0, 0], [2 + i, 3, 4]));
      jobs.push({ id: `box${i}`, bodies: { box: join(dir, `box${i}.stl`) }, runs: [{ tool: 'compute_metrics', args: { bodyId: 'box', metrics: ['volume'] } }] } as { id: string });
    }
    for (let i = 0; i < 5; i++) {
      jobs.push({ id: `slow${i}`, bodies: { scan: dataPath('occt/sh1.stl'), part: dataPath('occt/bottle.brep') }, runs: [{ tool: 'measure_deviation', args: { fromBodyId: 'scan', toBodyId: 'part', deflection: 1e-5 } }], deadline: 3 } as { id: string });
    }
    const manifest = join(dir, 'jobs.jsonl');
    writeFileSync(manifest, jobs.map((j) => JSON.stringify(j)).join('\n') + '\n');
    const out = join(dir, 'results.jsonl');
    const queue = ['--queue', `redis://127.0.0.1:${port}/0`, '--queue-name', `faults-${process.pid}`];

    let redis = startRedis();
    await redis.line(/Ready to accept connections/);
    // A 10 s stall check: a dead worker's job is back within 10 s, and a live worker's lock (5 s,
    // renewed every 2.5 s) does not lapse on a busy machine.
    const workers = [0, 1].map(() => brepscope(['worker', ...queue, '--workers', '1', '--stall-check', '10']));
    // --resume from the first start: a supervisor restarts the collector with the same command line.
    // The held jobs' bodies are test-data's, outside the manifest's directory: a root of the batch.
    const collectorArgs = ['batch', manifest, '--out', out, ...queue, '--no-progress', '--resume', '--root', TEST_DATA_DIR];
    const collector = brepscope(collectorArgs);

    // A worker killed in the middle of a held job, once the quick jobs are done.
    const racers = workers.map((w) => runningHeld(w).then((id) => ({ w, id })));
    for (const r of racers) r.catch(() => undefined); // the loser may end with its process, after the race
    const firstRunning = await Promise.race(racers);
    const victim = firstRunning.w;
    const victimJob = firstRunning.id;
    const survivor = workers.find((w) => w !== victim)!;
    victim.child.kill('SIGKILL');
    await victim.exited;

    // Redis shut down as the survivor starts its next held job: that job ends (at its deadline) while
    // Redis is away, so its result has to outlive the outage.
    const duringOutage = await runningHeld(survivor, survivor.lines.length);
    const beforeShutdown = survivor.lines.length;
    redisCli('SHUTDOWN');
    const shutdownAt = Date.now();
    await redis.exited;
    const afterShutdown = survivor.lines.length;
    await collector.line(/cannot be reached/);
    const endedAway = await survivor.line(new RegExp(`job ${duringOutage} (ok|failed) in`), 0);
    collector.child.kill('SIGKILL');
    await collector.exited;
    const stillAway = redisCli('ping');
    await new Promise((r) => setTimeout(r, Math.max(0, shutdownAt + OUTAGE_MS - Date.now())));
    redis = startRedis();
    await redis.line(/Ready to accept connections/);

    const again = brepscope(collectorArgs);
    const code = await again.exited;
    const context = `collector:\n${again.log}\n--- survivor:\n${survivor.log}\n--- victim:\n${victim.log}`;
    expect(stillAway, 'Redis answered during the outage').not.toBe('PONG');
    expect(endedAway.index, `${duringOutage} ended before Redis went away`).toBeGreaterThanOrEqual(beforeShutdown);
    expect(code, context).toBe(2); // the held jobs end in TIMEOUT: failed jobs, exit 2

    // Every job once in the results, none twice.
    const lines = readFileSync(out, 'utf8').split('\n').filter((l) => l.trim() !== '');
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id).sort(), context).toEqual(jobs.map((j) => j.id).sort());
    type Line = { status: string; error?: { code: string }; runs: { error?: { code: string }; result?: { volume: number } }[] };
    const results = new Map(lines.map((l) => [(JSON.parse(l) as { id: string }).id, JSON.parse(l) as Line]));
    for (let i = 0; i < 5; i++) {
      // The 3 s deadline bounds loading the files too: on a busy machine it can pass while the BREP loads (a job-level error).
      const result = results.get(`slow${i}`)!;
      expect(result.error?.code ?? result.runs[0]?.error?.code, JSON.stringify(result)).toBe('TIMEOUT');
    }
    for (let i = 0; i < 4; i++) expect(results.get(`box${i}`)!.runs[0]!.result?.volume, `box${i}`).toBeCloseTo((2 + i) * 12, 9);

    // The killed worker's job was run again by the survivor (its lock lapsed); no other job ran twice,
    // and none twice on the survivor: the job that ended during the outage gave its kept result, it
    // was not run again.
    for (const { id } of jobs) expect(startsOf(victim, id) + startsOf(survivor, id), `${id}\n${context}`).toBe(id === victimJob ? 2 : 1);
    expect(startsOf(survivor, victimJob), context).toBe(1);
    expect(startsOf(survivor, duringOutage), context).toBe(1);
    // The survivor rode the outage out: it ran jobs after Redis came back (the victim and the collector were gone).
    expect(survivor.child.exitCode, context).toBeNull();
    expect(survivor.lines.slice(afterShutdown).filter((l) => STARTED.test(l)).length, context).toBeGreaterThan(0);
    // Nothing of the batch is left in Redis once every result is written.
    expect(redisCli('KEYS', `*faults-${process.pid}*result*`), context).toBe('');
  }, 600_000);
});

