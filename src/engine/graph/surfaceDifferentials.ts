import type { BRepAdaptor_Surface } from 'opencascade.js/dist/opencascade.full';
import type { OC, Own } from '../kernel';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';

/**
 * Normal and curvatures of a face's surface at a parameter, including at the singular points of its
 * parametrisation (a sphere's poles, a cone's apex, a collapsed B-spline row or corner).
 *
 * Why not just dS/du x dS/dv: at a pole of a NURBS sphere one derivative is rounding noise (1e-16 of
 * the radius) that is still roughly perpendicular to the other, so the cross product has a random
 * direction and the curvatures come out as 1e15 or -1e30. A point is treated as singular when either
 * derivative's speed (|dS/du| times the face's u range, over the face's size) or the sine of the
 * angle between them is below SINGULAR_THRESHOLD; there the values are the limits, found by
 * evaluating at 1, 2 and 3 LIMIT_STEP of the UV range away from the point (along the parameter
 * that opens the collapse, toward the face's UV centre) and extrapolating to the point itself
 * (the quadratic through the three). A limit that does not settle is not reported (see docs/graph.md).
 */

/** Speeds and sines below this make a point singular: direct values there would lose 8+ digits. */
export const SINGULAR_THRESHOLD = 1e-4;
/** Distance of the first limit probe, as a fraction of the face's UV range. */
export const LIMIT_STEP = 3e-4;
/** Neighbouring probes whose curvatures differ by more than this fraction mean the curvature grows without bound (a cone's apex). */
const LIMIT_SETTLED = 1e-2;
/** Neighbouring probes whose normals differ by more than this angle (radians) mean the normal has no limit along the probe line. */
const NORMAL_SETTLED = 0.05;
/** Below this (times the face size, or its square) a difference of curvatures is rounding. */
const CURVATURE_FLOOR = 1e-6;

export interface SurfacePoint {
  position: Vec3;
  /** Outward unit normal (flipped for a reversed face); null where it has no limit. */
  normal: Vec3 | null;
  /** k1 k2; null where it has no finite limit. */
  gaussian: number | null;
  /** (k1 + k2) / 2 against the outward normal, positive where the face bulges outward; null where it has no finite limit. */
  mean: number | null;
  /** The parametrisation is singular here: the values are limits. */
  singular: boolean;
}

interface Raw {
  p: Vec3;
  su: Vec3;
  sv: Vec3;
  suu: Vec3;
  svv: Vec3;
  suv: Vec3;
}

interface Regular {
  n: Vec3;
  K: number;
  H: number;
}

export interface SurfaceProbeOptions {
  /** [umin, umax, vmin, vmax] of the face: the ranges that scale the speeds and probe steps. */
  uvBounds: [number, number, number, number];
  /** Size of the face (the diagonal of its samples' box): the length the speeds are measured against. */
  size: number;
  /** -1 for a reversed face: normals and mean curvature are reported against the outward side. */
  orientation: 1 | -1;
}

