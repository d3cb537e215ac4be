import { formatNumber } from './format';
import { colorSpan } from './heatColors';

/**
 * Why the colours saturate where they do, in the legend's words. The span is the larger of the
 * 99th percentile of |d| (`range`) and twice the tolerance (heatColors' `colorSpan`): a part well
 * within tolerance saturates at 2 × tolerance, and the hint then must not call that the percentile.
 */
export function saturationNote(range: number, tolerance: number, unit: string, rangeFrom?: string): string {
  const m = colorSpan(range, tolerance);
  const at = formatNumber(Number(m.toPrecision(3)));
  const where = rangeFrom ? `${rangeFrom}'s vertices, the scale of its view` : 'the coloured vertices';
  if (m === range) return `${unit} · colours saturate beyond ±${at} (99th percentile of |d| at ${where})`;
  return `${unit} · colours saturate beyond ±${at} (twice the tolerance; 99th percentile of |d| at ${where} ${formatNumber(Number(range.toPrecision(3)))})`;
}
