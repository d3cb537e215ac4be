import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { seededRandom } from '../mesh/generators';
import { addShapeBody } from '../scene/addShapeBody';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeSphere } from '../../test/kernelShapes';
import { writePointText } from '../../test/meshWriters';
import type { DeviationResult } from './measureDeviation';
import type { HistogramResult } from './deviationHistogram';

let oc: OC;
let engine: Engine;
const run = <T>(name: string, args: object) => engine.runJson(name as 'measure_deviation', args).then((r) => r.result as unknown as T);
const load = (fileName: string, bytes: Uint8Array) => run<unknown>('import_file', { bytes: Buffer.from(bytes).toString('base64'), fileName });

/**
 * A scan of a sphere of radius R as a cloud whose upper half (z > 0) is DENSER times denser than its
 * lower half: directions uniform on the sphere (z uniform in [-1, 1], Archimedes), a lower one kept
 * with probability 1 / DENSER. Each point lies off the sphere by b(z) = 0.1 + 0.05 z / R plus
 * N(0, sigma) noise. By area, z is uniform on [-R, R], so b is uniform on [0.05, 0.15]: the
 * area-weighted signed mean is 0.1 and the p95 0.145. Counted per point, the dense half would weigh
 * 20/21 and the mean read 0.1 + 0.05 x (20 - 1) / 42 = 0.1226, the p95 about 0.1476.
 */
const R = 10, DENSER = 20, SIGMA = 0.002;
function lopsidedSphere(upper: number, seed: number, offset: (z: number) => number): Float64Array {
  const random = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const out: number[] = [];
  for (let kept = 0; kept < upper;) {
    const z = 2 * random() - 1;
    const a = 2 * Math.PI * random();
    if (z <= 0 && random() >= 1 / DENSER) continue;
    if (z > 0) kept++;
    const s = Math.sqrt(1 - z * z);
    const r = R + offset(R * z) + SIGMA * gauss();
    out.push(r * s * Math.cos(a), r * s * Math.sin(a), r * z);
  }
  return Float64Array.from(out);
}

let points: Float64Array;
let evenCount: number;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'sphere', makeSphere(oc, R));
  points = lopsidedSphere(40000, 7, (z) => 0.1 + (0.05 * z) / R);
  await load('lopsided.xyz', writePointText(points));
  const even = lopsidedSphere(2000, 8, () => 0.1);
  evenCount = even.length / 3;
  await load('even.xyz', writePointText(even));
});

describe('a point cloud 20 times denser on one half: figures by area, not by point (issue 33)', () => {
  it('measure_deviation at defaults: signedMean 0.1 within 1%, p95 0.145 within 1%, exactly maxSamples samples', async () => {
    const n = points.length / 3;
    expect(n).toBeGreaterThan(40000);
    const r = await run<DeviationResult>('measure_deviation', { fromBodyId: 'lopsided', toBodyId: 'sphere' });
    const f = r.fromToTo;
    expect(f.samples).toBe(20000);
    expect(f.noDataSamples).toBe(0);
    expect(f.ambiguousSamples).toBe(0);
    expect(Math.abs(f.signedMean! - 0.1)).toBeLessThan(0.001);
    expect(Math.abs(f.mean - 0.1)).toBeLessThan(0.001);
    expect(Math.abs(f.p95 - 0.145)).toBeLessThan(0.00145);
    expect(f.signedMin!).toBeGreaterThan(0.05 - 5 * SIGMA);
    expect(f.signedMax!).toBeLessThan(0.15 + 5 * SIGMA);
  });

  it('the histogram (50,000 samples asked, more than the cloud has) by area: its mean 0.1 within 1% over as many samples as points', async () => {
    const h = await run<HistogramResult>('deviation_histogram', { fromBodyId: 'lopsided', referenceBodyId: 'sphere' });
    const counted = h.buckets.reduce((s, b) => s + b.count, 0);
    expect(counted).toBe(points.length / 3);
    expect(Math.abs(h.mean! - 0.1)).toBeLessThan(0.001);
  });

  it('the same cloud twice gives the same figures (deterministic)', async () => {
    await load('lopsidedAgain.xyz', writePointText(points));
    const a = await run<DeviationResult>('measure_deviation', { fromBodyId: 'lopsided', toBodyId: 'sphere' });
    const b = await run<DeviationResult>('measure_deviation', { fromBodyId: 'lopsidedAgain', toBodyId: 'sphere' });
    expect(b.fromToTo).toEqual(a.fromToTo);
  });

  it('a cloud of fewer points than maxSamples: as many samples as points; a uniform +0.1 offset reads 0.1', async () => {
    const r = await run<DeviationResult>('measure_deviation', { fromBodyId: 'even', toBodyId: 'sphere' });
    expect(r.fromToTo.samples).toBe(evenCount);
    expect(Math.abs(r.fromToTo.signedMean! - 0.1)).toBeLessThan(0.001);
  });
});
