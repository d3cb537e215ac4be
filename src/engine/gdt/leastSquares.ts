import { symmetricEigen3 } from '../math/symmetricEigen';
import { solveLinear } from '../math/solveLinear';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';

/** Points as x, y, z triples (the engine's flat layout). */
export type Points = ArrayLike<number>;

export interface PlaneFit {
  kind: 'plane';
  /** The centroid: a point of the plane. */
  origin: Vec3;
  /** Unit normal (sign: toward +z, else +y, else +x, so a fit repeats exactly). */
  normal: Vec3;
}
export interface SphereFit {
  kind: 'sphere';
  center: Vec3;
  radius: number;
}
export interface CylinderFit {
  kind: 'cylinder';
  /** The point of the axis nearest the points' centroid. */
  origin: Vec3;
  axis: Vec3;
  radius: number;
}
export interface ConeFit {
  kind: 'cone';
  /** The point of the axis nearest the points' centroid. */
  origin: Vec3;
  /** Unit axis, pointing the way the cone widens. */
  axis: Vec3;
  /** Radius of the section through `origin`. */
  radius: number;
  /** Half-angle in radians (0 < angle < pi/2). */
  halfAngle: number;
  apex: Vec3;
}
export type PrimitiveFit = PlaneFit | SphereFit | CylinderFit | ConeFit;
export type PrimitiveKind = PrimitiveFit['kind'];

export const count = (p: Points): number => Math.floor(p.length / 3);
const at = (p: Points, i: number): Vec3 => [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];

/** Signed distance of point i from the fitted surface (positive outside: along the normal, away from the axis or centre). */
export function residual(fit: PrimitiveFit, p: Points, i: number): number {
  const q = at(p, i);
  switch (fit.kind) {
    case 'plane':
      return dot(sub(q, fit.origin), fit.normal);
    case 'sphere':
      return Math.hypot(...sub(q, fit.center)) - fit.radius;
    case 'cylinder':
      return radial(q, fit.origin, fit.axis) - fit.radius;
    case 'cone': {
      const d = sub(q, fit.origin);
      const h = dot(d, fit.axis);
      return (radial(q, fit.origin, fit.axis) - (fit.radius + h * Math.tan(fit.halfAngle))) * Math.cos(fit.halfAngle);
    }
  }
}

/** Distances of every point from the axis line, into `out` (no allocation: the fitters' hot loop). */
export function radialDistances(p: Points, o: Vec3, a: Vec3, out: Float64Array): void {
  for (let i = 0; i < out.length; i++) {
    const dx = p[3 * i]! - o[0], dy = p[3 * i + 1]! - o[1], dz = p[3 * i + 2]! - o[2];
    const h = dx * a[0] + dy * a[1] + dz * a[2];
    const ex = dx - h * a[0], ey = dy - h * a[1], ez = dz - h * a[2];
    out[i] = Math.sqrt(ex * ex + ey * ey + ez * ez);
  }
}

export function radial(q: Vec3, origin: Vec3, axis: Vec3): number {
  const d = sub(q, origin);
  return Math.hypot(...sub(d, scale(axis, dot(d, axis))));
}

export interface Residuals {
  rms: number;
  /** Largest |residual|. */
  max: number;
}

export function residuals(fit: PrimitiveFit, p: Points, subset?: ArrayLike<number>): Residuals {
  const n = subset ? subset.length : count(p);
  let sum = 0, max = 0;
  for (let j = 0; j < n; j++) {
    const e = Math.abs(residual(fit, p, subset ? subset[j]! : j));
    sum += e * e;
    max = Math.max(max, e);
  }
  return { rms: n ? Math.sqrt(sum / n) : 0, max };
}

export function centroid(p: Points): Vec3 {
  const n = count(p);
  const c: Vec3 = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) c[k] = c[k]! + p[3 * i + k]!;
  return scale(c, 1 / n);
}

