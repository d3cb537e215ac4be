import { beforeAll, describe, expect, it } from 'vitest';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import type { Engine } from '../Engine';
import { withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { makeBox, makeCylinder } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * Issue 30: runout, coaxiality, concentricity, symmetry and common datums through evaluate_gdt,
 * against closed forms. Nominals made with the kernel; scans generated as point clouds.
 *
 * The shaft: journals of radius 6 (A: z 0 to 15, B: z 30 to 45) and a middle diameter of radius 10
 * (z 15 to 30); sampled every 5 degrees (0 and 180 among them), in rings every 0.5 along z.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[]; datums: { label: string; samples: number; reason?: string }[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);

function fuse(a: TopoDS_Shape, b: TopoDS_Shape): TopoDS_Shape {
  return withKernel(oc, (own) => own(new oc.BRepAlgoAPI_Fuse_3(own(a), own(b), own(new oc.Message_ProgressRange_1()))).Shape());
}

function cut(a: TopoDS_Shape, b: TopoDS_Shape): TopoDS_Shape {
  return withKernel(oc, (own) => own(new oc.BRepAlgoAPI_Cut_3(own(a), own(b), own(new oc.Message_ProgressRange_1()))).Shape());
}

/** Rings of radius r(z) about (cx, cy) for z from z0 to z1 in steps of 0.5, every 5 degrees. */
function rings(pts: number[], z0: number, z1: number, r: (z: number) => number, cx = 0, cy = 0): void {
  for (let z = z0; z <= z1 + 1e-9; z += 0.5)
    for (let k = 0; k < 72; k++) {
      const t = (k * Math.PI) / 36;
      pts.push(cx + r(z) * Math.cos(t), cy + r(z) * Math.sin(t), z);
    }
}

/** The step's annulus at z = 15 (radii 6.5 to 9.5, rings every 0.5), wobbling: z = 15 + WOBBLE x. */
const WOBBLE = 0.001;
function annulus(pts: number[], wobble: number): void {
  for (let rho = 6.5; rho <= 9.5 + 1e-9; rho += 0.5)
    for (let k = 0; k < 72; k++) {
      const t = (k * Math.PI) / 36, x = rho * Math.cos(t);
      pts.push(x, rho * Math.sin(t), 15 + wobble * x);
    }
}

// The journals' axis at x = DELTA, the middle's at x = E: the middle is E - DELTA off the common axis.
const DELTA = 0.05, E = 0.02;
/** The middle scanned tapered about the true axis: r = 10 + TAPER (z - 22.5). */
const TAPER = 0.002;
/** The slot's sides scanned shifted by SHIFT along x. */
const SHIFT = 0.03;

const ids: Record<string, string> = {};

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'shaft', fuse(fuse(makeCylinder(oc, 6, 15), makeCylinder(oc, 10, 15, 15)), makeCylinder(oc, 6, 15, 30)));
  ids.A = await faceOf(engine, 'shaft', /cylind/i, [6, 0, 7.5]);
  ids.B = await faceOf(engine, 'shaft', /cylind/i, [6, 0, 37.5]);
  ids.middle = await faceOf(engine, 'shaft', /cylind/i, [10, 0, 22.5]);
  ids.step = await faceOf(engine, 'shaft', /plan/i, [0, 0, 15]);
  // The shaft with the middle's y < 0 half cut away: its middle face is a half turn.
  const shaft = fuse(fuse(makeCylinder(oc, 6, 15), makeCylinder(oc, 10, 15, 15)), makeCylinder(oc, 6, 15, 30));
  addShapeBody(oc, engine.scene, 'halfShaft', cut(shaft, makeBox(oc, 22, 11, 15, [-11, -11, 15])));
  ids.halfA = await faceOf(engine, 'halfShaft', /cylind/i, [6, 0, 7.5]);
  ids.halfB = await faceOf(engine, 'halfShaft', /cylind/i, [6, 0, 37.5]);
  ids.halfMiddle = await faceOf(engine, 'halfShaft', /cylind/i, [0, 10, 22.5]);
  // A 40 x 30 x 20 block with a slot 10 wide (x 15 to 25) and 10 deep along y.
  addShapeBody(oc, engine.scene, 'slotted', cut(makeBox(oc, 40, 30, 20), makeBox(oc, 10, 32, 11, [15, -1, 10])));
  for (const [k, x] of [['x0', 0], ['x40', 40], ['s15', 15], ['s25', 25]] as const) ids[k] = await faceOf(engine, 'slotted', /plan/i, [x, 15, k.startsWith('s') ? 15 : 10]);
  ids.base = await faceOf(engine, 'slotted', /plan/i, [20, 15, 0]);

  const offset: number[] = [];
  rings(offset, 1, 14, () => 6, DELTA);
  rings(offset, 31, 44, () => 6, DELTA);
  rings(offset, 16, 29, () => 10, E);
  addCloud(engine, 'offset', offset);
  const tapered: number[] = [];
  rings(tapered, 1, 14, () => 6);
  rings(tapered, 31, 44, () => 6);
  rings(tapered, 16, 29, (z) => 10 + TAPER * (z - 22.5));
  annulus(tapered, WOBBLE);
  addCloud(engine, 'tapered', tapered);

  // The half turn's axis E off the datum axis along y: each arc reads about E sin(t); sampled from
  // 10 to 170 degrees, clear of the border margin at the face's edges.
  const half: number[] = [];
  rings(half, 1, 14, () => 6);
  rings(half, 31, 44, () => 6);
  for (let z = 16; z <= 29 + 1e-9; z += 0.5)
    for (let k = 2; k <= 34; k++) {
      const t = (k * Math.PI) / 36;
      half.push(10 * Math.cos(t), E + 10 * Math.sin(t), z);
    }
  addCloud(engine, 'half', half);

  const slot: number[] = [];
  for (let y = 1; y <= 29; y += 1) {
    for (let z = 1; z <= 19; z += 1) slot.push(0, y, z, 40, y, z);
    for (let z = 11; z <= 19; z += 1) slot.push(15 + SHIFT, y, z, 25 + SHIFT, y, z);
  }
  addCloud(engine, 'slot', slot);
  // The same with the block's base (z = 0) scanned, for a frame whose primary is the base.
  const based = [...slot];
  for (let x = 1; x <= 39; x += 1) for (let y = 1; y <= 29; y += 1) based.push(x, y, 0);
  addCloud(engine, 'slotOnBase', based);
});

