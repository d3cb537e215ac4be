/**
 * Non-uniform rational B-splines evaluated in plain JS (Piegl & Tiller, The NURBS Book, 2nd ed.:
 * A2.1 FindSpan, A2.3 DersBasisFuns, A3.2/A3.6 derivatives, A4.2/A4.4 rational derivatives).
 * Curves and surfaces are held as flat typed arrays extracted once from the kernel, so that point
 * projection runs without kernel calls (and in threads that have no kernel).
 *
 * Knots are the full (flat) knot vector, multiplicities expanded. Periodic kernel splines are
 * converted to non-periodic ones before extraction (same parameterization over one period); the
 * evaluator wraps a parameter into that period when `period` is set.
 */
export interface NurbsCurve {
  kind: 'nurbs';
  /** 2 (a pcurve in a surface's parameter space) or 3. */
  dim: 2 | 3;
  degree: number;
  knots: Float64Array;
  /** dim coordinates per pole. */
  poles: Float64Array;
  /** One weight per pole, or null for a polynomial spline. */
  weights: Float64Array | null;
  /** Period of a periodic spline (evaluation wraps into [knots[degree], knots[degree] + period)), else 0. */
  period: number;
}

export interface NurbsSurface {
  kind: 'nurbs';
  uDegree: number;
  vDegree: number;
  uKnots: Float64Array;
  vKnots: Float64Array;
  /** Number of poles along u and along v. */
  nu: number;
  nv: number;
  /** x y z per pole, u-major: pole (i, j) at 3 * (i * nv + j). */
  poles: Float64Array;
  /** nu * nv weights, or null. */
  weights: Float64Array | null;
  uPeriod: number;
  vPeriod: number;
}

/** Parametric range of a spline: [knots[p], knots[n]] with n the pole count. */
export function knotRange(knots: Float64Array, degree: number, poleCount: number): [number, number] {
  return [knots[degree]!, knots[poleCount]!];
}

/** Index of the knot span holding u (A2.1), with u clamped into the spline's range. */
export function findSpan(knots: Float64Array, degree: number, poleCount: number, u: number): number {
  const n = poleCount - 1;
  if (u >= knots[n + 1]!) {
    // The last non-empty span, so that the end of the range evaluates from the left.
    let s = n;
    while (s > degree && knots[s]! >= knots[n + 1]!) s--;
    return s;
  }
  if (u <= knots[degree]!) return degree;
  let lo = degree, hi = n + 1;
  let mid = (lo + hi) >> 1;
  while (u < knots[mid]! || u >= knots[mid + 1]!) {
    if (u < knots[mid]!) hi = mid;
    else lo = mid;
    mid = (lo + hi) >> 1;
  }
  return mid;
}

// Scratch for basis functions: degree up to MAX_DEGREE, derivatives up to 2.
const MAX_DEGREE = 25;
const ndu = new Float64Array((MAX_DEGREE + 1) * (MAX_DEGREE + 1));
const left = new Float64Array(MAX_DEGREE + 1);
const right = new Float64Array(MAX_DEGREE + 1);
const a = new Float64Array(2 * (MAX_DEGREE + 1));

/**
 * Basis functions and their derivatives up to order `n` at u in span i (A2.3). Writes
 * ders[k * (p + 1) + j] = k-th derivative of N_{i-p+j,p}(u).
 */
