export interface ProgressCounts {
  total: number;
  done: number;
  failed: number;
  running: number;
  /** Finished before this batch started (--resume): not counted in the rate. */
  skipped: number;
}

const BAR_WIDTH = 24;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** One status line: bar, counts, rate and time left at that rate. */
export function progressLine(c: ProgressCounts, elapsedMs: number): string {
  const finished = c.done + c.failed + c.skipped;
  const filled = c.total === 0 ? BAR_WIDTH : Math.round((finished / c.total) * BAR_WIDTH);
  const ranNow = c.done + c.failed;
  const perMinute = elapsedMs > 0 ? (ranNow / elapsedMs) * 60_000 : 0;
  const left = c.total - finished;
  const eta = left === 0 ? 0 : perMinute > 0 ? (left / perMinute) * 60 : Infinity;
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${finished}/${c.total}` +
    ` ok ${c.done} failed ${c.failed} running ${c.running}` +
    (c.skipped > 0 ? ` resumed ${c.skipped}` : '') +
    ` | ${perMinute.toFixed(1)} jobs/min | left ${duration(eta)}`
  );
}

/**
 * The batch's progress on stderr: redrawn in place on a terminal, a plain line every `plainEveryMs`
 * otherwise (a log file should not fill with redraws).
 */
export class ProgressReporter {
  private readonly started = Date.now();
  private lastPlain = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly counts: () => ProgressCounts,
    private readonly write: (text: string) => void,
    private readonly tty: boolean,
    private readonly plainEveryMs = 10_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), this.tty ? 250 : 1000);
    this.timer.unref();
  }

  private tick(): void {
    const line = progressLine(this.counts(), Date.now() - this.started);
    if (this.tty) this.write(`\r${line}\x1b[K`);
    else if (Date.now() - this.lastPlain >= this.plainEveryMs) {
      this.lastPlain = Date.now();
      this.write(line + '\n');
    }
  }

  /** The final line (nothing if never started). */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    const line = progressLine(this.counts(), Date.now() - this.started);
    this.write(this.tty ? `\r${line}\x1b[K\n` : line + '\n');
  }
}