const datums = () => [
  { label: 'A', faces: [ids.A!] },
  { label: 'B', faces: [ids.B!] },
];

describe('evaluate_gdt: runout, coaxiality, concentricity, common datums', () => {
  it('the middle diameter E - DELTA off the common axis A-B: coaxiality, concentricity, circular and total runout = 2 |E - DELTA|', async () => {
    const kinds = ['coaxiality', 'concentricity', 'circularRunout', 'totalRunout'];
    const r = await evaluate({
      actualBodyId: 'offset',
      nominalBodyId: 'shaft',
      datums: datums(),
      characteristics: [
        ...kinds.map((kind) => ({ id: kind, kind, faces: [ids.middle!], tolerance: 0.05, zone: kind.endsWith('Runout') ? 'width' : 'diameter', datums: ['A-B'] })),
        { id: 'toA', kind: 'coaxiality', faces: [ids.middle!], tolerance: 0.1, zone: 'diameter', datums: ['A'] },
        { id: 'toUnknown', kind: 'coaxiality', faces: [ids.middle!], tolerance: 0.1, zone: 'diameter', datums: ['A-C'] },
        { id: 'noDatum', kind: 'circularRunout', faces: [ids.middle!], tolerance: 0.1 },
      ],
    });
    const byId = Object.fromEntries(r.characteristics.map((c) => [c.id, c]));
    for (const kind of kinds) {
      expect(byId[kind]!.actual, kind).toBeCloseTo(2 * Math.abs(E - DELTA), 9);
      expect(byId[kind]!.pass, kind).toBe(false);
      expect(byId[kind]!.datums).toEqual(['A-B']);
    }
    expect(byId.toA!.actual).toBeCloseTo(2 * Math.abs(E - DELTA), 9);
    expect(byId.toA!.pass).toBe(true);
    expect(byId.toUnknown!.pass).toBeNull();
    expect(byId.toUnknown!.reason).toMatch(/A-C is not defined/);
    expect(byId.noDatum!.pass).toBeNull();
    expect(byId.noDatum!.reason).toMatch(/needs a datum/);
    // The common datum is reported with both journals' samples: 27 rings of 72 each.
    const common = r.datums.find((d) => d.label === 'A-B')!;
    const a = r.datums.find((d) => d.label === 'A')!, b = r.datums.find((d) => d.label === 'B')!;
    expect(a.samples).toBe(27 * 72);
    expect(common.samples).toBe(a.samples + b.samples);
  });

  it('a tapered diameter: circular runout 0, total runout = the taper over its length; a wobbling face across the axis: 2 WOBBLE rho', async () => {
    const r = await evaluate({
      actualBodyId: 'tapered',
      nominalBodyId: 'shaft',
      datums: datums(),
      characteristics: [
        { id: 'circ', kind: 'circularRunout', faces: [ids.middle!], tolerance: 0.01, datums: ['A-B'] },
        { id: 'total', kind: 'totalRunout', faces: [ids.middle!], tolerance: 0.01, datums: ['A-B'] },
        { id: 'coax', kind: 'coaxiality', faces: [ids.middle!], tolerance: 0.01, zone: 'diameter', datums: ['A-B'] },
        { id: 'faceCirc', kind: 'circularRunout', faces: [ids.step!], tolerance: 0.02, datums: ['A-B'] },
        { id: 'faceTotal', kind: 'totalRunout', faces: [ids.step!], tolerance: 0.02, datums: ['A-B'] },
      ],
    });
    const [circ, total, coax, faceCirc, faceTotal] = r.characteristics;
    expect(circ!.actual).toBeLessThan(1e-9);
    expect(circ!.pass).toBe(true);
    // Rings from z = 16 to 29: radii 10 + TAPER (z - 22.5).
    expect(total!.actual).toBeCloseTo(13 * TAPER, 9);
    expect(total!.pass).toBe(false);
    expect(coax!.actual).toBeLessThan(1e-9);
    // Circles by radius (15 slices of 6.5 .. 9.5, 0.06 thick) hold the rings at 7, 8 and 9: the
    // largest reads 2 WOBBLE 9; the whole face, out to 9.5, 2 WOBBLE 9.5.
    expect(faceCirc!.actual).toBeCloseTo(2 * WOBBLE * 9, 9);
    expect(faceTotal!.actual).toBeCloseTo(2 * WOBBLE * 9.5, 9);
  });
});

