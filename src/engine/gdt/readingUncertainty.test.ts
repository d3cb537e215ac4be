import { describe, expect, it } from 'vitest';
import { seededRandom } from '../mesh/generators';
import { gaussian } from '../../test/noise';
import { fitCylinderFrom, fitPlane, fitSphere } from './leastSquares';
import { cylinderRadiusError, distinctPoints, planeDistanceError, sphereRadiusError } from './readingUncertainty';

/**
 * The fit's own standard error checked against what it claims to estimate: the spread of the
 * reading over many independent noisy scans of the same feature (Monte Carlo). Each case names the
 * closed form where there is one.
 */
const spread = (values: number[]) => {
  const m = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1));
};
const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

/** 150 scans: each seed's reading and its estimated standard error; the mean estimate and the readings' spread over it. */
function overScans(first: number, scanOf: (seed: number) => { value: number; error: number }): { error: number; ratio: number } {
  const values: number[] = [], errors: number[] = [];
  for (let seed = first; seed < first + 150; seed++) {
    const r = scanOf(seed);
    values.push(r.value);
    errors.push(r.error);
  }
  return { error: mean(errors), ratio: spread(values) / mean(errors) };
}

const cylinderReading = (p: Float64Array) => {
  const fit = fitCylinderFrom(p, [0, 0, 1])!;
  return { value: fit.radius, error: cylinderRadiusError(p, fit)! };
};

/** n points on a cylinder of radius 3 about z over an arc of `arc` radians, height 0 to 10, noise sigma along the radius. */
function cylinderScan(n: number, arc: number, sigma: number, seed: number): Float64Array {
  const rand = seededRandom(seed), g = gaussian(seed + 7);
  const p = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const t = arc * rand(), r = 3 + sigma * g();
    p.set([r * Math.cos(t), r * Math.sin(t), 10 * rand()], 3 * i);
  }
  return p;
}

describe('readingUncertainty: a fit\'s standard error is the spread of its reading', () => {
  it('a cylinder seen all round: sigma / sqrt(n), and the spread over 150 scans', () => {
    const r = overScans(1, (seed) => cylinderReading(cylinderScan(400, 2 * Math.PI, 0.01, seed)));
    // Closed form for a full circle: the radius is the mean of n radial distances.
    expect(r.error).toBeGreaterThan(0.9 * (0.01 / Math.sqrt(400)));
    expect(r.error).toBeLessThan(1.1 * (0.01 / Math.sqrt(400)));
    expect(r.ratio).toBeGreaterThan(0.8);
    expect(r.ratio).toBeLessThan(1.2);
  });

  it('a cylinder seen on a 60 degree arc: many times worse, as the spread over 150 scans shows', () => {
    const r = overScans(1001, (seed) => cylinderReading(cylinderScan(400, Math.PI / 3, 0.01, seed)));
    expect(r.error).toBeGreaterThan(10 * (0.01 / Math.sqrt(400)));
    expect(r.ratio).toBeGreaterThan(0.8);
    expect(r.ratio).toBeLessThan(1.25);
  });

  it('a sphere seen on a cap: the spread over 150 scans', () => {
    const r = overScans(1, (seed) => {
      const rand = seededRandom(seed), g = gaussian(seed + 3);
      const p = new Float64Array(3 * 300);
      for (let i = 0; i < 300; i++) {
        // Within 50 degrees of the pole, uniform by area.
        const z = Math.cos((50 * Math.PI) / 180) + (1 - Math.cos((50 * Math.PI) / 180)) * rand(), phi = 2 * Math.PI * rand(), s = Math.sqrt(1 - z * z);
        const r = 5 + 0.01 * g();
        p.set([r * s * Math.cos(phi), r * s * Math.sin(phi), r * z], 3 * i);
      }
      const fit = fitSphere(p)!;
      return { value: fit.radius, error: sphereRadiusError(p, fit)! };
    });
    expect(r.error).toBeGreaterThan(2 * (0.01 / Math.sqrt(300)));
    expect(r.ratio).toBeGreaterThan(0.8);
    expect(r.ratio).toBeLessThan(1.25);
  });

  it('a distance between two planes: the spread over 150 scans, side b offset from side a', () => {
    const r = overScans(1, (seed) => {
      const rand = seededRandom(seed), g = gaussian(seed + 11);
      // Side a: a 10 x 2 strip at z = 0; side b: a 10 x 10 patch at z = 5, 20 to 30 along x.
      const a = new Float64Array(3 * 200), b = new Float64Array(3 * 200);
      for (let i = 0; i < 200; i++) a.set([10 * rand(), 2 * rand(), 0.01 * g()], 3 * i);
      for (let i = 0; i < 200; i++) b.set([20 + 10 * rand(), 10 * rand(), 5 + 0.01 * g()], 3 * i);
      const pa = fitPlane(a)!;
      let s = 0;
      for (let i = 0; i < 200; i++) s += (b[3 * i]! - pa.origin[0]) * pa.normal[0] + (b[3 * i + 1]! - pa.origin[1]) * pa.normal[1] + (b[3 * i + 2]! - pa.origin[2]) * pa.normal[2];
      return { value: Math.abs(s / 200), error: planeDistanceError(a, pa, b)! };
    });
    // Far from a's strip, its tilt dominates: several times the two means' error alone.
    expect(r.error).toBeGreaterThan(3 * 0.01 * Math.sqrt(2 / 200));
    expect(r.ratio).toBeGreaterThan(0.8);
    expect(r.ratio).toBeLessThan(1.25);
  });

  it('noise-free points read no uncertainty; too few points read none at all', () => {
    const p = cylinderScan(50, 2 * Math.PI, 0, 5);
    const fit = fitCylinderFrom(p, [0, 0, 1])!;
    expect(cylinderRadiusError(p, fit)!).toBeLessThan(1e-9);
    const few = p.slice(0, 15);
    expect(cylinderRadiusError(few, fitCylinderFrom(few, [0, 0, 1])!)).toBeNull();
  });

  it('a mesh\'s repeated corners count once', () => {
    const p = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect([...distinctPoints(p)]).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  });
});
