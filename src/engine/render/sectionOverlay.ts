import { createSurface, type Context2D } from './canvas';
import { cssColor, deviationColor } from './heatColors';

/**
 * The overlay of two section profiles at one station: reference and candidate in two colours that
 * stay distinct under the common colour-vision deficiencies (Okabe-Ito blue and vermillion), one
 * uniform scale on both plot axes, a title with the station and its figures, a legend and a scale
 * bar in the bodies' unit; on the reference's outline, deviation whiskers (issue 29: a 0.1 mm error
 * cannot be seen at full scale). Layout in docs/cross-sections.md.
 */

export const SECTION_IMAGE_WIDTH = 800;
export const SECTION_IMAGE_HEIGHT = 800;
/** Okabe-Ito blue. */
export const REFERENCE_COLOR = '#0072B2';
/** Okabe-Ito vermillion. */
export const CANDIDATE_COLOR = '#D55E00';

const HEADER = 104;
const FOOTER = 64;
const SIDE = 24;
/** The drawing area of the profiles: [x0, y0, x1, y1] in pixels (tests look for both colours in it). */
export const SECTION_PLOT_AREA = [SIDE, HEADER, SECTION_IMAGE_WIDTH - SIDE, SECTION_IMAGE_HEIGHT - FOOTER] as const;

export interface OverlayPolyline {
  /** Interleaved x, y in model units of the station plane. */
  points: ArrayLike<number>;
  closed: boolean;
}

export interface SectionOverlay {
  title: string;
  /** Up to three lines of figures under the title. */
  lines: string[];
  reference: OverlayPolyline[];
  candidate: OverlayPolyline[];
  referenceLabel: string;
  candidateLabel: string;
  /** The station centre the envelope was taken around, drawn as a small cross. */
  centre?: readonly [number, number] | undefined;
  /** Footer note, e.g. the plane's u and v directions in world coordinates. */
  note?: string | undefined;
  /** The length unit of the scale bar. Default model units. */
  unit?: string | undefined;
  whiskers?: Whiskers | undefined;
}

/**
 * Deviation whiskers: short lines normal to the reference's outline, of length `magnification` times the
 * signed deviation there (outward when the candidate is proud), coloured by the heat map's rule: grey
 * within +/-tolerance (the map's neutral beige would vanish on white), red proud, blue shy, saturated at `span`.
 */
export interface Whiskers {
  /** Five numbers per whisker: base x, y on the reference outline, its outward unit normal nx, ny, the signed deviation d. */
  data: ArrayLike<number>;
  magnification: number;
  tolerance: number;
  span: number;
}

/** Whiskers within the tolerance band. */
export const WHISKER_WITHIN_COLOR = '#8c8c8c';
const WHISKER_RAMP_START = 1 / 3;
/** Whiskers closer than this many pixels along the outline to the last drawn one are left out (a 0.5 degree envelope is denser than the eye). */
const WHISKER_SPACING_PX = 3;
/** The automatic magnification draws the larger of the tolerance and the 95th percentile of |d| this share of the median profile size long. */
const WHISKER_SHARE = 0.08;

/**
 * A round magnification (1, 2 or 5 times a power of ten, never below 1) that draws `reach` (the larger of
 * the tolerance and the deviations' 95th percentile) about 8 % of `size` (a typical profile's extent) long.
 */
export function whiskerMagnification(size: number, deviations: ArrayLike<number>, tolerance: number): number {
  const abs = Float64Array.from(deviations, Math.abs).filter((x) => Number.isFinite(x)).sort();
  const p95 = abs.length ? abs[Math.min(abs.length - 1, Math.round(0.95 * (abs.length - 1)))]! : 0;
  const reach = Math.max(tolerance, p95);
  if (!(reach > 0) || !(size > 0)) return 1;
  return Math.max(1, niceLength((WHISKER_SHARE * size) / reach));
}

