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
 * Patterns of elongated holes (slots with round ends) and of counterbored holes, and an orientation
 * on a slot's faces together (NIST FTC 9's tolerance[12]: two slots named by their four round ends;
 * FTC 7's four counterbored holes, each the hole, the counterbore and its floor). Before, each was
 * `pass: null`: the ends read as four arcs, the counterbored holes as planes and cylinders together.
 * Scans are BREP bodies sampled on their exact faces, so the expected readings are closed forms.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);

interface Made {
  /** Slot 2 moved along its length (x) and across (y). */
  dx?: number;
  dy?: number;
  /** Both slots moved by (dx, dy). */
  both?: boolean;
  /** Slot 1 leaned about y (radians) through its middle at mid-thickness. */
  lean?: number;
  /** Counterbored hole 2 moved along x. */
  boreDx?: number;
}

/**
 * An 80 x 50 x 10 plate: slot 1 with round ends of radius 4 about (10, 15) and (30, 15), slot 2 the
 * same about (50, 15) and (70, 15); two counterbored holes (hole radius 3, counterbore radius 5 and
 * 3 deep from the top) at (20, 38) and (60, 38).
 */
function plate(oc: OC, m: Made = {}): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const progress = () => own(new oc.Message_ProgressRange_1());
    const cylinder = (x: number, y: number, r: number, z0: number, h: number) => own(own(new oc.BRepPrimAPI_MakeCylinder_3(own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, z0)), own(new oc.gp_Dir_4(0, 0, 1)))), r, h)).Shape());
    const fuse = (a: TopoDS_Shape, b: TopoDS_Shape) => own(own(new oc.BRepAlgoAPI_Fuse_3(a, b, progress())).Shape());
    const slot = (x1: number, x2: number, y: number) => fuse(fuse(own(makeBox(oc, x2 - x1, 8, 14, [x1, y - 4, -2])), cylinder(x1, y, 4, -2, 14)), cylinder(x2, y, 4, -2, 14));
    const turned = (shape: TopoDS_Shape, at: [number, number, number], angle: number) => {
      if (angle === 0) return shape;
      const t = own(new oc.gp_Trsf_1());
      t.SetRotation_1(own(new oc.gp_Ax1_2(own(new oc.gp_Pnt_3(...at)), own(new oc.gp_Dir_4(0, 1, 0)))), angle);
      return own(shape.Moved(own(new oc.TopLoc_Location_2(t)), false));
    };
    const s1 = turned(slot(10 + (m.both ? (m.dx ?? 0) : 0), 30 + (m.both ? (m.dx ?? 0) : 0), 15 + (m.both ? (m.dy ?? 0) : 0)), [20, 15, 5], m.lean ?? 0);
    const s2 = slot(50 + (m.dx ?? 0), 70 + (m.dx ?? 0), 15 + (m.dy ?? 0));
    const bore = (x: number) => fuse(cylinder(x, 38, 3, -2, 14), cylinder(x, 38, 5, 7, 5));
    let cut = own(makeBox(oc, 80, 50, 10));
    for (const tool of [s1, s2, bore(20)]) cut = own(own(new oc.BRepAlgoAPI_Cut_3(cut, tool, progress())).Shape());
    return own(new oc.BRepAlgoAPI_Cut_3(cut, bore(60 + (m.boreDx ?? 0)), progress())).Shape();
  });
}

