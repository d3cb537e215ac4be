/**
 * The figures a user compares between the screen's stats card and the report (signed mean, sigma,
 * p95, max, within tolerance, no data), printed by one function so both read the same text
 * (issue 29: the screen said −0.007002 where the report said −0.0070). DOM-free: the app imports it
 * through the engine's index, the report from here.
 */

/** A length figure: 4 significant digits, thousands grouped, a true minus; `signed` puts '+' on positives. */
export function figureText(v: number, signed = false): string {
  if (!Number.isFinite(v)) return String(v);
  const s = Number(v.toPrecision(4));
  const sign = s < 0 ? '\u2212' : signed && s > 0 ? '+' : '';
  const a = Math.abs(s);
  // Below 1e-4 a row of zeros hides the digits; the exponent form keeps the same 4 of them.
  const body = a !== 0 && a < 1e-4 ? a.toExponential(3) : a.toLocaleString('en-US', { maximumSignificantDigits: 4 });
  return `${sign}${body}`;
}

/** A share as a percentage with two decimals: 99.99 % must not read 100.0 % on one side and FAIL on the other. */
export function shareText(share: number): string {
  return `${(100 * share).toFixed(2)} %`;
}

/**
 * Max |d| of the stats card and the report's summary: the samples' max, or the farthest covered
 * heat-map vertex's when that lies beyond (a scan's own points can lie beyond every area sample,
 * which averages its noise; docs/deviation.md, "Max |d| and the worst point").
 */
export function maxDeviation(sampleMaxAbs: number, worstVertex: { distance: number } | null | undefined): number {
  return Math.max(sampleMaxAbs, worstVertex?.distance ?? 0);
}
