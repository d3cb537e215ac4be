import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { box, flipWinding, grid, uvSphere } from '../mesh/generators';
import type { TriMesh } from '../mesh/TriMesh';
import { addShapeBody } from '../scene/addShapeBody';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { addMeshBody } from '../../test/deviationFixtures';
import { makeBox, makeCylinder } from '../../test/kernelShapes';
import { radicalInverse, samplesFor10Percent, type SymmetricDifferenceResult } from './symmetricDifferenceVolume';

let oc: OC;
let engine: Engine;
const sdv = (args: object, signal?: AbortSignal) =>
  engine.runJson('symmetric_difference_volume', args, signal ? { signal } : {}).then((r) => r.result) as Promise<SymmetricDifferenceResult>;

/** A UV sphere without its north-pole fan: an open scan with a hole of about 3 degrees. */
function sphereWithHole(r: number, segments: number, rings: number): TriMesh {
  const s = uvSphere(r, segments, rings);
  return { positions: s.positions, indices: s.indices.slice(3 * segments) };
}

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'a', makeBox(oc, 10, 10, 10));
  addShapeBody(oc, engine.scene, 'a2', makeBox(oc, 10, 10, 10));
  addShapeBody(oc, engine.scene, 'a1002', makeBox(oc, 10.02, 10.02, 10.02));
  addShapeBody(oc, engine.scene, 'half', makeBox(oc, 10, 10, 10, [5, 0, 0]));
  addShapeBody(oc, engine.scene, 'far', makeBox(oc, 10, 10, 10, [30, 0, 0]));
  addShapeBody(oc, engine.scene, 'cyl', makeCylinder(oc, 10, 40));
  addMeshBody(engine.scene, 'meshA', box([0, 0, 0], [10, 10, 10]));
  addMeshBody(engine.scene, 'meshHalfInverted', flipWinding(box([5, 0, 0], [15, 10, 10])));
  addMeshBody(engine.scene, 'sphere', uvSphere(10, 96, 48));
  addMeshBody(engine.scene, 'openSphere', sphereWithHole(10, 96, 48));
  addMeshBody(engine.scene, 'sheet', (() => {
    // A 10 x 10 sheet through the middle of box a (z = 5): an open surface with no inside.
    const g = grid(10, 10);
    for (let i = 2; i < g.positions.length; i += 3) g.positions[i] = 5;
    return g;
  })());
});