export function basisDerivatives(knots: Float64Array, i: number, u: number, p: number, n: number, ders: Float64Array): void {
  if (p > MAX_DEGREE) throw new Error(`nurbs: degree ${p} is above the supported ${MAX_DEGREE}`);
  const P = p + 1;
  ndu[0] = 1;
  for (let j = 1; j <= p; j++) {
    left[j] = u - knots[i + 1 - j]!;
    right[j] = knots[i + j]! - u;
    let saved = 0;
    for (let r = 0; r < j; r++) {
      // Lower triangle: knot differences; upper: basis functions.
      ndu[j * P + r] = right[r + 1]! + left[j - r]!;
      const temp = ndu[r * P + j - 1]! / ndu[j * P + r]!;
      ndu[r * P + j] = saved + right[r + 1]! * temp;
      saved = left[j - r]! * temp;
    }
    ndu[j * P + j] = saved;
  }
  for (let j = 0; j <= p; j++) ders[j] = ndu[j * P + p]!;
  for (let r = 0; r <= p; r++) {
    let s1 = 0, s2 = P;
    a[0] = 1;
    for (let k = 1; k <= n; k++) {
      let d = 0;
      const rk = r - k, pk = p - k;
      if (r >= k) {
        a[s2] = a[s1]! / ndu[(pk + 1) * P + rk]!;
        d = a[s2]! * ndu[rk * P + pk]!;
      }
      const j1 = rk >= -1 ? 1 : -rk;
      const j2 = r - 1 <= pk ? k - 1 : p - r;
      for (let j = j1; j <= j2; j++) {
        a[s2 + j] = (a[s1 + j]! - a[s1 + j - 1]!) / ndu[(pk + 1) * P + rk + j]!;
        d += a[s2 + j]! * ndu[(rk + j) * P + pk]!;
      }
      if (r <= pk) {
        a[s2 + k] = -a[s1 + k - 1]! / ndu[(pk + 1) * P + r]!;
        d += a[s2 + k]! * ndu[r * P + pk]!;
      }
      ders[k * P + r] = d;
      const t = s1;
      s1 = s2;
      s2 = t;
    }
  }
  let r = p;
  for (let k = 1; k <= n; k++) {
    for (let j = 0; j <= p; j++) ders[k * P + j] = ders[k * P + j]! * r;
    r *= p - k;
  }
  // Derivatives of order above the degree are zero; A2.3 leaves them unwritten.
  for (let k = p + 1; k <= n; k++) for (let j = 0; j <= p; j++) ders[k * P + j] = 0;
}

/** t wrapped into [start, start + period) for a periodic spline, clamped into [start, end] otherwise. */
function wrapOrClamp(t: number, start: number, end: number, period: number): number {
  if (period > 0) return t - Math.floor((t - start) / period) * period;
  return t < start ? start : t > end ? end : t;
}

const curveDers = new Float64Array((MAX_DEGREE + 1) * (MAX_DEGREE + 1));
const curveSpans = new WeakMap<NurbsCurve, (Float64Array | undefined)[]>();
let lastCurve: NurbsCurve | null = null;
let lastCurveSpans: (Float64Array | undefined)[] | null = null;

/** A curve's span in power form in its unit coordinate (as spanCoefficients for surfaces): (p + 1) x 4 homogeneous coefficients. */
function curveSpan(c: NurbsCurve, span: number): Float64Array {
  let spans: (Float64Array | undefined)[];
  if (c === lastCurve) spans = lastCurveSpans!;
  else {
    let found = curveSpans.get(c);
    if (!found) {
      found = new Array(c.poles.length / c.dim - c.degree);
      curveSpans.set(c, found);
    }
    spans = found;
    lastCurve = c;
    lastCurveSpans = found;
  }
  let A = spans[span - c.degree];
  if (A) return A;
  const p = c.degree, P = p + 1, dim = c.dim;
  basisDerivatives(c.knots, span, c.knots[span]!, p, p, curveDers);
  const h = c.knots[span + 1]! - c.knots[span]!;
  let f = 1;
  A = new Float64Array(P * 4);
  for (let k = 0; k <= p; k++) {
    if (k > 0) f *= h / k;
    for (let j = 0; j <= p; j++) {
      const idx = span - p + j;
      const b = curveDers[k * P + j]! * f * (c.weights ? c.weights[idx]! : 1);
      for (let d = 0; d < dim; d++) A[4 * k + d] = A[4 * k + d]! + b * c.poles[dim * idx + d]!;
      A[4 * k + 3] = A[4 * k + 3]! + b;
    }
  }
  spans[span - c.degree] = A;
  return A;
}

const cw = new Float64Array(3 * 4); // homogeneous derivatives 0..2: x y z w

/**
 * Point and first two derivatives of a curve at t: out[0..dim) = C, out[dim..2dim) = C',
 * out[2dim..3dim) = C''. t is clamped to the range (wrapped when periodic).
 */
