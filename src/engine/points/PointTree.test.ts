import { describe, expect, it } from 'vitest';
import { PointTree } from './PointTree';

/** A seeded generator, so a failure reproduces. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function cloud(n: number, rnd: () => number): Float64Array {
  const p = new Float64Array(3 * n);
  // Clustered and with repeated coordinates, the cases that break a careless partition.
  for (let i = 0; i < n; i++) {
    p[3 * i] = Math.round(rnd() * 20) / 2;
    p[3 * i + 1] = rnd() * (i % 3 === 0 ? 0.01 : 5);
    p[3 * i + 2] = i % 7 === 0 ? 1 : rnd();
  }
  return p;
}

function bruteSorted(p: Float64Array, x: number, y: number, z: number, skip = -1): number[] {
  const d: number[] = [];
  for (let i = 0; i < p.length / 3; i++) if (i !== skip) d.push(Math.hypot(p[3 * i]! - x, p[3 * i + 1]! - y, p[3 * i + 2]! - z));
  return d.sort((a, b) => a - b);
}

describe('PointTree', () => {
  it('finds the nearest point and the k nearest as brute force does', () => {
    const rnd = lcg(7);
    const p = cloud(3000, rnd);
    const tree = new PointTree(p);
    const out = new Uint32Array(8);
    for (let q = 0; q < 300; q++) {
      const x = rnd() * 12 - 1, y = rnd() * 6 - 0.5, z = rnd() * 1.5 - 0.2;
      const brute = bruteSorted(p, x, y, z);
      const near = tree.nearest(x, y, z);
      expect(near.distance).toBeCloseTo(brute[0]!, 14);
      const i = near.index;
      expect(Math.hypot(p[3 * i]! - x, p[3 * i + 1]! - y, p[3 * i + 2]! - z)).toBe(brute[0]);
      const n = tree.kNearest(x, y, z, 8, out);
      expect(n).toBe(8);
      const got = [...out].map((i) => Math.hypot(p[3 * i]! - x, p[3 * i + 1]! - y, p[3 * i + 2]! - z));
      expect(got).toEqual(brute.slice(0, 8));
    }
  });

  it('leaves out a skipped index, honours maxDistance, and handles tiny clouds', () => {
    const p = new Float64Array([0, 0, 0, 1, 0, 0, 3, 0, 0]);
    const tree = new PointTree(p);
    const out = new Uint32Array(5);
    expect(tree.kNearest(0, 0, 0, 5, out, 0)).toBe(2);
    expect([...out.subarray(0, 2)]).toEqual([1, 2]);
    expect(tree.nearest(10, 0, 0, 2)).toEqual({ index: -1, distance: Infinity });
    expect(tree.nearest(10, 0, 0, 8)).toEqual({ index: 2, distance: 7 });
    expect(new PointTree(new Float64Array(0)).nearest(0, 0, 0).index).toBe(-1);
  });
});
