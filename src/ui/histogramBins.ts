/** A histogram bucket: [lo, hi) and how many samples fall in it. */
export interface Bin {
  lo: number;
  hi: number;
  count: number;
}

/** Narrower than this (in chart pixels) a bucket's bar is drawn this wide: a hairline bar cannot be seen. */
export const MIN_BAR_PX = 4;

/**
 * The bars to draw for the tool's buckets on an axis from `lo` to `hi` that is `widthPx` wide: each
 * bucket as it is, widened about its centre to MIN_BAR_PX where it is narrower (issue 29: a 0.1 mm
 * oversize scan's buckets, 0.0025 mm wide on an axis from -0.2 to +0.2, drew 1 px bars that vanished
 * into the tolerance band). Buckets are never merged or split: the bucket that holds samples on both
 * sides of the tolerance still straddles the band's edge, as its samples do.
 */
export function displayBins(buckets: readonly Bin[], lo: number, hi: number, widthPx: number): Bin[] {
  if (!(hi > lo) || !(widthPx > 0)) return [...buckets];
  const min = (MIN_BAR_PX * (hi - lo)) / widthPx;
  return buckets.map((b) => {
    if (b.hi - b.lo >= min) return { ...b };
    const c = (b.lo + b.hi) / 2;
    return { lo: c - min / 2, hi: c + min / 2, count: b.count };
  });
}
