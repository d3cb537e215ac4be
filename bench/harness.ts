/** Benchmark helpers: warm-up, median of runs, figures as plain JSON-able numbers. */

export interface Timing {
  medianMs: number;
  minMs: number;
  runs: number;
}

export async function time<T>(fn: () => T | Promise<T>, { warmup = 1, runs = 5 } = {}): Promise<Timing & { last: T }> {
  let last!: T;
  for (let i = 0; i < warmup; i++) last = await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: round(samples[Math.floor(samples.length / 2)]!), minMs: round(samples[0]!), runs, last };
}

export function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function peakRssMb(): number {
  return round(process.memoryUsage().rss / 2 ** 20, 1);
}

/** The process's peak resident set so far (getrusage maxrss), in MB. */
export function maxRssMb(): number {
  return round(process.resourceUsage().maxRSS / 1024, 1);
}

/** One benchmark case: a name and a function that returns its figures. */
export interface BenchCase {
  name: string;
  run(): Promise<Record<string, unknown>>;
}
