import { describe, expect, it } from 'vitest';
import { seededRandom } from '../mesh/generators';
import { chebyshevFit } from './chebyshev';
import { fitCylinder, fitPlane, residuals } from './leastSquares';
import { cylindricityZone, flatnessZone, roundnessZone, straightnessZone } from './minimumZone';

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/**
 * Brute-force minimum width of a point set: the optimal slab touches the set in a facet-vertex or an
 * edge-edge configuration, so its normal is the cross product of two differences of points; every
 * such normal is tried and the smallest extent kept.
 */
function bruteWidth(pts: V[]): number {
  const diffs: V[] = [];
  for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) diffs.push(sub(pts[j]!, pts[i]!));
  let best = Infinity;
  for (let a = 0; a < diffs.length; a++) {
    for (let b = a + 1; b < diffs.length; b++) {
      const n = cross(diffs[a]!, diffs[b]!);
      const l = Math.hypot(...n);
      if (!(l > 1e-12)) continue;
      let lo = Infinity, hi = -Infinity;
      for (const p of pts) {
        const s = (p[0] * n[0] + p[1] * n[1] + p[2] * n[2]) / l;
        lo = Math.min(lo, s);
        hi = Math.max(hi, s);
      }
      best = Math.min(best, hi - lo);
    }
  }
  return best;
}

function leastSquaresWidth(pts: V[]): number {
  const f = fitPlane(pts.flat())!;
  const s = pts.map((p) => (p[0] - f.origin[0]) * f.normal[0] + (p[1] - f.origin[1]) * f.normal[1] + (p[2] - f.origin[2]) * f.normal[2]);
  return Math.max(...s) - Math.min(...s);
}

/** Radial spread about the centroid-started Kasa circle's centre (what a least-squares roundness reports). */
function leastSquaresRoundness(uv: number[]): number {
  const n = uv.length / 2;
  let a11 = 0, a12 = 0, a13 = 0, a22 = 0, a23 = 0, b1 = 0, b2 = 0, b3 = 0;
  for (let i = 0; i < n; i++) {
    const x = uv[2 * i]!, y = uv[2 * i + 1]!, z = -(x * x + y * y);
    a11 += x * x; a12 += x * y; a13 += x; a22 += y * y; a23 += y;
    b1 += x * z; b2 += y * z; b3 += z;
  }
  // Solve [a11 a12 a13; a12 a22 a23; a13 a23 n] [D E F] = [b1 b2 b3] by Cramer's rule.
  const det = (m: number[]) => m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
  const M = [a11, a12, a13, a12, a22, a23, a13, a23, n];
  const d = det(M);
  const D = det([b1, a12, a13, b2, a22, a23, b3, a23, n]) / d;
  const E = det([a11, b1, a13, a12, b2, a23, a13, b3, n]) / d;
  const cx = -D / 2, cy = -E / 2;
  const r = Array.from({ length: n }, (_, i) => Math.hypot(uv[2 * i]! - cx, uv[2 * i + 1]! - cy));
  return Math.max(...r) - Math.min(...r);
}

describe('chebyshevFit', () => {
  it('fits a line in the minimax sense: three points give the equal-ripple answer', () => {
    // y = 0, 1, 0 at x = 0, 1, 2: the minimax line is y = 0.5 with error 0.5.
    const xs = [0, 1, 2], ys = [0, 1, 0];
    const fit = chebyshevFit(3, 2, (j, i) => (j === 0 ? xs[i]! : 1), ys)!;
    expect(fit.t).toBeCloseTo(0.5, 14);
    expect(fit.x[0]).toBeCloseTo(0, 14);
    expect(fit.x[1]).toBeCloseTo(0.5, 14);
  });

  it('recovers an exact linear model (zero residual)', () => {
    const rnd = seededRandom(3);
    const n = 40;
    const xs = Array.from({ length: n }, () => rnd() * 10), zs = Array.from({ length: n }, () => rnd() * 10);
    const ys = xs.map((x, i) => 2 * x - 3 * zs[i]! + 7);
    const fit = chebyshevFit(n, 3, (j, i) => (j === 0 ? xs[i]! : j === 1 ? zs[i]! : 1), ys)!;
    expect(fit.t).toBeLessThan(1e-12);
    expect(fit.x[0]).toBeCloseTo(2, 12);
    expect(fit.x[1]).toBeCloseTo(-3, 12);
    expect(fit.x[2]).toBeCloseTo(7, 11);
  });
});

