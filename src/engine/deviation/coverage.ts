import { BrepscopeError } from '../errors';
import { DEFLECTION_RATIO, MAX_DISTANCE_DIAGONAL_SHARE, MAX_DISTANCE_MEDIAN_FACTOR, SCAN_SPREAD_FACTOR } from './defaults';
import { BEYOND, type DirectedDeviation } from './measure';

/**
 * Which samples of a direction have a measured counterpart (docs/deviation.md, "No data"): a
 * sample beyond an open mesh reference's boundary, or farther than maxDistance from the reference,
 * has none. The one rule of every deviation figure: records, histograms, sections, heat maps and
 * point clouds go through it.
 */
export interface Coverage {
  /** 1 for a no-data sample. */
  noData: Uint8Array<ArrayBuffer>;
  noDataSamples: number;
  /** The maximum search distance applied: the argument, else defaultMaxDistance. */
  maxDistance: number;
}

export function coverageOf(distance: Float64Array, beyond: Uint8Array, maxDistance: number | undefined, diagonal: number): Coverage {
  const limit = maxDistance ?? defaultMaxDistance(distance, beyond, diagonal);
  const noData = new Uint8Array(distance.length);
  let count = 0;
  for (let i = 0; i < distance.length; i++) {
    if (beyond[i]! & BEYOND || !(distance[i]! <= limit)) {
      noData[i] = 1;
      count++;
    }
  }
  return { noData, noDataSamples: count, maxDistance: limit };
}

/**
 * The default search distance of a direction (docs/deviation.md, "No data"), from the distances of
 * the samples inside the reference's boundary (median m, spread s = 1.4826 x their median absolute
 * deviation from m, a standard deviation for normal noise):
 * - when some sample lies beyond an open boundary, the reference is a scan with missing data, and a
 *   sample farther from it than the scan's own noise is in the gap: max(2 m, m + 6 s, the default
 *   deflection, 0.5% of the diagonal, as a floor of resolution);
 * - otherwise (nothing is missing): max(10 m, 5% of the from-body's diagonal), generous on purpose,
 *   so that it never hides a defect a reviewer would want to see; it only catches stray data.
 */
export function defaultMaxDistance(distance: Float64Array, beyond: Uint8Array, diagonal: number): number {
  let gaps = false;
  for (let i = 0; i < beyond.length; i++) if (beyond[i]! & BEYOND) gaps = true;
  const inside = distance.filter((_, i) => !(beyond[i]! & BEYOND)).sort();
  const median = inside.length ? inside[Math.round((inside.length - 1) / 2)]! : 0;
  if (!gaps) return Math.max(MAX_DISTANCE_MEDIAN_FACTOR * median, MAX_DISTANCE_DIAGONAL_SHARE * diagonal);
  const deviations = inside.map((x) => Math.abs(x - median)).sort();
  const spread = 1.4826 * (deviations.length ? deviations[Math.round((deviations.length - 1) / 2)]! : 0);
  return Math.max(2 * median, median + SCAN_SPREAD_FACTOR * spread, DEFLECTION_RATIO * diagonal);
}

/** A direction's coverage under the call's maxDistance (NO_COVERAGE when no sample has a counterpart). */
export function directedCoverage(d: DirectedDeviation, maxDistance: number | undefined, diagonal: number, what: string): Coverage {
  const c = coverageOf(d.distance, d.beyond, maxDistance, diagonal);
  if (c.noDataSamples === d.distance.length) {
    throw new BrepscopeError(
      'NO_COVERAGE',
      `${what}: none of the ${d.distance.length} samples has a counterpart on the reference (each lies beyond its open boundary or farther than maxDistance ${c.maxDistance}): the bodies do not overlap${maxDistance !== undefined ? ', or maxDistance is too small' : ''}`,
    );
  }
  return c;
}
