/**
 * The deviation colour map: diverging blue (shy) to red (proud) after ColorBrewer's RdBu, which stays
 * readable for red-green colour-blind viewers because its two arms differ in hue *and* lightness.
 * Values within the tolerance band are one neutral colour; ambiguous samples (NaN) a darker grey,
 * so "no sign" can never be mistaken for "on the surface".
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

function ramp(stops: readonly Rgb[], t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = stops[i]!, b = stops[i + 1]!;
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/**
 * The sRGB colour (0..255) of one signed deviation: NaN ambiguous; |v| <= tolerance neutral;
 * beyond it the arm's ramp from the band edge (t = 0) to the range end m (t = 1).
 */
export function deviationColor(v: number, m: number, tolerance: number): [number, number, number] {
  if (v !== v) return [...AMBIGUOUS];
  const a = Math.abs(v);
  if (a <= tolerance) return [...NEUTRAL];
  const span = m - tolerance;
  const t = span > 0 ? (a - tolerance) / span : 1;
  return ramp(v > 0 ? PROUD_STOPS : SHY_STOPS, t);
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

let luts: { shy: Float32Array; proud: Float32Array; neutral: Rgb; ambiguous: Rgb } | undefined;

function tables() {
  luts ??= {
    shy: linearLut(SHY_STOPS),
    proud: linearLut(PROUD_STOPS),
    neutral: NEUTRAL.map((c) => srgbToLinear(c / 255)) as unknown as Rgb,
    ambiguous: AMBIGUOUS.map((c) => srgbToLinear(c / 255)) as unknown as Rgb,
  };
  return luts;
}

/**
 * Linear-RGB vertex colours for per-vertex deviations, written into `out` (3 per vertex). One pass
 * over typed arrays with table lookups: about a millisecond per 100k vertices, so it can run on the
 * main thread when the tolerance slider moves.
 */
export function colorVertices(values: Float32Array, m: number, tolerance: number, out: Float32Array = new Float32Array(values.length * 3)): Float32Array {
  const { shy, proud, neutral, ambiguous } = tables();
  const span = m - tolerance;
  const scale = span > 0 ? (LUT_SIZE - 1) / span : 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const o = 3 * i;
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
