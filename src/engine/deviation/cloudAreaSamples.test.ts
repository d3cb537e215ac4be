import { describe, expect, it } from 'vitest';
import { seededRandom } from '../mesh/generators';
import { PointTree } from '../points/PointTree';
import { PointsBody } from '../scene/Body';
import { cloudAreaSamples } from './cloudAreaSamples';

/**
 * A sphere of radius R whose points are 20 times denser on its upper half (directions uniform, a
 * lower one kept with probability 1/20), each at R + 0.1 + 0.05 z / R: by area the offset's mean is
 * 0.1 (z is uniform over a sphere's area), by point 0.1226.
 */
const R = 10;
function lopsidedSphere(upper: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  const out: number[] = [];
  for (let kept = 0; kept < upper;) {
    const z = 2 * random() - 1, a = 2 * Math.PI * random();
    if (z <= 0 && random() >= 1 / 20) continue;
    if (z > 0) kept++;
    const s = Math.sqrt(1 - z * z), r = R + 0.1 + 0.05 * z;
    out.push(r * s * Math.cos(a), r * s * Math.sin(a), r * z);
  }
  return Float64Array.from(out);
}

const cloudBody = (positions: Float64Array) => new PointsBody({ bodyId: 'c', name: 'c', sourceFormat: 'xyz', source: undefined }, { positions, count: positions.length / 3 });

function meanOffset(positions: Float64Array, maxSamples: number, probes?: number): { count: number; mean: number } {
  const body = cloudBody(positions);
  const s = cloudAreaSamples(body, maxSamples, () => new PointTree(positions, positions.length / 3), probes);
  let sum = 0;
  for (let i = 0; i < s.count; i++) sum += Math.hypot(s.points[3 * i]!, s.points[3 * i + 1]!, s.points[3 * i + 2]!) - R;
  return { count: s.count, mean: sum / s.count };
}

describe('cloudAreaSamples: a cloud 20 times denser on one half, sampled by area', () => {
  const p = lopsidedSphere(40000, 7);
  const n = p.length / 3;

  it('every candidate probed, a stride over the candidates, probes thinned 8 times: the area mean 0.1 within 1%', () => {
    for (const [maxSamples, probes, count] of [
      [20000, undefined, 20000],
      [5000, undefined, 5000], // n > 4 x 5000: every 3rd point is a candidate
      [n, Math.ceil(n / 8), n], // every point a sample, one point in 8 asks for its neighbours
    ] as const) {
      const r = meanOffset(p, maxSamples, probes);
      expect(r.count).toBe(count);
      expect(Math.abs(r.mean - 0.1), `${maxSamples} ${probes}`).toBeLessThan(0.001);
    }
  });

  it('deterministic: the same cloud gives the same samples', () => {
    const a = cloudAreaSamples(cloudBody(p), 20000, () => new PointTree(p, n));
    const b = cloudAreaSamples(cloudBody(Float64Array.from(p)), 20000, () => new PointTree(p, n));
    expect(b.points).toEqual(a.points);
  });

  it('every point repeated more than the neighbours looked at: all count equally', () => {
    const q = new Float64Array(3 * 12 * 30);
    for (let i = 0; i < 30; i++) for (let c = 0; c < 12; c++) q.set([i, 0, 0], 3 * (12 * i + c));
    // 120 samples: every point a candidate (120 x 4 > 360).
    const s = cloudAreaSamples(cloudBody(q), 120, () => new PointTree(q, q.length / 3));
    expect(s.count).toBe(120);
    // Systematic sampling over equal weights: four samples per group of 12 copies.
    const xs = Array.from({ length: 120 }, (_, i) => s.points[3 * i]!);
    expect(xs).toEqual(Array.from({ length: 120 }, (_, i) => Math.floor(i / 4)));
  });
});
