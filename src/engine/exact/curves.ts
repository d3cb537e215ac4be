import { evaluateNurbsCurve, type NurbsCurve } from './nurbs';

/**
 * Curves in plain data, 2D (pcurves in a surface's (u, v) space) or 3D (edges), with OCCT's own
 * parameterization (ElCLib), so that a parameter read from the kernel means the same point here.
 * `axes` holds origin, x direction, y direction (dim numbers each).
 */
export type Curve =
  | { kind: 'line'; dim: 2 | 3; axes: Float64Array }
  | { kind: 'circle'; dim: 2 | 3; axes: Float64Array; radius: number }
  | { kind: 'ellipse'; dim: 2 | 3; axes: Float64Array; major: number; minor: number }
  | { kind: 'hyperbola'; dim: 2 | 3; axes: Float64Array; major: number; minor: number }
  | { kind: 'parabola'; dim: 2 | 3; axes: Float64Array; focal: number }
  | NurbsCurve
  | PolylineCurve;

/**
 * A curve the evaluator has no closed form for (an offset curve, an edge with only pcurves), given
 * as points at increasing parameters, sampled by the kernel finely enough that linear
 * interpolation stays within `tolerance`.
 */
export interface PolylineCurve {
  kind: 'polyline';
  dim: 2 | 3;
  params: Float64Array;
  points: Float64Array;
}

/**
 * Point and first two derivatives at t: out[0..dim) = C, out[dim..2 dim) = C', out[2 dim..3 dim) = C''.
 * (A line is O + t D with D of unit length, as gp_Lin.)
 */
export function evaluateCurve(c: Curve, t: number, out: Float64Array): Float64Array {
  const dim = c.dim;
  switch (c.kind) {
    case 'nurbs':
      return evaluateNurbsCurve(c, t, out);
    case 'polyline':
      return evaluatePolyline(c, t, out);
    case 'line': {
      const A = c.axes;
      for (let d = 0; d < dim; d++) {
        out[d] = A[d]! + t * A[dim + d]!;
        out[dim + d] = A[dim + d]!;
        out[2 * dim + d] = 0;
      }
      return out;
    }
    default: {
      // Every conic is O + f(t) X + g(t) Y.
      let f: number, g: number, f1: number, g1: number, f2: number, g2: number;
      if (c.kind === 'circle' || c.kind === 'ellipse') {
        const rx = c.kind === 'circle' ? c.radius : c.major, ry = c.kind === 'circle' ? c.radius : c.minor;
        const cs = Math.cos(t), sn = Math.sin(t);
        f = rx * cs;
        g = ry * sn;
        f1 = -rx * sn;
        g1 = ry * cs;
        f2 = -f;
        g2 = -g;
      } else if (c.kind === 'hyperbola') {
        const ch = Math.cosh(t), sh = Math.sinh(t);
        f = c.major * ch;
        g = c.minor * sh;
        f1 = c.major * sh;
        g1 = c.minor * ch;
        f2 = f;
        g2 = g;
      } else {
        // gp_Parab: O + t^2 / (4 focal) X + t Y.
        const k = 1 / (4 * c.focal);
        f = k * t * t;
        g = t;
        f1 = 2 * k * t;
        g1 = 1;
        f2 = 2 * k;
        g2 = 0;
      }
      const A = c.axes;
      for (let d = 0; d < dim; d++) {
        const x = A[dim + d]!, y = A[2 * dim + d]!;
        out[d] = A[d]! + f * x + g * y;
        out[dim + d] = f1 * x + g1 * y;
        out[2 * dim + d] = f2 * x + g2 * y;
      }
      return out;
    }
  }
}

function evaluatePolyline(c: PolylineCurve, t: number, out: Float64Array): Float64Array {
  const ts = c.params, P = c.points, dim = c.dim;
  const n = ts.length;
  let i: number;
  if (t <= ts[0]!) i = 0;
  else if (t >= ts[n - 1]!) i = n - 2;
  else {
    let lo = 0, hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (ts[mid]! <= t) lo = mid;
      else hi = mid;
    }
    i = lo;
  }
  const span = ts[i + 1]! - ts[i]!;
  const s = span > 0 ? (t - ts[i]!) / span : 0;
  for (let d = 0; d < dim; d++) {
    const a = P[dim * i + d]!, b = P[dim * (i + 1) + d]!;
    out[d] = a + s * (b - a);
    out[dim + d] = span > 0 ? (b - a) / span : 0;
    out[2 * dim + d] = 0;
  }
  return out;
}

