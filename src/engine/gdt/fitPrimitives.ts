import type { Vec3 } from '../math/vec3';
import type { PointSet } from './bodySamples';
import { residuals, type PrimitiveFit, type PrimitiveKind } from './leastSquares';
import { cylindricityZone, flatnessZone } from './minimumZone';
import { ransacFit, type RobustFit } from './ransac';
import { select } from './bodySamples';

export const PRIMITIVE_KINDS = ['plane', 'sphere', 'cylinder', 'cone'] as const;

export interface PrimitiveResult {
  kind: PrimitiveKind;
  /** plane: origin, normal; sphere: center, radius; cylinder: origin, axis, radius, diameter; cone: origin, axis, radius, halfAngle (radians), halfAngleDeg, apex. */
  parameters: Record<string, number | Vec3>;
  /** Over the inliers: least-squares residuals of the final fit. */
  rms: number;
  max: number;
  inliers: number;
  samples: number;
  /** Minimum-zone form over the inliers: flatness for a plane, cylindricity for a cylinder; null for the others. */
  form: { characteristic: 'flatness' | 'cylindricity'; value: number } | null;
}

export interface FitOptions {
  seed: number;
  threshold: number;
}

/** RANSAC + least squares for one kind; null when no consistent fit exists (too few points, degenerate set). */
export function fitPrimitive(kind: PrimitiveKind, set: PointSet, options: FitOptions): PrimitiveResult | null {
  const robust: RobustFit | null = ransacFit(kind, set.points, { threshold: options.threshold, seed: options.seed }, set.normals);
  if (!robust) return null;
  const inl = select(set, Array.from(robust.inliers));
  const r = residuals(robust.fit, inl.points);
  let form: PrimitiveResult['form'] = null;
  if (kind === 'plane') {
    const z = flatnessZone(inl.points);
    if (z) form = { characteristic: 'flatness', value: z.width };
  } else if (kind === 'cylinder') {
    const z = cylindricityZone(inl.points, inl.normals);
    if (z) form = { characteristic: 'cylindricity', value: z.width };
  }
  return { kind, parameters: parametersOf(robust.fit), rms: r.rms, max: r.max, inliers: inl.count, samples: set.count, form };
}

function parametersOf(fit: PrimitiveFit): Record<string, number | Vec3> {
  switch (fit.kind) {
    case 'plane':
      return { origin: fit.origin, normal: fit.normal };
    case 'sphere':
      return { center: fit.center, radius: fit.radius, diameter: 2 * fit.radius };
    case 'cylinder':
      return { origin: fit.origin, axis: fit.axis, radius: fit.radius, diameter: 2 * fit.radius };
    case 'cone':
      return { origin: fit.origin, axis: fit.axis, radius: fit.radius, halfAngle: fit.halfAngle, halfAngleDeg: (fit.halfAngle * 180) / Math.PI, apex: fit.apex };
  }
}

/**
 * `auto`: every kind is fitted; the simplest kind (plane, sphere, cylinder, cone) whose inliers are
 * within 2% of the most inliers and whose rms is within 1.5 times the best rms among those wins:
 * a cylinder fits a cone's patch worse, while a cone fits a cylinder as well (half-angle near 0) and
 * must not be preferred to it.
 */
export function fitAuto(set: PointSet, options: FitOptions): { chosen: PrimitiveResult | null; candidates: PrimitiveResult[] } {
  const candidates = PRIMITIVE_KINDS.map((k) => fitPrimitive(k, set, options)).filter((r): r is PrimitiveResult => r !== null);
  if (candidates.length === 0) return { chosen: null, candidates };
  const most = Math.max(...candidates.map((c) => c.inliers));
  const strong = candidates.filter((c) => c.inliers >= 0.98 * most);
  const bestRms = Math.min(...strong.map((c) => c.rms));
  const chosen = strong.find((c) => c.rms <= 1.5 * bestRms + 1e-12) ?? strong[0]!;
  return { chosen, candidates };
}
