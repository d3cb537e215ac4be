/** A histogram bucket: [lo, hi) and how many samples fall in it. */
export interface Bin {
  lo: number;
  hi: number;
  count: number;
}

/** Narrower than this (in chart pixels) a bucket is merged into display bins: a hairline bar cannot be seen. */
export const MIN_BAR_PX = 3;

/**
 * The buckets to draw on an axis from `lo` to `hi` that is `widthPx` wide: the tool's own when each
 * is at least MIN_BAR_PX wide; else `n` equal bins over the axis, each counting the buckets whose
 * centre falls in it (issue 29: a 0.1 mm oversize scan, sigma 0.002, its 40 buckets 0.0003 wide on
 * an axis from -0.2 to +0.2, drew 0.2 px bars that vanished into the tolerance band). Counts are kept:
 * the sum is the same.
 */
export function displayBins(buckets: readonly Bin[], lo: number, hi: number, widthPx: number, n = 40): Bin[] {
  if (buckets.length === 0 || !(hi > lo)) return [...buckets];
  const narrowest = Math.min(...buckets.map((b) => b.hi - b.lo));
  if ((narrowest / (hi - lo)) * widthPx >= MIN_BAR_PX) return [...buckets];
  const step = (hi - lo) / n;
  const out: Bin[] = Array.from({ length: n }, (_, i) => ({ lo: lo + i * step, hi: i === n - 1 ? hi : lo + (i + 1) * step, count: 0 }));
  for (const b of buckets) {
    const i = Math.min(n - 1, Math.max(0, Math.floor(((b.lo + b.hi) / 2 - lo) / step)));
    out[i]!.count += b.count;
  }
  return out;
}
