import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface ProcessRun {
  wallMs: number;
  /** User + system CPU of the process and its threads (through /usr/bin/time), or NaN without it. */
  cpuMs: number;
  /** The process's peak resident set in MB (GNU time's %M), or NaN without it. */
  peakRssMb: number;
  stdout: string;
  stderr: string;
}

/** GNU time gives a child's CPU time, which a machine shared with other jobs disturbs far less than wall time. */
const TIME = '/usr/bin/time';
export const hasTime = existsSync(TIME);

/** Runs a command in the repository's root to its end: wall time, and CPU time and peak memory through GNU time; rejects on a non-zero exit. */
export function runProcess(command: string, args: string[], env: Record<string, string> = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const statsFile = join(tmpdir(), `brepscope-bench-time-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const [cmd, argv] = hasTime ? [TIME, ['-o', statsFile, '-f', '%U %S %M', command, ...args]] : [command, args];
    const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      let cpuMs = NaN, peakRssMb = NaN;
      if (hasTime) {
        const [user, system, maxKb] = readFileSync(statsFile, 'utf8').trim().split(/\s+/).slice(-3).map(Number);
        cpuMs = 1000 * (user! + system!);
        peakRssMb = maxKb! / 1024;
        rmSync(statsFile, { force: true });
      }
      // stdout carries a CLI's coded error (TIMEOUT, FILE_TOO_LARGE ...): both streams say why.
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
      else resolve({ wallMs, cpuMs, peakRssMb, stdout, stderr });
    });
  });
}