const ev = new Float64Array(9);
let cA = new Float64Array(9), cB = new Float64Array(9);

/** Squared distance from p to the curve point at t (3D curves). */
function distanceSqAt(c: Curve, t: number, px: number, py: number, pz: number): number {
  evaluateCurve(c, t, ev);
  const dx = ev[0]! - px, dy = ev[1]! - py, dz = ev[2]! - pz;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Parameter in [t0, t1] of the point of a 3D curve nearest to p, starting from tStart (a good
 * start comes from the edge's polyline). Lines and circles in closed form; other curves by
 * Newton's method on (C - p) . C' = 0 with a step that never increases the distance, clamped to
 * the range; the range ends are compared too, so a minimum at an end (a vertex) is found.
 */
export function projectOnCurve(c: Curve, px: number, py: number, pz: number, t0: number, t1: number, tStart: number): number {
  if (c.kind === 'line') {
    const A = c.axes;
    const t = (px - A[0]!) * A[3]! + (py - A[1]!) * A[4]! + (pz - A[2]!) * A[5]!;
    return t < t0 ? t0 : t > t1 ? t1 : t;
  }
  if (c.kind === 'circle') {
    const A = c.axes;
    const dx = px - A[0]!, dy = py - A[1]!, dz = pz - A[2]!;
    const x = dx * A[3]! + dy * A[4]! + dz * A[5]!;
    const y = dx * A[6]! + dy * A[7]! + dz * A[8]!;
    // On the axis every point of the circle is equally near: keep the start.
    let t = x === 0 && y === 0 ? tStart : Math.atan2(y, x);
    t = t0 + ((((t - t0) % TWO_PI) + TWO_PI) % TWO_PI);
    if (t <= t1) return t;
    // Outside the arc: the distance grows monotonically away from t within half a turn, so the nearer end wins.
    return distanceSqAt(c, t0, px, py, pz) <= distanceSqAt(c, t1, px, py, pz) ? t0 : t1;
  }
  let t = tStart < t0 ? t0 : tStart > t1 ? t1 : tStart;
  let E = cA, T = cB;
  evaluateCurve(c, t, E);
  let f = (E[0]! - px) ** 2 + (E[1]! - py) ** 2 + (E[2]! - pz) ** 2;
  for (let iter = 0; iter < 40; iter++) {
    const rx = E[0]! - px, ry = E[1]! - py, rz = E[2]! - pz;
    const g = rx * E[3]! + ry * E[4]! + rz * E[5]!;
    const d1sq = E[3]! * E[3]! + E[4]! * E[4]! + E[5]! * E[5]!;
    let h = d1sq + rx * E[6]! + ry * E[7]! + rz * E[8]!;
    if (!(h > 0)) h = d1sq; // Gauss-Newton where the distance is locally concave
    if (!(h > 0)) break;
    let step = -g / h;
    let accepted = false, converged = false;
    for (let halving = 0; halving < 30; halving++) {
      let tn = t + step;
      if (tn < t0) tn = t0;
      else if (tn > t1) tn = t1;
      evaluateCurve(c, tn, T);
      const fn = (T[0]! - px) ** 2 + (T[1]! - py) ** 2 + (T[2]! - pz) ** 2;
      if (fn <= f) {
        converged = Math.abs(tn - t) * Math.sqrt(d1sq) <= 1e-13 * (1 + Math.sqrt(fn));
        t = tn;
        f = fn;
        const swap = E;
        E = T;
        T = swap;
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    if (!accepted || converged) break;
  }
  cA = E;
  cB = T;
  // A local minimum inside the range can still lose to an end.
  let best = t;
  if (t > t0) {
    const f0 = distanceSqAt(c, t0, px, py, pz);
    if (f0 < f) {
      best = t0;
      f = f0;
    }
  }
  if (t < t1 && distanceSqAt(c, t1, px, py, pz) < f) best = t1;
  return best;
}

const TWO_PI = 2 * Math.PI;
