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
 * What the datums leave free floats for a width feature's position and for an axis's orientation
 * (ASME Y14.5-2018 ch. 7 and 6, ISO 1101): a 100 x 60 x 20 block (A its bottom, B the face x = 0, C
 * the face y = 0) with two slots along x (sides y = 25 and 35, y = 45 and 55, floor z = 10) and a
 * hole of radius 3 along x (axis y = 12, z = 6). Before, a slot displaced whole or turned about A read the
 * misplacement as position error to A alone, and a hole turned about A as parallelism error to A.
 * The scans are BREP bodies sampled on their exact faces: the closed forms hold to rounding.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[] };
const evaluate = (actualBodyId: string, characteristics: object[]) =>
  engine.runJson('evaluate_gdt', { actualBodyId, nominalBodyId: 'block', datums: datums(), characteristics }).then((r) => (r.result as unknown as Result).characteristics);

/** The slot moved by D along y; turned by THETA about z through its centre (50, 30). */
const D = 0.05, THETA = 0.002;
/** The hole turned by PSI about z and tilted by BETA about y, both through (50, 12, 6). */
const PSI = 0.003, BETA = 0.001;

interface Misplacement {
  slotShift?: number;
  slot2Shift?: number;
  slotTurn?: number;
  holeTurn?: number;
  holeTilt?: number;
}

function block(oc: OC, m: Misplacement = {}): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const progress = () => own(new oc.Message_ProgressRange_1());
    const about = (shape: TopoDS_Shape, at: [number, number, number], dir: [number, number, number], angle: number): TopoDS_Shape => {
      if (angle === 0) return shape;
      const t = own(new oc.gp_Trsf_1());
      t.SetRotation_1(own(new oc.gp_Ax1_2(own(new oc.gp_Pnt_3(...at)), own(new oc.gp_Dir_4(...dir)))), angle);
      return own(shape.Moved(own(new oc.TopLoc_Location_2(t)), false));
    };
    let slot = own(makeBox(oc, 120, 10, 15, [-10, 25 + (m.slotShift ?? 0), 10]));
    slot = about(slot, [50, 30, 10], [0, 0, 1], m.slotTurn ?? 0);
    const slot2 = own(makeBox(oc, 120, 10, 15, [-10, 45 + (m.slot2Shift ?? 0), 10]));
    const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(-10, 12, 6)), own(new oc.gp_Dir_4(1, 0, 0))));
    let hole = own(own(new oc.BRepPrimAPI_MakeCylinder_3(axes, 3, 120)).Shape());
    hole = about(hole, [50, 12, 6], [0, 1, 0], m.holeTilt ?? 0);
    hole = about(hole, [50, 12, 6], [0, 0, 1], m.holeTurn ?? 0);
    let cut = own(own(new oc.BRepAlgoAPI_Cut_3(own(makeBox(oc, 100, 60, 20)), slot, progress())).Shape());
    cut = own(own(new oc.BRepAlgoAPI_Cut_3(cut, slot2, progress())).Shape());
    return own(new oc.BRepAlgoAPI_Cut_3(cut, hole, progress())).Shape();
  });
}

let sides: string[], sides2: string[], bore: string, A: string, B: string, C: string;
const datums = () => [
  { label: 'A', faces: [A] },
  { label: 'B', faces: [B] },
  { label: 'C', faces: [C] },
];
const position = (id: string, datums: string[], faces = sides) => ({ id, kind: 'position', faces, tolerance: 0.05, zone: 'width', datums });
const orientation = (id: string, kind: string, faces: string[], datums: string[], tolerance = 0.05) => ({ id, kind, faces, tolerance, datums });

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'block', block(oc));
  addShapeBody(oc, engine.scene, 'shifted', block(oc, { slotShift: D }));
  addShapeBody(oc, engine.scene, 'bothShifted', block(oc, { slotShift: D, slot2Shift: D }));
  addShapeBody(oc, engine.scene, 'turned', block(oc, { slotTurn: THETA, holeTurn: PSI, holeTilt: BETA }));
  sides = [await faceOf(engine, 'block', /plan/i, [50, 25, 15]), await faceOf(engine, 'block', /plan/i, [50, 35, 15])];
  sides2 = [await faceOf(engine, 'block', /plan/i, [50, 45, 15]), await faceOf(engine, 'block', /plan/i, [50, 55, 15])];
  bore = await faceOf(engine, 'block', /cylind/i, [50, 12, 6]);
  A = await faceOf(engine, 'block', /plan/i, [50, 30, 0]);
  B = await faceOf(engine, 'block', /plan/i, [0, 30, 10]);
  C = await faceOf(engine, 'block', /plan/i, [50, 0, 10]);
}, 120_000);

