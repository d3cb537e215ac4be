import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { Characteristic } from '../gdt/evaluate';
import type { OC } from '../kernel';
import { gaussian } from '../../test/noise';
import { sampleSurface } from '../mesh/sampleSurface';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addMeshBody } from '../../test/deviationFixtures';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { makeDrilledBlock } from '../../test/kernelShapes';
import { polygonalHoleMesh } from '../../test/polygonalHole';

/**
 * Closed forms for a hole's diameter on a mesh scan read from its corners (gdt/vertexQuadrature.ts):
 * a bore meshed as a 48-sided prism whose corners lie on the true circle reads the true diameter,
 * while its area samples (a cloud of them: no corners) read it small by what the chord sag predicts;
 * corners moved along the normal by gaussian noise read the mean diameter within the noise's
 * standard error.
 */
let oc: OC;
let engine: Engine;
let hole: string;
type Result = { characteristics: Characteristic[] };
const R = 4, SEGMENTS = 48, RINGS = 11, SIGMA = 0.01, SEED = 7;
const diameterOn = async (actualBodyId: string) => {
  const size = { kind: 'diameter', faces: [hole], nominal: 2 * R, upper: 0.05, lower: -0.05 };
  const r = (await engine.runJson('evaluate_gdt', { actualBodyId, nominalBodyId: 'block', characteristics: [size] })).result as unknown as Result;
  return r.characteristics[0]!;
};
let noise: number[][];

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'block', makeDrilledBlock(oc, R, 20, 15));
  const exact = polygonalHoleMesh(R, SEGMENTS, 2);
  addMeshBody(engine.scene, 'rims', exact);
  addCloud(engine, 'samples', Array.from(sampleSurface(exact, 40_000).points));
  const gauss = gaussian(SEED);
  noise = Array.from({ length: RINGS }, () => Array.from({ length: SEGMENTS }, () => SIGMA * gauss()));
  addMeshBody(engine.scene, 'noisy', polygonalHoleMesh(R, SEGMENTS, RINGS, (j, k) => noise[k]![j]!));
  hole = await faceOf(engine, 'block', /cylinder/i, [20, 15, 10]);
}, 120_000);

describe('a 48-sided bore on a mesh scan', () => {
  it('reads the true diameter from its corners; its area samples read small by the chord sag', async () => {
    const onMesh = await diameterOn('rims');
    expect(Math.abs(onMesh.actual! - 2 * R) / (2 * R)).toBeLessThan(1e-6);
    expect(onMesh.method).toMatch(/corners under the samples/);
    // Area samples spread evenly over a chord at d = R cos(t) from the axis, t = pi/48 half its
    // angle, lie at a mean distance R/2 + d^2/(2a) ln((R + a)/d) from it (a = R sin(t)): about
    // R (1 - t^2/3), the diameter short by 4/3 of the sag R (1 - cos t), 0.0114 here.
    const t = Math.PI / SEGMENTS, d = R * Math.cos(t), a = R * Math.sin(t);
    const predicted = 2 * (R - (R / 2 + ((d * d) / (2 * a)) * Math.log((R + a) / d)));
    expect(predicted).toBeCloseTo((4 / 3) * R * (1 - Math.cos(t)), 4);
    const onSamples = await diameterOn('samples');
    expect(onSamples.method).toBe('least-squares cylinder');
    expect(Math.abs(2 * R - onSamples.actual! - predicted)).toBeLessThan(0.03 * predicted);
  });

  it('reads noisy corners (sigma 0.01 along the normal) at their mean diameter, within its standard error', async () => {
    const all = noise.flat(), n = all.length;
    const mean = all.reduce((s, v) => s + v, 0) / n;
    const onMesh = await diameterOn('noisy');
    expect(onMesh.method).toMatch(/corners under the samples/);
    // The fit weighs the corners by their triangles' areas (rims half as much as the rings between
    // them), not quite evenly: within 3 standard errors of the diameter, 2 sigma / sqrt(n).
    const error = (2 * SIGMA) / Math.sqrt(n);
    expect(Math.abs(onMesh.actual! - 2 * R)).toBeLessThan(3 * error);
    expect(Math.abs(onMesh.actual! - 2 * (R + mean))).toBeLessThan(error);
  });
});