describe('symmetric_difference_volume', () => {
  it('Halton coordinates: the radical inverse', () => {
    expect([1, 2, 3, 4, 5].map((i) => radicalInverse(i, 2))).toEqual([0.5, 0.25, 0.75, 0.125, 0.625]);
    expect(radicalInverse(1, 3)).toBeCloseTo(1 / 3, 15);
    expect(radicalInverse(7, 5)).toBeCloseTo(2 / 5 + 1 / 25, 15);
  });

  it('identical bodies: fraction 0, no excess or missing volume, volumes agree with the exact ones', async () => {
    for (const referenceBodyId of ['a', 'a2']) {
      const r = await sdv({ fromBodyId: 'a', referenceBodyId, maxSamples: 1000 });
      expect(r.samples).toBe(1000);
      expect(r.symmetricDifferenceFraction).toBe(0);
      expect(r.symmetricDifferenceVolumeMm3).toBe(0);
      expect(r.fromOnlyVolumeMm3).toBe(0);
      expect(r.referenceOnlyVolumeMm3).toBe(0);
      expect(r.estimatedStdErrMm3).toBe(0);
      // The joint box is the box itself: every point is inside both.
      expect(r.boundingBoxVolumeMm3).toBeCloseTo(1000, 9);
      expect(r.intersectionVolumeMm3).toBeCloseTo(1000, 9);
      expect(r.fromExactVolumeMm3).toBeCloseTo(1000, 9);
      expect(r.referenceExactVolumeMm3).toBeCloseTo(1000, 9);
      expect(r.fromWatertight).toBe(true);
      expect(r.reliable).toBe(true);
      expect(r.warnings).toEqual([]);
    }
  });

  it('disjoint bodies: fraction 1, intersection 0', async () => {
    const r = await sdv({ fromBodyId: 'a', referenceBodyId: 'far', maxSamples: 2000 });
    expect(r.symmetricDifferenceFraction).toBe(1);
    expect(r.intersectionVolumeMm3).toBe(0);
    expect(r.boundingBoxVolumeMm3).toBeCloseTo(4000, 9);
    expect(r.ambiguousSamples).toBe(0);
    expect(r.reliable).toBe(true);
  });

  it('two boxes overlapping by half: excess, missing and shared volume within 3 standard errors of 500 each', async () => {
    const N = 3000;
    const r = await sdv({ fromBodyId: 'a', referenceBodyId: 'half', maxSamples: N });
    const boxVolume = 1500;
    expect(r.boundingBoxVolumeMm3).toBeCloseTo(boxVolume, 9);
    // Binomial standard error of a one-third share of the box.
    const se = boxVolume * Math.sqrt(((1 / 3) * (2 / 3)) / N);
    for (const v of [r.fromOnlyVolumeMm3!, r.referenceOnlyVolumeMm3!, r.intersectionVolumeMm3!]) expect(Math.abs(v - 500)).toBeLessThan(3 * se);
    expect(Math.abs(r.symmetricDifferenceVolumeMm3! - 1000)).toBeLessThan(3 * r.estimatedStdErrMm3!);
    expect(Math.abs(r.unionVolumeMm3! - 1500)).toBeLessThan(1e-9);
    expect(Math.abs(r.symmetricDifferenceFraction! - 2 / 3)).toBeLessThan(0.02);
    // The reported standard error is the binomial one of the symmetric-difference share f = 2/3.
    expect(r.estimatedStdErrMm3!).toBeCloseTo(boxVolume * Math.sqrt((r.symmetricDifferenceVolumeMm3! / boxVolume) * (1 - r.symmetricDifferenceVolumeMm3! / boxVolume) / N), 9);
    expect(Math.abs(r.fromVolumeMm3! - 1000)).toBeLessThan(3 * se);
    expect(r.reliable).toBe(true);
    // Classification ignores orientation: an inside-out mesh copy gives the same figures.
    const m = await sdv({ fromBodyId: 'meshA', referenceBodyId: 'meshHalfInverted', maxSamples: N });
    expect(m.fromOnlyVolumeMm3).toBeCloseTo(r.fromOnlyVolumeMm3!, 9);
    expect(m.referenceOnlyVolumeMm3).toBeCloseTo(r.referenceOnlyVolumeMm3!, 9);
    expect(m.referenceExactVolumeMm3).toBeCloseTo(-1000, 9);
    expect(m.warnings.map((w) => w.code)).toContain('INSIDE_OUT');
  });

  it('a difference under 2 standard errors or below the exact volumes\' difference is not reliable; the warning names the points a 10% estimate needs', async () => {
    // A 10 box against a 10.02 box at one corner: the symmetric difference is 10.02^3 - 1000 = 6.012,
    // 0.59% of the joint box: at 300 points about 1.8 of them fall in it.
    const truth = 10.02 ** 3 - 1000;
    const r = await sdv({ fromBodyId: 'a', referenceBodyId: 'a1002' });
    expect(r.samples).toBe(300);
    expect(r.fromExactVolumeMm3! - r.referenceExactVolumeMm3!).toBeCloseTo(-truth, 6);
    expect(r.reliable).toBe(false);
    const box = r.boundingBoxVolumeMm3;
    const needed = samplesFor10Percent(r.symmetricDifferenceVolumeMm3! / box, truth / box)!;
    // n = 100 (1 - f) / f, f the larger of the sampled and the exact share: about 16,800 here.
    expect(needed).toBe(Math.ceil((100 * (1 - Math.max(r.symmetricDifferenceVolumeMm3!, truth) / box)) / (Math.max(r.symmetricDifferenceVolumeMm3!, truth) / box)));
    expect(needed).toBeGreaterThan(15000);
    expect(r.warnings).toContainEqual({ code: 'MORE_SAMPLES_NEEDED', message: `about ${needed} points (maxSamples) give a 10% estimate of the symmetric difference` });
    // With those points the estimate is over 2 standard errors, consistent with the exact volumes,
    // within 3 standard errors of the truth, and reliable.
    const big = await sdv({ fromBodyId: 'a', referenceBodyId: 'a1002', maxSamples: needed });
    expect(big.reliable).toBe(true);
    expect(Math.abs(big.symmetricDifferenceVolumeMm3! - truth)).toBeLessThan(3 * big.estimatedStdErrMm3!);
    expect(big.estimatedStdErrMm3! / big.symmetricDifferenceVolumeMm3!).toBeLessThan(0.13);
    expect(samplesFor10Percent(0, 0)).toBeNull();
  });

  it('the standard error shrinks as samples grow (about 1 / sqrt(N))', async () => {
    const small = await sdv({ fromBodyId: 'a', referenceBodyId: 'half', maxSamples: 400 });
    const large = await sdv({ fromBodyId: 'a', referenceBodyId: 'half', maxSamples: 6400 });
    const ratio = large.estimatedStdErrMm3! / small.estimatedStdErrMm3!;
    expect(ratio).toBeGreaterThan(0.2);
    expect(ratio).toBeLessThan(0.3);
  });

  it('an open reference (a sphere scan with a hole) still classifies: reliable, volume near 4/3 pi r^3, no exact volume', async () => {
    const r = await sdv({ fromBodyId: 'sphere', referenceBodyId: 'openSphere', maxSamples: 4000 });
    expect(r.referenceWatertight).toBe(false);
    expect(r.referenceExactVolumeMm3).toBeNull();
    expect(r.fromWatertight).toBe(true);
    expect(r.ambiguousFraction).toBeLessThan(0.02);
    expect(r.reliable).toBe(true);
    const exact = r.fromExactVolumeMm3!;
    expect(Math.abs(exact - (4 / 3) * Math.PI * 1000)).toBeLessThan(0.01 * exact); // polyhedral sphere
    const se = r.boundingBoxVolumeMm3 * Math.sqrt(0.52 * 0.48 / 4000);
    expect(Math.abs(r.referenceVolumeMm3! - exact)).toBeLessThan(3 * se);
    expect(r.symmetricDifferenceFraction!).toBeLessThan(0.01);
    expect(r.warnings.map((w) => w.code)).toContain('NOT_WATERTIGHT');
  });

  it('a reference with no inside (an open sheet through a box): mostly ambiguous, reliable false', async () => {
    const r = await sdv({ fromBodyId: 'a', referenceBodyId: 'sheet', maxSamples: 1000 });
    expect(r.ambiguousFraction).toBeGreaterThan(0.15);
    expect(r.reliable).toBe(false);
    expect(r.warnings.map((w) => w.code)).toContain('UNRELIABLE_CLASSIFICATION');
  });

  it('BREP bodies are tessellated at the deflection; the exact volume is the BREP one', async () => {
    const r = await sdv({ fromBodyId: 'cyl', referenceBodyId: 'cyl', maxSamples: 500 });
    expect(r.fromExactVolumeMm3).toBeCloseTo(Math.PI * 100 * 40, 6);
    expect(r.deflection).toBeCloseTo(0.005 * Math.hypot(20, 20, 40), 2);
    expect(r.symmetricDifferenceFraction).toBe(0);
    expect(r.reliable).toBe(true);
  });

  it('cancellation: an aborted signal stops the run with CANCELLED, also in the middle of a long run', async () => {
    const aborted = AbortSignal.abort();
    await expect(sdv({ fromBodyId: 'sphere', referenceBodyId: 'openSphere' }, aborted)).rejects.toMatchObject({ code: 'CANCELLED' });
    // Cancelled at its first progress report, inside the classifying loop: the next check stops it.
    const controller = new AbortController();
    const progress: number[] = [];
    const long = engine.runJson('symmetric_difference_volume', { fromBodyId: 'sphere', referenceBodyId: 'openSphere', maxSamples: 5_000_000 }, {
      signal: controller.signal,
      progress: (fraction) => {
        progress.push(fraction);
        controller.abort();
      },
    });
    await expect(long).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBeLessThan(1);
    // The scene keeps working.
    expect((await sdv({ fromBodyId: 'a', referenceBodyId: 'a2', maxSamples: 10 })).symmetricDifferenceFraction).toBe(0);
  });

  it('bad input: INVALID_ARGUMENT, BODY_NOT_FOUND, EMPTY_MESH', async () => {
    for (const bad of [{ maxSamples: 0 }, { maxSamples: 2.5 }, { deflection: -1 }, { toBodyId: 'a' }]) {
      await expect(sdv({ fromBodyId: 'a', referenceBodyId: 'half', ...bad })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    await expect(sdv({ fromBodyId: 'a', referenceBodyId: 'missing' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    addMeshBody(engine.scene, 'empty', { positions: new Float64Array(0), indices: new Uint32Array(0) });
    await expect(sdv({ fromBodyId: 'empty', referenceBodyId: 'a' })).rejects.toMatchObject({ code: 'EMPTY_MESH' });
    await expect(sdv({ fromBodyId: 'a', referenceBodyId: 'empty' })).rejects.toMatchObject({ code: 'EMPTY_MESH' });
  });
});
