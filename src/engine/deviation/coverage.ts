import { BrepscopeError } from '../errors';
import { MAX_DISTANCE_DIAGONAL_SHARE, MAX_DISTANCE_MEDIAN_FACTOR } from './defaults';
import type { DirectedDeviation } from './measure';

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
    if (beyond[i] || !(distance[i]! <= limit)) {
      noData[i] = 1;
      count++;
    }
  }
  return { noData, noDataSamples: count, maxDistance: limit };
}

/**
 * max(10 x the median distance of the samples inside the reference's boundary, 5% of the from-body's
 * diagonal): generous on purpose, so that it never hides a defect a reviewer would want to see; the
 * boundary test does most of the work on open scans.
 */
export function defaultMaxDistance(distance: Float64Array, beyond: Uint8Array, diagonal: number): number {
  const inside = distance.filter((_, i) => !beyond[i]).sort();
  const median = inside.length ? inside[Math.round((inside.length - 1) / 2)]! : 0;
  return Math.max(MAX_DISTANCE_MEDIAN_FACTOR * median, MAX_DISTANCE_DIAGONAL_SHARE * diagonal);
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