describe('evaluate_gdt: runout of a feature that is not a whole turn', () => {
  it('a half-turn face E off the axis: circular and total runout read the arcs it has (about E; a whole turn would read 2E)', async () => {
    const r = await evaluate({
      actualBodyId: 'half',
      nominalBodyId: 'halfShaft',
      datums: [
        { label: 'A', faces: [ids.halfA!] },
        { label: 'B', faces: [ids.halfB!] },
      ],
      characteristics: [
        { id: 'circ', kind: 'circularRunout', faces: [ids.halfMiddle!], tolerance: 0.03, datums: ['A-B'] },
        { id: 'total', kind: 'totalRunout', faces: [ids.halfMiddle!], tolerance: 0.015, datums: ['A-B'] },
        { id: 'coax', kind: 'coaxiality', faces: [ids.halfMiddle!], tolerance: 0.1, zone: 'diameter', datums: ['A-B'] },
      ],
    });
    const [circ, total, coax] = r.characteristics;
    // Readings: |p| - 10 = sqrt(100 + E^2 + 20 E sin t) - 10, least at t = 10 degrees, most at 90.
    const reading = (t: number) => Math.sqrt(100 + E * E + 20 * E * Math.sin(t)) - 10;
    const expected = reading(Math.PI / 2) - reading(Math.PI / 18);
    expect(circ!.actual).toBeCloseTo(expected, 9);
    expect(circ!.method).toMatch(/arcs of about 160 degrees/);
    expect(circ!.pass).toBe(true);
    expect(total!.actual).toBeCloseTo(expected, 9);
    expect(total!.pass).toBe(false);
    // Coaxiality fits circle centres: half turns are not enough.
    expect(coax!.pass).toBeNull();
  });
});

describe('evaluate_gdt: symmetry to a width datum', () => {
  it("a slot shifted by SHIFT from the block's centre plane: symmetry = 2 SHIFT", async () => {
    const r = await evaluate({
      actualBodyId: 'slot',
      nominalBodyId: 'slotted',
      datums: [{ label: 'A', faces: [ids.x0!, ids.x40!] }],
      characteristics: [
        { id: 'sym', kind: 'symmetry', faces: [ids.s15!, ids.s25!], tolerance: 0.05, datums: ['A'] },
        { id: 'pos', kind: 'position', faces: [ids.s15!, ids.s25!], tolerance: 0.1, datums: ['A'] },
        { id: 'notWidth', kind: 'symmetry', faces: [ids.s15!], tolerance: 0.05, datums: ['A'] },
      ],
    });
    const [sym, pos, notWidth] = r.characteristics;
    expect(sym!.actual).toBeCloseTo(2 * SHIFT, 9);
    expect(sym!.pass).toBe(false);
    // Position of the slot to the centre plane reads the same here (its centre plane is parallel).
    expect(pos!.actual).toBeCloseTo(2 * SHIFT, 9);
    expect(notWidth!.pass).toBeNull();
    expect(notWidth!.reason).toMatch(/width feature/);
  });

  it('to B|A (the base first, the width datum second, as NIST FTC 10 gives A|J): read to the centre plane A, not to the base', async () => {
    const r = await evaluate({
      actualBodyId: 'slotOnBase',
      nominalBodyId: 'slotted',
      datums: [
        { label: 'A', faces: [ids.x0!, ids.x40!] },
        { label: 'B', faces: [ids.base!] },
      ],
      characteristics: [
        { id: 'sym', kind: 'symmetry', faces: [ids.s15!, ids.s25!], tolerance: 0.05, datums: ['B', 'A'] },
        { id: 'baseOnly', kind: 'symmetry', faces: [ids.s15!, ids.s25!], tolerance: 0.05, datums: ['B'] },
      ],
    });
    const [sym, baseOnly] = r.characteristics;
    expect(sym!.actual).toBeCloseTo(2 * SHIFT, 9);
    expect(sym!.pass).toBe(false);
    expect(baseOnly!.pass).toBeNull();
    expect(baseOnly!.reason).toMatch(/parallel to the feature's sides/);
  });
});
