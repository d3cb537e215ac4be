import { warning, type ToolWarning } from '../warnings';
import type { Vec3 } from '../math/vec3';
import type { Coverage } from './coverage';
import { OTHER_SKIN, type DirectedDeviation } from './measure';
import { percentile } from './statistics';

/** The spec's directed deviation record. */
export interface DirectedRecord {
  max: number;
  rms: number;
  mean: number;
  p95: number;
  signedMean: number | null;
  signedMin: number | null;
  signedMax: number | null;
  worstPoint: Vec3;
  /** Covered samples (those with a counterpart on the reference): every figure above is over them. */
  samples: number;
  signedSamples: number;
  ambiguousSamples: number;
  ambiguousFraction: number;
  /** Samples without a counterpart (beyond an open mesh reference's boundary, or farther than maxDistance): in no figure. */
  noDataSamples: number;
  /** The maximum search distance applied (the argument, or the default from the data). */
  maxDistance: number;
}

/** The spec's record over the covered samples of a direction (`coverage`, from directedCoverage). */
export function directedRecord(d: DirectedDeviation, coverage: Coverage): DirectedRecord {
  const total = d.distance.length;
  const noData = coverage.noData;
  const n = total - coverage.noDataSamples;
  let max = -Infinity, worst = 0, sum = 0, sumSq = 0;
  let signedCount = 0, signedSum = 0, signedMin = Infinity, signedMax = -Infinity;
  const covered = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < total; i++) {
    if (noData[i]) continue;
    const x = d.distance[i]!;
    covered[k++] = x;
    if (x > max) {
      max = x;
      worst = i;
    }
    sum += x;
    sumSq += x * x;
    const s = d.signed[i]!;
    if (s === s) {
      signedCount++;
      signedSum += s;
      if (s < signedMin) signedMin = s;
      if (s > signedMax) signedMax = s;
    }
  }
  const sorted = covered.sort();
  const p = d.samples.points;
  const has = signedCount > 0;
  const record: DirectedRecord = {
    max,
    rms: Math.sqrt(sumSq / n),
    mean: sum / n,
    p95: percentile(sorted, 0.95),
    signedMean: has ? signedSum / signedCount : null,
    signedMin: has ? signedMin : null,
    signedMax: has ? signedMax : null,
    worstPoint: [p[3 * worst]!, p[3 * worst + 1]!, p[3 * worst + 2]!],
    samples: n,
    signedSamples: signedCount,
    ambiguousSamples: n - signedCount,
    ambiguousFraction: (n - signedCount) / n,
    noDataSamples: coverage.noDataSamples,
    maxDistance: coverage.maxDistance,
  };
  return record;
}

/** Samples nearer another skin than their own (OTHER_SKIN) above which a direction reports a thin-walled reference. */
export const THIN_WALL_SHARE = 0.005;

/**
 * The thin-wall warning of a direction, or null: enough covered samples lie nearer a surface facing
 * away from them than their own (compatible) surface (OTHER_SKIN) that the reference has walls
 * thinner than the deviations. There the nearest distance (the magnitude) and the compatible
 * surface (the sign) disagree, and those samples are withheld from the signed figures
 * (docs/deviation.md, "Sign rules").
 */
export function thinWallWarning(d: DirectedDeviation, coverage: Coverage, what: string): ToolWarning | null {
  let count = 0, covered = 0;
  for (let i = 0; i < d.beyond.length; i++) {
    if (coverage.noData[i]) continue;
    covered++;
    if (d.beyond[i]! & OTHER_SKIN) count++;
  }
  if (count === 0 || count < Math.max(10, THIN_WALL_SHARE * covered)) return null;
  // Two causes look alike here: a wall thinner than the deviations, and faces of an assembly's
  // solids that touch (each face has the neighbour's, facing the other way, at about zero).
  return warning(
    'THIN_WALLED_REFERENCE',
    `${what}: ${count} of ${covered} samples (${((100 * count) / covered).toFixed(1)}%) lie nearer a surface of the reference that faces away from them than the one facing them (the other skin of a wall thinner than the deviations, or where solids of an assembly touch); their distance is to the nearer surface and they are left out of the signed figures (ambiguous)`,
  );
}

/** Above this share of ambiguous samples a direction's signed figures rest on too few to be read as the surface's. */
export const MOSTLY_AMBIGUOUS = 0.5;

/**
 * The warning that most of a direction's samples have no trustworthy sign (their normals face away
 * from every nearby surface of the reference, or they sit past a thin wall): typically one body is
 * inside out, its triangles wound the other way round. Null below MOSTLY_AMBIGUOUS, and when no
 * sample is signed (NO_SIGNED_SAMPLES says that).
 */
export function mostlyAmbiguousWarning(r: DirectedRecord, what: string): ToolWarning | null {
  if (r.samples === 0 || r.signedSamples === 0 || r.ambiguousFraction <= MOSTLY_AMBIGUOUS) return null;
  return warning(
    'SIGNS_MOSTLY_AMBIGUOUS',
    `${what}: ${r.ambiguousSamples} of ${r.samples} samples (${(100 * r.ambiguousFraction).toFixed(0)}%) have no trustworthy sign, their normals facing away from the reference's surfaces near them; one of the bodies is probably inside out (its triangles wound the other way round). The signed figures rest on the other ${r.signedSamples} and do not describe the surface`,
  );
}