/** Covariance eigen-frame of the points about their centroid (eigenvalues ascending). */
export function principalFrame(p: Points): { center: Vec3; values: Vec3; vectors: [Vec3, Vec3, Vec3] } {
  const center = centroid(p);
  const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < count(p); i++) {
    const d = sub(at(p, i), center);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) m[r * 3 + c]! += d[r]! * d[c]!;
  }
  return { center, ...symmetricEigen3(m) };
}

/** Sign convention for a direction whose sign is arbitrary: the largest component positive. */
export function canonical(v: Vec3): Vec3 {
  const k = Math.abs(v[0]) >= Math.abs(v[1]) ? (Math.abs(v[0]) >= Math.abs(v[2]) ? 0 : 2) : Math.abs(v[1]) >= Math.abs(v[2]) ? 1 : 2;
  return v[k]! < 0 ? scale(v, -1) : v;
}

/** Total least squares plane: the centroid and the covariance's least eigenvector. Null below 3 points or on a line. */
export function fitPlane(p: Points): PlaneFit | null {
  if (count(p) < 3) return null;
  const { center, values, vectors } = principalFrame(p);
  if (!(values[1] > 1e-30 * Math.max(1e-300, values[2]))) return null;
  return { kind: 'plane', origin: center, normal: canonical(normalize(vectors[0])) };
}

/** Two unit vectors completing `axis` to a right-handed frame. */
export function frameOf(axis: Vec3): [Vec3, Vec3] {
  const helper: Vec3 = Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = normalize(cross(axis, helper));
  return [e1, cross(axis, e1)];
}

/**
 * Levenberg-Marquardt on `residualsOf(params, out)` (n residuals) with a forward-difference
 * Jacobian: small parameter counts (4 to 6) and thousands of points, where analytic Jacobians per
 * shape would add code and not accuracy. Returns the best parameters found.
 */
export function levenbergMarquardt(params0: number[], n: number, residualsOf: (params: number[], out: Float64Array) => void, iterations = 100): number[] {
  const k = params0.length;
  let x = params0.slice();
  const r = new Float64Array(n), rt = new Float64Array(n);
  const J = new Float64Array(n * k);
  residualsOf(x, r);
  let cost = sumSq(r);
  let lambda = 1e-3;
  for (let it = 0; it < iterations; it++) {
    for (let j = 0; j < k; j++) {
      const h = 1e-7 * Math.max(1, Math.abs(x[j]!));
      const xp = x.slice();
      xp[j] = x[j]! + h;
      residualsOf(xp, rt);
      for (let i = 0; i < n; i++) J[i * k + j] = (rt[i]! - r[i]!) / h;
    }
    const jtj = new Float64Array(k * k), jtr = new Float64Array(k);
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < k; a++) {
        const ja = J[i * k + a]!;
        jtr[a]! += ja * r[i]!;
        for (let b = 0; b < k; b++) jtj[a * k + b]! += ja * J[i * k + b]!;
      }
    }
    let improved = false;
    for (let tries = 0; tries < 12 && !improved; tries++) {
      const A = Array.from({ length: k }, (_, a) => Array.from({ length: k }, (_, b) => jtj[a * k + b]! + (a === b ? lambda * Math.max(jtj[a * k + a]!, 1e-30) : 0)));
      const step = solveLinear(A, Array.from(jtr, (v) => -v));
      if (!step) {
        lambda *= 10;
        continue;
      }
      const xn = x.map((v, j) => v + step[j]!);
      residualsOf(xn, rt);
      const c = sumSq(rt);
      if (c < cost) {
        const small = Math.hypot(...step) <= 1e-12 * (1 + Math.hypot(...x));
        x = xn;
        r.set(rt);
        const gain = cost - c;
        cost = c;
        lambda = Math.max(lambda / 10, 1e-12);
        improved = true;
        if (small || gain <= 1e-30 + 1e-14 * cost) return x;
      } else lambda *= 10;
    }
    if (!improved) return x;
  }
  return x;
}

