import type { DeviationLabel, DeviationStation, HistogramResult } from '../engine';
import type { BodyEntry, HeatState } from './stores';

/**
 * Inspection roles (issue 29.1). The page speaks of the nominal (the CAD, or the body the user marks)
 * and the actual (a scan, a point cloud or a second CAD). Every deviation it shows is actual minus
 * nominal: + is material outside the nominal, whichever surface is coloured. The engine's tools keep
 * their from/to semantics (signed > 0 where the from-body lies outside the reference), so colouring
 * the actual is measure_deviation from the actual to the nominal as it comes, and colouring the
 * nominal ("on nominal": coverage, missing material) is the other direction with every signed value
 * negated. Neither depends on the scan's file type.
 */

export type ColourOn = 'actual' | 'nominal';

export interface InspectionRoles {
  nominal: string;
  actual: string;
}

/** The measure_deviation pair that colours one side of the roles, and whether its signs are flipped for display. */
export function measuredPair(roles: InspectionRoles, on: ColourOn): { from: string; to: string; flip: boolean } {
  return on === 'actual' ? { from: roles.actual, to: roles.nominal, flip: false } : { from: roles.nominal, to: roles.actual, flip: true };
}

/**
 * The nominal of a scene: the body the user marked (if it is still there and has a surface), else the
 * first BREP body, else (a scene of meshes and clouds) the first mesh when there is something to
 * compare with it. Null when no body can be one: a lone scan is an actual waiting for its nominal
 * (dropped first, or left when the CAD was removed), never promoted to the nominal.
 */
export function nominalOf(bodies: readonly BodyEntry[], marked: string | null): string | null {
  const surface = (b: BodyEntry) => b.summary.kind !== 'points';
  const mark = marked ? bodies.find((b) => b.bodyId === marked && surface(b)) : undefined;
  if (mark) return mark.bodyId;
  const brep = bodies.find((b) => b.summary.kind === 'brep');
  if (brep) return brep.bodyId;
  return bodies.length > 1 ? (bodies.find((b) => b.summary.kind === 'mesh')?.bodyId ?? null) : null;
}

/**
 * Every actual the scene offers against its nominal, in list order: the first is what Compare
 * offers. Every other body is an actual (a scan, a cloud, a second CAD).
 */
export function rolePairs(bodies: readonly BodyEntry[], marked: string | null): InspectionRoles[] {
  const nominal = nominalOf(bodies, marked);
  if (!nominal) return [];
  return bodies.filter((b) => b.bodyId !== nominal).map((b) => ({ nominal, actual: b.bodyId }));
}

/** A point cloud has no surface: it cannot be the reference of "on nominal". */
export function canColorNominal(bodies: readonly BodyEntry[], roles: InspectionRoles): boolean {
  return bodies.find((b) => b.bodyId === roles.actual)?.summary.kind !== 'points';
}

/** Per-vertex values with their sign flipped (NaN stays NaN), in place. */
export function negateValues(values: Float32Array): Float32Array {
  for (let i = 0; i < values.length; i++) values[i] = -values[i]!;
  return values;
}

const neg = (v: number | null): number | null => (v === null ? null : v === 0 ? 0 : -v);

/**
 * deviation_histogram's answer as actual minus nominal when it measured the nominal against the
 * actual: signed figures negated, signed extremes swapped, buckets mirrored; unsigned ones (p95,
 * max |d|, within tolerance, counts) unchanged.
 */
export function negateHistogram(h: HistogramResult): HistogramResult {
  return {
    ...h,
    mean: neg(h.mean),
    median: neg(h.median),
    signedMin: neg(h.signedMax),
    signedMax: neg(h.signedMin),
    buckets: h.buckets.map((b) => ({ ...b, lo: -b.hi, hi: -b.lo })).reverse(),
  };
}

export function negateLabels(labels: DeviationLabel[]): DeviationLabel[] {
  return labels.map((l) => ({ ...l, signed: neg(l.signed) }));
}

export function negateStations(stations: DeviationStation[]): DeviationStation[] {
  return stations.map((s) => ({ ...s, signedMean: neg(s.signedMean) }));
}

/**
 * The share the verdict reads: the actual's samples within ±tolerance, whichever surface is
 * coloured (the coloured body's histogram when it is the actual, else HeatState.actualWithin).
 */
export function verdictWithin(heat: Pick<HeatState, 'flip' | 'histogram' | 'actualWithin'>): number | null | undefined {
  return heat.flip ? heat.actualWithin : heat.histogram?.withinTolerance;
}

/**
 * The verdict rule (issue 29.3), the same on screen and in the report: PASS when the share of the
 * measured samples within ±tolerance is at least `passShare` (default 99 %: a scan always has some
 * speckle at edges; 100 % would fail every real scan on a handful of samples). Null without a figure.
 */
export function verdictOf(within: number | undefined | null, passShare: number): 'PASS' | 'FAIL' | null {
  if (within === undefined || within === null) return null;
  return within >= passShare ? 'PASS' : 'FAIL';
}

/** Above this share of samples without a counterpart the report step stops the user (it is in no figure). */
export const NO_DATA_WARNING_SHARE = 0.05;