/** Evaluates one face's surface; the returned function reuses its kernel scratch objects (owned by `own`). */
export function surfaceProbe(oc: OC, own: Own, surface: BRepAdaptor_Surface, options: SurfaceProbeOptions): (u: number, v: number) => SurfacePoint {
  const P = own(new oc.gp_Pnt_1());
  const Su = own(new oc.gp_Vec_1()), Sv = own(new oc.gp_Vec_1());
  const Suu = own(new oc.gp_Vec_1()), Svv = own(new oc.gp_Vec_1()), Suv = own(new oc.gp_Vec_1());
  const [u0, u1, v0, v1] = options.uvBounds;
  const du = u1 - u0, dv = v1 - v0;
  const uc = (u0 + u1) / 2, vc = (v0 + v1) / 2;
  const sign = options.orientation;
  const size = options.size;
  const xyz = (w: { X(): number; Y(): number; Z(): number }): Vec3 => [w.X(), w.Y(), w.Z()];

  const raw = (u: number, v: number): Raw => {
    surface.D2(u, v, P, Su, Sv, Suu, Svv, Suv);
    return { p: xyz(P), su: xyz(Su), sv: xyz(Sv), suu: xyz(Suu), svv: xyz(Svv), suv: xyz(Suv) };
  };

  /** How far from singular the point is: min of the two scaled speeds and the sine between the derivatives. */
  const regularity = (r: Raw): number => {
    const lu = Math.hypot(...r.su), lv = Math.hypot(...r.sv);
    const n = cross(r.su, r.sv);
    const sine = lu > 0 && lv > 0 ? Math.hypot(...n) / (lu * lv) : 0;
    if (!(size > 0)) return 0;
    return Math.min((lu * Math.abs(du)) / size, (lv * Math.abs(dv)) / size, sine);
  };

  /** The fundamental-form values (GeomLProp_SLProps' formulas), against the outward normal. */
  const regular = (r: Raw): Regular | null => {
    const E = dot(r.su, r.su), F = dot(r.su, r.sv), G = dot(r.sv, r.sv);
    const c = cross(r.su, r.sv);
    const len = Math.hypot(...c);
    const det = E * G - F * F;
    if (!(len > 0) || !(det > 0)) return null;
    const e: Vec3 = [c[0] / len, c[1] / len, c[2] / len];
    const L = dot(r.suu, e), M = dot(r.suv, e), N = dot(r.svv, e);
    // Shape operator relative to the parametric normal; reported relative to the outward normal with convex positive, hence -sign.
    const Hpar = (E * N - 2 * F * M + G * L) / (2 * det);
    return { n: [sign * e[0], sign * e[1], sign * e[2]], K: (L * N - M * M) / det, H: -sign * Hpar };
  };

  return (u, v) => {
    const here = raw(u, v);
    if (regularity(here) >= SINGULAR_THRESHOLD) {
      const r = regular(here);
      if (r) return { position: here.p, normal: r.n, gaussian: r.K, mean: r.H, singular: false };
    }
    // Which parameter opens the collapse: dS/du vanishing (a collapsed u-line, e.g. a pole row) opens
    // when v moves, and the other way round; parallel derivatives (a folded corner) open both ways.
    const lu = (Math.hypot(...here.su) * Math.abs(du)) / size, lv = (Math.hypot(...here.sv) * Math.abs(dv)) / size;
    let stepU = lv < SINGULAR_THRESHOLD ? 1 : 0;
    let stepV = lu < SINGULAR_THRESHOLD ? 1 : 0;
    if (stepU === 0 && stepV === 0) stepU = stepV = 1;
    const towardU = (u <= uc ? 1 : -1) * stepU * du, towardV = (v <= vc ? 1 : -1) * stepV * dv;
    const probe = (t: number): Regular | null => {
      const r = raw(u + t * towardU, v + t * towardV);
      // The probes only need to be non-degenerate: at LIMIT_STEP their values keep about 8 digits.
      return regularity(r) > 1e-9 ? regular(r) : null;
    };
    const a = probe(LIMIT_STEP), b = probe(2 * LIMIT_STEP), c = probe(3 * LIMIT_STEP);
    if (!a || !b || !c) return { position: here.p, normal: null, gaussian: null, mean: null, singular: true };
    const settledNormal = Math.acos(Math.min(1, dot(a.n, b.n))) <= NORMAL_SETTLED && Math.acos(Math.min(1, dot(b.n, c.n))) <= NORMAL_SETTLED;
    const limitNormal = [0, 1, 2].map((k) => 3 * a.n[k]! - 3 * b.n[k]! + c.n[k]!) as Vec3;
    return {
      position: here.p,
      normal: settledNormal ? normalize(limitNormal) : null,
      gaussian: extrapolate(a.K, b.K, c.K, CURVATURE_FLOOR / (size * size)),
      mean: extrapolate(a.H, b.H, c.H, CURVATURE_FLOOR / size),
      singular: true,
    };
  };
}

/**
 * f(0) from f(h), f(2h), f(3h) (the quadratic through them, so the limit is off by O(h^3)) when they
 * settle; null when they keep growing (a limit that is not finite).
 */
function extrapolate(fh: number, f2h: number, f3h: number, floor: number): number | null {
  const settled = (x: number, y: number) => Math.abs(x - y) <= LIMIT_SETTLED * Math.max(Math.abs(x), Math.abs(y)) + floor;
  if (!settled(fh, f2h) || !settled(f2h, f3h)) return null;
  return 3 * fh - 3 * f2h + f3h;
}
