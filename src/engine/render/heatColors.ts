/**
 * The deviation colour map: diverging blue (shy) to red (proud) after ColorBrewer's RdBu, which stays
 * readable for red-green colour-blind viewers because its two arms differ in hue *and* lightness.
 * Values within the tolerance band are one neutral colour; ambiguous samples (NaN) a darker grey,
 * so "no sign" can never be mistaken for "on the surface"; samples with no data (nothing of the
 * reference within reach) a near-black charcoal, read as "absent" and darker than any shaded grey.
 * One module for the app's viewer and legend and the engine's PNG renderer, so they cannot disagree.
 */

export type Rgb = readonly [number, number, number];

/** sRGB bytes, from the band edge (light) to the range end (saturated). */
const SHY_STOPS: readonly Rgb[] = [
  [209, 229, 240],
  [103, 169, 207],
  [33, 102, 172],
  [5, 48, 97],
];
const PROUD_STOPS: readonly Rgb[] = [
  [253, 219, 199],
  [239, 138, 98],
  [178, 24, 43],
  [103, 0, 31],
];
export const NEUTRAL: Rgb = [242, 239, 230];
export const AMBIGUOUS: Rgb = [128, 128, 128];
/**
 * No data: the sample has no counterpart on the reference (issue 20's no-data class), distinct from
 * ambiguous (a distance but no trustworthy sign) and from within tolerance. Darker than AMBIGUOUS under
 * any shading the renderer applies (its ambient floor keeps a grey at >= 70).
 */
export const NO_DATA: Rgb = [56, 56, 64];

function ramp(stops: readonly Rgb[], t: number, out: [number, number, number] = [0, 0, 0]): [number, number, number] {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = stops[i]!, b = stops[i + 1]!;
  out[0] = a[0] + (b[0] - a[0]) * f;
  out[1] = a[1] + (b[1] - a[1]) * f;
  out[2] = a[2] + (b[2] - a[2]) * f;
  return out;
}

/**
 * The sRGB colour (0..255) of one signed deviation: NaN ambiguous; |v| <= tolerance neutral;
 * beyond it the arm's ramp from the band edge (t = 0) to the range end m (t = 1).
 */
export function deviationColor(v: number, m: number, tolerance: number): [number, number, number] {
  return deviationColorInto(v, m, tolerance, [0, 0, 0]);
}

/**
 * deviationColor written into `out` (no allocation, for per-pixel use). With `steps` (an integer >= 1)
 * each arm is cut into that many equal bands beyond the tolerance band, each drawn in the colour of its
 * middle; without it the ramp is continuous (the app's rule).
 */
export function deviationColorInto(v: number, m: number, tolerance: number, out: [number, number, number], steps?: number): [number, number, number] {
  if (v !== v) return setRgb(out, AMBIGUOUS);
  const a = v < 0 ? -v : v;
  if (a <= tolerance) return setRgb(out, NEUTRAL);
  const span = m - tolerance;
  let t = span > 0 ? (a - tolerance) / span : 1;
  if (steps !== undefined) {
    if (t > 1) t = 1;
    const k = Math.min(steps - 1, Math.floor(t * steps));
    t = (k + 0.5) / steps;
  }
  return ramp(v > 0 ? PROUD_STOPS : SHY_STOPS, t, out);
}

function setRgb(out: [number, number, number], c: Rgb): [number, number, number] {
  out[0] = c[0];
  out[1] = c[1];
  out[2] = c[2];
  return out;
}

export function cssColor(c: Rgb): string {
  return `rgb(${Math.round(c[0])}, ${Math.round(c[1])}, ${Math.round(c[2])})`;
}

/** 256-entry lookup tables per arm, in linear RGB (what three.js expects of vertex colours). */
const LUT_SIZE = 256;
function linearLut(stops: readonly Rgb[]): Float32Array {
  const out = new Float32Array(LUT_SIZE * 3);
  for (let i = 0; i < LUT_SIZE; i++) {
    const c = ramp(stops, i / (LUT_SIZE - 1));
    for (let k = 0; k < 3; k++) out[3 * i + k] = srgbToLinear(c[k]! / 255);
  }
  return out;
}