/** Each round end's faces (an end across its cylinder's seam is split in two), slots 1 and 2. */
let ends: string[][], flats: string[], bores: string[], datums: { label: string; faces: string[] }[];
const slot1 = () => [...ends[0]!, ...ends[1]!, flats[0]!, flats[1]!];
const slot2 = () => [...ends[2]!, ...ends[3]!, flats[2]!, flats[3]!];
const allEnds = () => ends.flat();

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'plate', plate(oc));
  addShapeBody(oc, engine.scene, 'scan', plate(oc));
  addShapeBody(oc, engine.scene, 'along', plate(oc, { dx: 0.02, dy: 0.006 }));
  addShapeBody(oc, engine.scene, 'across', plate(oc, { dy: 0.006 }));
  addShapeBody(oc, engine.scene, 'both', plate(oc, { dx: 0.02, dy: 0.006, both: true }));
  addShapeBody(oc, engine.scene, 'leaned', plate(oc, { lean: 0.001 }));
  addShapeBody(oc, engine.scene, 'bored', plate(oc, { boreDx: 0.01 }));
  const r = await engine.runJson('query_topology', { bodyId: 'plate', entity: 'face' });
  const faces = r.result as unknown as { id: string; surfaceType: string; centroid: number[] }[];
  ends = [10, 30, 50, 70].map((x) => faces.filter((f) => /cylind/i.test(f.surfaceType) && Math.hypot(f.centroid[0]! - x, f.centroid[1]! - 15) < 4).map((f) => f.id));
  flats = [await faceOf(engine, 'plate', /plan/i, [20, 11, 5]), await faceOf(engine, 'plate', /plan/i, [20, 19, 5]), await faceOf(engine, 'plate', /plan/i, [60, 11, 5]), await faceOf(engine, 'plate', /plan/i, [60, 19, 5])];
  // Every face of the counterbored holes: the cylinders about x = 20 and 60, y = 38, and their floors.
  bores = faces.filter((f) => (Math.abs(f.centroid[0]! - 20) < 6 || Math.abs(f.centroid[0]! - 60) < 6) && Math.abs(f.centroid[1]! - 38) < 6 && (/cylind/i.test(f.surfaceType) || Math.abs(f.centroid[2]! - 7) < 1e-6)).map((f) => f.id);
  datums = [
    { label: 'A', faces: [await faceOf(engine, 'plate', /plan/i, [40, 25, 0])] },
    { label: 'B', faces: [await faceOf(engine, 'plate', /plan/i, [0, 25, 5])] },
    { label: 'C', faces: [await faceOf(engine, 'plate', /plan/i, [40, 0, 5])] },
  ];
}, 240_000);

const pos = (id: string, faces: string[], tolerance: number, d = ['A', 'B', 'C']) => ({ id, kind: 'position', faces, tolerance, datums: d });

