import { describe, expect, it } from 'vitest';
import { symmetricEigen3 } from './symmetricEigen';
import type { Vec3 } from './vec3';

const det = ([a, b, c]: [Vec3, Vec3, Vec3]) => a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** A small deterministic generator (mulberry32), so a failure names its matrix. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Eigenvalues of a symmetric 3x3 matrix in closed form (the trigonometric solution of the
 * characteristic cubic, Smith 1961), ascending: the independent truth the Jacobi solver is held to.
 */
function closedFormEigenvalues(m: readonly number[]): Vec3 {
  const [a, b, c, , d, e, , , f] = m as [number, number, number, number, number, number, number, number, number];
  const p1 = b * b + c * c + e * e;
  const q = (a + d + f) / 3;
  if (p1 === 0) return [a, d, f].sort((x, y) => x - y) as Vec3;
  const p2 = (a - q) ** 2 + (d - q) ** 2 + (f - q) ** 2 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  const B = [a - q, b, c, b, d - q, e, c, e, f - q].map((x) => x / p);
  const detB = B[0]! * (B[4]! * B[8]! - B[5]! * B[7]!) - B[1]! * (B[3]! * B[8]! - B[5]! * B[6]!) + B[2]! * (B[3]! * B[7]! - B[4]! * B[6]!);
  const r = Math.min(1, Math.max(-1, detB / 2));
  const phi = Math.acos(r) / 3;
  const hi = q + 2 * p * Math.cos(phi);
  const lo = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  return [lo, 3 * q - hi - lo, hi];
}

function expectEigenFrame(m: number[], what: string): void {
  const { values, vectors } = symmetricEigen3(m);
  const scale = Math.max(...m.map(Math.abs), 1e-300);
  expect(values[0], what).toBeLessThanOrEqual(values[1]);
  expect(values[1], what).toBeLessThanOrEqual(values[2]);
  const truth = closedFormEigenvalues(m);
  for (let k = 0; k < 3; k++) expect(Math.abs(values[k]! - truth[k]!), `${what}: eigenvalue ${k}`).toBeLessThan(1e-12 * scale);
  for (let i = 0; i < 3; i++) {
    const v = vectors[i]!;
    for (let j = 0; j < 3; j++) expect(Math.abs(dot(v, vectors[j]!) - (i === j ? 1 : 0)), `${what}: orthonormal ${i} ${j}`).toBeLessThan(1e-13);
    // M v = lambda v, row by row.
    for (let r = 0; r < 3; r++) {
      const mv = m[3 * r]! * v[0] + m[3 * r + 1]! * v[1] + m[3 * r + 2]! * v[2];
      expect(Math.abs(mv - values[i]! * v[r]!), `${what}: M v = lambda v`).toBeLessThan(1e-12 * scale);
    }
  }
  expect(Math.abs(det(vectors) - 1), `${what}: right-handed`).toBeLessThan(1e-13);
}

describe('symmetricEigen3', () => {
  it('diag(2, 1, 3): values 1, 2, 3 on the y, x and z axes, as a right-handed frame (y, x, -z)', () => {
    const { values, vectors } = symmetricEigen3([2, 0, 0, 0, 1, 0, 0, 0, 3]);
    expect(values).toEqual([1, 2, 3]);
    expect(vectors.map((v) => v.map(Math.abs))).toEqual([
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ]);
    expect(det(vectors)).toBe(1);
  });

  it('every ordering of a diagonal gives a right-handed frame', () => {
    for (const d of [
      [1, 2, 3],
      [1, 3, 2],
      [2, 1, 3],
      [2, 3, 1],
      [3, 1, 2],
      [3, 2, 1],
    ]) {
      const { values, vectors } = symmetricEigen3([d[0]!, 0, 0, 0, d[1]!, 0, 0, 0, d[2]!]);
      expect(values).toEqual([1, 2, 3]);
      expect(det(vectors)).toBe(1);
    }
  });

  it('500 random symmetric matrices: eigenvalues equal the closed form, M v = lambda v, orthonormal, determinant +1', () => {
    const next = random(31);
    for (let n = 0; n < 500; n++) {
      const x = () => (next() - 0.5) * 10 ** (4 * next() - 2);
      const [a, b, c, d, e, f] = [x(), x(), x(), x(), x(), x()];
      expectEigenFrame([a, b, c, b, d, e, c, e, f], `matrix ${n}`);
    }
  });

  it('covariances of random point sets (positive semi-definite, as callers give it)', () => {
    const next = random(7);
    for (let n = 0; n < 100; n++) {
      const m = new Array<number>(9).fill(0);
      for (let k = 0; k < 20; k++) {
        const p = [next() - 0.5, 3 * (next() - 0.5), 0.1 * (next() - 0.5)];
        for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j]! += p[i]! * p[j]!;
      }
      expectEigenFrame(m, `covariance ${n}`);
    }
  });
});
