import type { PmiResult } from './pmi';

/**
 * The CAD's general tolerance for a surface comparison, from its semantic PMI (issue 29.3).
 *
 * OCCT's XCAF has no "general tolerance" object (no ISO 2768 class, no default tolerance table; a
 * title-block note is free text), so this is our rule on what XCAF does expose: the general
 * tolerance of a model-based definition is a **surface profile that covers the whole part**, the
 * ASME Y14.5 "profile ... all over" callout, i.e. a `surfaceProfile` tolerance that either
 *   - carries the `allOver` modifier (XCAFDimTolObjects_GeomToleranceModif_All_Over), or
 *   - is on the part's own shape (read_pmi's `general`: a general note), or
 *   - names every face of the body (`faceCount` faces).
 * A profile zone is a total width, equally disposed about the nominal surface by default, so the
 * bilateral tolerance is half of it. With several such callouts the tightest one applies (a
 * comparison colours every surface; the loosest would pass faces the drawing holds tighter).
 * `allAround` is not enough: it runs around one outline, not over the part.
 * Null when no callout qualifies: the app then keeps its stated default. Never from the data.
 */
export interface GeneralTolerance {
  /** ± value (half the profile zone), mm. */
  value: number;
  /** The PMI entry it comes from, e.g. tolerance[3]. */
  id: string;
  /** The profile zone width as the file gives it. */
  zone: number;
  /** Why it qualifies. */
  reason: 'allOver' | 'allFaces';
}

export function generalTolerance(pmi: Pick<PmiResult, 'tolerances'>, faceCount: number): GeneralTolerance | null {
  let best: GeneralTolerance | null = null;
  for (const t of pmi.tolerances) {
    if (t.kind !== 'surfaceProfile' || t.value === null || !(t.value > 0) || !Number.isFinite(t.value)) continue;
    const allOver = t.modifiers.includes('allOver') || t.general === true;
    const allFaces = faceCount > 0 && new Set(t.faces.filter((f) => f.startsWith('face['))).size === faceCount;
    if (!allOver && !allFaces) continue;
    if (!best || t.value / 2 < best.value) best = { value: t.value / 2, id: t.id, zone: t.value, reason: allOver ? 'allOver' : 'allFaces' };
  }
  return best;
}