export function evaluateNurbsCurve(c: NurbsCurve, t: number, out: Float64Array): Float64Array {
  const p = c.degree, dim = c.dim;
  const n = c.poles.length / dim;
  const u = wrapOrClamp(t, c.knots[p]!, c.knots[n]!, c.period);
  const span = findSpan(c.knots, p, n, u);
  const A = curveSpan(c, span);
  const h = c.knots[span + 1]! - c.knots[span]!;
  const x = (u - c.knots[span]!) / h;
  for (let k = 0; k < 4; k++) {
    let f0 = A[4 * p + k]!, f1 = 0, f2 = 0;
    for (let j = p - 1; j >= 0; j--) {
      f2 = f2 * x + 2 * f1;
      f1 = f1 * x + f0;
      f0 = f0 * x + A[4 * j + k]!;
    }
    cw[k] = f0;
    cw[4 + k] = f1 / h;
    cw[8 + k] = f2 / (h * h);
  }
  // Rational quotient rule (A4.2): C = A / w, C' = (A' - w' C) / w, C'' = (A'' - 2 w' C' - w'' C) / w.
  const w0 = cw[3]!, w1 = cw[7]!, w2 = cw[11]!;
  for (let d = 0; d < dim; d++) {
    const c0 = cw[d]! / w0;
    const c1 = (cw[4 + d]! - w1 * c0) / w0;
    const c2 = (cw[8 + d]! - 2 * w1 * c1 - w2 * c0) / w0;
    out[d] = c0;
    out[dim + d] = c1;
    out[2 * dim + d] = c2;
  }
  return out;
}

const uDers = new Float64Array(3 * (MAX_DEGREE + 1));
const vDers = new Float64Array(3 * (MAX_DEGREE + 1));
const temp = new Float64Array(4 * 3 * (MAX_DEGREE + 1));
// Homogeneous derivatives for k + l <= 2, in the order 00 10 01 20 11 02 (4 numbers each).
const skl = new Float64Array(4 * 6);
const SLOT_K = [0, 1, 0, 2, 1, 0];
const SLOT_L = [0, 0, 1, 0, 1, 2];

/**
 * A surface's knot spans in power form, built span by span on first use: in span (i, j) the
 * homogeneous surface is sum over k, l of A_kl (u - u_i)^k (v - v_j)^l, A_kl its Taylor
 * coefficients at the span's corner (from the basis functions' derivatives there, A2.3). Horner
 * evaluation of a span costs about a third of evaluating the basis functions each time.
 */
interface SpanCache {
  /** Per span pair (i - p) * spansV + (j - q): the coefficients, (p + 1) x (q + 1) x 4, or undefined until built. */
  spans: (Float64Array | undefined)[];
  spansV: number;
}

const spanCaches = new WeakMap<NurbsSurface, SpanCache>();
let lastSurface: NurbsSurface | null = null;
let lastCache: SpanCache | null = null;
const cornerU = new Float64Array((MAX_DEGREE + 1) * (MAX_DEGREE + 1));
const cornerV = new Float64Array((MAX_DEGREE + 1) * (MAX_DEGREE + 1));

function spanCoefficients(s: NurbsSurface, su: number, sv: number): Float64Array {
  let cache: SpanCache;
  if (s === lastSurface) cache = lastCache!;
  else {
    let c = spanCaches.get(s);
    if (!c) {
      const spansV = s.nv - s.vDegree;
      c = { spans: new Array((s.nu - s.uDegree) * spansV), spansV };
      spanCaches.set(s, c);
    }
    cache = c;
    lastSurface = s;
    lastCache = c;
  }
  const key = (su - s.uDegree) * cache.spansV + (sv - s.vDegree);
  let A = cache.spans[key];
  if (A) return A;
  const p = s.uDegree, q = s.vDegree, P = p + 1, Q = q + 1;
  // Taylor coefficients of the basis functions at the corner in the span's unit coordinate
  // ((u - u_i) / width): k-th derivative x width^k / k!, which keeps high degrees well conditioned.
  basisDerivatives(s.uKnots, su, s.uKnots[su]!, p, p, cornerU);
  basisDerivatives(s.vKnots, sv, s.vKnots[sv]!, q, q, cornerV);
  const hu = s.uKnots[su + 1]! - s.uKnots[su]!, hv = s.vKnots[sv + 1]! - s.vKnots[sv]!;
  let f = 1;
  for (let k = 1; k <= p; k++) {
    f *= hu / k;
    for (let r = 0; r <= p; r++) cornerU[k * P + r] = cornerU[k * P + r]! * f;
  }
  f = 1;
  for (let l = 1; l <= q; l++) {
    f *= hv / l;
    for (let r = 0; r <= q; r++) cornerV[l * Q + r] = cornerV[l * Q + r]! * f;
  }
  A = new Float64Array(P * Q * 4);
  const nv = s.nv, poles = s.poles, w = s.weights;
  for (let k = 0; k <= p; k++) {
    for (let l = 0; l <= q; l++) {
      let x = 0, y = 0, z = 0, ww = 0;
      for (let r = 0; r <= p; r++) {
        const bu = cornerU[k * P + r]!;
        if (bu === 0) continue;
        for (let c = 0; c <= q; c++) {
          const idx = (su - p + r) * nv + (sv - q + c);
          const b = bu * cornerV[l * Q + c]! * (w ? w[idx]! : 1);
          x += b * poles[3 * idx]!;
          y += b * poles[3 * idx + 1]!;
          z += b * poles[3 * idx + 2]!;
          ww += b;
        }
      }
      const o = 4 * (k * Q + l);
      A[o] = x;
      A[o + 1] = y;
      A[o + 2] = z;
      A[o + 3] = ww;
    }
  }
  cache.spans[key] = A;
  return A;
}

