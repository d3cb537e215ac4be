import { apply, axisAngle, compose, IDENTITY, rotationAngle, type Rigid } from '../math/rigid';
import type { Vec3 } from '../math/vec3';
import type { Pacer } from '../deviation/pacer';
import { icp, type IcpSettings, type NearestFoot } from './icp';
import { principalAxes, principalCandidates, type Moments } from './principalFrames';
import { samePose } from './poseScores';

/** How the global step chose its start (bestFit and preAlign). */
export interface PreAlignment {
  /** Candidate poses tried: the current pose, the 24 ways to match the principal axes (x 7 centroid guesses), and spins about a part's axis of near rotational symmetry. */
  candidates: number;
  /** Trimmed RMS of the best candidate after its short ICP. */
  bestResidual: number;
  /** Trimmed RMS of the best candidate that ends in a different pose; null when every candidate ends in the best pose. */
  runnerUpResidual: number | null;
  /** runnerUp / best: near 1 means the part's shape does not decide the pose (symmetry). */
  ambiguity: number | null;
  /** Distinct poses whose residual is within AMBIGUOUS_RATIO of the best. */
  nearlyEqual: number;
}

/** Samples the global step scores each candidate with, and its short ICP's iterations. */
const GLOBAL_SAMPLES = 150;
const GLOBAL_ITERATIONS = 8;
/** Shifted centroid guesses for partial scans, in standard deviations of the fixed surface. */
const CENTROID_SHIFT = 0.5;
/** The best distinct poses after the short ICP, refined further before the choice (more when more fit nearly equally). */
const FINALISTS = 4;
const MAX_FINALISTS = 12;
const FINALIST_SAMPLES = 500;
const FINALIST_ITERATIONS = 40;
/** A different pose within this factor of the best residual makes the global step ambiguous. */
export const AMBIGUOUS_RATIO = 1.5;
/**
 * Finalists within this factor of the best residual cannot be told apart by the shape (a nut and
 * the nut turned over: 0.039649 against 0.039651): alignBodies takes the one nearest the current pose. Wider
 * than the noise of a short ICP on the same samples, far narrower than AMBIGUOUS_RATIO, which a
 * one-sided chamfer may stay within.
 */
export const TIE_RATIO = 1.05;
/** Spins about an axis of near rotational symmetry, in degrees: the 90-degree steps of the principal frames miss a 6-hole bolt circle's poses. */
const SPIN_STEP_DEGREES = 10;
/** Two principal variances within this share of the largest: the part is nearly a solid of revolution about the third axis. */
const EQUAL_VARIANCE = 0.05;

export interface GlobalStepInput {
  movingMoments: Moments;
  fixedMoments: Moments;
  /** Points spread evenly over the moving body (the short ICPs'). */
  even: Float64Array;
  /** Nearest points on the fixed tessellation (fast). */
  coarse: NearestFoot;
  settings: IcpSettings;
  diagonal: number;
  pacer: Pacer;
}

export interface GlobalStepResult {
  /** The lowest residual's pose. */
  motion: Rigid;
  /** Every distinct pose that ties, nearest the current pose first (`motion` first): a part symmetric in two ways (a nut: about its axis and turned over) ties in both families. */
  tied: Rigid[];
  summary: PreAlignment;
}

/**
 * The global step. Candidates: the current pose (always: an aligned scan must be able to stay),
 * every principal-axes candidate, and spins about an axis of near rotational symmetry. Each gets
 * a short trimmed ICP against the fixed tessellation; the best distinct poses (every one within
 * AMBIGUOUS_RATIO of the best, at least four, at most MAX_FINALISTS) a longer one; the lowest
 * residual wins; the poses that tie with it (TIE_RATIO) are listed nearest the current pose first
 * (least rotation, then least shift of the centroid). Which of a symmetric part's equally good poses is
 * meant is decided after the fine fit (symmetries.ts).
 */