function sumSq(r: Float64Array): number {
  let s = 0;
  for (let i = 0; i < r.length; i++) s += r[i]! * r[i]!;
  return s;
}


/** Algebraic sphere (x^2+y^2+z^2 + D x + E y + F z + G = 0, centred coordinates), then geometric least squares. */
export function fitSphere(p: Points): SphereFit | null {
  const n = count(p);
  if (n < 4) return null;
  const c0 = centroid(p);
  const A = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
  const b = [0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    const d = sub(at(p, i), c0);
    const row = [d[0], d[1], d[2], 1];
    const z = -(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (let r = 0; r < 4; r++) {
      b[r]! += row[r]! * z;
      for (let c = 0; c < 4; c++) A[r]![c]! += row[r]! * row[c]!;
    }
  }
  const s = solveLinear(A, b);
  if (!s) return null;
  const cc: Vec3 = [-s[0]! / 2, -s[1]! / 2, -s[2]! / 2];
  const r2 = dot(cc, cc) - s[3]!;
  if (!(r2 > 0)) return null;
  const start = [...add(cc, c0), Math.sqrt(r2)];
  const x = levenbergMarquardt(start, n, (q, out) => {
    for (let i = 0; i < n; i++) out[i] = Math.hypot(p[3 * i]! - q[0]!, p[3 * i + 1]! - q[1]!, p[3 * i + 2]! - q[2]!) - q[3]!;
  });
  if (!(x[3]! > 0)) return null;
  return { kind: 'sphere', center: [x[0]!, x[1]!, x[2]!], radius: x[3]! };
}

/**
 * Geometric least-squares cylinder from an axis guess: Levenberg-Marquardt over axis tilt (2),
 * axis shift (2) and radius, in a frame about the guess; restarted once about the result so the
 * local parameterisation never strays far.
 */
export function fitCylinderFrom(p: Points, axisGuess: Vec3): CylinderFit | null {
  const n = count(p);
  if (n < 5) return null;
  let axis = normalize(axisGuess);
  let origin = centroid(p);
  let radius = meanRadial(p, origin, axis);
  for (let round = 0; round < 2; round++) {
    const [e1, e2] = frameOf(axis);
    const a0 = axis, o0 = origin;
    const decode = (q: number[]) => {
      const ax = normalize(add(a0, add(scale(e1, q[0]!), scale(e2, q[1]!))));
      const o = add(o0, add(scale(e1, q[2]!), scale(e2, q[3]!)));
      return { ax, o };
    };
    const x = levenbergMarquardt([0, 0, 0, 0, radius], n, (q, out) => {
      const { ax, o } = decode(q);
      radialDistances(p, o, ax, out);
      for (let i = 0; i < n; i++) out[i] = out[i]! - q[4]!;
    });
    const d = decode(x);
    axis = d.ax;
    origin = d.o;
    radius = x[4]!;
  }
  if (!(radius > 0) || !Number.isFinite(radius)) return null;
  const c = centroid(p);
  origin = add(origin, scale(axis, dot(sub(c, origin), axis)));
  return { kind: 'cylinder', origin, axis: canonical(axis), radius };
}

function meanRadial(p: Points, origin: Vec3, axis: Vec3): number {
  let s = 0;
  for (let i = 0; i < count(p); i++) s += radial(at(p, i), origin, axis);
  return s / count(p);
}

/**
 * The axis a set of surface normals is all perpendicular to (cylinder) or at one angle to (cone):
 * the least eigenvector of the normals' covariance about their mean. Null when the normals are
 * missing or nearly parallel.
 */
export function axisFromNormals(normals: Points): Vec3 | null {
  const n = count(normals);
  if (n < 3) return null;
  const { values, vectors } = principalFrame(normals);
  if (!(values[1] > 1e-10 * n)) return null;
  return vectors[0];
}

/**
 * Least-squares cylinder. Axis starts: from the normals when given, otherwise each principal axis of
 * the points (a scan without normals); and `axisHint`, the nominal's axis, when given. A partly
 * scanned hole's points (a fringe scanner sees a through hole's wall from either side: an arc on one
 * side near one end, the opposite arc near the other) have principal axes far from the hole's, and
 * from them the fit settles in a wrong minimum: NIST FTC 7's 4.3942 hole read 4.105, its axis 30
 * degrees off, at an rms 36 times the noise. Several starts are tried on a subsample and the lowest
 * rms refined on every point.
 */
export function fitCylinder(p: Points, normals?: Points, axisHint?: Vec3): CylinderFit | null {
  return fromAxisStarts(p, normals, axisHint, fitCylinderFrom);
}

/**
 * A cylinder or cone fit from each axis start (fitCylinder): one start fitted on every point;
 * several each tried on a subsample, the best refined on every point.
 */
function fromAxisStarts<T extends CylinderFit | ConeFit>(p: Points, normals: Points | undefined, axisHint: Vec3 | undefined, fitFrom: (p: Points, axis: Vec3) => T | null): T | null {
  const fromNormals = normals ? axisFromNormals(normals) : null;
  const own = fromNormals ? [fromNormals] : principalFrame(p).vectors;
  const guesses = axisHint ? [...own, axisHint] : own;
  if (guesses.length === 1) return fitFrom(p, guesses[0]!);
  const few = subsample(p, START_POINTS);
  const start = best(guesses.map((g) => fitFrom(few, g)), few);
  return start ? fitFrom(p, start.axis) : null;
}

/** Points a multi-start fit tries its starts on. */
const START_POINTS = 1500;

/** Every k-th point, at most `max` of them. */
export function subsample(p: Points, max: number): Points {
  const n = count(p);
  if (n <= max) return p;
  const k = Math.ceil(n / max);
  const out = new Float64Array(3 * Math.ceil(n / k));
  for (let i = 0, j = 0; i < n; i += k, j++) for (let c = 0; c < 3; c++) out[3 * j + c] = p[3 * i + c]!;
  return out;
}

/** Least-squares cone: axis starts as for the cylinder; radius and slope from a line fit of radius against height. */
export function fitCone(p: Points, normals?: Points, axisHint?: Vec3): ConeFit | null {
  return fromAxisStarts(p, normals, axisHint, fitConeFrom);
}

function best<T extends PrimitiveFit>(fits: (T | null)[], p: Points): T | null {
  let out: T | null = null, rms = Infinity;
  for (const f of fits) {
    if (!f) continue;
    const r = residuals(f, p).rms;
    if (r < rms) {
      rms = r;
      out = f;
    }
  }
  return out;
}

export function fitConeFrom(p: Points, axisGuess: Vec3): ConeFit | null {
  const n = count(p);
  if (n < 6) return null;
  let axis = normalize(axisGuess);
  let origin = centroid(p);
  // Start: a cylinder about the guess gives the axis position; radius = r0 + k h by least squares.
  const cyl = fitCylinderFrom(p, axis);
  if (cyl) {
    axis = cyl.axis;
    origin = cyl.origin;
  }
  let sh = 0, shh = 0, sr = 0, shr = 0;
  for (let i = 0; i < n; i++) {
    const q = at(p, i);
    const h = dot(sub(q, origin), axis), r = radial(q, origin, axis);
    sh += h;
    shh += h * h;
    sr += r;
    shr += h * r;
  }
  const det = n * shh - sh * sh;
  if (!(det > 0)) return null;
  let slope = (n * shr - sh * sr) / det;
  let r0 = (sr - slope * sh) / n;
  // The radius does not change along the axis (to rounding): a cylinder, whose cone fit degenerates
  // (the half-angle runs to 0 and the apex to infinity).
  if (Math.abs(slope) * Math.sqrt(shh / n - (sh / n) ** 2) < 1e-12 * Math.abs(r0)) return null;
  if (slope < 0) {
    axis = scale(axis, -1);
    slope = -slope;
  }
  let theta = Math.atan(slope);
  for (let round = 0; round < 2; round++) {
    const [e1, e2] = frameOf(axis);
    const a0 = axis, o0 = origin;
    const decode = (q: number[]) => ({
      ax: normalize(add(a0, add(scale(e1, q[0]!), scale(e2, q[1]!)))),
      o: add(o0, add(scale(e1, q[2]!), scale(e2, q[3]!))),
    });
    const x = levenbergMarquardt([0, 0, 0, 0, r0, theta], n, (q, out) => {
      const { ax, o } = decode(q);
      const t = Math.tan(q[5]!), c = Math.cos(q[5]!);
      radialDistances(p, o, ax, out);
      for (let i = 0; i < n; i++) {
        const h = (p[3 * i]! - o[0]) * ax[0] + (p[3 * i + 1]! - o[1]) * ax[1] + (p[3 * i + 2]! - o[2]) * ax[2];
        out[i] = (out[i]! - (q[4]! + h * t)) * c;
      }
    });
    const d = decode(x);
    axis = d.ax;
    origin = d.o;
    r0 = x[4]!;
    theta = x[5]!;
  }
  if (theta < 0) {
    axis = scale(axis, -1);
    theta = -theta;
  }
  if (!(theta > 1e-9 && theta < Math.PI / 2 - 1e-9) || !Number.isFinite(r0)) return null;
  // Re-anchor at the axis point nearest the centroid.
  const c = centroid(p);
  const shift = dot(sub(c, origin), axis);
  origin = add(origin, scale(axis, shift));
  r0 += shift * Math.tan(theta);
  const apex = sub(origin, scale(axis, r0 / Math.tan(theta)));
  return { kind: 'cone', origin, axis, radius: r0, halfAngle: theta, apex };
}

/**
 * Least-squares cone about a given axis line (a drill point about its hole's fitted axis): with the
 * axis fixed, a point's distance from the cone is its distance, in its own half-plane through the
 * axis, from the cone's generator line, so the fit is the orthogonal line fit of the points'
 * (height, radius) pairs: linear, and steady on a few dozen samples, where the free fit's six
 * parameters are not (13 noisy samples on NIST FTC 7's drill point gave an axis 70 degrees off).
 * Null below 3 points, or when the pairs do not span a line that widens.
 */
export function fitConeAbout(p: Points, origin: Vec3, axisGuess: Vec3): ConeFit | null {
  const n = count(p);
  if (n < 3) return null;
  const along = normalize(axisGuess);
  let sh = 0, sr = 0;
  const hs = new Float64Array(n), rs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const q = at(p, i);
    hs[i] = dot(sub(q, origin), along);
    rs[i] = radial(q, origin, along);
    sh += hs[i]!;
    sr += rs[i]!;
  }
  const mh = sh / n, mr = sr / n;
  let hh = 0, hr = 0, rr = 0;
  for (let i = 0; i < n; i++) {
    const dh = hs[i]! - mh, dr = rs[i]! - mr;
    hh += dh * dh;
    hr += dh * dr;
    rr += dr * dr;
  }
  // The principal direction of the (h, r) scatter: the generator line's direction (dh, dr).
  const angle = 0.5 * Math.atan2(2 * hr, hh - rr);
  const dh = Math.cos(angle), dr = Math.sin(angle);
  if (!(Math.abs(dh) > 1e-12 && Math.abs(dr) > 1e-12)) return null;
  // The axis points the way the cone widens.
  const axis = dr / dh < 0 ? scale(along, -1) : along;
  const slope = Math.abs(dr / dh);
  const halfAngle = Math.atan(slope);
  if (!(halfAngle > 1e-9 && halfAngle < Math.PI / 2 - 1e-9)) return null;
  // The line passes through the pairs' mean: the axis point level with it, and the radius there.
  const centre = add(origin, scale(along, mh));
  return { kind: 'cone', origin: centre, axis, radius: mr, halfAngle, apex: sub(centre, scale(axis, mr / slope)) };
}