export async function renderSectionOverlay(overlay: SectionOverlay): Promise<Uint8Array> {
  const surface = createSurface(SECTION_IMAGE_WIDTH, SECTION_IMAGE_HEIGHT);
  const g = surface.context;
  const [px0, py0, px1, py1] = SECTION_PLOT_AREA;
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, SECTION_IMAGE_WIDTH, SECTION_IMAGE_HEIGHT);

  g.fillStyle = '#111111';
  g.textBaseline = 'alphabetic';
  g.textAlign = 'left';
  g.font = 'bold 19px sans-serif';
  g.fillText(overlay.title, SIDE, 30, SECTION_IMAGE_WIDTH - 2 * SIDE);
  g.font = '14px sans-serif';
  g.fillStyle = '#333333';
  overlay.lines.slice(0, 3).forEach((line, i) => g.fillText(line, SIDE, 54 + 19 * i, SECTION_IMAGE_WIDTH - 2 * SIDE));

  g.strokeStyle = '#d0d0d0';
  g.lineWidth = 1;
  g.strokeRect(px0 + 0.5, py0 + 0.5, px1 - px0 - 1, py1 - py0 - 1);

  const all = [...overlay.reference, ...overlay.candidate];
  if (overlay.whiskers) all.push({ points: whiskerTips(overlay.whiskers), closed: false });
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const line of all) {
    const p = line.points;
    for (let i = 0; i + 1 < p.length; i += 2) {
      minX = Math.min(minX, p[i]!);
      maxX = Math.max(maxX, p[i]!);
      minY = Math.min(minY, p[i + 1]!);
      maxY = Math.max(maxY, p[i + 1]!);
    }
  }
  let scale = 1;
  if (Number.isFinite(minX)) {
    const pad = 0.06;
    const spanX = Math.max(maxX - minX, 1e-12), spanY = Math.max(maxY - minY, 1e-12);
    const span = Math.max(spanX, spanY);
    // One scale for both axes: circles stay round, squares square.
    scale = Math.min((px1 - px0) / (spanX + 2 * pad * span), (py1 - py0) / (spanY + 2 * pad * span));
    const midX = (minX + maxX) / 2, midY = (minY + maxY) / 2;
    const cx = (px0 + px1) / 2, cy = (py0 + py1) / 2;
    const toX = (x: number) => cx + (x - midX) * scale;
    const toY = (y: number) => cy - (y - midY) * scale;
    g.save();
    g.beginPath();
    g.rect(px0 + 1, py0 + 1, px1 - px0 - 2, py1 - py0 - 2);
    g.clip();
    if (overlay.centre) {
      const [x, y] = [toX(overlay.centre[0]), toY(overlay.centre[1])];
      g.strokeStyle = '#9a9a9a';
      g.lineWidth = 1;
      g.beginPath();
      g.moveTo(x - 7, y);
      g.lineTo(x + 7, y);
      g.moveTo(x, y - 7);
      g.lineTo(x, y + 7);
      g.stroke();
    }
    // The reference wide underneath, the candidate narrow on top: where they coincide both show.
    drawCurves(g, overlay.reference, toX, toY, REFERENCE_COLOR, 4);
    drawCurves(g, overlay.candidate, toX, toY, CANDIDATE_COLOR, 2);
    // Whiskers on top: at full scale a 0.1 mm error hides inside the strokes.
    if (overlay.whiskers) drawWhiskers(g, overlay.whiskers, toX, toY);
    g.restore();
  } else {
    g.fillStyle = '#777777';
    g.font = '16px sans-serif';
    g.textAlign = 'center';
    g.fillText('neither body is cut at this station', (px0 + px1) / 2, (py0 + py1) / 2);
    g.textAlign = 'left';
  }

  // Legend, bottom left.
  const ly = SECTION_IMAGE_HEIGHT - FOOTER + 24;
  g.font = '14px sans-serif';
  let x = SIDE;
  for (const [label, color] of [
    [overlay.referenceLabel, REFERENCE_COLOR],
    [overlay.candidateLabel, CANDIDATE_COLOR],
  ] as const) {
    g.fillStyle = color;
    g.fillRect(x, ly - 10, 26, 8);
    g.fillStyle = '#111111';
    g.fillText(label, x + 34, ly, 220);
    x += 34 + Math.min(220, g.measureText(label).width) + 24;
  }
  if (overlay.note) {
    g.fillStyle = '#555555';
    g.font = '12px sans-serif';
    g.fillText(overlay.note, SIDE, ly + 24, 520);
  }

  // Scale bar, bottom right: a round length up to a quarter of the plot width.
  if (Number.isFinite(minX)) {
    const length = niceLength((0.25 * (px1 - px0)) / scale);
    const pixels = length * scale;
    const right = SECTION_IMAGE_WIDTH - SIDE;
    const by = ly + 14;
    g.strokeStyle = '#111111';
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(right - pixels, by);
    g.lineTo(right, by);
    g.moveTo(right - pixels, by - 6);
    g.lineTo(right - pixels, by + 6);
    g.moveTo(right, by - 6);
    g.lineTo(right, by + 6);
    g.stroke();
    g.fillStyle = '#111111';
    g.font = '13px sans-serif';
    // Right-aligned: a short bar must not push its label off the image.
    g.textAlign = 'right';
    g.fillText(`${formatLength(length)} ${overlay.unit ?? 'model units'}`, right, by - 10);
    g.textAlign = 'left';
  }
  return surface.toPng();
}

