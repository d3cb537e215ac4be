import { createSurface, type Context2D } from './canvas';
import { formatValue } from './format';

export interface HistogramBucket {
  lo: number;
  hi: number;
  count: number;
}

/** How a bucket's samples split by sign, so a bucket holding both kinds is drawn truthfully. */
export interface BucketSigns {
  shy: number;
  /** Exactly on the reference (signed 0): neither proud nor shy. */
  zero: number;
  proud: number;
}

export interface HistogramChart {
  buckets: HistogramBucket[];
  /** Per bucket; without it a bar is coloured by which side of zero it lies on. */
  signs?: BucketSigns[] | undefined;
  mean: number;
  std: number;
  /** p95 of the unsigned distance: marked at +p95 and -p95 where they fall inside the plot. */
  p95: number;
  tolerance?: number | undefined;
  /** Axis unit label, e.g. "model units". */
  units: string;
  /** Extra line under the title (sample counts). */
  subtitle?: string | undefined;
}

export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 480;

/** Bar colours: proud (positive, outside the reference) red, shy (negative) blue. */
export const PROUD_COLOR = '#d62728';
export const SHY_COLOR = '#1f5fbf';
export const ZERO_COLOR = '#9a9a9a';
const TOLERANCE_FILL = 'rgba(46, 160, 67, 0.16)';
const TOLERANCE_EDGE = 'rgba(46, 160, 67, 0.75)';
const MEAN_COLOR = '#111111';
const P95_COLOR = '#e08a00';
const AXIS_COLOR = '#333333';
const GRID_COLOR = '#e4e4e4';
const FONT = 'sans-serif';

const M = { left: 74, right: 24, top: 62, bottom: 92 };

/**
 * A signed-deviation histogram as a PNG: bucket bars (the part of a bar left of zero shy blue, right
 * of zero proud red), the tolerance band shaded, a zero line, the mean (solid) and the p95 magnitude
 * (dashed, at +-p95) marked, x and y axes with tick labels and units, a legend and a title with the
 * mean and sigma.
 */