/**
 * Coaxial cylinders of their own radii sharing one axis (a common datum axis A-B over two diameters,
 * ASME Y14.5 4.12 / ISO 5459 common datum): Levenberg-Marquardt over the axis tilt (2), shift (2)
 * and one radius per set, started from the largest set's least-squares cylinder (its axis started
 * as fitCylinder's, `axisHint` among them). Null when that start fails.
 */
export function fitCoaxial(sets: { points: Points; normals?: Points | undefined }[], axisHint?: Vec3): { origin: Vec3; axis: Vec3; radii: number[] } | null {
  const largest = sets.reduce((a, b) => (count(b.points) > count(a.points) ? b : a));
  const start = fitCylinder(largest.points, largest.normals, axisHint);
  if (!start) return null;
  const all = new Float64Array(sets.reduce((s, x) => s + 3 * count(x.points), 0));
  const owner: number[] = [];
  let o = 0;
  sets.forEach((x, k) => {
    for (let i = 0; i < 3 * count(x.points); i++) all[o++] = x.points[i]!;
    for (let i = 0; i < count(x.points); i++) owner.push(k);
  });
  const n = owner.length;
  const [e1, e2] = frameOf(start.axis);
  const decode = (q: number[]) => ({ ax: normalize(add(start.axis, add(scale(e1, q[0]!), scale(e2, q[1]!)))), o: add(start.origin, add(scale(e1, q[2]!), scale(e2, q[3]!))) });
  const radii0 = sets.map((x) => meanRadial(x.points, start.origin, start.axis));
  const q = levenbergMarquardt([0, 0, 0, 0, ...radii0], n, (q, out) => {
    const { ax, o } = decode(q);
    radialDistances(all, o, ax, out);
    for (let i = 0; i < n; i++) out[i] = out[i]! - q[4 + owner[i]!]!;
  });
  const { ax, o: origin } = decode(q);
  const c = centroid(all);
  return { origin: add(origin, scale(ax, dot(sub(c, origin), ax))), axis: canonical(ax), radii: q.slice(4) };
}

