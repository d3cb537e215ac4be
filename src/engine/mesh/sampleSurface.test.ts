import { describe, expect, it } from 'vitest';
import { box, mergeMeshes, uvSphere } from './generators';
import { sampleSurface } from './sampleSurface';
import type { TriMesh } from './TriMesh';

/** Distance from q to the surface of the box [0, a]^3. */
function distanceToCube(a: number, x: number, y: number, z: number): number {
  const q = [x, y, z];
  const outside = Math.hypot(...q.map((v) => Math.max(-v, v - a, 0)));
  if (outside > 0) return outside;
  return Math.min(...q.map((v) => Math.min(v, a - v)));
}

describe('sampleSurface', () => {
  it('a cube of 12 triangles: samples cover its faces (not only its 8 corners), lie on it, carry face normals, fill maxSamples', () => {
    const cube = box([0, 0, 0], [10, 10, 10]);
    const N = 2000;
    const s = sampleSurface(cube, N);
    expect(s.vertexCandidates).toBe(8);
    expect(s.stride).toBe(1);
    expect(s.count).toBeLessThanOrEqual(N);
    expect(s.count).toBeGreaterThan(N - 12);
    expect(s.area).toBeCloseTo(600, 9);
    for (let i = 0; i < s.count; i++) {
      const [x, y, z] = [s.points[3 * i]!, s.points[3 * i + 1]!, s.points[3 * i + 2]!];
      expect(distanceToCube(10, x, y, z)).toBeLessThan(1e-12);
      const n = [s.normals[3 * i]!, s.normals[3 * i + 1]!, s.normals[3 * i + 2]!];
      expect(Math.hypot(...n)).toBeCloseTo(1, 12);
      if (i >= 8) {
        // An inside point has its face's normal: one axis, pointing out of the face it lies on.
        const axis = n.findIndex((v) => Math.abs(v) > 0.5);
        expect(Math.abs(n[axis]!)).toBe(1);
        expect([x, y, z][axis]).toBe(n[axis]! > 0 ? 10 : 0);
      } else {
        // Corner: the angle-weighted normal of three perpendicular faces is the diagonal.
        for (const v of n) expect(Math.abs(v)).toBeCloseTo(1 / Math.sqrt(3), 12);
      }
    }
    // Coverage: every point of a fine grid on every face has a sample within a few sample spacings.
    const spacing = Math.sqrt(600 / N);
    let worst = 0;
    for (let f = 0; f < 6; f++) {
      for (let i = 0; i <= 20; i++) {
        for (let j = 0; j <= 20; j++) {
          const q = [0, 0, 0];
          const axis = f % 3;
          q[axis] = f < 3 ? 0 : 10;
          q[(axis + 1) % 3] = i / 2;
          q[(axis + 2) % 3] = j / 2;
          let best = Infinity;
          for (let k = 0; k < s.count; k++) best = Math.min(best, Math.hypot(s.points[3 * k]! - q[0]!, s.points[3 * k + 1]! - q[1]!, s.points[3 * k + 2]! - q[2]!));
          worst = Math.max(worst, best);
        }
      }
    }
    expect(worst).toBeLessThan(1.5 * spacing);
  });

  it('inside points go where the area is: a big triangle gets them in proportion, a small one only its corners', () => {
    const big: TriMesh = { positions: new Float64Array([0, 0, 0, 100, 0, 0, 0, 100, 0]), indices: new Uint32Array([0, 1, 2]) };
    const small: TriMesh = { positions: new Float64Array([200, 0, 0, 201, 0, 0, 200, 1, 0]), indices: new Uint32Array([0, 1, 2]) };
    const s = sampleSurface(mergeMeshes(big, small), 1006);
    // 6 corners, then 1000 inside points, floor(A_t / a0) with a0 = total area / 1000.
    expect(s.vertexCandidates).toBe(6);
    expect(s.count).toBe(6 + Math.floor((5000 * 1000) / 5000.5));
    for (let i = 6; i < s.count; i++) expect(s.points[3 * i]! + s.points[3 * i + 1]!).toBeLessThanOrEqual(100 + 1e-9);
  });

  it('a dense mesh is sampled at its welded vertices, stride-subsampled to maxSamples; normals are radial on a sphere', () => {
    const sphere = uvSphere(5, 64, 32);
    const V = 2 + 31 * 64;
    for (const N of [1, 7, 100, 1000, V, 100000]) {
      const s = sampleSurface(sphere, N);
      expect(s.count).toBeLessThanOrEqual(N);
      expect(s.vertexCandidates).toBe(V);
      if (N <= V) {
        // Every triangle is smaller than a0 = area / N: no inside points, a plain stride over the vertices.
        expect(s.candidates).toBe(V);
        expect(s.stride).toBe(Math.max(1, Math.ceil(s.candidates / N)));
        expect(s.count).toBe(Math.ceil(s.candidates / s.stride));
      } else {
        // Budget left after the vertices goes to inside points: no stride needed.
        expect(s.candidates).toBeGreaterThan(V);
        expect(s.stride).toBe(1);
      }
    }
    const s = sampleSurface(sphere, 500);
    for (let i = 0; i < s.count; i++) {
      const p = [s.points[3 * i]!, s.points[3 * i + 1]!, s.points[3 * i + 2]!];
      const r = Math.hypot(...p);
      const dot = (p[0]! * s.normals[3 * i]! + p[1]! * s.normals[3 * i + 1]! + p[2]! * s.normals[3 * i + 2]!) / r;
      expect(dot).toBeGreaterThan(0.999);
    }
  });

  it('welds vertices repeated per face, is deterministic, and ignores zero-area triangles', () => {
    const cube = box([0, 0, 0], [1, 1, 1], 3); // each face its own 4 x 4 vertex grid
    const a = sampleSurface(cube, 5000);
    const b = sampleSurface(cube, 5000);
    expect(a.vertexCandidates).toBe(8 + 12 * 2 + 6 * 4);
    expect(Array.from(a.points)).toEqual(Array.from(b.points));
    expect(Array.from(a.normals)).toEqual(Array.from(b.normals));
    const line: TriMesh = { positions: new Float64Array([0, 0, 0, 1, 0, 0, 2, 0, 0]), indices: new Uint32Array([0, 1, 2]) };
    const z = sampleSurface(line, 10);
    expect(z.count).toBe(0);
    expect(z.area).toBe(0);
    expect(() => sampleSurface(cube, 0)).toThrow();
  });
});
