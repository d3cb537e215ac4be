import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import type { Engine } from '../Engine';
import { withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { readBrepShape } from '../scene/import/brep';
import { dataPath } from '../../test/data';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeBox, makeCylinder, makeFreeformFaces, makeSphere } from '../../test/kernelShapes';
import { tessellateShape } from './tessellate';
import { MAX_TESSELLATION_TRIANGLES, estimatedTriangles, smallestDeflection, triangleLaw } from './tessellationBudget';

let oc: OC;
let engine: Engine;
const torus = (R: number, r: number): TopoDS_Shape => withKernel(oc, (own) => own(new oc.BRepPrimAPI_MakeTorus_1(R, r)).Shape());

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'sphere', makeSphere(oc, 10));
  addShapeBody(oc, engine.scene, 'sphere2', makeSphere(oc, 10));
  addShapeBody(oc, engine.scene, 'box', makeBox(oc, 10, 10, 10));
  addShapeBody(oc, engine.scene, 'box2', makeBox(oc, 10, 10, 10));
});

describe('tessellation budget: the estimate against what BRepMesh makes', () => {
  it('a box (planar faces only) costs nothing whatever the deflection', () => {
    const law = triangleLaw(oc, makeBox(oc, 30, 20, 10));
    expect(law).toEqual({ perInverseDeflection: 0, perInverseRootDeflection: 0 });
  });

  it('closed forms: a sphere of radius 10 is 4 pi 100 / (2 sqrt 3 10) per 1/d, a cylinder of radius 10 is 2 pi sqrt 5 per 1/sqrt d', () => {
    const sphere = triangleLaw(oc, makeSphere(oc, 10));
    expect(sphere.perInverseDeflection).toBeCloseTo((4 * Math.PI * 100) / (2 * Math.sqrt(3) * 10), 6);
    expect(sphere.perInverseRootDeflection).toBe(0);
    const cylinder = triangleLaw(oc, makeCylinder(oc, 10, 20));
    expect(cylinder.perInverseDeflection).toBe(0);
    expect(cylinder.perInverseRootDeflection).toBeCloseTo(2 * Math.PI * Math.sqrt(5), 12);
  });

  it('curved shapes: BRepMesh makes 0.9 to 4.5 times the estimate (it meshes finer than the sag rule)', () => {
    const shapes: Array<[string, TopoDS_Shape]> = [
      ['cylinder', makeCylinder(oc, 10, 20)],
      ['sphere', makeSphere(oc, 10)],
      ['torus', torus(20, 5)],
      ['free form', makeFreeformFaces(oc)],
    ];
    for (const [name, shape] of shapes) {
      const law = triangleLaw(oc, shape);
      for (const d of [0.1, 0.03, 0.01]) {
        const made = tessellateShape(oc, shape, d).indices.length / 3;
        const ratio = made / estimatedTriangles(law, d);
        expect(ratio, `${name} at ${d}: ${made} triangles`).toBeGreaterThan(0.9);
        expect(ratio, `${name} at ${d}: ${made} triangles`).toBeLessThan(4.5);
      }
    }
  });

  it('smallestDeflection: the estimate there is the bound', () => {
    for (const law of [{ perInverseDeflection: 282, perInverseRootDeflection: 358 }, { perInverseDeflection: 0, perInverseRootDeflection: 40 }, { perInverseDeflection: 363, perInverseRootDeflection: 0 }]) {
      expect(estimatedTriangles(law, smallestDeflection(law, MAX_TESSELLATION_TRIANGLES)) / MAX_TESSELLATION_TRIANGLES).toBeCloseTo(1, 12);
    }
  });

  it("the bottle at 1e-5 stays under the bound: the hosts' tests use it as a real kernel hang", () => {
    const bottle = readBrepShape(oc, readFileSync(dataPath('occt/bottle.brep')), 'bottle.brep');
    let law;
    try {
      law = triangleLaw(oc, bottle);
    } finally {
      bottle.delete();
    }
    expect(estimatedTriangles(law, 1e-5)).toBeLessThan(MAX_TESSELLATION_TRIANGLES);
    expect(estimatedTriangles(law, 1e-6)).toBeGreaterThan(MAX_TESSELLATION_TRIANGLES);
  });
});

describe('tools refuse a deflection past the bound before meshing', () => {
  const refusal = (tool: string, args: object) => engine.runJson(tool, args).then(() => undefined, (e: unknown) => e as { code: string; message: string; details: Record<string, number> });

  it('symmetric_difference_volume, measure_deviation and deviation_histogram at 1e-7 on a 20 mm sphere: INVALID_ARGUMENT naming the smallest deflection', async () => {
    const perInverseDeflection = (4 * Math.PI * 100) / (2 * Math.sqrt(3) * 10);
    for (const [tool, args] of [
      ['symmetric_difference_volume', { fromBodyId: 'sphere', referenceBodyId: 'sphere2', deflection: 1e-7 }],
      ['measure_deviation', { fromBodyId: 'sphere', toBodyId: 'sphere2', deflection: 1e-7 }],
      ['deviation_histogram', { fromBodyId: 'sphere', referenceBodyId: 'sphere2', deflection: 1e-7 }],
    ] as const) {
      const e = await refusal(tool, args);
      expect(e?.code, tool).toBe('INVALID_ARGUMENT');
      expect(e?.message, tool).toContain('deflection 1e-7 would tessellate the body into about 3.6e+8 triangles, more than the 30,000,000 allowed; use a deflection of at least 1.2e-6');
      expect(e?.details.estimatedTriangles, tool).toBe(Math.round(perInverseDeflection / 1e-7));
      expect(e?.details.smallestDeflection, tool).toBe(Number((perInverseDeflection / MAX_TESSELLATION_TRIANGLES).toExponential(1)));
    }
  });

  it('a box at 1e-7 is measured (planar faces do not grow with a finer deflection)', async () => {
    const r = (await engine.runJson('measure_deviation', { fromBodyId: 'box', toBodyId: 'box2', deflection: 1e-7 })).result as { symmetricHausdorff: number; deflection: number };
    expect(r.deflection).toBe(1e-7);
    expect(r.symmetricHausdorff).toBeLessThan(1e-9);
  });
});
