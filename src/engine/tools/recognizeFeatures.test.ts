import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { writeBinaryStl } from '../scene/import/stl';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeFeatureBlock } from '../../test/featureBlock';
import { makeBox } from '../../test/kernelShapes';
import type { Feature, HoleFeature, PocketFeature } from './recognizeFeatures';
import type { TopologyEntry } from './queryTopology';

const close = (a: number, b: number, tol = 1e-9) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));

/** A 30 x 30 x 20 block with a blind hole of diameter 6, 12 deep, drilled down from the top at (15, 15). */
function makeBlindHoleBlock(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const block = own(makeBox(oc, 30, 30, 20));
    const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(15, 15, 8)), own(new oc.gp_Dir_4(0, 0, 1))));
    const drill = own(own(new oc.BRepPrimAPI_MakeCylinder_3(axes, 3, 20)).Shape());
    return own(new oc.BRepAlgoAPI_Cut_3(block, drill, own(new oc.Message_ProgressRange_1()))).Shape();
  });
}

let engine: Engine;
const recognize = (args: object) => engine.runJson('recognize_features', args).then((r) => r.result) as Promise<{ features: Feature[]; warnings?: { code: string; message: string }[] }>;
const faceArea = async (bodyId: string, id: string) =>
  ((await engine.run('query_topology', { bodyId, entity: 'face' })).result as TopologyEntry[]).find((f) => f.id === id)!;

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'part', makeFeatureBlock(oc));
  addShapeBody(oc, engine.scene, 'box', makeBox(oc, 10, 20, 30));
  addShapeBody(oc, engine.scene, 'blind', makeBlindHoleBlock(oc));
});

describe('recognize_features', () => {
  it('finds exactly one through-hole of diameter 8 and one closed pocket 5 deep', async () => {
    const { features } = await recognize({ bodyId: 'part' });
    const holes = features.filter((f): f is HoleFeature => f.kind === 'hole');
    const pockets = features.filter((f): f is PocketFeature => f.kind === 'pocket');
    expect(holes).toHaveLength(1);
    expect(pockets).toHaveLength(1);
    const [hole] = holes as [HoleFeature];
    close(hole.diameter, 8);
    close(hole.depth, 20);
    expect(hole.through).toBe(true);
    close(Math.abs(hole.axis[2]), 1);
    close(hole.center[0], 10);
    close(hole.center[1], 15);
    expect(hole.faces).toHaveLength(1);
    expect((await faceArea('part', hole.faces[0]!)).surfaceType).toBe('cylinder');
    expect(hole.fitDeviation).toBeNull();
    const [pocket] = pockets as [PocketFeature];
    close(pocket.depth, 5);
    close(pocket.length, 10);
    close(pocket.width, 8);
    expect(pocket.closed).toBe(true);
    expect(pocket.walls).toHaveLength(4);
    expect(pocket.faces).toEqual([pocket.floor, ...pocket.walls]);
    const floor = await faceArea('part', pocket.floor);
    close(floor.area!, 80);
    close(floor.centroid[2], 15);
    const wallAreas = await Promise.all(pocket.walls.map((w) => faceArea('part', w)));
    expect(wallAreas.map((w) => Math.round(w.area!)).sort()).toEqual([40, 40, 50, 50]);
  });

  it('a plain box has no features', async () => {
    expect((await recognize({ bodyId: 'box' })).features).toEqual([]);
  });

  it('a blind hole: through false, its depth, its floor among its faces, axis into the material, no pocket', async () => {
    const { features } = await recognize({ bodyId: 'blind' });
    expect(features).toHaveLength(1);
    const hole = features[0] as HoleFeature;
    expect(hole.kind).toBe('hole');
    expect(hole.through).toBe(false);
    close(hole.diameter, 6);
    close(hole.depth, 12);
    close(hole.axis[2], -1);
    close(hole.center[2], 20);
    expect(hole.faces).toHaveLength(2);
    const bottom = await faceArea('blind', hole.faces[1]!);
    close(bottom.area!, Math.PI * 9);
    close(bottom.centroid[2], 8);
  });

  it('kinds filters; meshes say why they have none; bad input has codes', async () => {
    const holesOnly = await recognize({ bodyId: 'part', kinds: ['hole'] });
    expect(holesOnly.features.map((f) => f.kind)).toEqual(['hole']);
    const stl = writeBinaryStl({ positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: Uint32Array.from([0, 1, 2]) });
    await engine.run('import_file', { bytes: Buffer.from(stl).toString('base64'), fileName: 't.stl', bodyId: 'tri' });
    const mesh = await recognize({ bodyId: 'tri' });
    expect(mesh.features).toEqual([]);
    expect(mesh.warnings!.map((w) => w.code)).toEqual(['MESH_NO_FEATURES']);
    await expect(recognize({ bodyId: 'ghost' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    await expect(recognize({ bodyId: 'part', kinds: ['slot'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(recognize({ bodyId: 'part', kinds: [] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
