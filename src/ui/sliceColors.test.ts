import { describe, expect, it } from 'vitest';
import { colorVertices } from './heatColors';
import { colorVerticesSliced } from './sliceColors';

function data(n: number): { values: Float32Array; noData: Uint8Array } {
  const values = new Float32Array(n), noData = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = i % 997 === 0 ? NaN : 0.3 * Math.sin(i);
    noData[i] = i % 1009 === 0 ? 1 : 0;
  }
  return { values, noData };
}

describe('colorVerticesSliced', () => {
  it('gives colorVertices\' colours exactly, slice edges included, and lets the page run between slices', async () => {
    const { values, noData } = data(4_500_001);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const sliced = await colorVerticesSliced(values, 0.25, 0.05, noData, () => true);
    clearInterval(timer);
    const whole = colorVertices(values, 0.25, 0.05, undefined, noData);
    expect(sliced).not.toBeNull();
    expect(sliced!.length).toBe(whole.length);
    expect(Buffer.from(sliced!.buffer).equals(Buffer.from(whole.buffer))).toBe(true);
    // Three slices of 2M: two yields, each long enough for a 0 ms timer queued before it.
    expect(ticks).toBeGreaterThanOrEqual(2);
  });

  it('stops at a yield once a newer run took over', async () => {
    const { values } = data(4_100_000);
    let calls = 0;
    expect(await colorVerticesSliced(values, 0.25, 0.05, undefined, () => ++calls < 1)).toBeNull();
    expect(calls).toBe(1);
  });
});
