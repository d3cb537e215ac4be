import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { faceOf } from '../../test/gdtFixtures';
import { compoundOf, makeBox, makeCylinder, shellWithout } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * Characteristics on supplemental geometry: NIST's AP242 parts keep construction surfaces beside the
 * solid (copies of some of its faces, or a region of one) and their PMI names them (FTC 10's 5.5 mm
 * hole diameters, CTC 4's profile of a square region, CTC 2's datum K). The scan is split by the
 * solid's faces only, so each such characteristic had 0 samples (`pass: null`). A 100 x 100 x 10
 * plate with a bore of radius 3 through it, and beside it: a 2 mm long split of the bore (z 8..10),
 * two 20 x 20 squares on the top face, and a square 1 above it (on no face of the solid). The scan:
 * the plate with its top raised by STEP for x >= 25 and its bore of radius RS.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[]; datums: { label: string; samples: number; reason?: string }[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);

const STEP = 0.2, R = 3, RS = 3.05;
const progress = () => new oc.Message_ProgressRange_1();

/** The top face (z = z0 + dz) of a box, alone in an open shell: a construction square. */
const topOf = (dx: number, dy: number, at: [number, number, number]) => {
  const b = makeBox(oc, dx, dy, 1, [at[0], at[1], at[2] - 1]);
  try {
    return shellWithout(oc, b, [0, 1, 2, 3, 4], false);
  } finally {
    b.delete();
  }
};

function drilled(top: TopoDS_Shape, r: number): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(0, 0, -1)), own(new oc.gp_Dir_4(0, 0, 1))));
    const tool = own(own(new oc.BRepPrimAPI_MakeCylinder_3(axes, r, 20)).Shape());
    return own(new oc.BRepAlgoAPI_Cut_3(top, tool, own(progress()))).Shape();
  });
}

let bore: string, top: string, left: string, across: string, above: string, split: string;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  const plate = makeBox(oc, 100, 100, 10, [-50, -50, 0]);
  const solid = drilled(plate, R);
  // The bore's last 2 mm as a cylinder face of its own (CATIA's "Split"): the lateral face of a cylinder.
  const cyl = makeCylinder(oc, R, 2, 8);
  const splitFace = shellWithout(oc, cyl, [1, 2], false);
  const squares = [topOf(20, 20, [-30, -30, 10]), topOf(20, 20, [15, -10, 10]), topOf(20, 20, [-30, 10, 11])];
  addShapeBody(oc, engine.scene, 'part', compoundOf(oc, [solid, splitFace, ...squares]));
  // The scan: the top raised by STEP over x >= 25, the bore of radius RS.
  const raised = withKernel(oc, (own) => own(new oc.BRepAlgoAPI_Fuse_3(own(makeBox(oc, 100, 100, 10, [-50, -50, 0])), own(makeBox(oc, 25, 100, STEP, [25, -50, 10])), own(progress()))).Shape());
  addShapeBody(oc, engine.scene, 'scan', drilled(raised, RS));
  for (const s of [plate, solid, cyl, splitFace, ...squares, raised]) s.delete();
  bore = await faceOf(engine, 'part', /cylind/i, [0, 0, 5]);
  split = await faceOf(engine, 'part', /cylind/i, [0, 0, 9]);
  top = await faceOf(engine, 'part', /plan/i, [0, 0, 10]);
  left = await faceOf(engine, 'part', /plan/i, [-20, -20, 10]);
  across = await faceOf(engine, 'part', /plan/i, [25, 0, 10]);
  above = await faceOf(engine, 'part', /plan/i, [-20, 20, 11]);
}, 120_000);

describe('evaluate_gdt on construction faces beside the solid', () => {
  it('the fixture: the named faces are the construction ones, not the solid\'s', () => {
    expect(new Set([bore, split, top, left, across, above]).size).toBe(6);
  });

  it('a diameter on a split of the bore reads the bore within the split (was 0 samples)', async () => {
    const r = await evaluate({ actualBodyId: 'scan', nominalBodyId: 'part', characteristics: [{ id: 'd', kind: 'diameter', faces: [split], nominal: 2 * R, upper: 0.2, lower: -0.2 }] });
    const c = r.characteristics[0]!;
    expect(c.actual!).toBeCloseTo(2 * RS, 9);
    expect(c.pass).toBe(true);
    // More drawn near the split alone (a fifth of the bore): at least the 300 a small feature gets.
    expect(c.samples).toBeGreaterThanOrEqual(300);
    expect(c.method).toContain(`${split}: supplemental geometry beside the solid`);
    expect(c.method).toContain(`read on the solid's ${bore} within its boundary`);
  });

  it("flatness of a square region of the top reads that region only: 0 where it is level, the step where it straddles it", async () => {
    const r = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'part',
      characteristics: [
        { id: 'level', kind: 'flatness', faces: [left], tolerance: 0.05 },
        { id: 'straddle', kind: 'flatness', faces: [across], tolerance: 0.05 },
        { id: 'whole', kind: 'flatness', faces: [top], tolerance: 0.05 },
      ],
    });
    const [level, straddle, whole] = r.characteristics;
    expect(level!.actual!).toBeLessThan(1e-9);
    expect(level!.pass).toBe(true);
    // A step of 0.2 at x = 25: no tilt of a slab narrows it (both levels reach the step's line).
    expect(straddle!.actual!).toBeGreaterThan(STEP - 2e-3);
    expect(straddle!.actual!).toBeLessThan(STEP + 1e-9);
    expect(straddle!.pass).toBe(false);
    expect(whole!.actual!).toBeCloseTo(straddle!.actual!, 2);
    // The level square's samples are those of the top within x, y in [-30, -10]: a fifth squared of the top's.
    expect(level!.samples).toBeGreaterThan(12);
    expect(level!.samples).toBeLessThan(whole!.samples / 10);
  });

  it('a construction face on no face of the solid is said to be no part of it', async () => {
    const r = await evaluate({ actualBodyId: 'scan', nominalBodyId: 'part', characteristics: [{ id: 'p', kind: 'flatness', faces: [above], tolerance: 0.05 }] });
    const c = r.characteristics[0]!;
    expect(c.pass).toBeNull();
    expect(c.samples).toBe(0);
    expect(c.reason).toContain(`${above}: supplemental geometry that lies on no face of the solid (not part of the measured part)`);
  });

  it('a datum on a construction face is simulated on the solid face under it (CTC 2 datum K; was 0 samples)', async () => {
    const r = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'part',
      datums: [{ label: 'K', faces: [left] }],
      characteristics: [{ id: 'perp', kind: 'perpendicularity', faces: [bore], tolerance: 0.05, zone: 'diameter', datums: ['K'] }],
    });
    expect(r.datums.find((d) => d.label === 'K')!.samples).toBeGreaterThan(12);
    const k = r.datums.find((d) => d.label === 'K') as unknown as { feature: { normal: number[]; point: number[] } };
    // K is the level square of the top (z = 10), not the whole top (raised by STEP beyond x = 25).
    expect(k.feature.normal[2]!).toBeCloseTo(1, 12);
    expect(k.feature.point[2]!).toBeCloseTo(10, 9);
    const [perp] = r.characteristics;
    // The scan's bore is square to its top: perpendicularity 0 (was pass: null, datum K without samples).
    expect(perp!.actual!).toBeLessThan(1e-6);
    expect(perp!.pass).toBe(true);
  });
});
