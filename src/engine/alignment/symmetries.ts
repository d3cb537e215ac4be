import { apply, axisAngle, compose, type Rigid } from '../math/rigid';
import type { Vec3 } from '../math/vec3';
import { distanceFromStart, strided } from './globalStep';
import { createFoot, icp, type IcpSettings, type NearestFoot } from './icp';
import { featureScores } from './poseScores';

/** Orders of rotational symmetry tried (a turn by 360 k / n about the axis). */
const MAX_ORDER = 12;
/** A turn that puts this share of the fixed body's own samples back on it is a (near) symmetry: a keyway's few percent of the area do not stop it, a bolt circle's holes (walls, and the face samples turned into them) do. */
const NEAR_SYMMETRY = 0.95;
/** A turn that puts back all but this share of the samples is an exact symmetry (a plain bolt circle's 60 degrees; not a keyed one's). */
const EXACT_SHARE = 0.998;
/**
 * Samples within this many chord heights (the tessellation's deflection) of the fixed tessellation
 * after the turn count as covered: a turned polygon of a circle does not fall on the polygon (the
 * outer rim's 19 chords turned by 60 degrees miss it by up to a chord height).
 */
const WITHIN_CHORDS = 2.5;

/**
 * The turns about an axis of near rotational symmetry that map the fixed body (nearly) onto itself:
 * for the highest order n (up to MAX_ORDER) whose every turn by 360 k / n puts nearly all of the
 * fixed body's own samples back on it, those n - 1
 * turns. A bolt circle of six with a keyway: the five turns by 60 k degrees (the keyway's faces do
 * not stop them; the scan's coverage decides later, globalStep). None: no turn.
 */
export interface Turn {
  motion: Rigid;
  /** The fixed body maps onto itself (all but EXACT_SHARE of its samples): poses a turn apart are equivalent whatever a scan's coverage says. */
  exact: boolean;
}

export function nearSymmetries(samples: Float64Array, axis: Vec3, centre: Vec3, nearest: NearestFoot, diagonal: number, chord: number): Turn[] {
  const shares = new Map<number, number>();
  // A turn by 360 k / n is the same for every (k, n) with the same ratio: scored once.
  const isSymmetry = (k: number, n: number) => {
    const key = Math.round((k / n) * 27720);
    if (!shares.has(key)) shares.set(key, inlierShare(samples, turnAbout(axis, centre, (2 * Math.PI * k) / n), nearest, WITHIN_CHORDS * chord + 1e-4 * diagonal));
    return shares.get(key)! >= NEAR_SYMMETRY;
  };
  for (let n = MAX_ORDER; n >= 2; n--) {
    const turns = Array.from({ length: n - 1 }, (_, i) => i + 1);
    // The turn by 360 / n first: it fails fast for most orders.
    if (turns.every((k) => isSymmetry(k, n))) {
      return turns.map((k) => ({ motion: turnAbout(axis, centre, (2 * Math.PI * k) / n), exact: shares.get(Math.round((k / n) * 27720))! >= EXACT_SHARE }));
    }
  }
  return [];
}

/** Rotation by `angle` about the line through `centre` along `axis`. */
export function turnAbout(axis: Vec3, centre: Vec3, angle: number): Rigid {
  const r = axisAngle(axis, angle);
  const rc = [0, 1, 2].map((i) => r[3 * i]! * centre[0] + r[3 * i + 1]! * centre[1] + r[3 * i + 2]! * centre[2]);
  return { r, t: [centre[0] - rc[0]!, centre[1] - rc[1]!, centre[2] - rc[2]!] };
}

/** A pose of a symmetric part, with what told it apart. */
export interface ScoredPose {
  motion: Rigid;
  /** Trimmed RMS at the pose on the fine surface. */
  residual: number;
  /** Per-face coverage (featureScores): 1 when every face is as well covered as at any of the poses. */
  featureScore: number;
}

