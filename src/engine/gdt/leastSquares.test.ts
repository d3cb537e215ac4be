import { describe, expect, it } from 'vitest';
import { seededRandom } from '../mesh/generators';
import { fitCone, fitConeAbout, fitCylinder, fitPlane, fitSphere, residuals } from './leastSquares';
import { gaussian } from '../../test/noise';
import { ransacFit } from './ransac';

type V = [number, number, number];
const dotv = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const unit = (v: V): V => {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
};
/** A frame about a unit axis. */
function frame(a: V): [V, V] {
  const h: V = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = unit([a[1] * h[2] - a[2] * h[1], a[2] * h[0] - a[0] * h[2], a[0] * h[1] - a[1] * h[0]]);
  return [e1, [a[1] * e1[2] - a[2] * e1[1], a[2] * e1[0] - a[0] * e1[2], a[0] * e1[1] - a[1] * e1[0]]];
}

describe('least-squares primitives on exact samples', () => {
  const rnd = seededRandom(7);
  const axis = unit([0.3, -0.5, 0.8]);
  const [e1, e2] = frame(axis);
  const c0: V = [4, -2, 9];

  it('plane', () => {
    const pts: number[] = [];
    for (let i = 0; i < 200; i++) {
      const u = rnd() * 20 - 10, v = rnd() * 20 - 10;
      for (let k = 0; k < 3; k++) pts.push(c0[k]! + u * e1[k]! + v * e2[k]!);
    }
    const f = fitPlane(pts)!;
    expect(Math.abs(dotv(f.normal, axis))).toBeCloseTo(1, 14);
    expect(residuals(f, pts).max).toBeLessThan(1e-12);
  });

  it('sphere (a cap of 60 degrees)', () => {
    const pts: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = rnd() * 2 * Math.PI, ph = rnd() * (Math.PI / 3);
      const d: V = [Math.sin(ph) * Math.cos(t), Math.sin(ph) * Math.sin(t), Math.cos(ph)];
      for (let k = 0; k < 3; k++) pts.push(c0[k]! + 12.5 * d[k]!);
    }
    const f = fitSphere(pts)!;
    expect(f.radius).toBeCloseTo(12.5, 9);
    for (let k = 0; k < 3; k++) expect(f.center[k]).toBeCloseTo(c0[k]!, 8);
  });

  it('cylinder (half turn, no normals) and cone (apex and half-angle)', () => {
    const cyl: number[] = [], cone: number[] = [];
    const R = 6, alpha = 0.35;
    for (let i = 0; i < 400; i++) {
      const t = rnd() * Math.PI, h = rnd() * 30;
      for (let k = 0; k < 3; k++) cyl.push(c0[k]! + h * axis[k]! + R * (Math.cos(t) * e1[k]! + Math.sin(t) * e2[k]!));
      const r = 2 + h * Math.tan(alpha), t2 = rnd() * 2 * Math.PI;
      for (let k = 0; k < 3; k++) cone.push(c0[k]! + h * axis[k]! + r * (Math.cos(t2) * e1[k]! + Math.sin(t2) * e2[k]!));
    }
    const c = fitCylinder(cyl)!;
    expect(c.radius).toBeCloseTo(R, 9);
    expect(Math.abs(dotv(c.axis, axis))).toBeCloseTo(1, 12);
    const k = fitCone(cone)!;
    expect(k.halfAngle).toBeCloseTo(alpha, 9);
    // The apex: where r = 0, h = -2 / tan(alpha) along the axis from c0.
    const apex = c0.map((v, j) => v - (2 / Math.tan(alpha)) * axis[j]!);
    for (let j = 0; j < 3; j++) expect(k.apex[j]).toBeCloseTo(apex[j]!, 7);
    expect(dotv(k.axis, axis)).toBeCloseTo(1, 12);
  });
});