/** Least-squares circle of 2-D points (u, v pairs): the algebraic (Kasa) fit, then geometric Gauss-Newton. Null below 3 points. */
export function fitCircle2d(uv: ArrayLike<number>): { cu: number; cv: number; r: number } | null {
  const n = Math.floor(uv.length / 2);
  if (n < 3) return null;
  // Kasa: u^2 + v^2 + D u + E v + F = 0 in least squares.
  const A = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], b = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const u = uv[2 * i]!, v = uv[2 * i + 1]!, row = [u, v, 1], rhs = -(u * u + v * v);
    for (let a = 0; a < 3; a++) {
      b[a]! += row[a]! * rhs;
      for (let c = 0; c < 3; c++) A[a]![c]! += row[a]! * row[c]!;
    }
  }
  const s = solveLinear(A, b);
  if (!s) return null;
  let cu = -s[0]! / 2, cv = -s[1]! / 2, r = Math.sqrt(Math.max(0, cu * cu + cv * cv - s[2]!));
  for (let it = 0; it < 20; it++) {
    const J = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], g = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const du = uv[2 * i]! - cu, dv = uv[2 * i + 1]! - cv, d = Math.hypot(du, dv);
      if (!(d > 0)) continue;
      const row = [-du / d, -dv / d, -1], res = d - r;
      for (let a = 0; a < 3; a++) {
        g[a]! -= row[a]! * res;
        for (let c = 0; c < 3; c++) J[a]![c]! += row[a]! * row[c]!;
      }
    }
    const step = solveLinear(J, g);
    if (!step) break;
    cu += step[0]!;
    cv += step[1]!;
    r += step[2]!;
    if (Math.hypot(...step) < 1e-13 * (1 + r)) break;
  }
  return r > 0 ? { cu, cv, r } : null;
}