const POLISH_ITERATIONS = 8;
const POLISH_SAMPLES = 600;
const SCORING_SAMPLES = 1500;
/** Gross outliers are left out of the polish beyond this share of the diagonal. */
const POLISH_REACH = 0.003;
/** Feature scores within this of the best tie (a mesh scan's facets spread the coverage of equal poses by a few hundredths; one face of twenty bare costs 0.05, a keyway's three about 0.15). */
const SCORE_TIE = 0.06;
/** Residuals within this factor of the best tie. */
const RESIDUAL_TIE = 1.05;

/**
 * Which of a symmetric part's poses the scan is in. Each of `bases` (the fine fit first, then the
 * fine fits of any other family of poses the global step found tied: a nut turned over) and each
 * base turned by each near symmetry of the fixed body are polished on the fine surface (a few
 * untrimmed point-to-plane iterations: a turn off shows first on the samples of holes and slots,
 * which trimming would drop), then scored by how the samples spread over the fixed body's faces
 * (featureScores): a keyway's faces are bare at every pose but the right one. Poses that tie on
 * coverage and residual are equivalent, and the one nearest where the body stands (the identity)
 * comes first: it wins.
 */
export async function resolveSymmetry(
  samples: Float64Array,
  bases: Rigid[],
  symmetries: Turn[],
  fine: NearestFoot,
  settings: IcpSettings,
  diagonal: number,
  centroid: Vec3,
): Promise<ScoredPose[]> {
  const polishSamples = strided(samples, POLISH_SAMPLES);
  const polish: IcpSettings = { ...settings, maxIterations: POLISH_ITERATIONS, offset: true, overlap: 1, maxDistance: Math.min(settings.maxDistance, POLISH_REACH * diagonal) };
  // Pose k is base floor(k / n) turned by symmetry k % n (0: not turned).
  const poses: Rigid[] = [];
  for (const base of bases) {
    poses.push(base);
    for (const s of symmetries) poses.push((await icp(polishSamples, compose(s.motion, base), fine, polish)).motion);
  }
  const scores = featureScores(strided(samples, SCORING_SAMPLES), poses, fine, settings.overlap, diagonal);
  const top = Math.max(...scores.map((s) => s.featureScore));
  const covered = scores.map((s, k) => ({ s, k })).filter(({ s }) => s.featureScore >= top - SCORE_TIE);
  const floor = 1e-4 * diagonal;
  const bestResidual = Math.min(...covered.map(({ s }) => s.residual));
  const tied = new Set(covered.filter(({ s }) => s.residual + floor <= RESIDUAL_TIE * (bestResidual + floor)).map(({ k }) => k));
  // The coverage of poses equal by an exact symmetry differs only by the scan's sampling (a mesh's
  // facets on small faces): those are equivalent to a tied pose whatever their score. Poses of
  // different families are equivalent only when they tie themselves.
  const n = symmetries.length + 1;
  const exactApart = (a: number, b: number) =>
    a === b || (Math.floor(a / n) === Math.floor(b / n) && symmetries[((((a % n) - (b % n)) % n) + n) % n - 1]?.exact === true);
  const equivalent = scores.map((s, k) => ({ s, k })).filter(({ k }) => [...tied].some((t) => exactApart(k, t)));
  return equivalent
    .map(({ s, k }) => ({ motion: poses[k]!, residual: s.residual, featureScore: s.featureScore, d: distanceFromStart(poses[k]!, centroid), k }))
    .sort((a, b) => a.d.angle - b.d.angle || a.d.shift - b.d.shift || a.k - b.k)
    .map(({ motion, residual, featureScore }) => ({ motion, residual, featureScore }));
}

/** Share of `samples`, moved by `motion`, within `within` of the surface. */
function inlierShare(samples: Float64Array, motion: Rigid, nearest: NearestFoot, within: number): number {
  const foot = createFoot();
  let inside = 0;
  const n = samples.length / 3;
  for (let i = 0; i < n; i++) {
    const [x, y, z] = apply(motion, samples[3 * i]!, samples[3 * i + 1]!, samples[3 * i + 2]!);
    if (nearest(x, y, z, foot) && Math.hypot(x - foot.x, y - foot.y, z - foot.z) <= within) inside++;
  }
  return n ? inside / n : 0;
}
