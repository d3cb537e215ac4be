import { applyToPoints, compose, IDENTITY, rotate, type Rigid } from '../math/rigid';
import type { PointSet } from './bodySamples';
import type { Frame } from './datumFrame';
import { samplesByFace, simulateDatums, type DatumSpec, type EvaluationOptions } from './datumSimulation';
import { onSolidFaces } from './supplementalFaces';
import type { NominalAccess } from './nominalFaces';
import type { FaceSplit } from './faceSplit';

/** The rigid motion that carries the actual datum frame onto the nominal one (datumFrame.ts frameMap as a matrix). */
export function frameRigid(actual: Frame, nominal: Frame): Rigid {
  const r = new Array<number>(9).fill(0);
  // R = N^T A: a direction's coordinates in the actual frame, rebuilt on the nominal axes.
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[3 * i + j]! += nominal.axes[k]![i]! * actual.axes[k]![j]!;
  const m: Rigid = { r, t: [0, 0, 0] };
  const ra = rotate(m, ...actual.origin);
  return { r, t: [nominal.origin[0] - ra[0], nominal.origin[1] - ra[1], nominal.origin[2] - ra[2]] };
}

/** The points (and normals) moved by m. */
export function movedSet(set: PointSet, m: Rigid): PointSet {
  const points = applyToPoints(m, set.points.subarray(0, 3 * set.count));
  let normals: Float64Array | undefined;
  if (set.normals) {
    normals = new Float64Array(3 * set.count);
    for (let i = 0; i < set.count; i++) normals.set(rotate(m, set.normals[3 * i]!, set.normals[3 * i + 1]!, set.normals[3 * i + 2]!), 3 * i);
  }
  const corners = set.corners ? applyToPoints(m, set.corners.subarray(0, 9 * set.count)) : undefined;
  return { points, normals, count: set.count, ...(corners ? { corners } : {}) };
}

export type DatumAlignment = { ok: true; motion: Rigid; samples: PointSet; split: FaceSplit; rounds: number } | { ok: false; reason: string };

/**
 * Datum alignment: the scan moved so its simulated datum frame (labels in precedence order) lies on
 * the nominal's. Which samples fall on a datum's faces depends on where the scan stands, so the split
 * and the frames are redone from the moved scan until a round moves no sample by `still` or more (at
 * most `rounds` rounds). Degrees of freedom the datums leave free stay as the scan was placed.
 */
export function alignToDatums(
  nominal: NominalAccess,
  samples: PointSet,
  split: (s: PointSet) => FaceSplit,
  datumSpecs: DatumSpec[],
  labels: string[],
  options: EvaluationOptions & { densifyAt?: (motion: Rigid) => EvaluationOptions['densify'] },
  still: number,
  rounds = 6,
): DatumAlignment {
  let motion = IDENTITY;
  let current = samples;
  let currentSplit = split(current);
  for (let round = 1; round <= rounds; round++) {
    // A small datum feature gets more samples as in the evaluation, drawn from the scan where this round has it.
    const densify = options.densifyAt?.(motion);
    const frames = simulateDatums(nominal, onSolidFaces(nominal.supplemental ?? null, nominal.ref, samplesByFace(current, currentSplit, densify), densify), datumSpecs, { minSamples: options.minSamples, ...(densify ? { densify } : {}) }).frames(labels);
    if (typeof frames === 'string') return { ok: false, reason: frames };
    const step = frameRigid(frames.actual, frames.nominal);
    const moved = displacement(step, current);
    motion = compose(step, motion);
    current = movedSet(samples, motion);
    currentSplit = split(current);
    if (moved < still) return { ok: true, motion, samples: current, split: currentSplit, rounds: round };
  }
  return { ok: true, motion, samples: current, split: currentSplit, rounds };
}

/** The largest displacement the motion gives the points (every n-th of them, 200 at most). */
function displacement(m: Rigid, set: PointSet): number {
  let worst = 0;
  const every = Math.max(1, Math.floor(set.count / 200));
  for (let i = 0; i < set.count; i += every) {
    const x = set.points[3 * i]!, y = set.points[3 * i + 1]!, z = set.points[3 * i + 2]!;
    const [rx, ry, rz] = rotate(m, x, y, z);
    worst = Math.max(worst, Math.hypot(rx + m.t[0]! - x, ry + m.t[1]! - y, rz + m.t[2]! - z));
  }
  return worst;
}
