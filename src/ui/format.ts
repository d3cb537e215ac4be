/** Six significant digits, thousands grouped; values within 1e-9 of the scale read as 0. */
export function formatNumber(value: number, scale = 1): string {
  if (!Number.isFinite(value)) return String(value);
  const v = Math.abs(value) < 1e-9 * Math.max(1, Math.abs(scale)) ? 0 : value;
  return v.toLocaleString('en-US', { maximumSignificantDigits: 6 });
}

export function formatVector(v: readonly number[], scale = 1): string {
  return `(${v.map((x) => formatNumber(x, scale)).join(', ')})`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
