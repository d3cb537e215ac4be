import { dot, normalize, type Vec3 } from '../math/vec3';
import { chebyshevFit } from './chebyshev';
import { canonical, count, fitCylinder, fitPlane, frameOf, radial, type Points } from './leastSquares';

/**
 * Minimum-zone (Chebyshev) form evaluation, ISO 1101 / ASME Y14.5: the narrowest zone of the
 * tolerance's shape containing every point. Each starts from the least-squares feature and refines
 * it by exact linear programmes (chebyshev.ts) on the linearised zone, re-linearising about each
 * result until the feature stops moving: a sequence whose zone never widens, and whose fixed point
 * satisfies the minimum zone's optimality conditions (for flatness and straightness the fixed point
 * is exact: the linear programme there is the true problem seen from that direction).
 */
export interface Zone {
  /** Width of the zone (flatness, straightness: plane/line distance; roundness, cylindricity: radial). */
  width: number;
  /** Linear programmes solved. */
  iterations: number;
}

export interface FlatnessZone extends Zone {
  /** Unit normal of the two parallel planes and a point midway between them. */
  normal: Vec3;
  origin: Vec3;
}

const MAX_ROUNDS = 50;

/** Width of the points along a unit direction, and the midpoint level. */
function extent(p: Points, n: Vec3): { lo: number; hi: number } {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < count(p); i++) {
    const v = p[3 * i]! * n[0] + p[3 * i + 1]! * n[1] + p[3 * i + 2]! * n[2];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return { lo, hi };
}

/**
 * Flatness: the minimum-width slab. In the frame of the current normal n (e1, e2 completing it) the
 * linear programme min max |z - a x - b y - c| gives the tilt (a, b); the normal moves to
 * n - a e1 - b e2 and the programme is solved again. The slab width along the new normal is at most
 * the programme's vertical width, so the width never grows; at the fixed point (a = b = 0) no tilt
 * narrows the slab: a local minimum of the width, found from the least-squares plane (for a surface
 * scanned as a plate this is the minimum: a second local minimum needs a direction in which the set
 * is about as thin as along its normal).
 */
export function flatnessZone(p: Points): FlatnessZone | null {
  const ls = fitPlane(p);
  if (!ls) return null;
  const n0 = count(p);
  let n = ls.normal;
  let best = extent(p, n);
  let bestN = n;
  let iterations = 0;
  const x = new Float64Array(n0), y = new Float64Array(n0), z = new Float64Array(n0);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const [e1, e2] = frameOf(n);
    // Coordinates about the centroid keep the programme well conditioned.
    for (let i = 0; i < n0; i++) {
      const d: Vec3 = [p[3 * i]! - ls.origin[0], p[3 * i + 1]! - ls.origin[1], p[3 * i + 2]! - ls.origin[2]];
      x[i] = dot(d, e1);
      y[i] = dot(d, e2);
      z[i] = dot(d, n);
    }
    const fit = chebyshevFit(n0, 3, (j, i) => (j === 0 ? x[i]! : j === 1 ? y[i]! : 1), z);
    iterations++;
    if (!fit) break;
    const [a, b] = fit.x as [number, number];
    const next = normalize([n[0] - a * e1[0] - b * e2[0], n[1] - a * e1[1] - b * e2[1], n[2] - a * e1[2] - b * e2[2]]);
    const e = extent(p, next);
    if (e.hi - e.lo < best.hi - best.lo) {
      best = e;
      bestN = next;
    }
    if (Math.hypot(a, b) < 1e-15 || !(e.hi - e.lo < (extent(p, n).hi - extent(p, n).lo) * (1 - 1e-15))) break;
    n = next;
  }
  const normal = canonical(bestN);
  const mid = normal === bestN ? (best.lo + best.hi) / 2 : -(best.lo + best.hi) / 2;
  // A point of the mid plane: the LS centroid moved onto it along the normal.
  const off = mid - dot(ls.origin, normal);
  return { width: best.hi - best.lo, iterations, normal, origin: [ls.origin[0] + off * normal[0], ls.origin[1] + off * normal[1], ls.origin[2] + off * normal[2]] };
}

/**
 * Straightness of a line element: points of one section, given in the plane the line lies in
 * (u, v coordinates). Minimum-width strip by the same re-linearised programme as flatness.
 */
export function straightnessZone(uv: ArrayLike<number>): Zone | null {
  const n = Math.floor(uv.length / 2);
  if (n < 2) return null;
  let mu = 0, mv = 0;
  for (let i = 0; i < n; i++) {
    mu += uv[2 * i]!;
    mv += uv[2 * i + 1]!;
  }
  mu /= n;
  mv /= n;
  let suu = 0, suv = 0, svv = 0;
  for (let i = 0; i < n; i++) {
    const du = uv[2 * i]! - mu, dv = uv[2 * i + 1]! - mv;
    suu += du * du;
    suv += du * dv;
    svv += dv * dv;
  }
  // Least-squares direction: the principal axis of the 2x2 covariance.
  let ang = 0.5 * Math.atan2(2 * suv, suu - svv);
  const width = (a: number) => {
    const nu = -Math.sin(a), nv = Math.cos(a);
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const s = (uv[2 * i]! - mu) * nu + (uv[2 * i + 1]! - mv) * nv;
      lo = Math.min(lo, s);
      hi = Math.max(hi, s);
    }
    return hi - lo;
  };
  let w = width(ang);
  let iterations = 0;
  const s = new Float64Array(n), t = new Float64Array(n);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const cu = Math.cos(ang), cv = Math.sin(ang);
    for (let i = 0; i < n; i++) {
      const du = uv[2 * i]! - mu, dv = uv[2 * i + 1]! - mv;
      s[i] = du * cu + dv * cv;
      t[i] = -du * cv + dv * cu;
    }
    const fit = chebyshevFit(n, 2, (j, i) => (j === 0 ? s[i]! : 1), t);
    iterations++;
    if (!fit) break;
    const next = ang + Math.atan(fit.x[0]!);
    const wn = width(next);
    if (!(wn < w * (1 - 1e-15))) break;
    ang = next;
    w = wn;
  }
  return { width: w, iterations };
}

