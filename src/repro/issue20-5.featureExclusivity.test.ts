import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/Engine';
import { withKernel, type OC } from '../engine/kernel';
import { addShapeBody } from '../engine/scene/addShapeBody';
import type { TopologyEntry } from '../engine/tools/queryTopology';
import type { Feature, HoleFeature, PocketFeature } from '../engine/tools/recognizeFeatures';
import { nodeKernel } from '../node/nodeEngine';
import { testEngine } from '../test/testEngine';
import { dataPath } from '../test/data';
import { makeBox, makeCylinder } from '../test/kernelShapes';

/**
 * Issue 20, finding 5 (the engine half). recognize_features listed one face pair twice, each as the
 * other's floor (depth 50 and 40 on a CAx-IF part: the inside corner of an L bracket), and found 28
 * pockets on a motor part, 7 of them mutual pairs. Now each face belongs to at most one feature; a step
 * (one wall, open) and a boss standing on a face (a bolt's shank on its head) are not pockets; the
 * order is holes, then pockets, each by lowest face index.
 */

let oc: OC;
let engine: Engine;
const recognize = async (bodyId: string) => ((await engine.run('recognize_features', { bodyId })).result as { features: Feature[] }).features;
const faces = async (bodyId: string) => (await engine.run('query_topology', { bodyId, entity: 'face' })).result as TopologyEntry[];
const faceIndex = (id: string) => Number(id.slice(5, -1));

/** Every face in at most one feature, and the documented order: holes, then pockets, each by lowest face index. */
function expectExclusiveAndOrdered(features: Feature[]): void {
  const all = features.flatMap((f) => f.faces);
  expect(new Set(all).size).toBe(all.length);
  const key = (f: Feature) => [f.kind === 'hole' ? 0 : 1, Math.min(...f.faces.map(faceIndex))] as const;
  for (let i = 1; i < features.length; i++) {
    const [a, b] = [key(features[i - 1]!), key(features[i]!)];
    expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])).toBe(true);
  }
}

const cut = (a: TopoDS_Shape, ...tools: TopoDS_Shape[]): TopoDS_Shape =>
  withKernel(oc, (own) => {
    let shape = a;
    for (const t of tools) shape = own(new oc.BRepAlgoAPI_Cut_3(own(shape), own(t), own(new oc.Message_ProgressRange_1()))).Shape();
    return shape;
  });
/** A z-axis cylinder of radius r from z0 to z0 + h at (x, y). */
const rod = (x: number, y: number, r: number, z0: number, h: number): TopoDS_Shape =>
  withKernel(oc, (own) => own(new oc.BRepPrimAPI_MakeCylinder_3(own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, z0)), own(new oc.gp_Dir_4(0, 0, 1)))), r, h)).Shape());
const fuse = (a: TopoDS_Shape, b: TopoDS_Shape): TopoDS_Shape =>
  withKernel(oc, (own) => own(new oc.BRepAlgoAPI_Fuse_3(own(a), own(b), own(new oc.Message_ProgressRange_1()))).Shape());

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  // An L: a 40 x 30 x 20 block less its upper half beyond x = 20 (floor z = 10, wall x = 20).
  addShapeBody(oc, engine.scene, 'step', cut(makeBox(oc, 40, 30, 20), makeBox(oc, 30, 40, 20, [20, -5, 10])));
  // A corner notch 10 x 10 x 10: three faces meeting pairwise over concave edges.
  addShapeBody(oc, engine.scene, 'notch', cut(makeBox(oc, 40, 30, 20), makeBox(oc, 20, 20, 20, [30, 20, 10])));
  // A slot 10 wide and 8 deep, open at both ends, across the block's y.
  addShapeBody(oc, engine.scene, 'slot', cut(makeBox(oc, 40, 30, 20), makeBox(oc, 10, 40, 10, [15, -5, 12])));
  // A bolt: a shank of radius 4 (z 0..20) on a head of radius 7 (z -4..0).
  addShapeBody(oc, engine.scene, 'bolt', fuse(makeCylinder(oc, 4, 20), makeCylinder(oc, 7, 4, -4)));
  // A closed pocket 20 x 10 x 6 with a through hole of radius 2 in its floor.
  addShapeBody(oc, engine.scene, 'pocketHole', cut(makeBox(oc, 40, 30, 20), makeBox(oc, 20, 10, 10, [10, 10, 14]), rod(20, 15, 2, -10, 40)));
});

describe('each face in at most one feature; steps and bosses are not pockets (issue 20.5)', () => {
  it('an L step: no pocket (it was two, each face the floor of the other)', async () => {
    expect(await recognize('step')).toEqual([]);
  });

  it('a corner notch: one open pocket, the upward face its floor and the two others its walls', async () => {
    const features = await recognize('notch');
    expect(features).toHaveLength(1);
    const pocket = features[0] as PocketFeature;
    const entries = await faces('notch');
    const floor = entries.find((f) => f.id === pocket.floor)!;
    expect(floor.centroid[2]).toBeCloseTo(10, 12);
    expect(pocket).toMatchObject({ closed: false, depth: 10, length: 10, width: 10 });
    expect(pocket.walls).toHaveLength(2);
  });

  it('a slot open at both ends: one pocket, its floor and two walls, 30 long, 10 wide, 8 deep', async () => {
    const features = await recognize('slot');
    expect(features).toHaveLength(1);
    expect(features[0]).toMatchObject({ kind: 'pocket', closed: false, depth: 8, length: 30, width: 10 });
    expect((features[0] as PocketFeature).walls).toHaveLength(2);
  });

  it("a bolt's head under its shank is a boss on a face, not a pocket", async () => {
    expect(await recognize('bolt')).toEqual([]);
  });

  it('a closed pocket with a hole through its floor: the pocket stays closed, the hole is its own feature', async () => {
    const features = await recognize('pocketHole');
    expect(features.map((f) => f.kind)).toEqual(['hole', 'pocket']);
    expect(features[0]).toMatchObject({ diameter: 4, through: true });
    expect(features[1]).toMatchObject({ closed: true, depth: 6, length: 20, width: 10 });
    expectExclusiveAndOrdered(features);
  });

  it('real parts: AS1 (CAx-IF) has its 22 holes and no pocket; CrankArm, Pump_Nut and sg1-c5 list every face at most once, in a stable order', async () => {
    await engine.run('import_file', { path: dataPath('cax-if/as1_pe_203.stp'), bodyId: 'as1' });
    const as1 = await recognize('as1');
    expect(as1.filter((f) => f.kind === 'pocket')).toEqual([]);
    expect(as1.filter((f): f is HoleFeature => f.kind === 'hole')).toHaveLength(22);
    expectExclusiveAndOrdered(as1);
    for (const [id, file] of [
      ['crank', 'occt/CrankArm.brep'],
      ['nut', 'occt/Pump_Nut.brep'],
      ['sg1', 'cax-if/sg1-c5-214.stp'],
    ] as const) {
      await engine.run('import_file', { path: dataPath(file), bodyId: id });
      const first = await recognize(id);
      expectExclusiveAndOrdered(first);
      expect(await recognize(id)).toEqual(first);
    }
  });
});
