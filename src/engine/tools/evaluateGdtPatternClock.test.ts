import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addMeshBody } from '../../test/deviationFixtures';
import { faceOf } from '../../test/gdtFixtures';
import { makeBox } from '../../test/kernelShapes';
import { occtMesh } from '../../test/scanFixture';
import type { Characteristic } from '../gdt/evaluate';

/**
 * A datum on a pattern of two holes centred on an earlier datum's bore (NIST FTC 9's A|D|E: E's
 * holes either side of D): the pattern only clocks the frame. Its centre, fitted on a mesh, lies a
 * hair off D's axis, and clocked the frame toward that hair: on FTC 9's perfect scan two positions
 * to A|D|E read 26 mm for 0.635. A 100 x 60 x 10 plate (A its bottom), the bore D (radius 5) at
 * (50, 30), the holes E (radius 2) at (30, 30) and (70, 30), a hole (radius 1.5) at (60, 48).
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[] };

function plate(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const progress = () => own(new oc.Message_ProgressRange_1());
    const cylinder = (x: number, y: number, r: number) => own(own(new oc.BRepPrimAPI_MakeCylinder_3(own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, -1)), own(new oc.gp_Dir_4(0, 0, 1)))), r, 12)).Shape());
    let s = own(makeBox(oc, 100, 60, 10));
    for (const [x, y, r] of [[50, 30, 5], [30, 30, 2], [70, 30, 2], [60, 48, 1.5]] as const) s = own(own(new oc.BRepAlgoAPI_Cut_3(s, cylinder(x, y, r), progress())).Shape());
    return own(new oc.BRepBuilderAPI_Copy_2(s, true, false)).Shape();
  });
}

let datums: { label: string; faces: string[] }[], hole: string;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  const shape = plate(oc);
  addShapeBody(oc, engine.scene, 'plate', shape);
  // A perfect mesh scan: the part's own tessellation, as NIST FTC 9's was.
  addMeshBody(engine.scene, 'scan', occtMesh(oc, shape, 0.005));
  const bore = (x: number, y: number, r: number) => faceOf(engine, 'plate', /cylind/i, [x + r, y, 5]);
  datums = [
    { label: 'A', faces: [await faceOf(engine, 'plate', /plan/i, [50, 45, 0])] },
    { label: 'D', faces: [await bore(50, 30, 5)] },
    { label: 'E', faces: [await bore(30, 30, 2), await bore(70, 30, 2)] },
  ];
  hole = await bore(60, 48, 1.5);
}, 120_000);

describe('evaluate_gdt: a pattern datum centred on an earlier datum axis', () => {
  it('only clocks the frame: a hole to A|D|E on a perfect scan reads about 0', async () => {
    const r = (await engine.runJson('evaluate_gdt', { actualBodyId: 'scan', nominalBodyId: 'plate', datums, characteristics: [{ id: 'pos', kind: 'position', faces: [hole], tolerance: 0.05, zone: 'diameter', datums: ['A', 'D', 'E'] }] })).result as unknown as Result;
    const pos = r.characteristics[0]!;
    expect(pos.actual!).toBeLessThan(0.005);
    expect(pos.pass).toBe(true);
  }, 120_000);
});
