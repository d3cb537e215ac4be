import { describe, expect, it } from 'vitest';
import { sampleSurface } from '../mesh/sampleSurface';
import type { TriMesh } from '../mesh/TriMesh';
import type { PointSet } from './bodySamples';
import { fitCylinder, fitSphere, radial } from './leastSquares';
import { cornerFit } from './vertexQuadrature';

/**
 * Closed forms for the corner fit of a curved size on a mesh (vertexQuadrature.ts). A hole
 * tessellated as a regular N-gon prism has chords of half-width b = R sin(pi/N) at a = R cos(pi/N)
 * from the axis; area samples spread evenly over a chord sit at sqrt(a^2 + b^2 t^2), t uniform on
 * [-1, 1], and a least-squares radius (with the axis on the prism's, by symmetry) is their mean:
 * (R + (a^2 / b) asinh(b / a)) / 2, about R - 2/3 of the sag R (1 - cos(pi/N)). The corners lie on
 * the circle and read R.
 */
const R = 3.175, H = 10, N = 48, SAMPLES = 20_000;

/** A hole of radius r(i, k) at segment i, ring k: N segments round, `rings` + 1 rings of vertices along z. */
function hole(rings: number, r: (i: number, k: number) => number = () => R): TriMesh {
  const positions = new Float64Array(3 * N * (rings + 1));
  for (let k = 0; k <= rings; k++) {
    for (let i = 0; i < N; i++) {
      const t = (2 * Math.PI * i) / N, v = k * N + i;
      positions.set([r(i, k) * Math.cos(t), r(i, k) * Math.sin(t), (H * k) / rings], 3 * v);
    }
  }
  const indices: number[] = [];
  for (let k = 0; k < rings; k++) {
    for (let i = 0; i < N; i++) {
      const a = k * N + i, b = k * N + ((i + 1) % N), c = a + N, d = b + N;
      // Wound to face the axis: the material is outside.
      indices.push(a, c, b, b, c, d);
    }
  }
  return { positions, indices: Uint32Array.from(indices) };
}

function samplesOf(mesh: TriMesh): PointSet {
  const s = sampleSurface(mesh, SAMPLES, undefined, { corners: true });
  return { points: s.points, normals: s.normals, count: s.count, corners: s.corners };
}

/** The area fit and the corner fit, as evaluate.ts reads a diameter. */
function diameters(set: PointSet): { area: number; corners: number | null; kept: number } {
  const area = fitCylinder(set.points, set.normals)!;
  const c = cornerFit(set, area, (p) => fitCylinder(p.points, p.normals), (f) => (x, y, z) => radial([x, y, z], f.origin, f.axis) - f.radius, area.radius);
  return { area: 2 * area.radius, corners: c ? 2 * c.fit.radius : null, kept: c?.corners ?? 0 };
}

/** Seeded normal deviates (mulberry32 and Box-Muller): the test reads the same numbers every run. */
function gaussians(seed: number): () => number {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

describe('a curved size read from a mesh\'s corners', () => {
  const a = R * Math.cos(Math.PI / N), b = R * Math.sin(Math.PI / N);
  const sag = R - a;
  const chordMean = (R + ((a * a) / b) * Math.asinh(b / a)) / 2;

  it('a 48-segment hole with vertices on its rims only (as BRepMesh meshes a cylinder) reads its diameter from the corners', () => {
    const d = diameters(samplesOf(hole(1)));
    expect(Math.abs(d.corners! - 2 * R) / (2 * R)).toBeLessThan(1e-9);
    // Every corner kept: none is off the circle.
    expect(d.kept).toBe(3 * SAMPLES);
    // The area samples read small by the chords: 2 (R - chordMean), about 4/3 of the sag (0.0068 here).
    expect(chordMean).toBeCloseTo(R - (2 / 3) * sag, 5);
    expect(2 * R - d.area).toBeGreaterThan(1.2 * sag);
    expect(d.area).toBeCloseTo(2 * chordMean, 7);
  });

  it('the same with rings of vertices along the hole (a scanner\'s mesh): the same figures', () => {
    const d = diameters(samplesOf(hole(20)));
    expect(Math.abs(d.corners! - 2 * R) / (2 * R)).toBeLessThan(1e-9);
    expect(d.area).toBeCloseTo(2 * chordMean, 5);
  });

  it('noisy vertices: the corners read the diameter of the vertices\' mean radius, within what the noise allows', () => {
    const sigma = 0.002, rings = 40, random = gaussians(7);
    const noise = Array.from({ length: N * (rings + 1) }, () => sigma * random());
    const d = diameters(samplesOf(hole(rings, (i, k) => R + noise[k * N + i]!)));
    // Each vertex counts by its triangles (the rims' by half as many): their weighted mean radius.
    const weight = (v: number) => (v < N || v >= rings * N ? 3 : 6);
    const mean = noise.reduce((s, e, v) => s + weight(v) * e, 0) / noise.reduce((s, _, v) => s + weight(v), 0);
    // The mean of n radial deviations has a spread of sigma / sqrt(n) (a diameter's, twice that):
    // the reading is within 5 of those of the true diameter, and within a tenth of one of the
    // vertices' own mean (the fitted axis takes up the noise's off-centre part, not its mean).
    const spread = 2 * (sigma / Math.sqrt(noise.length)), tolerance = 5 * spread;
    expect(Math.abs(d.corners! - 2 * R)).toBeLessThan(tolerance);
    expect(Math.abs(d.corners! - 2 * (R + mean))).toBeLessThan(0.1 * spread);
    expect(tolerance).toBeLessThan(0.2 * sag);
    // A few corners beyond 4 RMS may go; the reading still stands on nearly all of them.
    expect(d.kept).toBeGreaterThan(0.97 * 3 * SAMPLES);
    // The chords' reading is still small by the sag, noise or not.
    expect(2 * R - d.area).toBeGreaterThan(1.2 * sag - tolerance);
  });

  it('a sphere meshed on 24 meridians and 12 parallels reads its diameter from the corners', () => {
    const M = 24, P = 12, positions: number[] = [], indices: number[] = [];
    for (let p = 0; p <= P; p++) {
      for (let m = 0; m < M; m++) {
        const th = (Math.PI * p) / P, ph = (2 * Math.PI * m) / M;
        positions.push(R * Math.sin(th) * Math.cos(ph), R * Math.sin(th) * Math.sin(ph), R * Math.cos(th));
      }
    }
    for (let p = 0; p < P; p++) {
      for (let m = 0; m < M; m++) {
        const q = p * M + m, r = p * M + ((m + 1) % M);
        if (p > 0) indices.push(q, q + M, r);
        if (p < P - 1) indices.push(r, q + M, r + M);
      }
    }
    const set = samplesOf({ positions: Float64Array.from(positions), indices: Uint32Array.from(indices) });
    const area = fitSphere(set.points)!;
    const c = cornerFit(set, area, (p) => fitSphere(p.points), (f) => (x, y, z) => Math.hypot(x - f.center[0], y - f.center[1], z - f.center[2]) - f.radius, area.radius);
    expect(Math.abs(2 * c!.fit.radius - 2 * R) / (2 * R)).toBeLessThan(1e-9);
    expect(2 * R - 2 * area.radius).toBeGreaterThan(0.01);
  });
});
