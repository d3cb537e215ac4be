import type { PixelRect } from './camera';
import type { Context2D } from './canvas';
import { decimalsFor, formatSigned } from './format';
import { AMBIGUOUS, cssColor, deviationColorInto, NEUTRAL, NO_DATA, type Rgb } from './heatColors';

/** What the legend shows: the colour map over [-range, range] with its tolerance band, in `units`. */
export interface LegendSpec {
  range: number;
  tolerance: number;
  steps?: number | undefined;
  units: string;
  /** Signed extremes of the data (shown under the bar, so saturated colours are read right). */
  dataMin?: number | undefined;
  dataMax?: number | undefined;
  /** Show the no-data entry (when the data has any). */
  noData: boolean;
  /** Explain the dashed callouts (when some label point is hidden behind the surface). */
  hiddenLabels: boolean;
}

/** Where the colour bar was drawn, and the value at a pixel row of it (tests sample the bar). */
export interface LegendLayout {
  bar: PixelRect;
  /** The value whose colour fills the bar's pixel row `y` (image coordinates). */
  valueAt(y: number): number;
}

const TEXT = '#222222';
const MUTED = '#555555';
const FRAME = '#444444';

/** The legend panel's width at font scale k. */
export function legendWidth(k: number): number {
  return Math.round(150 * k);
}

/**
 * A vertical colour bar, +range at the top: the app's map row by row (banded when `steps` is set),
 * ticks at +range, +tolerance, 0, -tolerance, -range (tolerance labels left out where they would
 * collide), proud/shy at the ends, then swatches for within tolerance, ambiguous and no data, and the
 * data's own extremes.
 */
export function drawLegend(g: Context2D, rect: PixelRect, spec: LegendSpec, k: number): LegendLayout {
  const m = spec.range, tol = Math.min(spec.tolerance, m);
  const font = (px: number, bold = false) => `${bold ? 'bold ' : ''}${Math.round(px * k)}px sans-serif`;
  const x0 = rect.x + Math.round(10 * k);
  const textW = rect.width - Math.round(16 * k);
  g.textAlign = 'left';
  g.textBaseline = 'alphabetic';
  g.fillStyle = TEXT;
  g.font = font(13, true);
  g.fillText('Signed deviation', x0, rect.y + Math.round(18 * k), textW);
  g.font = font(12);
  g.fillStyle = MUTED;
  g.fillText(spec.units, x0, rect.y + Math.round(35 * k), textW);

  const lineH = Math.round(17 * k);
  const entries = 2 + (spec.noData ? 1 : 0) + (spec.hiddenLabels ? 1 : 0) + (spec.dataMax !== undefined ? 2 : 0);
  const barTop = rect.y + Math.round(66 * k);
  const footer = Math.round(40 * k) + entries * lineH;
  const barH = Math.max(Math.round(40 * k), Math.min(Math.round(380 * k), rect.y + rect.height - footer - barTop));
  const barW = Math.round(20 * k);
  const bar: PixelRect = { x: x0, y: barTop, width: barW, height: barH };
  const valueAt = (y: number) => (m > 0 ? m - ((y - barTop + 0.5) / barH) * 2 * m : 0);

  g.font = font(11);
  g.fillStyle = MUTED;
  g.fillText('proud (+)', x0, barTop - Math.round(11 * k), textW);
  const rgb: [number, number, number] = [0, 0, 0];
  for (let r = 0; r < barH; r++) {
    const v = valueAt(barTop + r);
    g.fillStyle = cssColor(m > 0 ? deviationColorInto(v, m, tol, rgb, spec.steps) : NEUTRAL);
    g.fillRect(x0, barTop + r, barW, 1);
  }
  g.strokeStyle = FRAME;
  g.lineWidth = 1;
  g.strokeRect(x0 + 0.5, barTop + 0.5, barW - 1, barH - 1);
  g.fillStyle = MUTED;
  g.textBaseline = 'top';
  g.fillText('shy (\u2212)', x0, barTop + barH + Math.round(10 * k), textW);

  // Ticks: the range ends and zero always; the band edges where their labels have room.
  const decimals = Math.max(decimalsFor(m), tol > 0 ? decimalsFor(tol) - 1 : 0);
  const yOf = (v: number) => (m > 0 ? barTop + ((m - v) / (2 * m)) * barH : barTop + barH / 2);
  const fontPx = Math.round(11 * k);
  const ticks: { v: number; label: boolean }[] = m > 0 ? [{ v: m, label: true }, { v: 0, label: true }, { v: -m, label: true }] : [{ v: 0, label: true }];
  if (m > 0 && tol > 0 && tol < m) {
    const room = Math.min(yOf(tol) - yOf(m), yOf(0) - yOf(tol));
    ticks.push({ v: tol, label: room >= 1.1 * fontPx }, { v: -tol, label: room >= 1.1 * fontPx });
  }
  g.font = font(11);
  g.textBaseline = 'middle';
  const tx = x0 + barW + Math.round(9 * k);
  for (const t of ticks) {
    const y = Math.round(Math.min(barTop + barH - 1, Math.max(barTop, yOf(t.v)))) + 0.5;
    g.strokeStyle = FRAME;
    g.beginPath();
    g.moveTo(x0 + barW, y);
    g.lineTo(x0 + barW + Math.round(5 * k), y);
    g.stroke();
    if (!t.label) continue;
    g.fillStyle = TEXT;
    g.fillText(formatSigned(t.v, decimals), tx, y, rect.x + rect.width - tx);
  }

  // Swatches and the data's extremes.
  let y = barTop + barH + Math.round(34 * k);
  const swatch = (c: Rgb, label: string, dashed = false) => {
    const s = Math.round(12 * k);
    if (dashed) {
      g.strokeStyle = TEXT;
      g.lineWidth = Math.max(1, Math.round(1.3 * k));
      g.setLineDash([3 * k, 2 * k]);
      g.beginPath();
      g.moveTo(x0, y + s / 2);
      g.lineTo(x0 + s, y + s / 2);
      g.stroke();
      g.setLineDash([]);
      g.lineWidth = 1;
    } else {
      g.fillStyle = cssColor(c);
      g.fillRect(x0, y, s, s);
      g.strokeStyle = FRAME;
      g.strokeRect(x0 + 0.5, y + 0.5, s - 1, s - 1);
    }
    g.fillStyle = TEXT;
    g.textBaseline = 'middle';
    g.fillText(label, x0 + s + Math.round(6 * k), y + s / 2, textW - s - Math.round(6 * k));
    y += lineH;
  };
  g.font = font(11);
  swatch(NEUTRAL, `within \u00b1${tol > 0 ? formatSigned(tol, decimals).slice(1) : '0'}`);
  swatch(AMBIGUOUS, 'ambiguous sign');
  if (spec.noData) swatch(NO_DATA, 'no data');
  if (spec.hiddenLabels) swatch(NO_DATA, 'label hidden', true);
  if (spec.dataMax !== undefined && spec.dataMin !== undefined) {
    g.fillStyle = MUTED;
    g.textBaseline = 'middle';
    const half = Math.round(6 * k);
    g.fillText(`data max ${formatSigned(spec.dataMax, decimals)}`, x0, y + half, textW);
    y += lineH;
    g.fillText(`data min ${formatSigned(spec.dataMin, decimals)}`, x0, y + half, textW);
  }
  return { bar, valueAt };
}
