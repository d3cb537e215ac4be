/**
 * How a deviation heat map is scaled, wherever it is drawn (the app's viewport, a rendered image):
 * the colour range and the default tolerance band, both in model units.
 */

/** Share of signed values the colour range covers: a few outliers (a hole in a scan) must not wash the rest out. */
export const COLOUR_RANGE_QUANTILE = 0.99;

/**
 * Half-width m of the symmetric colour range [-m, m]: the 99th percentile of |value| over the
 * values that have a sign (NaN is ambiguous), or `maxAbs` when that is 0; 0 when nothing has a sign.
 */
export function colourRange(values: ArrayLike<number>, maxAbs: number): number {
  const abs = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === v) abs[n++] = v < 0 ? -v : v;
  }
  if (n === 0) return 0;
  const sorted = abs.subarray(0, n).sort();
  const p = sorted[Math.round((n - 1) * COLOUR_RANGE_QUANTILE)]!;
  return p > 0 ? p : maxAbs;
}

/** A round default tolerance: about a tenth of the colour range, on the 1-2-5 ladder. */
export function defaultTolerance(m: number): number {
  if (!(m > 0)) return 0;
  const raw = m / 10;
  const p = 10 ** Math.floor(Math.log10(raw));
  const r = raw / p;
  return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * p;
}
