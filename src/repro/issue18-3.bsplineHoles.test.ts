import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/Engine';
import { withKernel, type OC } from '../engine/kernel';
import { fitCylinder } from '../engine/math/fitCylinder';
import type { Vec3 } from '../engine/math/vec3';
import { addShapeBody } from '../engine/scene/addShapeBody';
import type { TopologyEntry } from '../engine/tools/queryTopology';
import type { Feature, HoleFeature, PocketFeature } from '../engine/tools/recognizeFeatures';
import { nodeKernel } from '../node/nodeEngine';
import { testEngine } from '../test/testEngine';
import { dataPath } from '../test/data';
import { FEATURE_BLOCK, makeFeatureBlock } from '../test/featureBlock';
import { makeBox } from '../test/kernelShapes';
import { toNurbs } from '../test/singularSurfaces';

/**
 * Issue 18, finding 3. A CAx-IF part whose bores are B-spline surfaces (AS1 as exported by OpenCascade,
 * as1-oc-214) gave 0 holes and 10 open "pockets": only analytic cylinders were holes. Now a face of any
 * other surface type is a cylinder when a least-squares cylinder through points of it holds every
 * point of a denser grid and of its edges within the face's tolerance; the pockets are checked too
 * (issue20-5.featureExclusivity.test.ts).
 */

let oc: OC;
let engine: Engine;
const recognize = async (bodyId: string) => ((await engine.run('recognize_features', { bodyId })).result as { features: Feature[] }).features;
const surfaceTypes = async (bodyId: string) => ((await engine.run('query_topology', { bodyId, entity: 'face' })).result as TopologyEntry[]).map((f) => f.surfaceType);

/** The feature block's 40 x 30 x 20 body with the hole's wall an elliptic B-spline (semi-axes 4 and 4.01): no cylinder. */
function makeEllipticHoleBlock(): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(0, 0, -5)), own(new oc.gp_Dir_4(0, 0, 1))));
    const round = own(own(new oc.BRepPrimAPI_MakeCylinder_3(axes, 4, 30)).Shape());
    const stretch = own(new oc.gp_GTrsf_1());
    stretch.SetValue(2, 2, 4.01 / 4);
    stretch.SetTranslationPart(own(new oc.gp_XYZ_2(10, 15, 0)));
    const drill = own(own(new oc.BRepBuilderAPI_GTransform_2(round, stretch, true)).Shape());
    const block = own(makeBox(oc, 40, 30, 20));
    return own(new oc.BRepAlgoAPI_Cut_3(block, drill, own(new oc.Message_ProgressRange_1()))).Shape();
  });
}

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'analytic', makeFeatureBlock(oc));
  addShapeBody(oc, engine.scene, 'bspline', makeFeatureBlock(oc, { bsplineHole: true }));
  addShapeBody(oc, engine.scene, 'elliptic', makeEllipticHoleBlock());
});

