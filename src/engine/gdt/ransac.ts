import { seededRandom } from '../mesh/generators';
import { count, fitCone, fitCylinder, fitPlane, fitSphere, residual, residuals, type PrimitiveFit, type PrimitiveKind, type Points } from './leastSquares';

/**
 * RANSAC (Fischler & Bolles 1981) around the least-squares fitters: hypotheses from small random
 * subsets (seeded, so a run repeats exactly), scored by inlier count (|residual| <= threshold), the
 * best hypothesis refitted by least squares on its inliers, and that refit's inliers taken again.
 */
export interface RansacOptions {
  threshold: number;
  seed: number;
  /** Hypotheses tried. */
  iterations?: number;
}

export interface RobustFit {
  fit: PrimitiveFit;
  /** Indices of the points within the threshold of the final fit, ascending. */
  inliers: Uint32Array;
  rms: number;
  max: number;
}

/** Points per hypothesis: the minimal set for plane and sphere; a few more for the axis fits (least squares on them). */
const SUBSET: Record<PrimitiveKind, number> = { plane: 3, sphere: 4, cylinder: 9, cone: 12 };
const ITERATIONS: Record<PrimitiveKind, number> = { plane: 200, sphere: 200, cylinder: 60, cone: 40 };

export function leastSquaresFit(kind: PrimitiveKind, p: Points, normals?: Points): PrimitiveFit | null {
  switch (kind) {
    case 'plane':
      return fitPlane(p);
    case 'sphere':
      return fitSphere(p);
    case 'cylinder':
      return fitCylinder(p, normals);
    case 'cone':
      return fitCone(p, normals);
  }
}

function pick(p: Points | undefined, idx: ArrayLike<number>): Float64Array | undefined {
  if (!p) return undefined;
  const out = new Float64Array(idx.length * 3);
  for (let j = 0; j < idx.length; j++) for (let k = 0; k < 3; k++) out[3 * j + k] = p[3 * idx[j]! + k]!;
  return out;
}

function inliersOf(fit: PrimitiveFit, p: Points, threshold: number): Uint32Array {
  const out: number[] = [];
  for (let i = 0; i < count(p); i++) if (Math.abs(residual(fit, p, i)) <= threshold) out.push(i);
  return Uint32Array.from(out);
}

export function ransacFit(kind: PrimitiveKind, p: Points, options: RansacOptions, normals?: Points): RobustFit | null {
  const n = count(p);
  const m = SUBSET[kind];
  if (n < m) return null;
  const random = seededRandom(options.seed);
  let best: Uint32Array | null = null;
  const tries = n === m ? 1 : (options.iterations ?? ITERATIONS[kind]);
  for (let t = 0; t < tries; t++) {
    const subset = new Set<number>();
    while (subset.size < m) subset.add(Math.floor(random() * n));
    const idx = [...subset];
    const hypothesis = leastSquaresFit(kind, pick(p, idx)!, pick(normals, idx));
    if (!hypothesis) continue;
    const inl = inliersOf(hypothesis, p, options.threshold);
    if (!best || inl.length > best.length) best = inl;
  }
  if (!best || best.length < m) return null;
  // Refit on the consensus set; take the refit's inliers and refit once more (they rarely change).
  let fit: PrimitiveFit | null = null;
  let inliers = best;
  for (let round = 0; round < 2; round++) {
    const refit = leastSquaresFit(kind, pick(p, inliers)!, pick(normals, inliers));
    if (!refit) break;
    fit = refit;
    const next = inliersOf(refit, p, options.threshold);
    if (next.length < m) break;
    const same = next.length === inliers.length && next.every((v, i) => v === inliers[i]);
    inliers = next;
    if (same) break;
  }
  if (!fit) return null;
  const r = residuals(fit, p, inliers);
  return { fit, inliers, rms: r.rms, max: r.max };
}