export async function histogramPng(chart: HistogramChart): Promise<Uint8Array> {
  const surface = createSurface(CHART_WIDTH, CHART_HEIGHT);
  const g = surface.context;
  const W = CHART_WIDTH, H = CHART_HEIGHT;
  const plotW = W - M.left - M.right, plotH = H - M.top - M.bottom;
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, W, H);

  const buckets = chart.buckets;
  const x0 = buckets[0]!.lo, x1 = buckets[buckets.length - 1]!.hi;
  const pad = 0.02 * (x1 - x0);
  const xmin = x0 - pad, xmax = x1 + pad;
  const X = (v: number) => M.left + ((v - xmin) / (xmax - xmin)) * plotW;
  const maxCount = Math.max(1, ...buckets.map((b) => b.count));
  const yTicks = niceTicks(0, maxCount, 6).filter((t) => Number.isInteger(t));
  const ymax = Math.max(maxCount, yTicks[yTicks.length - 1] ?? maxCount);
  const Y = (c: number) => M.top + plotH - (c / ymax) * plotH;

  // Grid and tolerance band under the bars.
  g.strokeStyle = GRID_COLOR;
  g.lineWidth = 1;
  for (const t of yTicks) line(g, M.left, Y(t), M.left + plotW, Y(t));
  const tol = chart.tolerance;
  if (tol !== undefined && tol > 0) {
    const a = X(Math.max(-tol, xmin)), b = X(Math.min(tol, xmax));
    if (b > a) {
      g.fillStyle = TOLERANCE_FILL;
      g.fillRect(a, M.top, b - a, plotH);
      g.strokeStyle = TOLERANCE_EDGE;
      g.setLineDash([2, 3]);
      if (-tol >= xmin) line(g, X(-tol), M.top, X(-tol), M.top + plotH);
      if (tol <= xmax) line(g, X(tol), M.top, X(tol), M.top + plotH);
      g.setLineDash([]);
    }
  }

  // A bar is a stack: shy samples (blue) at the bottom, samples exactly on the reference (grey),
  // proud samples (red) on top; a bucket wholly on one side of zero is a single colour.
  let anyZero = false;
  buckets.forEach((bucket, i) => {
    if (bucket.count === 0) return;
    const left = X(bucket.lo), right = X(bucket.hi);
    const gap = right - left > 4 ? 1 : 0;
    const mid = 0.5 * (bucket.lo + bucket.hi);
    const split = chart.signs?.[i] ?? (mid < 0 ? { shy: bucket.count, zero: 0, proud: 0 } : { shy: 0, zero: 0, proud: bucket.count });
    let base = 0;
    for (const [n, color] of [
      [split.shy, SHY_COLOR],
      [split.zero, ZERO_COLOR],
      [split.proud, PROUD_COLOR],
    ] as const) {
      if (n === 0) continue;
      if (color === ZERO_COLOR) anyZero = true;
      g.fillStyle = color;
      g.fillRect(left + gap, Y(base + n), right - left - 2 * gap, Y(base) - Y(base + n));
      base += n;
    }
  });

  // Zero line, mean and p95 marks.
  if (0 >= xmin && 0 <= xmax) {
    g.strokeStyle = AXIS_COLOR;
    g.lineWidth = 1;
    line(g, X(0), M.top, X(0), M.top + plotH);
  }
  g.lineWidth = 2;
  g.strokeStyle = MEAN_COLOR;
  if (chart.mean >= xmin && chart.mean <= xmax) line(g, X(chart.mean), M.top - 4, X(chart.mean), M.top + plotH);
  g.strokeStyle = P95_COLOR;
  g.setLineDash([6, 4]);
  for (const v of [-chart.p95, chart.p95]) if (v >= xmin && v <= xmax) line(g, X(v), M.top - 4, X(v), M.top + plotH);
  g.setLineDash([]);

  // Axes, ticks and labels.
  g.strokeStyle = AXIS_COLOR;
  g.lineWidth = 1;
  line(g, M.left, M.top + plotH, M.left + plotW, M.top + plotH);
  line(g, M.left, M.top, M.left, M.top + plotH);
  g.fillStyle = AXIS_COLOR;
  g.font = `12px ${FONT}`;
  g.textAlign = 'center';
  g.textBaseline = 'top';
  const xTicks = niceTicks(xmin, xmax, 8);
  const step = xTicks.length > 1 ? xTicks[1]! - xTicks[0]! : 1;
  for (const t of xTicks) {
    line(g, X(t), M.top + plotH, X(t), M.top + plotH + 5);
    g.fillText(formatTick(t, step), X(t), M.top + plotH + 8);
  }
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (const t of yTicks) {
    line(g, M.left - 5, Y(t), M.left, Y(t));
    g.fillText(String(t), M.left - 8, Y(t));
  }
  g.textAlign = 'center';
  g.textBaseline = 'top';
  g.font = `13px ${FONT}`;
  g.fillText(`signed deviation (${chart.units}): negative = shy (inside the reference), positive = proud`, M.left + plotW / 2, M.top + plotH + 28);
  g.save();
  g.translate(18, M.top + plotH / 2);
  g.rotate(-Math.PI / 2);
  g.textBaseline = 'middle';
  g.fillText('samples', 0, 0);
  g.restore();

  // Title and legend.
  g.textAlign = 'left';
  g.textBaseline = 'alphabetic';
  g.font = `bold 16px ${FONT}`;
  g.fillStyle = '#111111';
  g.fillText(`Signed deviation: mean ${formatValue(chart.mean)}, \u03c3 ${formatValue(chart.std)} ${chart.units}`, M.left, 26);
  if (chart.subtitle) {
    g.font = `12px ${FONT}`;
    g.fillStyle = '#555555';
    g.fillText(chart.subtitle, M.left, 45);
  }
  const legend: [string, (x: number, y: number) => void][] = [
    ['shy', swatch(g, SHY_COLOR)],
    ['proud', swatch(g, PROUD_COLOR)],
  ];
  if (anyZero) legend.push(['on the reference', swatch(g, ZERO_COLOR)]);
  legend.push(['mean', mark(g, MEAN_COLOR, [])], [`\u00b1p95 |d| = ${formatValue(chart.p95)}`, mark(g, P95_COLOR, [6, 4])]);
  if (tol !== undefined) legend.push([`tolerance \u00b1${tol}${tol > 0 && (-tol > xmax || tol < xmin) ? ' (off the plot)' : ''}`, swatch(g, TOLERANCE_FILL, TOLERANCE_EDGE)]);
  g.font = `12px ${FONT}`;
  g.textBaseline = 'middle';
  let lx = M.left;
  const ly = H - 22;
  for (const [label, draw] of legend) {
    draw(lx, ly);
    g.fillStyle = '#222222';
    g.fillText(label, lx + 20, ly);
    lx += 20 + g.measureText(label).width + 22;
  }
  return surface.toPng();
}

function line(g: Context2D, x0: number, y0: number, x1: number, y1: number): void {
  g.beginPath();
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
  g.stroke();
}

function swatch(g: Context2D, fill: string, stroke?: string): (x: number, y: number) => void {
  return (x, y) => {
    g.fillStyle = fill;
    g.fillRect(x, y - 6, 14, 12);
    if (stroke) {
      g.strokeStyle = stroke;
      g.lineWidth = 1;
      g.strokeRect(x + 0.5, y - 5.5, 13, 11);
    }
  };
}

function mark(g: Context2D, color: string, dash: number[]): (x: number, y: number) => void {
  return (x, y) => {
    g.strokeStyle = color;
    g.lineWidth = 2;
    g.setLineDash(dash);
    line(g, x, y, x + 14, y);
    g.setLineDash([]);
  };
}

/** About `target` round tick values (1, 2, 5 x 10^k steps) covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, target: number): number[] {
  const span = hi - lo;
  if (!(span > 0) || !Number.isFinite(span)) return [lo];
  const raw = span / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}

function formatTick(t: number, step: number): string {
  const decimals = Math.max(0, Math.min(10, -Math.floor(Math.log10(step)) + (step / 10 ** Math.floor(Math.log10(step)) === 2.5 ? 1 : 0)));
  return t.toFixed(decimals);
}