describe('holes whose walls are B-spline surfaces (issue 18.3)', () => {
  it('the holed block with its bore a B-spline: the same through hole (diameter 8, depth 20) and the one pocket, nothing more', async () => {
    expect((await surfaceTypes('bspline')).filter((t) => t === 'bspline')).toHaveLength(1);
    const features = await recognize('bspline');
    expect(features.map((f) => f.kind)).toEqual(['hole', 'pocket']);
    const hole = features[0] as HoleFeature;
    const types = await surfaceTypes('bspline');
    expect(hole.faces.map((id) => types[Number(id.slice(5, -1))])).toEqual(['bspline']);
    expect(Math.abs(hole.diameter - 2 * FEATURE_BLOCK.hole.radius)).toBeLessThan(1e-9);
    expect(Math.abs(hole.depth - FEATURE_BLOCK.size[2])).toBeLessThan(1e-9);
    expect(hole.through).toBe(true);
    expect(Math.abs(Math.abs(hole.axis[2]) - 1)).toBeLessThan(1e-12);
    expect(Math.hypot(hole.center[0] - FEATURE_BLOCK.hole.centre[0], hole.center[1] - FEATURE_BLOCK.hole.centre[1])).toBeLessThan(1e-9);
    // Within the face's tolerance (its edges are approximated intersection curves, about 1e-7).
    expect(hole.fitDeviation).toBeGreaterThanOrEqual(0);
    expect(hole.fitDeviation!).toBeLessThan(1e-6);
    const pocket = features[1] as PocketFeature;
    expect(pocket).toMatchObject({ closed: true, depth: 5, length: 10, width: 8 });
    expect(pocket.walls).toHaveLength(4);
    // The analytic block gives the same features, with an exact (unfitted) hole.
    const analytic = await recognize('analytic');
    expect(analytic.map((f) => f.faces)).toEqual(features.map((f) => f.faces));
    expect((analytic[0] as HoleFeature).fitDeviation).toBeNull();
  });

  it('a bore 0.01 out of round (an elliptic B-spline wall) is no cylinder: no hole, and no pocket instead', async () => {
    expect((await surfaceTypes('elliptic')).filter((t) => t === 'bspline').length).toBeGreaterThan(0);
    expect(await recognize('elliptic')).toEqual([]);
  });

  it('AS1 with every face converted to B-splines finds the 22 holes of the analytic file, with the same faces, diameters, depths and ends', async () => {
    await engine.run('import_file', { path: dataPath('cax-if/as1_pe_203.stp'), bodyId: 'as1' });
    const shape = (engine.scene.get('as1') as { shape: TopoDS_Shape }).shape;
    addShapeBody(oc, engine.scene, 'as1Nurbs', toNurbs(oc, shape));
    expect((await surfaceTypes('as1Nurbs')).every((t) => t === 'bspline')).toBe(true);
    const exact = (await recognize('as1')).filter((f): f is HoleFeature => f.kind === 'hole');
    const fitted = (await recognize('as1Nurbs')).filter((f): f is HoleFeature => f.kind === 'hole');
    expect(exact).toHaveLength(22);
    expect(fitted.map((h) => h.faces.slice(0, 2))).toEqual(exact.map((h) => h.faces.slice(0, 2)));
    fitted.forEach((h, i) => {
      const e = exact[i]!;
      expect(Math.abs(h.diameter - e.diameter) / e.diameter).toBeLessThan(1e-9);
      expect(Math.abs(h.depth - e.depth) / e.depth).toBeLessThan(1e-9);
      expect(h.through).toBe(e.through);
      expect(h.fitDeviation).not.toBeNull();
    });
  });

  it('fitCylinder: exact on points of a tilted cylinder, null on a plane', () => {
    const axis: Vec3 = [1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)];
    const e1: Vec3 = [1 / Math.sqrt(2), -1 / Math.sqrt(2), 0];
    const e2: Vec3 = [axis[1] * e1[2] - axis[2] * e1[1], axis[2] * e1[0] - axis[0] * e1[2], axis[0] * e1[1] - axis[1] * e1[0]];
    const points: Vec3[] = [], normals: Vec3[] = [];
    // A 100-degree arc of radius 2.5 about the axis through (1, 2, 3), 4 long.
    for (let i = 0; i <= 8; i++) {
      for (let j = 0; j <= 4; j++) {
        const t = (i / 8) * (100 * Math.PI) / 180, s = j - 2;
        const n = [0, 1, 2].map((k) => Math.cos(t) * e1[k]! + Math.sin(t) * e2[k]!) as Vec3;
        points.push([0, 1, 2].map((k) => [1, 2, 3][k]! + s * axis[k]! + 2.5 * n[k]!) as Vec3);
        normals.push(n);
      }
    }
    const fit = fitCylinder(points, normals)!;
    expect(Math.abs(fit.radius - 2.5)).toBeLessThan(1e-12);
    expect(fit.maxDeviation).toBeLessThan(1e-12);
    expect(1 - Math.abs(axis[0] * fit.axis[0] + axis[1] * fit.axis[1] + axis[2] * fit.axis[2])).toBeLessThan(1e-14);
    const flat = points.map((p) => [p[0], p[1], 0] as Vec3);
    expect(fitCylinder(flat, flat.map(() => [0, 0, 1]))).toBeNull();
  });
});
