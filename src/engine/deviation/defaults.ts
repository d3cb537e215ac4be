/** The deviation engine's defaults (spec; docs/deviation.md): plain values, shared by tools and threads. */

/** measure_deviation's default sample count per direction (spec); deviation_heatmap's statistics use it too. */
export const DEFAULT_DEVIATION_SAMPLES = 20000;

/**
 * The most samples a deviation tool takes (maxSamples): the samples are allocated up front (48 bytes
 * each, more in the queries), so 5 million already take 1.6 GB, and a larger count would fail as an
 * allocation, not as a bad argument.
 */
export const MAX_DEVIATION_SAMPLES = 10_000_000;

/** Default deflection of the deviation tools: 0.5 % of the from-body's bounding-box diagonal (spec). */
export const DEFLECTION_RATIO = 0.005;

/** exact: a BREP body is measured on its exact faces; tessellated: as its tessellation (surfaceSchema). */
export type SurfaceMode = 'exact' | 'tessellated';

/** The default maximum search distance: max(MEDIAN_FACTOR x median distance, DIAGONAL_SHARE x from-body diagonal) (docs/deviation.md, "No data"). */
export const MAX_DISTANCE_MEDIAN_FACTOR = 10;
export const MAX_DISTANCE_DIAGONAL_SHARE = 0.05;

/** With missing scan data, the default search distance reaches this many noise spreads past the median distance (coverage.ts). */
export const SCAN_SPREAD_FACTOR = 6;
