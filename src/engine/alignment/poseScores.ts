import { apply, rotationDistance, type Rigid } from '../math/rigid';
import type { Vec3 } from '../math/vec3';
import { createFoot, type NearestFoot } from './icp';

/** Poses ending within these of each other are the same pose. */
export const SAME_POSE_DEGREES = 1;
export const SAME_POSE_DIAGONAL = 0.005;

/** Whether two motions put the moving body's `centroid` (and everything about it) in the same place. */
export function samePose(a: Rigid, b: Rigid, centroid: Vec3, diagonal: number): boolean {
  const p = apply(a, centroid[0], centroid[1], centroid[2]), q = apply(b, centroid[0], centroid[1], centroid[2]);
  return (rotationDistance(a.r, b.r) * 180) / Math.PI <= SAME_POSE_DEGREES && Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) <= SAME_POSE_DIAGONAL * diagonal;
}

export interface PoseScore {
  /** Trimmed RMS (nearest `overlap` share) on the fine surface. */
  residual: number;
  /**
   * Mean over the fixed body's faces of the samples the face holds within the noise at this pose,
   * each relative to the most any pose gives it: 1 when every face is as well covered as at any
   * other pose. Faces count alike whatever their area, so a keyway's walls weigh as much as the
   * flange's face: a pose that leaves them bare scores lower by their share of the faces.
   */
  featureScore: number;
}

/** Samples within this many times the best pose's trimmed RMS count as on the face (plus a floor for a noise-free scan). */
const WITHIN_RESIDUALS = 3;
const WITHIN_DIAGONAL = 1e-4;
/**
 * And never less than this share of the diagonal: a mesh scan's facets put many samples of small
 * curved faces (a bolt hole) near any tighter band, so two poses a polish apart, equal by symmetry,
 * would count them differently (seen: 0.79 to 0.92 for a flange's six poses at 3 trimmed RMS).
 * A keyway or a hole left bare is millimetres off, far beyond it.
 */
const WITHIN_FLOOR = 0.002;
/** A face no pose gives this many samples is not scanned: it tells nothing. */
const MIN_FACE_SAMPLES = 3;

/**
 * Scores poses that fit nearly equally by residual (a bolt circle's six, a shaft's spins) by what
 * breaks the symmetry: how the samples spread over the fixed body's faces (face[N] of a BREP's
 * exact faces; a mesh is one face, and the score is then its share of samples within the noise).
 */
export function featureScores(samples: Float64Array, motions: Rigid[], nearest: NearestFoot, overlap: number, diagonal: number, withinDiagonal?: number): PoseScore[] {
  const n = samples.length / 3;
  const foot = createFoot();
  const dist = motions.map(() => new Float64Array(n));
  const face = motions.map(() => new Int32Array(n));
  const residual = motions.map((m, k) => {
    const d = dist[k]!, f = face[k]!;
    for (let i = 0; i < n; i++) {
      const [x, y, z] = apply(m, samples[3 * i]!, samples[3 * i + 1]!, samples[3 * i + 2]!);
      if (!nearest(x, y, z, foot)) {
        d[i] = Infinity;
        f[i] = -2;
        continue;
      }
      d[i] = Math.hypot(x - foot.x, y - foot.y, z - foot.z);
      f[i] = foot.face;
    }
    const sorted = Float64Array.from(d).sort();
    const keep = Math.max(1, Math.ceil(overlap * n));
    let s = 0;
    for (let i = 0; i < keep; i++) s += Number.isFinite(sorted[i]!) ? sorted[i]! ** 2 : 0;
    return Math.sqrt(s / keep);
  });
  // Within the noise of the best pose, or (a rough scoring on the tessellation) a fixed share of the diagonal.
  const within = withinDiagonal !== undefined ? withinDiagonal * diagonal : Math.max(WITHIN_RESIDUALS * Math.min(...residual) + WITHIN_DIAGONAL * diagonal, WITHIN_FLOOR * diagonal);
  const counts = motions.map((_, k) => {
    const c = new Map<number, number>();
    for (let i = 0; i < n; i++) if (dist[k]![i]! <= within) c.set(face[k]![i]!, (c.get(face[k]![i]!) ?? 0) + 1);
    return c;
  });
  const faces = new Set(counts.flatMap((c) => [...c.keys()]));
  const most = new Map<number, number>();
  for (const f of faces) most.set(f, Math.max(...counts.map((c) => c.get(f) ?? 0)));
  const scanned = [...faces].filter((f) => most.get(f)! >= MIN_FACE_SAMPLES);
  return motions.map((_, k) => ({
    residual: residual[k]!,
    featureScore: scanned.length ? scanned.reduce((s, f) => s + (counts[k]!.get(f) ?? 0) / most.get(f)!, 0) / scanned.length : 1,
  }));
}