describe('fitConeAbout: a cone about a given axis line', () => {
  const axis = unit([0.3, -0.5, 0.8]);
  const [e1, e2] = frame(axis);
  const c0: V = [4, -2, 9];
  const alpha = (59 * Math.PI) / 180, R = 3.175;
  /** n area-uniform points on a drill point (apex c0, widening along `axis` to radius R), noise sigma a coordinate. */
  function drillPoint(n: number, sigma: number, seed: number): number[] {
    const rnd = seededRandom(seed), g = gaussian(seed + 1), pts: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = R * Math.sqrt(rnd()), t = 2 * Math.PI * rnd(), h = r / Math.tan(alpha);
      for (let k = 0; k < 3; k++) pts.push(c0[k]! + h * axis[k]! + r * (Math.cos(t) * e1[k]! + Math.sin(t) * e2[k]!) + sigma * g());
    }
    return pts;
  }

  it('reads an exact cone exactly, whichever way the given axis points', () => {
    for (const sign of [1, -1]) {
      const f = fitConeAbout(drillPoint(40, 0, 3), [c0[0] + 7 * axis[0], c0[1] + 7 * axis[1], c0[2] + 7 * axis[2]], axis.map((v) => sign * v) as V)!;
      expect(f.halfAngle).toBeCloseTo(alpha, 12);
      expect(dotv(f.axis, axis)).toBeCloseTo(1, 12);
      for (let k = 0; k < 3; k++) expect(f.apex[k]).toBeCloseTo(c0[k]!, 10);
      expect(residuals(f, drillPoint(40, 0, 3)).max).toBeLessThan(1e-12);
    }
  });

  it('holds the circle where it meets its hole on 13 noisy samples, where the free fit does not', () => {
    // The circle of radius R: R / tan(alpha) along the axis from the apex. NIST FTC 7's drill
    // point got 13 samples of a cloud with 0.01 of noise a coordinate.
    const rim = R / Math.tan(alpha);
    const held: number[] = [], free: number[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const pts = drillPoint(13, 0.01, 100 * seed);
      const about = fitConeAbout(pts, c0, axis)!;
      held.push(dotv(sub(about.apex, c0), axis) + dotv(about.axis, axis) * (R / Math.tan(about.halfAngle)) - rim);
      const f = fitCone(pts);
      free.push(f ? Math.hypot(...sub(f.apex.map((v, k) => v + (R / Math.tan(f.halfAngle)) * f.axis[k]!) as V, c0.map((v, k) => v + rim * axis[k]!) as V)) : Infinity);
    }
    // Held: the circle's place along the axis within 0.03 on every seed (noise 0.01 over 13 points).
    expect(Math.max(...held.map(Math.abs))).toBeLessThan(0.03);
    // Free: six parameters on 13 points wander (5 of these 40 seeds more than 0.1 off, one 9 mm).
    expect(Math.max(...free)).toBeGreaterThan(1);
  });
});

describe('ransacFit', () => {
  it('finds a plane among 30% outliers, repeats with the same seed, and keeps exactly its inliers', () => {
    const rnd = seededRandom(11);
    const pts: number[] = [];
    const truth: number[] = [];
    for (let i = 0; i < 500; i++) {
      if (i % 10 < 3) {
        pts.push(rnd() * 10, rnd() * 10, 1 + rnd() * 5);
      } else {
        const x = rnd() * 10, y = rnd() * 10;
        pts.push(x, y, 0.1 * x - 0.2 * y + 3 + (rnd() - 0.5) * 1e-4);
        truth.push(i);
      }
    }
    const a = ransacFit('plane', pts, { threshold: 1e-3, seed: 5 })!;
    const b = ransacFit('plane', pts, { threshold: 1e-3, seed: 5 })!;
    expect(Array.from(a.inliers)).toEqual(Array.from(b.inliers));
    // Outliers more than 1e-3 off the plane: none here is that close (checked by the residual of each).
    const plane = a.fit.kind === 'plane' ? a.fit : null;
    const n = unit([0.1, -0.2, -1]);
    expect(Math.abs(dotv(plane!.normal, n))).toBeCloseTo(1, 7);
    const close = (i: number) => Math.abs(0.1 * pts[3 * i]! - 0.2 * pts[3 * i + 1]! + 3 - pts[3 * i + 2]!) / Math.hypot(0.1, 0.2, 1) <= 1e-3;
    const expected = Array.from({ length: 500 }, (_, i) => i).filter(close);
    expect(Array.from(a.inliers)).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(truth.length);
    expect(a.max).toBeLessThan(1e-3);
  });

  it('finds a sphere with outliers', () => {
    const rnd = seededRandom(2);
    const pts: number[] = [];
    for (let i = 0; i < 400; i++) {
      if (i % 4 === 0) pts.push(rnd() * 40 - 20, rnd() * 40 - 20, rnd() * 40 - 20);
      else {
        const d = unit([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5]);
        pts.push(1 + 8 * d[0], 2 + 8 * d[1], 3 + 8 * d[2]);
      }
    }
    const f = ransacFit('sphere', pts, { threshold: 1e-6, seed: 1 })!;
    expect(f.fit.kind).toBe('sphere');
    if (f.fit.kind === 'sphere') expect(f.fit.radius).toBeCloseTo(8, 10);
    expect(f.inliers.length).toBeGreaterThanOrEqual(300);
  });
});
