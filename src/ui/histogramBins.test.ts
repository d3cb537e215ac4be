import { describe, expect, it } from 'vitest';
import { displayBins, MIN_BAR_PX } from './histogramBins';

describe('histogram bars a person can see', () => {
  it("keeps the tool's buckets when each is wide enough on the chart", () => {
    const buckets = [
      { lo: -0.2, hi: 0, count: 3 },
      { lo: 0, hi: 0.2, count: 5 },
    ];
    expect(displayBins(buckets, -0.2, 0.2, 364)).toEqual(buckets);
  });

  it('widens a hairline bucket about its centre to the minimum bar, its count and place kept', () => {
    // The journey's scan: the last of 40 buckets over [0.0027, 0.10099] holds 47,277 of 50,000 samples, on an axis from -0.2 to +0.2, 364 px wide.
    const last = { lo: 0.09853, hi: 0.10099, count: 47277 };
    const [bar] = displayBins([last], -0.2, 0.2, 364);
    const min = (MIN_BAR_PX * 0.4) / 364;
    expect(bar!.hi - bar!.lo).toBeCloseTo(min, 12);
    expect((bar!.lo + bar!.hi) / 2).toBeCloseTo((last.lo + last.hi) / 2, 12);
    expect(bar!.count).toBe(47277);
    // It still straddles the +0.1 band edge, as its samples do (78.4 % of them within).
    expect(bar!.lo).toBeLessThan(0.1);
    expect(bar!.hi).toBeGreaterThan(0.1);
  });
});
