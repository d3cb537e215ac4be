import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { faceOf } from '../../test/gdtFixtures';
import { makeBox } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * An elongated hole (obround slot: two flats and two half-cylinder ends, NIST FTC 10's) read by
 * evaluate_gdt. Its position is not the axis of one round end: that arc's least-squares axis read a
 * number for a true 0 (FTC 10). Now `pass: null` with the reason; the slot (its ends with or without
 * its flats) is read by its two centre planes, the flats alone as a width feature (0 on a perfect
 * scan), and a whole hole is still read by its axis.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);

/**
 * A 60 x 40 x 10 plate with a slot from x = 20 to 40 (ends of radius 5 about (20, 20) and (40, 20))
 * and a hole of radius 4 at (50, 32); the slot moved by (dx, dy) and its ends by `grow` outward.
 */
function slottedPlate(oc: OC, dx = 0, dy = 0, grow = 0): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const progress = () => own(new oc.Message_ProgressRange_1());
    const cylinder = (x: number, y: number, r: number) => own(own(new oc.BRepPrimAPI_MakeCylinder_3(own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, -1)), own(new oc.gp_Dir_4(0, 0, 1)))), r, 12)).Shape());
    const middle = own(makeBox(oc, 20 + 2 * grow, 10, 12, [20 - grow + dx, 15 + dy, -1]));
    let tool = own(own(new oc.BRepAlgoAPI_Fuse_3(middle, cylinder(20 - grow + dx, 20 + dy, 5), progress())).Shape());
    tool = own(own(new oc.BRepAlgoAPI_Fuse_3(tool, cylinder(40 + grow + dx, 20 + dy, 5), progress())).Shape());
    tool = own(own(new oc.BRepAlgoAPI_Fuse_3(tool, cylinder(50, 32, 4), progress())).Shape());
    const plate = own(makeBox(oc, 60, 40, 10));
    return own(new oc.BRepAlgoAPI_Cut_3(plate, tool, progress())).Shape();
  });
}

let ends: string[], flats: string[], hole: string, datums: { label: string; faces: string[] }[];

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'plate', slottedPlate(oc));
  // The scan: the nominal itself, sampled on its exact faces (every position truly 0).
  addShapeBody(oc, engine.scene, 'scan', slottedPlate(oc));
  // Made: the slot 0.02 along its length, 0.006 across, and 0.03 longer at each end.
  addShapeBody(oc, engine.scene, 'moved', slottedPlate(oc, 0.02, 0.006, 0.03));
  ends = [await faceOf(engine, 'plate', /cylind/i, [20 - 10 / Math.PI, 20, 5]), await faceOf(engine, 'plate', /cylind/i, [40 + 10 / Math.PI, 20, 5])];
  flats = [await faceOf(engine, 'plate', /plan/i, [30, 15, 5]), await faceOf(engine, 'plate', /plan/i, [30, 25, 5])];
  hole = await faceOf(engine, 'plate', /cylind/i, [50, 32, 5]);
  datums = [
    { label: 'A', faces: [await faceOf(engine, 'plate', /plan/i, [30, 20, 0])] },
    { label: 'B', faces: [await faceOf(engine, 'plate', /plan/i, [0, 20, 5])] },
    { label: 'C', faces: [await faceOf(engine, 'plate', /plan/i, [30, 0, 5])] },
  ];
}, 120_000);

describe('evaluate_gdt: an elongated hole (slot with round ends)', () => {
  it('the position of a round end is not evaluated (pass null, with the reason); the whole slot, its flats and a whole hole are', async () => {
    expect(new Set([...ends, ...flats, hole]).size).toBe(5);
    const pos = (id: string, faces: string[], zone = 'diameter') => ({ id, kind: 'position', faces, tolerance: 0.01, zone, datums: ['A', 'B', 'C'] });
    const r = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'plate',
      datums,
      characteristics: [pos('end', [ends[0]!]), pos('ends', ends), pos('slot', [...ends, ...flats]), { id: 'perp', kind: 'perpendicularity', faces: [...ends, ...flats], tolerance: 0.01, datums: ['A'] }, pos('flats', flats, 'width'), pos('hole', [hole])],
    });
    const [end, both, slot, perp, flat, whole] = r.characteristics;
    expect(end!.pass).toBeNull();
    expect(end!.actual).toBeNull();
    expect(end!.reason).toMatch(/cover 180 degrees of a cylinder, not a whole hole or shaft/);
    // Both ends named without the flats (NIST FTC 9's tolerance[12]) are the slot, read by its centre
    // planes (before, two arcs, each not evaluated); so is an orientation on its faces together.
    expect(both!.pass).toBe(true);
    expect(both!.actual!).toBeLessThan(1e-9);
    expect(both!.method).toMatch(/the flats not named/);
    expect(perp!.pass).toBe(true);
    expect(perp!.actual!).toBeLessThan(1e-9);
    expect(perp!.method).toMatch(/the worse of its two centre planes' orientations/);
    expect(slot!.pass).toBe(true);
    expect(slot!.actual!).toBeLessThan(1e-9);
    expect(slot!.method).toMatch(/the worse of its two centre planes/);
    // Sampled on the exact faces of the nominal itself: the centre plane and the hole's axis are where drawn.
    expect(flat!.pass).toBe(true);
    expect(flat!.actual!).toBeLessThan(1e-9);
    expect(whole!.pass).toBe(true);
    expect(whole!.actual!).toBeLessThan(1e-9);
  }, 120_000);

  it("a slot's position is the worse of its two centre planes: across its width, and along its length midway between the round ends", async () => {
    const pos = (id: string, faces: string[], tolerance: number) => ({ id, kind: 'position', faces, tolerance, datums: ['A', 'B', 'C'] });
    const r = await evaluate({ actualBodyId: 'moved', nominalBodyId: 'plate', datums, characteristics: [pos('slot', [...ends, ...flats], 0.05), pos('tight', [...ends, ...flats], 0.03), pos('flats', flats, 0.05)] });
    const [slot, tight, flat] = r.characteristics;
    // Along the length the midway plane moved 0.02 (the longer ends move apart alike): 0.04; across, 0.012.
    expect(slot!.actual!).toBeCloseTo(0.04, 4);
    expect(slot!.pass).toBe(true);
    expect(tight!.pass).toBe(false);
    expect(flat!.actual!).toBeCloseTo(0.012, 4);
  }, 120_000);
});
