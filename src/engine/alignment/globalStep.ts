import { apply, rotationDistance, type Rigid } from '../math/rigid';
import type { Pacer } from '../deviation/pacer';
import { icp, type IcpSettings, type NearestFoot } from './icp';
import { principalCandidates, type Moments } from './principalFrames';

/** How the global step chose its start (bestFit and preAlign). */
export interface PreAlignment {
  /** Candidate frames tried (the 24 ways to match the principal axes). */
  candidates: number;
  /** Trimmed RMS of the best candidate after its short ICP. */
  bestResidual: number;
  /** Trimmed RMS of the best candidate that ends in a different pose; null when every candidate ends in the best pose. */
  runnerUpResidual: number | null;
  /** runnerUp / best: near 1 means the part's shape does not decide the pose (symmetry). */
  ambiguity: number | null;
}

/** Samples the global step scores each candidate with, and its short ICP's iterations. */
const GLOBAL_SAMPLES = 150;
const GLOBAL_ITERATIONS = 8;
/** Shifted centroid guesses for partial scans, in standard deviations of the fixed surface. */
const CENTROID_SHIFT = 0.5;
/** The best distinct poses after the short ICP, refined further before the choice. */
const FINALISTS = 4;
const FINALIST_SAMPLES = 500;
const FINALIST_ITERATIONS = 40;
/** Candidates ending within these of the best pose are the same pose. */
const SAME_POSE_DEGREES = 1;
const SAME_POSE_DIAGONAL = 0.005;
/** A different pose within this factor of the best residual makes the global step ambiguous. */
export const AMBIGUOUS_RATIO = 1.5;
/**
 * The global step: every principal-axes candidate, refined by a short trimmed ICP on a few hundred
 * samples against the fixed body's triangles; the lowest residual wins (ties: the earlier
 * candidate). The runner-up is the best candidate that ends elsewhere.
 */
export async function globalStep(
  movingMoments: Moments,
  fixedMoments: Moments,
  points: Float64Array,
  nearest: NearestFoot,
  settings: IcpSettings,
  diagonal: number,
  pacer: Pacer,
): Promise<{ motion: Rigid; summary: PreAlignment }> {
  const candidates = principalCandidates(movingMoments, fixedMoments, CENTROID_SHIFT);
  const subset = strided(points, GLOBAL_SAMPLES);
  const finalistSamples = strided(points, FINALIST_SAMPLES);
  const short: IcpSettings = { ...settings, maxIterations: GLOBAL_ITERATIONS, convergence: Math.max(settings.convergence, 1e-5 * diagonal) };
  const ends: Candidate[] = [];
  for (const [index, candidate] of candidates.entries()) {
    await pacer.tick(index, candidates.length + FINALISTS, 'pre-alignment');
    const r = await icp(subset, candidate, nearest, short);
    ends.push({ motion: r.motion, residual: r.starved ? Infinity : r.trimmedRms, index });
  }
  const c = movingMoments.centroid;
  const samePose = (a: Candidate, b: Candidate) => {
    const p = apply(a.motion, c[0], c[1], c[2]), q = apply(b.motion, c[0], c[1], c[2]);
    return (rotationDistance(a.motion.r, b.motion.r) * 180) / Math.PI <= SAME_POSE_DEGREES && Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) <= SAME_POSE_DIAGONAL * diagonal;
  };
  // A partial scan's centroid and axes are off the part's, so a short ICP may still be on its way
  // to the right pose: the best few distinct poses get a longer ICP on more samples.
  const finalists: Candidate[] = [];
  for (const e of ranked(ends)) {
    if (finalists.length === FINALISTS || !Number.isFinite(e.residual)) break;
    if (!finalists.some((f) => samePose(f, e))) finalists.push(e);
  }
  const longer: IcpSettings = { ...short, maxIterations: FINALIST_ITERATIONS };
  const refined: Candidate[] = [];
  for (const [k, f] of finalists.entries()) {
    await pacer.tick(candidates.length + k, candidates.length + FINALISTS, 'pre-alignment');
    const r = await icp(finalistSamples, f.motion, nearest, longer);
    refined.push({ motion: r.motion, residual: r.starved ? Infinity : r.trimmedRms, index: f.index });
  }
  const order = ranked(refined);
  const best = order[0] ?? ranked(ends)[0]!;
  const runnerUp = order.find((e) => e !== best && !samePose(e, best));
  const runnerUpResidual = runnerUp && Number.isFinite(runnerUp.residual) ? runnerUp.residual : null;
  // A residual floor (a noise-free part) keeps two near-zero residuals from looking far apart.
  const floor = 1e-4 * diagonal;
  return {
    motion: best.motion,
    summary: {
      candidates: candidates.length,
      bestResidual: best.residual,
      runnerUpResidual,
      ambiguity: runnerUpResidual === null ? null : (runnerUpResidual + floor) / (best.residual + floor),
    },
  };
}

interface Candidate {
  motion: Rigid;
  residual: number;
  index: number;
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