describe('flatnessZone', () => {
  it('equals the brute-force minimum width on random plate-like point sets (1e-9)', () => {
    const rnd = seededRandom(42);
    let lsWorse = 0;
    for (let trial = 0; trial < 25; trial++) {
      const n = 8 + (trial % 7);
      // A tilted plate: 10 x 6 in its plane, 0.3 thick, rotated about a random axis.
      const a = rnd() * 0.6, b = rnd() * 0.6;
      const pts: V[] = [];
      for (let i = 0; i < n; i++) {
        const u = rnd() * 10, v = rnd() * 6, w = rnd() * 0.3;
        const x = u, y = v * Math.cos(a) - w * Math.sin(a), z = v * Math.sin(a) + w * Math.cos(a);
        pts.push([x * Math.cos(b) - z * Math.sin(b) + 5, y - 2, x * Math.sin(b) + z * Math.cos(b) + 1]);
      }
      const zone = flatnessZone(pts.flat())!;
      lsWorse = Math.max(lsWorse, leastSquaresWidth(pts) - bruteWidth(pts));
      expect(Math.abs(zone.width - bruteWidth(pts))).toBeLessThan(1e-9);
    }
    // The least-squares plane's slab is wider on these sets: the programme is what closes the gap.
    expect(lsWorse).toBeGreaterThan(1e-3);
  });

  it('reads a bow of known height: a plate z = k (x^2 + y^2) over a square', () => {
    const pts: number[] = [];
    const k = 0.001;
    for (let i = 0; i <= 20; i++) for (let j = 0; j <= 20; j++) {
      const x = -10 + i, y = -10 + j;
      pts.push(x, y, k * (x * x + y * y));
    }
    // Centre 0, corners 0.2: the narrowest slab is horizontal (a tilt only widens it), width 0.2.
    expect(flatnessZone(pts)!.width).toBeCloseTo(0.2, 12);
  });
});

describe('straightnessZone', () => {
  it('a sine ripple of amplitude A along a tilted line reads 2A', () => {
    const uv: number[] = [];
    const A = 0.01, t = 0.3;
    for (let i = 0; i <= 200; i++) {
      const s = i * 0.05; // 10 long, two full waves
      const w = A * Math.sin((2 * Math.PI * s) / 5);
      uv.push(s * Math.cos(t) - w * Math.sin(t), s * Math.sin(t) + w * Math.cos(t));
    }
    expect(straightnessZone(uv)!.width).toBeCloseTo(2 * A, 10);
  });
});

describe('roundnessZone', () => {
  it('a 3-lobed section r = R + e cos(3t), off-centre, reads 2e', () => {
    const uv: number[] = [];
    const R = 10, e = 0.02;
    // Crowded on one side (t = 2 pi u^2), so the least-squares centre is pulled off; the six extremes are included.
    const ts = [...Array.from({ length: 300 }, (_, i) => 2 * Math.PI * (i / 300) ** 2), ...[0, 1, 2, 3, 4, 5].map((k) => (k * Math.PI) / 3)];
    for (const t of ts) {
      const r = R + e * Math.cos(3 * t);
      uv.push(3 + r * Math.cos(t), -1 + r * Math.sin(t));
    }
    const zone = roundnessZone(uv)!;
    expect(leastSquaresRoundness(uv)).toBeGreaterThan(2 * e * 1.05);
    expect(zone.width).toBeCloseTo(2 * e, 9);
    expect(zone.center[0]).toBeCloseTo(3, 9);
    expect(zone.center[1]).toBeCloseTo(-1, 9);
  });
});

describe('cylindricityZone', () => {
  it('a lobed cylinder r = R + e cos(4t), tilted, reads 2e and finds the axis', () => {
    const pts: number[] = [];
    const R = 5, e = 0.01;
    const ax: V = [Math.sin(0.2), 0, Math.cos(0.2)], e1: V = [Math.cos(0.2), 0, -Math.sin(0.2)], e2: V = [0, 1, 0];
    // Crowded on one side, so the least-squares axis is pulled off; the eight extremes are on every ring.
    const ts = [...Array.from({ length: 60 }, (_, i) => 2 * Math.PI * (i / 60) ** 2), ...[0, 1, 2, 3, 4, 5, 6, 7].map((k) => (k * Math.PI) / 4)];
    for (let k = 0; k <= 20; k++) for (const t of ts) {
      const h = k * 0.5;
      const r = R + e * Math.cos(4 * t);
      for (let c = 0; c < 3; c++) pts.push(1 + h * ax[c]! + r * Math.cos(t) * e1[c]! + r * Math.sin(t) * e2[c]!);
    }
    const zone = cylindricityZone(pts)!;
    const ls = fitCylinder(pts)!;
    expect(residuals(ls, pts).max * 2).toBeGreaterThan(2 * e * 1.05);
    expect(zone.width).toBeCloseTo(2 * e, 9);
    expect(Math.abs(zone.axis[0] * ax[0] + zone.axis[1] * ax[1] + zone.axis[2] * ax[2])).toBeCloseTo(1, 12);
  });
});
