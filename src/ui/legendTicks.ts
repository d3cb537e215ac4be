/**
 * The colour bar's tick values: the ends (±m), 0, and the tolerance band's edges (±tol) when their
 * labels fit between those of the ends and 0 on a bar `widthPx` wide. Before, the band's ticks were
 * kept whenever tol lay between 0.3 m and 0.7 m: at 1024x700 (a 218 px bar) "−0.2094" and "−0.1"
 * ran into each other ("−0.2094−0.1").
 */

/** A tick label's width per character (11 px tabular figures; the true minus is a little wider than a digit). */
export const TICK_CHAR_PX = 6.6;
/** Clear space kept between two labels. */
const GAP_PX = 6;

export function legendTicks(m: number, tol: number, widthPx: number, label: (t: number) => string): number[] {
  if (!(m > 0)) return [0];
  const ends = [-m, 0, m];
  if (!(tol > 0 && tol < m)) return ends;
  const w = (t: number) => label(t).length * TICK_CHAR_PX;
  // The -m label is anchored at the bar's left edge, 0 and -tol centred on their places (the right side mirrors it).
  const at = (t: number) => ((t + m) / (2 * m)) * widthPx;
  const left = at(-tol) - w(-tol) / 2, right = at(-tol) + w(-tol) / 2;
  const clearOfEnd = left >= w(-m) + GAP_PX;
  const clearOfZero = right <= at(0) - w(0) / 2 - GAP_PX;
  return clearOfEnd && clearOfZero ? [-m, -tol, 0, tol, m] : ends;
}