export interface RoundnessZone extends Zone {
  /** Centre of the two concentric circles (in the section's u, v coordinates). */
  center: [number, number];
}

/**
 * Roundness of one section (points in its plane, u v): minimum radial separation of two concentric
 * circles. Linearised about the centre c (limaçon: r_i ~ R + a cos t_i + b sin t_i), solved as a
 * programme, c moved by (a, b), repeated; started from the least-squares circle. At the fixed point
 * the centre meets the minimum zone's first-order conditions (the alternation of four extreme points).
 */
export function roundnessZone(uv: ArrayLike<number>): RoundnessZone | null {
  const n = Math.floor(uv.length / 2);
  if (n < 4) return null;
  // Least-squares (Kasa) start.
  let mu = 0, mv = 0;
  for (let i = 0; i < n; i++) {
    mu += uv[2 * i]!;
    mv += uv[2 * i + 1]!;
  }
  mu /= n;
  mv /= n;
  let cu = mu, cv = mv;
  const r = new Float64Array(n), cs = new Float64Array(n), sn = new Float64Array(n);
  const spread = () => {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const d = Math.hypot(uv[2 * i]! - cu, uv[2 * i + 1]! - cv);
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
    return hi - lo;
  };
  let w = spread();
  let iterations = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    for (let i = 0; i < n; i++) {
      const du = uv[2 * i]! - cu, dv = uv[2 * i + 1]! - cv;
      r[i] = Math.hypot(du, dv);
      cs[i] = r[i]! > 0 ? du / r[i]! : 0;
      sn[i] = r[i]! > 0 ? dv / r[i]! : 0;
    }
    const fit = chebyshevFit(n, 3, (j, i) => (j === 0 ? 1 : j === 1 ? cs[i]! : sn[i]!), r);
    iterations++;
    if (!fit) break;
    const pu = cu, pv = cv;
    cu += fit.x[1]!;
    cv += fit.x[2]!;
    const wn = spread();
    if (!(wn < w)) {
      cu = pu;
      cv = pv;
      break;
    }
    const moved = Math.hypot(fit.x[1]!, fit.x[2]!);
    w = wn;
    if (moved < 1e-13 * (1 + Math.abs(fit.x[0]!))) break;
  }
  return { width: w, iterations, center: [cu, cv] };
}

export interface CylindricityZone extends Zone {
  origin: Vec3;
  axis: Vec3;
}

/**
 * Cylindricity: minimum radial separation of two coaxial cylinders. Linearised about the axis
 * (origin o, direction a, frame e1 e2; h the height along a):
 * r_i ~ R + (x0 + tx h_i) cos t_i + (y0 + ty h_i) sin t_i, a programme in R, x0, y0, tx, ty; the
 * axis moves by the shift and tilt and the programme is solved again; started from least squares
 * (its axis started as fitCylinder's, `axisHint` among them).
 */
export function cylindricityZone(p: Points, normals?: Points, axisHint?: Vec3): CylindricityZone | null {
  const ls = fitCylinder(p, normals, axisHint);
  if (!ls) return null;
  const n = count(p);
  let origin = ls.origin, axis = ls.axis;
  const spread = (o: Vec3, a: Vec3) => {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const d = radial([p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!], o, a);
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
    return hi - lo;
  };
  let w = spread(origin, axis);
  let iterations = 0;
  const r = new Float64Array(n), cs = new Float64Array(n), sn = new Float64Array(n), h = new Float64Array(n);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const [e1, e2] = frameOf(axis);
    for (let i = 0; i < n; i++) {
      const d: Vec3 = [p[3 * i]! - origin[0], p[3 * i + 1]! - origin[1], p[3 * i + 2]! - origin[2]];
      const x = dot(d, e1), y = dot(d, e2);
      h[i] = dot(d, axis);
      r[i] = Math.hypot(x, y);
      cs[i] = r[i]! > 0 ? x / r[i]! : 0;
      sn[i] = r[i]! > 0 ? y / r[i]! : 0;
    }
    const fit = chebyshevFit(n, 5, (j, i) => (j === 0 ? 1 : j === 1 ? cs[i]! : j === 2 ? sn[i]! : j === 3 ? cs[i]! * h[i]! : sn[i]! * h[i]!), r);
    iterations++;
    if (!fit) break;
    const [, x0, y0, tx, ty] = fit.x as [number, number, number, number, number];
    const o2: Vec3 = [origin[0] + x0 * e1[0] + y0 * e2[0], origin[1] + x0 * e1[1] + y0 * e2[1], origin[2] + x0 * e1[2] + y0 * e2[2]];
    const a2 = normalize([axis[0] + tx * e1[0] + ty * e2[0], axis[1] + tx * e1[1] + ty * e2[1], axis[2] + tx * e1[2] + ty * e2[2]]);
    const wn = spread(o2, a2);
    if (!(wn < w)) break;
    w = wn;
    origin = o2;
    axis = a2;
    if (Math.hypot(x0, y0) + Math.hypot(tx, ty) * ls.radius < 1e-13 * ls.radius) break;
  }
  return { width: w, iterations, origin, axis: canonical(axis) };
}
