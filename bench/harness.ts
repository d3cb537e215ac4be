/**
 * Benchmark helpers: warm-up runs, then the median of timed runs; figures as plain JSON numbers.
 * A case returns named figures; run.ts prints them and compare.ts sets them beside a stored run.
 */
import { readFileSync } from 'node:fs';

export interface Timing {
  medianMs: number;
  minMs: number;
  maxMs: number;
  runs: number;
}

/** `warmup` untimed runs (JIT, caches), then `runs` timed ones; the median is the figure. */
export async function time<T>(fn: () => T | Promise<T>, { warmup = 1, runs = 5 } = {}): Promise<Timing & { last: T }> {
  let last!: T;
  for (let i = 0; i < warmup; i++) last = await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = await fn();
    samples.push(performance.now() - t0);
  }
  return { medianMs: median(samples), minMs: round(Math.min(...samples)), maxMs: round(Math.max(...samples)), runs, last };
}

/** The median of samples (the mean of the middle two for an even count), rounded. */
export function median(samples: readonly number[], digits = 3): number {
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return round(s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2, digits);
}

export function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** `round`, passing null through (a figure the tool reports as unavailable). */
export function roundOrNull(x: number | null, digits = 3): number | null {
  return x === null ? null : round(x, digits);
}

export function peakRssMb(): number {
  return round(process.memoryUsage().rss / 2 ** 20, 1);
}

/** The process's peak resident set so far, in MB (peakRssBytes). */
export function maxRssMb(): number {
  return round(peakRssBytes() / 2 ** 20, 1);
}

/**
 * The process's peak resident set so far, in bytes. On Linux it is VmHWM (/proc/self/status), the
 * peak of this program's own address space: getrusage's maxrss survives exec, so a child started
 * from a big parent (a benchmark holding a 2M-triangle mesh) would report the parent's size as its
 * own peak. Elsewhere getrusage.
 */
export function peakRssBytes(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'latin1'));
    if (hwm) return Number(hwm[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** A case's figures: numbers (compared), strings and booleans (shown), nested groups. */
export type Figures = { [name: string]: number | string | boolean | null | readonly number[] | Figures };

/** One benchmark case: a name and a function that returns its figures. */
export interface BenchCase {
  name: string;
  run(): Promise<Figures>;
}
