/** Three significant digits, without exponent notation for everyday sizes. */
export function formatValue(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-4 && a < 1e6) return v.toFixed(Math.max(0, 2 - Math.floor(Math.log10(a))));
  return v.toPrecision(3);
}

/** Decimals that show `m` to three significant digits (a legend's common precision), 0 to 10. */
export function decimalsFor(m: number): number {
  if (!(m > 0) || !Number.isFinite(m)) return 0;
  return Math.max(0, Math.min(10, 2 - Math.floor(Math.log10(m))));
}

/** A signed number with an explicit + for positive values and a true minus sign. */
export function formatSigned(v: number, decimals: number): string {
  const s = Math.abs(v).toFixed(decimals);
  if (Number(s) === 0) return (0).toFixed(decimals);
  return (v < 0 ? '\u2212' : '+') + s;
}
