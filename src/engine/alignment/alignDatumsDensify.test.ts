import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { axisAngle, fromMatrix4, rotationDistance, type Rigid } from '../math/rigid';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { faceOf } from '../../test/gdtFixtures';
import { addMeshBody } from '../../test/deviationFixtures';
import { movedMesh } from '../../test/alignFixture';
import { drillHoles, makeBox } from '../../test/kernelShapes';
import { occtMesh } from '../../test/scanFixture';
import type { AlignResult } from './alignBodies';

/**
 * align_bodies' datum method draws more samples on a datum face that has few, as evaluate_gdt
 * does: a 300 x 200 x 5 plate with two 2 mm bores as datums B and C. Sampled by area, each bore
 * gets about 5 of 20,000 samples, under the 12 a datum needs (before: NO_COVERAGE, "the secondary
 * datum: 5 scan samples"). The scan is the plate's own tessellation moved by TRUTH, so the datum
 * alignment is TRUTH's inverse.
 */
let engine: Engine;
const TRUTH: Rigid = { r: axisAngle([0.2, -0.3, 1], 0.004), t: [0.08, -0.05, 0.03] };
let bottom: string, b: string, c: string;

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = createNodeEngine();
  const plate = drillHoles(oc, makeBox(oc, 300, 200, 5), [[50, 50], [250, 50]], 1);
  addMeshBody(engine.scene, 'scan', movedMesh(occtMesh(oc, plate, 0.002), TRUTH));
  addShapeBody(oc, engine.scene, 'plate', plate);
  bottom = await faceOf(engine, 'plate', /plan/i, [150, 100, 0]);
  b = await faceOf(engine, 'plate', /cylind/i, [50, 50, 2.5]);
  c = await faceOf(engine, 'plate', /cylind/i, [250, 50, 2.5]);
});

describe('align_bodies method datums on small datum features', () => {
  it('two 2 mm bores as B and C: the motion back is the inverse of the one applied', async () => {
    const r = (await engine.runJson('align_bodies', { movingBodyId: 'scan', fixedBodyId: 'plate', method: 'datums', datums: [{ face: bottom }, { face: b }, { face: c }], mode: 'fine', sampleCount: 20000 })).result as unknown as AlignResult;
    const found = fromMatrix4(r.transform) as Rigid;
    // found o TRUTH = identity: a point moved by TRUTH comes back.
    const p = [123, 45, 2];
    const q = [0, 1, 2].map((i) => TRUTH.r[3 * i]! * p[0]! + TRUTH.r[3 * i + 1]! * p[1]! + TRUTH.r[3 * i + 2]! * p[2]! + TRUTH.t[i]!);
    const back = [0, 1, 2].map((i) => found.r[3 * i]! * q[0]! + found.r[3 * i + 1]! * q[1]! + found.r[3 * i + 2]! * q[2]! + found.t[i]!);
    // The bores' axes are fitted to samples of a faceted surface (chord sag 0.002): about 1e-4 of noise.
    expect(Math.hypot(back[0]! - p[0]!, back[1]! - p[1]!, back[2]! - p[2]!)).toBeLessThan(1e-3);
    expect(rotationDistance(found.r, [...TRUTH.r].map((_, k) => TRUTH.r[3 * (k % 3) + Math.floor(k / 3)]!))).toBeLessThan(5e-6);
  });
});