function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

let luts: { shy: Float32Array; proud: Float32Array; neutral: Rgb; ambiguous: Rgb; noData: Rgb } | undefined;

function tables() {
  luts ??= {
    shy: linearLut(SHY_STOPS),
    proud: linearLut(PROUD_STOPS),
    neutral: NEUTRAL.map((c) => srgbToLinear(c / 255)) as unknown as Rgb,
    ambiguous: AMBIGUOUS.map((c) => srgbToLinear(c / 255)) as unknown as Rgb,
    noData: NO_DATA.map((c) => srgbToLinear(c / 255)) as unknown as Rgb,
  };
  return luts;
}

/**
 * Linear-RGB vertex colours for per-vertex deviations, written into `out` (3 per vertex); vertices
 * flagged in `noData` (nonzero) get NO_DATA. One pass over typed arrays with table lookups: about a
 * millisecond per 100k vertices, so it can run on the main thread when the tolerance slider moves.
 */
export function colorVertices(values: Float32Array, m: number, tolerance: number, out: Float32Array = new Float32Array(values.length * 3), noData?: ArrayLike<number>): Float32Array {
  const { shy, proud, neutral, ambiguous, noData: absent } = tables();
  const span = m - tolerance;
  const scale = span > 0 ? (LUT_SIZE - 1) / span : 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const o = 3 * i;
    if (noData?.[i]) {
      out[o] = absent[0];
      out[o + 1] = absent[1];
      out[o + 2] = absent[2];
      continue;
    }
    if (v !== v) {
      out[o] = ambiguous[0];
      out[o + 1] = ambiguous[1];
      out[o + 2] = ambiguous[2];
      continue;
    }
    const a = v < 0 ? -v : v;
    if (a <= tolerance) {
      out[o] = neutral[0];
      out[o + 1] = neutral[1];
      out[o + 2] = neutral[2];
      continue;
    }
    let k = span > 0 ? Math.round((a - tolerance) * scale) : LUT_SIZE - 1;
    if (k > LUT_SIZE - 1) k = LUT_SIZE - 1;
    const lut = v > 0 ? proud : shy;
    out[o] = lut[3 * k]!;
    out[o + 1] = lut[3 * k + 1]!;
    out[o + 2] = lut[3 * k + 2]!;
  }
  return out;
}

/** The largest |value| over values that are numbers (0 when none is). */
export function maxAbsValue(values: ArrayLike<number>, noData?: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v !== v || noData?.[i]) continue;
    const a = v < 0 ? -v : v;
    if (a > m) m = a;
  }
  return m;
}

/**
 * The app's colour range rule: the half-width m of the symmetric range [-m, m] is the 99th percentile
 * of |value| over signed values, so a few outliers (a hole in the scan) do not wash every other colour
 * out; beyond it colours saturate. Falls back to maxAbs when that percentile is 0; 0 when nothing had
 * a sign. Entries flagged in `noData` (nonzero) are left out, as NaN values are.
 */
export function colorRange(values: ArrayLike<number>, maxAbs: number = maxAbsValue(values), noData?: ArrayLike<number>): number {
  const abs = new Float32Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === v && !noData?.[i]) abs[n++] = v < 0 ? -v : v;
  }
  if (n === 0) return 0;
  const sorted = abs.subarray(0, n).sort();
  const p = sorted[Math.round((n - 1) * 0.99)]!;
  return p > 0 ? p : maxAbs;
}

/**
 * The half-width the colours are drawn over: the range rule's m, widened to twice the tolerance so the
 * neutral band never fills the whole bar (issue 29.5: a tolerance wider than the data's range gave one
 * flat beige picture that said nothing about where the part stands within it).
 */
export function colorSpan(m: number, tolerance: number): number {
  return Math.max(m, 2 * tolerance);
}

/** A round default tolerance: about a tenth of the range, on the 1-2-5 ladder. */
export function defaultTolerance(m: number): number {
  if (!(m > 0)) return 0;
  const raw = m / 10;
  const p = 10 ** Math.floor(Math.log10(raw));
  const r = raw / p;
  return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * p;
}
