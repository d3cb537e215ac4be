import { describe, expect, it } from 'vitest';
import { colourRange, defaultTolerance } from './deviationScale';

describe('deviation heat-map scale', () => {
  it('picks a round default tolerance near a tenth of the range', () => {
    expect(defaultTolerance(0.4283)).toBe(0.05);
    expect(defaultTolerance(2)).toBe(0.2);
    expect(defaultTolerance(0)).toBe(0);
  });

  it('colour range: the 99th percentile of |value| over signed values; the maximum when that is 0; 0 when nothing is signed', () => {
    const values = Float32Array.from({ length: 1000 }, (_, i) => (i % 2 ? 1 : -1) * (i + 1) * 0.001);
    values[3] = NaN;
    // 999 signed values 0.001 .. 1.0 (|v|); index round(998 * 0.99) = 988 of the sorted ones.
    const sorted = Array.from(values).filter((v) => v === v).map(Math.abs).sort((a, b) => a - b);
    expect(colourRange(values, 1)).toBe(sorted[988]);
    expect(colourRange(Float32Array.from([...new Array<number>(200).fill(0), 5]), 5)).toBe(5);
    expect(colourRange(Float32Array.from([NaN, NaN]), 0)).toBe(0);
  });
});
