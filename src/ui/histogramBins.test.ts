import { describe, expect, it } from 'vitest';
import { displayBins } from './histogramBins';

describe('histogram bars a person can see', () => {
  it('keeps the tool\'s buckets when each is wide enough on the chart', () => {
    const buckets = [
      { lo: -0.2, hi: 0, count: 3 },
      { lo: 0, hi: 0.2, count: 5 },
    ];
    expect(displayBins(buckets, -0.2, 0.2, 364)).toEqual(buckets);
  });

  it('merges hairline buckets into equal bins over the axis, every sample kept in the bin of its bucket\'s centre', () => {
    // 40 buckets 0.0003 wide from 0.094 to 0.106 (a 0.1 mm oversize scan) on an axis from -0.2 to +0.2, 364 px.
    const buckets = Array.from({ length: 40 }, (_, i) => ({ lo: 0.094 + i * 0.0003, hi: 0.094 + (i + 1) * 0.0003, count: i + 1 }));
    const bins = displayBins(buckets, -0.2, 0.2, 364);
    expect(bins).toHaveLength(40);
    expect(bins[0]!.lo).toBe(-0.2);
    expect(bins[39]!.hi).toBe(0.2);
    for (const b of bins) expect(b.hi - b.lo).toBeCloseTo(0.01, 12);
    // Bin 29 is [0.09, 0.1), bin 30 [0.1, 0.11): centres below 0.1 are the first 20 buckets (0.09415 ... 0.09985).
    const below = buckets.filter((b) => (b.lo + b.hi) / 2 < 0.1).reduce((s, b) => s + b.count, 0);
    expect(below).toBe((20 * 21) / 2);
    expect(bins[29]!.count).toBe(below);
    expect(bins[30]!.count).toBe((40 * 41) / 2 - below);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe((40 * 41) / 2);
  });
});