// Per u-power k: the v-polynomial and its first two v-derivatives (4 numbers each).
const rowV = new Float64Array(3 * 4 * (MAX_DEGREE + 1));

/**
 * Point and derivatives of a surface at (u, v): out = S, Su, Sv, Suu, Suv, Svv (3 numbers each,
 * 18 in all). Parameters are clamped to the spline's range (wrapped in a periodic direction).
 * Evaluated from the span's power form (spanCoefficients) by Horner's rule.
 */
export function evaluateNurbsSurface(s: NurbsSurface, u0: number, v0: number, out: Float64Array): Float64Array {
  const p = s.uDegree, q = s.vDegree, Q = q + 1;
  const u = wrapOrClamp(u0, s.uKnots[p]!, s.uKnots[s.nu]!, s.uPeriod);
  const v = wrapOrClamp(v0, s.vKnots[q]!, s.vKnots[s.nv]!, s.vPeriod);
  const su = findSpan(s.uKnots, p, s.nu, u);
  const sv = findSpan(s.vKnots, q, s.nv, v);
  const A = spanCoefficients(s, su, sv);
  const hu = s.uKnots[su + 1]! - s.uKnots[su]!, hv = s.vKnots[sv + 1]! - s.vKnots[sv]!;
  const du = (u - s.uKnots[su]!) / hu, dv = (v - s.vKnots[sv]!) / hv;
  // In v, for every k: value, first and second derivative by Horner.
  for (let k = 0; k <= p; k++) {
    for (let c = 0; c < 4; c++) {
      let f0 = A[4 * (k * Q + q) + c]!, f1 = 0, f2 = 0;
      for (let l = q - 1; l >= 0; l--) {
        f2 = f2 * dv + 2 * f1;
        f1 = f1 * dv + f0;
        f0 = f0 * dv + A[4 * (k * Q + l) + c]!;
      }
      rowV[12 * k + c] = f0;
      rowV[12 * k + 4 + c] = f1;
      rowV[12 * k + 8 + c] = f2;
    }
  }
  // Then in u: S, Su, Suu from the value rows; Sv, Suv from the first-derivative rows; Svv from the second.
  for (let c = 0; c < 4; c++) {
    let a0 = rowV[12 * p + c]!, a1 = 0, a2 = 0;
    let b0 = rowV[12 * p + 4 + c]!, b1 = 0;
    let c0 = rowV[12 * p + 8 + c]!;
    for (let k = p - 1; k >= 0; k--) {
      a2 = a2 * du + 2 * a1;
      a1 = a1 * du + a0;
      a0 = a0 * du + rowV[12 * k + c]!;
      b1 = b1 * du + b0;
      b0 = b0 * du + rowV[12 * k + 4 + c]!;
      c0 = c0 * du + rowV[12 * k + 8 + c]!;
    }
    // skl in the order 00 10 01 20 11 02, back from unit span coordinates to (u, v).
    skl[c] = a0;
    skl[4 + c] = a1 / hu;
    skl[8 + c] = b0 / hv;
    skl[12 + c] = a2 / (hu * hu);
    skl[16 + c] = b1 / (hu * hv);
    skl[20 + c] = c0 / (hv * hv);
  }
  if (!s.weights) {
    for (let sl = 0; sl < 6; sl++) {
      out[3 * sl] = skl[4 * sl]!;
      out[3 * sl + 1] = skl[4 * sl + 1]!;
      out[3 * sl + 2] = skl[4 * sl + 2]!;
    }
    return out;
  }
  return rationalDerivatives(out);
}