export async function globalStep(input: GlobalStepInput): Promise<GlobalStepResult> {
  const { movingMoments, fixedMoments, even, settings, diagonal, pacer } = input;
  const candidates = [IDENTITY, ...principalCandidates(movingMoments, fixedMoments, CENTROID_SHIFT), ...spinCandidates(movingMoments, fixedMoments)];
  const subset = strided(even, GLOBAL_SAMPLES);
  const finalistSamples = strided(even, FINALIST_SAMPLES);
  const short: IcpSettings = { ...settings, maxIterations: GLOBAL_ITERATIONS, convergence: Math.max(settings.convergence, 1e-5 * diagonal) };
  const steps = candidates.length + MAX_FINALISTS + 1;
  const ends: Candidate[] = [];
  for (const [index, candidate] of candidates.entries()) {
    await pacer.tick(index, steps, 'pre-alignment');
    const r = await icp(subset, candidate, input.coarse, short);
    ends.push({ motion: r.motion, residual: r.starved ? Infinity : r.trimmedRms, index });
  }
  const c = movingMoments.centroid;
  const same = (a: Candidate, b: Candidate) => samePose(a.motion, b.motion, c, diagonal);
  // A residual floor (a noise-free part) keeps two near-zero residuals from looking far apart.
  const floor = 1e-4 * diagonal;
  const order = ranked(ends);
  const bestShort = order[0]!.residual;
  // A partial scan's centroid and axes are off the part's, so a short ICP may still be on its way
  // to the right pose: the best distinct poses get a longer ICP on more samples. The current pose
  // is always one of them.
  const finalists: Candidate[] = [ends[0]!].filter((e) => Number.isFinite(e.residual));
  for (const e of order) {
    if (finalists.length >= MAX_FINALISTS || !Number.isFinite(e.residual)) break;
    if (finalists.length >= FINALISTS && e.residual + floor > AMBIGUOUS_RATIO * (bestShort + floor)) break;
    if (!finalists.some((f) => same(f, e))) finalists.push(e);
  }
  const longer: IcpSettings = { ...short, maxIterations: FINALIST_ITERATIONS };
  const refined: Candidate[] = [];
  for (const [k, f] of finalists.entries()) {
    await pacer.tick(candidates.length + k, steps, 'pre-alignment');
    const r = await icp(finalistSamples, f.motion, input.coarse, longer);
    const e = { motion: r.motion, residual: r.starved ? Infinity : r.trimmedRms, index: f.index };
    if (!refined.some((g) => same(g, e))) refined.push(e);
  }
  const byResidual = ranked(refined);
  const best = byResidual[0] ?? order[0]!;
  const runnerUp = byResidual.find((e) => e !== best && !same(e, best));
  const runnerUpResidual = runnerUp && Number.isFinite(runnerUp.residual) ? runnerUp.residual : null;
  const nearlyEqual = byResidual.filter((e) => Number.isFinite(e.residual) && e.residual + floor <= AMBIGUOUS_RATIO * (best.residual + floor)).length;
  const tied = byResidual
    .filter((e) => Number.isFinite(e.residual) && e.residual + floor <= TIE_RATIO * (best.residual + floor))
    .map((e) => ({ motion: e.motion, d: distanceFromStart(e.motion, c), index: e.index }))
    .sort((a, b) => a.d.angle - b.d.angle || a.d.shift - b.d.shift || a.index - b.index)
    .map((e) => e.motion);
  if (tied.length === 0) tied.push(best.motion);
  return {
    motion: best.motion,
    tied,
    summary: {
      candidates: candidates.length,
      bestResidual: best.residual,
      runnerUpResidual,
      ambiguity: runnerUpResidual === null ? null : (runnerUpResidual + floor) / (best.residual + floor),
      nearlyEqual,
    },
  };
}

/**
 * A part that is nearly a solid of revolution (a flange, a shaft) has two nearly equal principal
 * variances: its frame's in-plane axes are arbitrary, and the 90-degree steps of the 24 frame
 * candidates may miss every start within reach of the right spin (a bolt circle's pose is reached
 * from within 30 degrees). The centred candidates that put the moving body's distinct axis on the
 * fixed one's are spun about it in SPIN_STEP_DEGREES steps.
 */
function spinCandidates(moving: Moments, fixed: Moments): Rigid[] {
  const unique = symmetryAxisIndex(fixed);
  if (unique < 0) return [];
  const f = principalAxes(fixed);
  const m = principalAxes(moving);
  const axis = f.axes[unique as 0 | 2], mAxis = m.axes[unique as 0 | 2], centre = fixed.centroid;
  const out: Rigid[] = [];
  for (const base of principalCandidates(moving, fixed).slice(0, 24)) {
    const mapped = [0, 1, 2].map((i) => base.r[3 * i]! * mAxis[0] + base.r[3 * i + 1]! * mAxis[1] + base.r[3 * i + 2]! * mAxis[2]);
    if (Math.abs(mapped[0]! * axis[0] + mapped[1]! * axis[1] + mapped[2]! * axis[2]) < 0.99) continue;
    for (let k = 1; k * SPIN_STEP_DEGREES < 90; k++) out.push(compose(spinAbout(axis, centre, (k * SPIN_STEP_DEGREES * Math.PI) / 180), base));
  }
  return out;
}

/** The principal axis a nearly axisymmetric body turns about (its index, variance ascending), -1 for none. */
export function symmetryAxisIndex(fixed: Moments): number {
  const v = principalAxes(fixed).variances;
  const largest = Math.max(v[0], v[1], v[2]);
  if (!(largest > 0)) return -1;
  const unique = v[1] - v[0] < EQUAL_VARIANCE * largest ? 2 : v[2] - v[1] < EQUAL_VARIANCE * largest ? 0 : -1;
  if (unique < 0 || (unique === 2 ? v[2] - v[1] : v[1] - v[0]) < EQUAL_VARIANCE * largest) return -1;
  return unique;
}

/** Rotation by `angle` about the line through `centre` along `axis`. */
function spinAbout(axis: Vec3, centre: Vec3, angle: number): Rigid {
  const r = axisAngle(axis, angle);
  const rc = [0, 1, 2].map((i) => r[3 * i]! * centre[0] + r[3 * i + 1]! * centre[1] + r[3 * i + 2]! * centre[2]);
  return { r, t: [centre[0] - rc[0]!, centre[1] - rc[1]!, centre[2] - rc[2]!] };
}

interface Candidate {
  motion: Rigid;
  residual: number;
  index: number;
}

/** How far a motion is from the current pose: its rotation angle and how far it moves `centroid`. */
export function distanceFromStart(m: Rigid, centroid: Vec3): { angle: number; shift: number } {
  const p = apply(m, centroid[0], centroid[1], centroid[2]);
  return { angle: rotationAngle(m.r), shift: Math.hypot(p[0] - centroid[0], p[1] - centroid[1], p[2] - centroid[2]) };
}

/** Lowest residual first; ties: the earlier candidate (deterministic). */
function ranked(list: Candidate[]): Candidate[] {
  return [...list].sort((a, b) => a.residual - b.residual || a.index - b.index);
}

/** About `count` points of `points` by stride (deterministic). */
export function strided(points: Float64Array, count: number): Float64Array {
  const n = points.length / 3;
  const stride = Math.max(1, Math.ceil(n / count));
  const out = new Float64Array(3 * Math.ceil(n / stride));
  for (let i = 0, k = 0; i < n; i += stride, k++) out.set(points.subarray(3 * i, 3 * i + 3), 3 * k);
  return out;
}
