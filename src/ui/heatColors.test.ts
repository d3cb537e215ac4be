import { describe, expect, it } from 'vitest';
import { interpolate } from '../viewer/interpolate';
import { AMBIGUOUS, colorVertices, defaultTolerance, deviationColor, NEUTRAL, NO_DATA } from './heatColors';

const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);

describe('deviation colour map', () => {
  it('colours shy blue, proud red, the tolerance band neutral and ambiguous grey, symmetric in |value|', () => {
    const values = Float32Array.from([-1, -0.5, -0.05, 0, 0.05, 0.5, 1, NaN, 3]);
    const c = colorVertices(values, 1, 0.1);
    const rgb = (i: number) => [c[3 * i]!, c[3 * i + 1]!, c[3 * i + 2]!];
    expect(rgb(0)[2]!).toBeGreaterThan(rgb(0)[0]! + 0.05); // shy: blue above red
    expect(rgb(6)[0]!).toBeGreaterThan(rgb(6)[2]! + 0.05); // proud: red above blue
    for (const i of [2, 3, 4]) rgb(i).forEach((x, k) => expect(x).toBeCloseTo(lin(NEUTRAL[k]!), 6));
    rgb(7).forEach((x, k) => expect(x).toBeCloseTo(lin(AMBIGUOUS[k]!), 6));
    // Beyond the range the colour saturates at the end of the arm.
    expect(rgb(8)).toEqual(rgb(6));
    // The half-range values sit between the band edge and the end of their arm.
    expect(rgb(5)[1]!).toBeGreaterThan(rgb(6)[1]!);
    expect(rgb(1)[0]!).toBeGreaterThan(rgb(0)[0]!);
  });

  it('colours no-data vertices NO_DATA, whatever their value, distinct from ambiguous and from the tolerance band', () => {
    const values = Float32Array.from([0, NaN, 0.5, NaN]);
    const c = colorVertices(values, 1, 0.1, undefined, Uint8Array.from([1, 1, 0, 0]));
    const rgb = (i: number) => [c[3 * i]!, c[3 * i + 1]!, c[3 * i + 2]!];
    for (const i of [0, 1]) rgb(i).forEach((x, k) => expect(x).toBeCloseTo(lin(NO_DATA[k]!), 6));
    rgb(3).forEach((x, k) => expect(x).toBeCloseTo(lin(AMBIGUOUS[k]!), 6));
    expect(rgb(2)[0]!).toBeGreaterThan(rgb(2)[2]! + 0.05);
  });

  it('matches the CSS colours of the legend (same ramp, sRGB there, linear in the vertex buffer)', () => {
    const c = colorVertices(Float32Array.from([0.75]), 1, 0);
    const css = deviationColor(0.75, 1, 0);
    // The vertex table has 256 steps: within one step of the exact colour.
    for (let k = 0; k < 3; k++) expect(Math.abs(c[k]! - lin(css[k]!))).toBeLessThan(0.02);
  });

  it('picks a round default tolerance near a tenth of the range', () => {
    expect(defaultTolerance(0.4283)).toBe(0.05);
    expect(defaultTolerance(2)).toBe(0.2);
    expect(defaultTolerance(0)).toBe(0);
  });

  it('interpolates per-vertex values at barycentric weights, skipping ambiguous corners', () => {
    const v = Float32Array.from([1, 3, NaN]);
    expect(interpolate(v, 0, 1, 2, 0.5, 0.5, 0)).toBeCloseTo(2, 12);
    expect(interpolate(v, 0, 1, 2, 0.25, 0.25, 0.5)).toBeCloseTo(2, 12);
    expect(interpolate(v, 2, 2, 2, 0.3, 0.3, 0.4)).toBeNaN();
  });
});