describe('evaluate_gdt: patterns of elongated holes and counterbored holes', () => {
  it('finds the features: two slots, with or without their flats; two counterbored holes; the nominal reads 0', async () => {
    expect(new Set([...allEnds(), ...flats]).size).toBeGreaterThanOrEqual(8);
    for (const e of ends) expect(e.length).toBeGreaterThanOrEqual(1);
    // Two counterbored holes: each hole and counterbore split in two half-cylinder faces or whole, and a floor.
    expect(bores.length).toBeGreaterThanOrEqual(6);
    const r = await evaluate({ actualBodyId: 'scan', nominalBodyId: 'plate', datums, characteristics: [pos('slots', [...slot1(), ...slot2()], 0.01), pos('ends', allEnds(), 0.01), pos('bores', bores, 0.01), { id: 'perp', kind: 'perpendicularity', faces: [...slot1(), ...slot2()], tolerance: 0.01, datums: ['A', 'B'] }] });
    for (const c of r.characteristics) {
      expect(c.pass, `${c.id}: ${c.reason ?? c.method}`).toBe(true);
      expect(c.actual!, c.id).toBeLessThan(1e-7);
      expect(c.method, c.id).toMatch(/^pattern of 2 features/);
    }
    expect(r.characteristics[0]!.method).toMatch(/the worse of its two centre planes' positions/);
    expect(r.characteristics[1]!.method).toMatch(/the flats not named/);
    expect(r.characteristics[2]!.method).toMatch(/counterbored hole: the worse of its 2 bores/);
    expect(r.characteristics[2]!.method).toMatch(/its floor: a depth, not located/);
  }, 240_000);

  it('a slot moved 0.02 along and 0.006 across reads 0.04 (its length plane) to A|B|C, its pattern the worst member', async () => {
    const r = await evaluate({ actualBodyId: 'along', nominalBodyId: 'plate', datums, characteristics: [pos('slots', [...slot1(), ...slot2()], 0.05), pos('tight', [...slot1(), ...slot2()], 0.03), pos('ends', allEnds(), 0.05), pos('first', slot1(), 0.01)] });
    const [slots, tight, byEnds, first] = r.characteristics;
    expect(slots!.actual!).toBeCloseTo(0.04, 6);
    expect(slots!.pass).toBe(true);
    expect(slots!.method).toMatch(new RegExp(`reported: the worst, ${slot2()[0]!.replace(/[[\]]/g, '\\$&')}`));
    expect(tight!.pass).toBe(false);
    // Named by the ends alone: the same length plane, and across the ends' centres (0.012).
    expect(byEnds!.actual!).toBeCloseTo(0.04, 6);
    expect(byEnds!.method).toMatch(/width: 0\.012 /);
    expect(first!.actual!).toBeLessThan(1e-7);
  }, 240_000);

  it('to A alone the pattern floats: both slots moved together read 0; one moved 0.006 across reads 0.003 (a turn about A shares it)', async () => {
    const both = await evaluate({ actualBodyId: 'both', nominalBodyId: 'plate', datums, characteristics: [pos('full', [...slot1(), ...slot2()], 0.05), pos('A', [...slot1(), ...slot2()], 0.05, ['A']), pos('endsA', allEnds(), 0.05, ['A'])] });
    expect(both.characteristics[0]!.actual!).toBeCloseTo(0.04, 6);
    expect(both.characteristics[1]!.actual!).toBeLessThan(1e-6);
    expect(both.characteristics[1]!.method).toMatch(/floated together/);
    expect(both.characteristics[2]!.actual!).toBeLessThan(1e-6);
    // Slot 2 0.006 across: translate -0.003 across and turn about A by -0.00015 rad about x = 40, each
    // width plane's ends then within 0.0015 of true: 2 x 0.0015 (the flats span x = 10..30 and 50..70;
    // their samples a little less, which lowers it: 0.003 (20 - 2e) / 40 for a margin e).
    const across = await evaluate({ actualBodyId: 'across', nominalBodyId: 'plate', datums, characteristics: [pos('full', [...slot1(), ...slot2()], 0.05), pos('A', [...slot1(), ...slot2()], 0.05, ['A'])] });
    expect(across.characteristics[0]!.actual!).toBeCloseTo(0.012, 6);
    expect(across.characteristics[1]!.actual!).toBeLessThanOrEqual(0.003 + 1e-9);
    expect(across.characteristics[1]!.actual!).toBeGreaterThan(0.0029);
  }, 240_000);

  it('a counterbored hole moved 0.01 reads 0.02 (both bores) and its pattern the worst', async () => {
    const r = await evaluate({ actualBodyId: 'bored', nominalBodyId: 'plate', datums, characteristics: [pos('bores', bores, 0.03), pos('tight', bores, 0.015)] });
    expect(r.characteristics[0]!.actual!).toBeCloseTo(0.02, 6);
    expect(r.characteristics[0]!.pass).toBe(true);
    expect(r.characteristics[0]!.method).toMatch(/bore 10: 0\.02, bore 6: 0\.02/);
    expect(r.characteristics[1]!.pass).toBe(false);
  }, 240_000);

  it("a slot's orientation: leaned 0.001 rad along its length reads its length plane's lean over the 10 mm depth", async () => {
    const perp = (id: string, faces: string[]) => ({ id, kind: 'perpendicularity', faces, tolerance: 0.02, datums: ['A', 'B'] });
    const r = await evaluate({ actualBodyId: 'leaned', nominalBodyId: 'plate', datums, characteristics: [perp('slot', slot1()), perp('ends', [...ends[0]!, ...ends[1]!]), perp('pattern', [...slot1(), ...slot2()]), perp('other', slot2())] });
    const [slot, byEnds, pattern, other] = r.characteristics;
    // The ends' samples span the 10 mm depth (less the sampling's margin at the edges): 10 tan(0.001) at most.
    for (const c of [slot, byEnds, pattern]) {
      expect(c!.actual!, c!.id).toBeLessThanOrEqual(10 * Math.tan(0.001) + 1e-9);
      expect(c!.actual!, c!.id).toBeGreaterThan(0.95 * 10 * Math.tan(0.001));
    }
    expect(slot!.method).toMatch(/the worse of its two centre planes' orientations/);
    expect(other!.actual!).toBeLessThan(1e-7);
  }, 240_000);
});
