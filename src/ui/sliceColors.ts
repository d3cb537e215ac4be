import { colorVertices } from './heatColors';

/**
 * Above this many values the page colours a heat map in slices, yielding to the page between them:
 * one pass costs about 12 ms a million values here, so a 20M-point cloud in one go is a 230 to
 * 270 ms task (issues 29.7 and 32.3: no page task over 200 ms). Below it, colours come at once, as
 * the tolerance slider wants them.
 */
export const SLICED_COLOURING = 4_000_000;
const SLICE = 2_000_000;

const yieldToPage = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * colorVertices over [0, n) in slices of SLICE values with a yield between them; null when
 * `wanted()` turns false at a yield (a newer run or tolerance took over).
 */
export async function colorVerticesSliced(values: Float32Array, m: number, tolerance: number, noData: Uint8Array | undefined, wanted: () => boolean): Promise<Float32Array | null> {
  const n = values.length;
  const out = new Float32Array(3 * n);
  for (let a = 0; a < n; a += SLICE) {
    const b = Math.min(n, a + SLICE);
    colorVertices(values.subarray(a, b), m, tolerance, out.subarray(3 * a, 3 * b), noData?.subarray(a, b));
    if (b < n) {
      await yieldToPage();
      if (!wanted()) return null;
    }
  }
  return out;
}
