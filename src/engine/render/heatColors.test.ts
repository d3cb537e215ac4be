import { describe, expect, it } from 'vitest';
import { AMBIGUOUS, colorRange, defaultTolerance, deviationColor, deviationColorInto, maxAbsValue, NEUTRAL, NO_DATA } from './heatColors';

describe('deviation colour map (engine)', () => {
  it('puts the proud arm at ColorBrewer RdBu stops: t = 4/9 of the arm is a third of the way from stop 1 to stop 2', () => {
    // v = 0.1 in [-0.2, 0.2] with tolerance 0.02: t = (0.1 - 0.02) / (0.2 - 0.02) = 4/9; x = 3t = 4/3.
    // Stops 1 and 2: (239, 138, 98) and (178, 24, 43); a third of the way: (218.67, 100, 79.67).
    const c = deviationColor(0.1, 0.2, 0.02);
    expect(c[0]).toBeCloseTo(218.6667, 3);
    expect(c[1]).toBeCloseTo(100, 3);
    expect(c[2]).toBeCloseTo(79.6667, 3);
    // Symmetric: -0.1 takes the shy arm at the same t: stops (103, 169, 207) and (33, 102, 172).
    const s = deviationColor(-0.1, 0.2, 0.02);
    expect(s[0]).toBeCloseTo(103 + (33 - 103) / 3, 3);
    expect(s[2]).toBeCloseTo(207 + (172 - 207) / 3, 3);
  });

  it('writes the same colour in place as deviationColor returns, for every class', () => {
    const out: [number, number, number] = [0, 0, 0];
    for (const v of [-3, -1, -0.5, -0.1, 0, 0.1, 0.3, 1, 5, NaN]) expect(deviationColorInto(v, 1, 0.1, out)).toEqual(deviationColor(v, 1, 0.1));
  });

  it('bands each arm into equal steps coloured at their middles when steps is given', () => {
    const out: [number, number, number] = [0, 0, 0];
    // 4 steps over t in (0, 1]: t = 0.1 and 0.2 share step 0, coloured as t = 0.125.
    const at = (t: number) => [...deviationColorInto(0.1 + t * 0.9, 1, 0.1, out, 4)];
    expect(at(0.1)).toEqual(at(0.2));
    expect(at(0.1)).toEqual(deviationColor(0.1 + 0.125 * 0.9, 1, 0.1));
    expect(at(0.3)).toEqual(deviationColor(0.1 + 0.375 * 0.9, 1, 0.1));
    expect(at(1.5)).toEqual(deviationColor(0.1 + 0.875 * 0.9, 1, 0.1));
    // The tolerance band and ambiguous are not banded.
    expect([...deviationColorInto(0.05, 1, 0.1, out, 4)]).toEqual([...NEUTRAL]);
    expect([...deviationColorInto(NaN, 1, 0.1, out, 4)]).toEqual([...AMBIGUOUS]);
  });

  it('has a no-data colour distinct from ambiguous, neutral and both arms, darker than ambiguous', () => {
    const lum = (c: readonly number[]) => 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
    expect(lum(NO_DATA)).toBeLessThan(0.55 * lum(AMBIGUOUS)); // darker than ambiguous under the renderer's darkest shading
    for (const v of [-1, -0.5, 0, 0.5, 1]) {
      const c = deviationColor(v, 1, 0.1);
      expect(Math.hypot(c[0] - NO_DATA[0], c[1] - NO_DATA[1], c[2] - NO_DATA[2])).toBeGreaterThan(40);
    }
  });

  it('takes the range as the 99th percentile of |value| over signed values (the app rule), skipping NaN and no data', () => {
    // |values| 1..100: the 99th percentile sits at sorted index round(99 x 0.99) = 98, i.e. 99.
    const values = Float32Array.from({ length: 100 }, (_, i) => (i % 2 ? -(i + 1) : i + 1));
    expect(colorRange(values)).toBe(99);
    // NaN and flagged entries do not count: flag the 50 largest, add NaNs.
    const withGaps = Float32Array.from([...values, NaN, NaN]);
    const noData = Uint8Array.from(withGaps, (v) => (Math.abs(v) > 50 ? 1 : 0));
    // 50 left (1..50): index round(49 x 0.99) = 49 -> 50.
    expect(colorRange(withGaps, undefined, noData)).toBe(50);
    expect(maxAbsValue(withGaps, noData)).toBe(50);
    // Mostly zeros: the percentile is 0, so the largest |value| stands in; nothing signed: 0.
    const zeros = new Float32Array(200);
    zeros[7] = -0.5;
    expect(colorRange(zeros)).toBe(0.5);
    expect(colorRange(Float32Array.from([NaN, NaN]))).toBe(0);
    expect(defaultTolerance(colorRange(values))).toBe(10);
  });
});
