import { describe, expect, it } from 'vitest';
import { seededRandom } from '../mesh/generators';
import { evaluateNurbsCurve, evaluateNurbsSurface, evaluateNurbsSurfaceByBasis, type NurbsCurve, type NurbsSurface } from './nurbs';

/** A clamped knot vector of `spans` uneven spans over [1, 4], every interior knot once (or twice when `double`). */
function knots(degree: number, spans: number, rand: () => number, double = false): Float64Array {
  const inner: number[] = [];
  let t = 1;
  for (let i = 1; i < spans; i++) {
    t += 0.5 + rand();
    inner.push(t);
    if (double && i === 1) inner.push(t);
  }
  const end = t + 0.5 + rand();
  const scale = 3 / (end - 1);
  return Float64Array.from([...Array(degree + 1).fill(1), ...inner.map((k) => 1 + (k - 1) * scale), ...Array(degree + 1).fill(4)]);
}

function randomSurface(p: number, q: number, rational: boolean, rand: () => number): NurbsSurface {
  const uKnots = knots(p, 3, rand, true), vKnots = knots(q, 4, rand);
  const nu = uKnots.length - p - 1, nv = vKnots.length - q - 1;
  const poles = Float64Array.from({ length: 3 * nu * nv }, () => 20 * rand() - 10);
  const weights = rational ? Float64Array.from({ length: nu * nv }, () => 0.5 + rand()) : null;
  return { kind: 'nurbs', uDegree: p, vDegree: q, uKnots, vKnots, nu, nv, poles, weights, uPeriod: 0, vPeriod: 0 };
}

describe('NURBS evaluation', () => {
  it('the power form of each span (fast path) gives what the basis functions give (A3.6/A4.4), derivatives included', () => {
    const rand = seededRandom(5);
    const a = new Float64Array(18), b = new Float64Array(18);
    let worst = 0;
    for (const [p, q] of [[1, 1], [2, 3], [3, 3], [2, 8], [5, 4]] as const) {
      for (const rational of [false, true]) {
        const s = randomSurface(p, q, rational, rand);
        for (let k = 0; k < 200; k++) {
          const u = 1 + 3 * rand(), v = 1 + 3 * rand();
          evaluateNurbsSurface(s, u, v, a);
          evaluateNurbsSurfaceByBasis(s, u, v, b);
          for (let i = 0; i < 18; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / (1 + Math.abs(b[i]!)));
        }
      }
    }
    expect(worst).toBeLessThan(1e-10);
  });

  it('derivatives match central differences of the points', () => {
    const rand = seededRandom(9);
    const s = randomSurface(3, 2, true, rand);
    const e = new Float64Array(18), f = new Float64Array(18), g = new Float64Array(18);
    const h = 1e-5;
    for (let k = 0; k < 50; k++) {
      const u = 1.1 + 2.8 * rand(), v = 1.1 + 2.8 * rand();
      evaluateNurbsSurface(s, u, v, e);
      evaluateNurbsSurface(s, u + h, v, f);
      evaluateNurbsSurface(s, u - h, v, g);
      for (let d = 0; d < 3; d++) expect(Math.abs((f[d]! - g[d]!) / (2 * h) - e[3 + d]!)).toBeLessThan(1e-5 * (1 + Math.abs(e[3 + d]!)));
      for (let d = 0; d < 3; d++) expect(Math.abs((f[3 + d]! - g[3 + d]!) / (2 * h) - e[9 + d]!)).toBeLessThan(1e-4 * (1 + Math.abs(e[9 + d]!)));
    }
  });

  it('a rational quadratic curve with weight cos(45 deg) is a quarter circle, at every parameter', () => {
    const c: NurbsCurve = { kind: 'nurbs', dim: 2, degree: 2, knots: Float64Array.of(0, 0, 0, 1, 1, 1), poles: Float64Array.of(1, 0, 1, 1, 0, 1), weights: Float64Array.of(1, Math.SQRT1_2, 1), period: 0 };
    const out = new Float64Array(6);
    for (let t = 0; t <= 1; t += 0.05) {
      evaluateNurbsCurve(c, t, out);
      expect(Math.abs(Math.hypot(out[0]!, out[1]!) - 1)).toBeLessThan(1e-14);
      // The tangent is perpendicular to the radius.
      expect(Math.abs(out[0]! * out[2]! + out[1]! * out[3]!)).toBeLessThan(1e-13);
    }
  });
});