describe('evaluate_gdt: a width feature\'s position floats in what its datums leave free', () => {
  it('a slot displaced whole by d reads 2d to A|B|C and 0 to A alone and to A|B (the datums leave y free)', async () => {
    expect(new Set([...sides, ...sides2, bore, A, B, C]).size).toBe(8);
    const [abc, ab, a] = await evaluate('shifted', [position('abc', ['A', 'B', 'C']), position('ab', ['A', 'B']), position('a', ['A'])]);
    expect(abc!.actual!).toBeCloseTo(2 * D, 9);
    expect(abc!.pass).toBe(false);
    for (const c of [ab!, a!]) {
      expect(c.actual!, c.id).toBeLessThan(1e-9);
      expect(c.pass, c.id).toBe(true);
      expect(c.method, c.id).toContain('centre plane floated in what the datums leave free');
      expect(c.method, c.id).toContain(`the worst ${2 * D} as placed`);
    }
  }, 120_000);

  it('a slot turned by a small angle about A reads 2 x its half length x tan(angle) where A|B clock it, 0 to A alone', async () => {
    const [abc, ab, a, perpA, perpAB] = await evaluate('turned', [
      position('abc', ['A', 'B', 'C']),
      position('ab', ['A', 'B']),
      position('a', ['A']),
      orientation('perpA', 'perpendicularity', sides, ['A']),
      orientation('parB', 'perpendicularity', sides, ['A', 'B']),
    ]);
    // The centre plane's ends lie (x - 50) tan(theta) off; the samples stop short of x = 0 and 100
    // by the border margin (0.1% of the diagonal, 0.12) and the sampling (under 1 mm).
    const full = 100 * Math.tan(THETA);
    for (const c of [abc!, ab!]) {
      expect(c.actual!, c.id).toBeLessThanOrEqual(full + 1e-9);
      expect(c.actual!, c.id).toBeGreaterThan(0.98 * full);
      expect(c.pass, c.id).toBe(false);
    }
    expect(a!.actual!).toBeLessThan(1e-9);
    expect(a!.pass).toBe(true);
    // Orientation: to A alone the turn is free (the true error, 0); A|B fix it: the extent across the basic normal.
    expect(perpA!.actual!).toBeLessThan(1e-9);
    expect(perpAB!.actual!).toBeLessThanOrEqual(full + 1e-9);
    expect(perpAB!.actual!).toBeGreaterThan(0.98 * full);
  }, 120_000);
});

describe('evaluate_gdt: a pattern of width features floats as one group', () => {
  it('two slots are two features (not one plane through three sides); displaced together they read 2d to A|B|C and 0 to A', async () => {
    const pattern = [...sides, ...sides2];
    const [abc, a, placed] = await evaluate('bothShifted', [position('abc', ['A', 'B', 'C'], pattern), position('a', ['A'], pattern), position('placed', ['A', 'B', 'C'], pattern)]);
    expect(abc!.actual!).toBeCloseTo(2 * D, 9);
    expect(abc!.method).toContain('pattern of 2 features');
    expect(a!.actual!).toBeLessThan(1e-9);
    expect(a!.method).toContain("the pattern's 2 centre planes floated together in what the datums leave free (2 translations and 1 rotation)");
    expect(placed!.pass).toBe(false);
  }, 120_000);

  it('one slot moved by d against the other reads 2d to A|B|C and d to A alone (a rigid motion can share the offset, not undo it)', async () => {
    const pattern = [...sides, ...sides2];
    const [abc, a] = await evaluate('shifted', [position('abc', ['A', 'B', 'C'], pattern), position('a', ['A'], pattern)]);
    expect(abc!.actual!).toBeCloseTo(2 * D, 9);
    expect(a!.actual!).toBeCloseTo(D, 9);
    // On the nominal itself both read 0.
    const [still] = await evaluate('block', [position('still', ['A'], pattern)]);
    expect(still!.actual!).toBeLessThan(1e-9);
  }, 120_000);
});

describe('evaluate_gdt: an axis\'s orientation turns about the primary when the datums leave that free', () => {
  it('a hole turned about A and tilted reads its tilt alone to A, the whole misalignment to A|B', async () => {
    const [a, ab] = await evaluate('turned', [orientation('a', 'parallelism', [bore], ['A'], 0.15), orientation('ab', 'parallelism', [bore], ['A', 'B'], 0.15)]);
    // The axis over the samples' length (100, less the border margin at each end): tilt x length to A;
    // tilt and turn together (the angle between the axes) to A|B.
    const tilt = 100 * Math.sin(BETA), both = 100 * Math.sin(Math.acos(Math.cos(BETA) * Math.cos(PSI)));
    expect(a!.actual!).toBeLessThanOrEqual(tilt + 1e-9);
    expect(a!.actual!).toBeGreaterThan(0.98 * tilt);
    expect(a!.pass).toBe(true);
    expect(a!.method).toContain('turned about datum A to its narrowest');
    expect(ab!.actual!).toBeLessThanOrEqual(both + 1e-9);
    expect(ab!.actual!).toBeGreaterThan(0.98 * both);
    expect(ab!.pass).toBe(false);
  }, 120_000);
});