function drawCurves(g: Context2D, lines: readonly OverlayPolyline[], toX: (x: number) => number, toY: (y: number) => number, color: string, width: number): void {
  g.strokeStyle = color;
  g.lineWidth = width;
  g.lineJoin = 'round';
  g.lineCap = 'round';
  for (const line of lines) {
    const p = line.points;
    if (p.length < 4) continue;
    g.beginPath();
    g.moveTo(toX(p[0]!), toY(p[1]!));
    for (let i = 2; i + 1 < p.length; i += 2) g.lineTo(toX(p[i]!), toY(p[i + 1]!));
    if (line.closed) g.closePath();
    g.stroke();
  }
}

function whiskerTips(w: Whiskers): Float64Array {
  const d = w.data;
  const n = Math.floor(d.length / 5);
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const o = 5 * i, len = w.magnification * d[o + 4]!;
    out[2 * i] = d[o]! + len * d[o + 2]!;
    out[2 * i + 1] = d[o + 1]! + len * d[o + 3]!;
  }
  return out;
}

/**
 * A whisker's colour: grey within the band; beyond it the heat map's arm, entered a third of the way
 * along so the lightest tint still shows on white.
 */
export function whiskerColor(v: number, span: number, tolerance: number): string {
  const a = Math.abs(v);
  if (!(a > tolerance)) return WHISKER_WITHIN_COLOR;
  const width = span - tolerance;
  const t = width > 0 ? Math.min(1, (a - tolerance) / width) : 1;
  const shifted = tolerance + (WHISKER_RAMP_START + (1 - WHISKER_RAMP_START) * t) * Math.max(width, 0);
  return cssColor(deviationColor(Math.sign(v) * (width > 0 ? shifted : span + 1), span, tolerance));
}

function drawWhiskers(g: Context2D, w: Whiskers, toX: (x: number) => number, toY: (y: number) => number): void {
  const d = w.data;
  g.lineWidth = 1.5;
  g.lineCap = 'butt';
  let lastX = NaN, lastY = NaN;
  for (let o = 0; o + 4 < d.length; o += 5) {
    const x = toX(d[o]!), y = toY(d[o + 1]!);
    if (Math.hypot(x - lastX, y - lastY) < WHISKER_SPACING_PX) continue;
    lastX = x;
    lastY = y;
    const v = d[o + 4]!;
    const len = w.magnification * v;
    g.strokeStyle = whiskerColor(v, w.span, w.tolerance);
    g.beginPath();
    g.moveTo(x, y);
    g.lineTo(toX(d[o]! + len * d[o + 2]!), toY(d[o + 1]! + len * d[o + 3]!));
    g.stroke();
  }
}

/** The largest 1, 2 or 5 times a power of ten not above `x`. */
export function niceLength(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const e = Math.floor(Math.log10(x));
  const base = 10 ** e;
  const m = x / base;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * base;
}

function formatLength(x: number): string {
  return Number(x.toPrecision(6)).toString();
}
