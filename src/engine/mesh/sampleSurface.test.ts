import { describe, expect, it } from 'vitest';
import { box, grid, mergeMeshes, uvSphere } from './generators';
import { sampleSurface } from './sampleSurface';
import type { TriMesh } from './TriMesh';

/** Distance from q to the surface of the box [0, a]^3. */
function distanceToCube(a: number, x: number, y: number, z: number): number {
  const q = [x, y, z];
  const outside = Math.hypot(...q.map((v) => Math.max(-v, v - a, 0)));
  if (outside > 0) return outside;
  return Math.min(...q.map((v) => Math.min(v, a - v)));
}

function shift(mesh: TriMesh, dx: number): TriMesh {
  const positions = mesh.positions.slice();
  for (let i = 0; i < positions.length; i += 3) positions[i] = positions[i]! + dx;
  return { positions, indices: mesh.indices };
}

describe('sampleSurface', () => {
  it('a cube of 12 triangles: exactly maxSamples points, on its faces in proportion to their area, with face normals', () => {
    const cube = box([0, 0, 0], [10, 10, 10]);
    const N = 2000;
    const s = sampleSurface(cube, N);
    expect(s.count).toBe(N);
    expect(s.stride).toBe(1);
    expect(s.area).toBeCloseTo(600, 9);
    const perFace = new Map<string, number>();
    for (let i = 0; i < s.count; i++) {
      const [x, y, z] = [s.points[3 * i]!, s.points[3 * i + 1]!, s.points[3 * i + 2]!];
      expect(distanceToCube(10, x, y, z)).toBeLessThan(1e-12);
      const n = [s.normals[3 * i]!, s.normals[3 * i + 1]!, s.normals[3 * i + 2]!];
      // Its face's normal: one axis, pointing out of the face it lies on.
      const axis = n.findIndex((v) => Math.abs(v) > 0.5);
      expect(Math.abs(n[axis]!)).toBe(1);
      expect([x, y, z][axis]).toBe(n[axis]! > 0 ? 10 : 0);
      const key = `${axis}${n[axis]}`;
      perFace.set(key, (perFace.get(key) ?? 0) + 1);
    }
    // Each face is a sixth of the area: 333.33 points, rounded with the remainders carried on.
    expect(perFace.size).toBe(6);
    for (const c of perFace.values()) expect(Math.abs(c - N / 6)).toBeLessThanOrEqual(1);
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

  it('points go where the area is: round(N x cumulative area / total) per triangle', () => {
    const big: TriMesh = { positions: new Float64Array([0, 0, 0, 100, 0, 0, 0, 100, 0]), indices: new Uint32Array([0, 1, 2]) };
    const small: TriMesh = { positions: new Float64Array([200, 0, 0, 201, 0, 0, 200, 1, 0]), indices: new Uint32Array([0, 1, 2]) };
    for (const N of [1000, 10001]) {
      const s = sampleSurface(mergeMeshes(big, small), N);
      expect(s.count).toBe(N);
      const onBig = Math.round((N * 5000) / 5000.5);
      for (let i = 0; i < s.count; i++) {
        const [x, y] = [s.points[3 * i]!, s.points[3 * i + 1]!];
        if (i < onBig) expect(x + y).toBeLessThanOrEqual(100 + 1e-9);
        else expect(x).toBeGreaterThanOrEqual(200);
      }
    }
  });

  it('is area-uniform whatever the vertex density: a fine and a coarse half get half the points each', () => {
    // Two unit squares side by side, one of 2 x 60 x 60 triangles, one of 2 triangles.
    const fine = grid(60, 1), coarse = shift(grid(1, 1), 1);
    for (const mesh of [mergeMeshes(fine, coarse), mergeMeshes(coarse, fine)]) {
      for (const N of [1000, 20000]) {
        const s = sampleSurface(mesh, N);
        expect(s.count).toBe(N);
        let left = 0;
        for (let i = 0; i < s.count; i++) if (s.points[3 * i]! < 1) left++;
        expect(Math.abs(left - N / 2)).toBeLessThanOrEqual(1);
      }
    }
    // On a sphere every normal is its facet's, within the facet's angle of the radial direction.
    const sphere = uvSphere(5, 64, 32);
    const s = sampleSurface(sphere, 500);
    expect(s.count).toBe(500);
    for (let i = 0; i < s.count; i++) {
      const p = [s.points[3 * i]!, s.points[3 * i + 1]!, s.points[3 * i + 2]!];
      const r = Math.hypot(...p);
      const dot = (p[0]! * s.normals[3 * i]! + p[1]! * s.normals[3 * i + 1]! + p[2]! * s.normals[3 * i + 2]!) / r;
      expect(dot).toBeGreaterThan(Math.cos((2 * Math.PI) / 64));
    }
  });

  it('is deterministic and ignores zero-area triangles', () => {
    const cube = box([0, 0, 0], [1, 1, 1], 3);
    const a = sampleSurface(cube, 5000);
    const b = sampleSurface(cube, 5000);
    expect(a.count).toBe(5000);
    expect(Array.from(a.points)).toEqual(Array.from(b.points));
    expect(Array.from(a.normals)).toEqual(Array.from(b.normals));
    const line: TriMesh = { positions: new Float64Array([0, 0, 0, 1, 0, 0, 2, 0, 0]), indices: new Uint32Array([0, 1, 2]) };
    const z = sampleSurface(line, 10);
    expect(z.count).toBe(0);
    expect(z.area).toBe(0);
    const withLine = sampleSurface(mergeMeshes(line, shift(cube, 5)), 100);
    expect(withLine.count).toBe(100);
    for (let i = 0; i < withLine.count; i++) expect(withLine.points[3 * i]!).toBeGreaterThanOrEqual(5);
    expect(() => sampleSurface(cube, 0)).toThrow();
  });
});
