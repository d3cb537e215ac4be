import { describe, expect, it } from 'vitest';
import { gaussian } from '../../test/noise';
import type { PointSet } from './bodySamples';
import { fitCircle2d } from './leastSquares';
import { fitTangentArc, tangentArcResidual, type BlendSection } from './tangentArc';

/**
 * The round of a square bar's corner between the faces x = 1 and y = 1, nominal radius 1 about the
 * z axis: the arc from (1, 0) to (0, 1), its end normals (1, 0) and (0, 1), so w = (1, 1). A round
 * of radius r tangent to the same faces is centred at (1 - r, 1 - r).
 */
const nominal: BlendSection = { kind: 'cylinder', origin: [0, 0, 0], axis: [0, 0, 1], e1: [1, 0, 0], e2: [0, 1, 0], major: 0, radius: 1, w: [1, 1, 0], arc: Math.PI / 2 };

function round(r: number, n: number, sigma = 0, seed = 1): PointSet {
  const noise = gaussian(seed), points = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const t = ((i + 0.5) / n) * (Math.PI / 2);
    points[3 * i] = 1 - r + r * Math.cos(t) + sigma * noise();
    points[3 * i + 1] = 1 - r + r * Math.sin(t) + sigma * noise();
    points[3 * i + 2] = (i % 7) - 3 + sigma * noise();
  }
  return { points, normals: undefined, count: n };
}

describe('the arc tangent to a blend\'s neighbours', () => {
  it('reads the radius of any round tangent to the same faces, exactly', () => {
    for (const r of [1, 0.8, 1.25, 0.3]) expect(fitTangentArc(nominal, round(r, 60))!.radius).toBeCloseTo(r, 12);
  });

  it('its residual is the distance from that arc', () => {
    const f = tangentArcResidual(nominal, 0.8);
    // The centre (0.2, 0.2): a point 0.9 from it reads 0.1 out; the tangent points lie on it.
    expect(f(0.2 + 0.9 * Math.SQRT1_2, 0.2 + 0.9 * Math.SQRT1_2, 5)).toBeCloseTo(0.1, 12);
    expect(f(1, 0.2, 0)).toBeCloseTo(0, 12);
    expect(f(0.2, 1, 0)).toBeCloseTo(0, 12);
  });

  it('is steady under noise where a free circle through a quarter arc is not', () => {
    // A good 0.4 round (the nominal: centred at (0.6, 0.6), tangent to x = 1 and y = 1) scanned
    // with 0.01 of noise a coordinate, 40 points, 20 scans: the free circle's centre and radius
    // trade along the arc's bisector; the tangent arc has the radius alone to choose.
    const nominal04: BlendSection = { ...nominal, origin: [0.6, 0.6, 0], radius: 0.4 };
    let tangent = 0, free = 0;
    const scans = 20;
    for (let seed = 1; seed <= scans; seed++) {
      const pts = round(0.4, 40, 0.01, seed);
      tangent += (fitTangentArc(nominal04, pts)!.radius - 0.4) ** 2;
      const uv: number[] = [];
      for (let i = 0; i < pts.count; i++) uv.push(pts.points[3 * i]!, pts.points[3 * i + 1]!);
      free += (fitCircle2d(uv)!.r - 0.4) ** 2;
    }
    // The one parameter's standard error: 0.01 / sqrt(sum (u . w - 1)^2) = 0.01 / sqrt(40 x 0.0901)
    // (the mean of (sqrt 2 cos phi - 1)^2 over the quarter arc), 0.0053.
    const rmsTangent = Math.sqrt(tangent / scans), rmsFree = Math.sqrt(free / scans);
    expect(rmsTangent).toBeGreaterThan(0.5 * 0.0053);
    expect(rmsTangent).toBeLessThan(1.5 * 0.0053);
    // A free circle on the same points: 0.0145, over twice the spread.
    expect(rmsFree).toBeGreaterThan(2 * rmsTangent);
  });

  it("reads a rolling ball's corner: the ball of any radius tangent to the same three walls", () => {
    // Walls x = 1, y = 1, z = 1; the nominal ball of radius 1 at the origin touches them at the
    // patch's corners (1, 0, 0), (0, 1, 0), (0, 0, 1): w . n_i = 1, w = (1, 1, 1).
    const ball: BlendSection = { ...nominal, kind: 'sphere', w: [1, 1, 1] };
    for (const r of [1, 0.7, 1.4]) {
      const points: number[] = [];
      for (let i = 0; i < 12; i++)
        for (let j = 0; j < 12; j++) {
          const a = ((i + 0.5) / 12) * (Math.PI / 2), b = ((j + 0.5) / 12) * (Math.PI / 2);
          points.push(1 - r + r * Math.cos(a) * Math.sin(b), 1 - r + r * Math.sin(a) * Math.sin(b), 1 - r + r * Math.cos(b));
        }
      expect(fitTangentArc(ball, { points: Float64Array.from(points), normals: undefined, count: 144 })!.radius).toBeCloseTo(r, 12);
      expect(tangentArcResidual(ball, r)(1, 1 - r, 1 - r)).toBeCloseTo(0, 12);
    }
  });
});