/** Rational surface derivatives (A4.4) for k + l <= 2 from the homogeneous ones in skl. */
function rationalDerivatives(out: Float64Array): Float64Array {
  const w00 = skl[3]!, w10 = skl[7]!, w01 = skl[11]!, w20 = skl[15]!, w11 = skl[19]!, w02 = skl[23]!;
  for (let d = 0; d < 3; d++) {
    const S = skl[d]! / w00;
    const Su = (skl[4 + d]! - w10 * S) / w00;
    const Sv = (skl[8 + d]! - w01 * S) / w00;
    out[d] = S;
    out[3 + d] = Su;
    out[6 + d] = Sv;
    out[9 + d] = (skl[12 + d]! - 2 * w10 * Su - w20 * S) / w00;
    out[12 + d] = (skl[16 + d]! - w10 * Sv - w01 * Su - w11 * S) / w00;
    out[15 + d] = (skl[20 + d]! - 2 * w01 * Sv - w02 * S) / w00;
  }
  return out;
}

/**
 * The same by the basis functions (A3.6), for checking the power form: out = S, Su, Sv, Suu, Suv,
 * Svv.
 */
export function evaluateNurbsSurfaceByBasis(s: NurbsSurface, u0: number, v0: number, out: Float64Array): Float64Array {
  const p = s.uDegree, q = s.vDegree;
  const u = wrapOrClamp(u0, s.uKnots[p]!, s.uKnots[s.nu]!, s.uPeriod);
  const v = wrapOrClamp(v0, s.vKnots[q]!, s.vKnots[s.nv]!, s.vPeriod);
  const su = findSpan(s.uKnots, p, s.nu, u);
  const sv = findSpan(s.vKnots, q, s.nv, v);
  basisDerivatives(s.uKnots, su, u, p, 2, uDers);
  basisDerivatives(s.vKnots, sv, v, q, 2, vDers);
  const P = p + 1, Q = q + 1;
  const nv = s.nv, poles = s.poles, w = s.weights;
  // Contract over u first (A3.6): T_k[j] = sum_r N_u^(k)[r] * Pw[su - p + r][sv - q + j], homogeneous.
  for (let k = 0; k <= 2; k++) {
    for (let j = 0; j <= q; j++) {
      let x = 0, y = 0, z = 0, ww = 0;
      const col = sv - q + j;
      for (let r = 0; r <= p; r++) {
        const idx = (su - p + r) * nv + col;
        const b = w ? uDers[k * P + r]! * w[idx]! : uDers[k * P + r]!;
        x += b * poles[3 * idx]!;
        y += b * poles[3 * idx + 1]!;
        z += b * poles[3 * idx + 2]!;
        ww += b;
      }
      const o = 4 * (k * Q + j);
      temp[o] = x;
      temp[o + 1] = y;
      temp[o + 2] = z;
      temp[o + 3] = ww;
    }
  }
  const slots = 6;
  for (let sl = 0; sl < slots; sl++) {
    const k = SLOT_K[sl]!, l = SLOT_L[sl]!;
    let x = 0, y = 0, z = 0, ww = 0;
    for (let j = 0; j <= q; j++) {
      const b = vDers[l * Q + j]!;
      const o = 4 * (k * Q + j);
      x += b * temp[o]!;
      y += b * temp[o + 1]!;
      z += b * temp[o + 2]!;
      ww += b * temp[o + 3]!;
    }
    skl[4 * sl] = x;
    skl[4 * sl + 1] = y;
    skl[4 * sl + 2] = z;
    skl[4 * sl + 3] = ww;
  }
  if (!w) {
    for (let sl = 0; sl < slots; sl++) {
      out[3 * sl] = skl[4 * sl]!;
      out[3 * sl + 1] = skl[4 * sl + 1]!;
      out[3 * sl + 2] = skl[4 * sl + 2]!;
    }
    return out;
  }
  return rationalDerivatives(out);
}
