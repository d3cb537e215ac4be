import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import type { Vec3 } from '../math/vec3';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { makeBox, makeCylinder, makeDrilledBlock } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * evaluate_gdt against closed forms: nominals made with the kernel, scans generated as point clouds
 * with a known defect, characteristics written out (these nominals have no PMI).
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[]; samples: { total: number; assigned: number; border: number; far: number }; warnings: { code: string; message: string }[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);
const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: { code?: string }) => e.code);

/** A rigid motion: rotation by `angle` about the unit axis u through the origin, then a translation. */
function motion(u: Vec3, angle: number, t: Vec3): (p: Vec3) => Vec3 {
  const c = Math.cos(angle), s = Math.sin(angle);
  return (p) => {
    const d = u[0] * p[0] + u[1] * p[1] + u[2] * p[2];
    const x: Vec3 = [u[1] * p[2] - u[2] * p[1], u[2] * p[0] - u[0] * p[2], u[0] * p[1] - u[1] * p[0]];
    return [0, 1, 2].map((k) => p[k]! * c + x[k]! * s + u[k]! * d * (1 - c) + t[k]!) as Vec3;
  };
}

// The bore: a 40 x 30 x 20 block, hole radius 4 at (20, 15); scanned with the hole's axis offset by
// (dx, dy) at z = 0 and tilted by theta about y, radius 4.02.
const DX = 0.03, DY = 0.04, THETA = 0.002, R_SCAN = 4.02;
/** Datum face B (x = 0) scanned leaning out of square with A: x = KAPPA z. */
const KAPPA = 0.001;
function boreScan(move: (p: Vec3) => Vec3 = (p) => p, bTilt = 0): number[] {
  const pts: number[] = [];
  const push = (p: Vec3) => pts.push(...move(p));
  for (let x = 2; x <= 38; x += 1) for (let y = 2; y <= 28; y += 1) if (Math.hypot(x - 20, y - 15) > 5.5) push([x, y, 0]);
  for (let y = 2; y <= 28; y += 1) for (let z = 2; z <= 18; z += 1) push([bTilt * z, y, z]);
  // With B leaning: one bump standing 0.005 proud of B's own plane at z = 18 (the high point across
  // that plane, but not across the true square direction: 18 KAPPA - 0.005 > 2 KAPPA).
  if (bTilt) push([bTilt * 18 - 0.005, 15.5, 18]);
  for (let x = 2; x <= 38; x += 1) for (let z = 2; z <= 18; z += 1) push([x, 0, z]);
  const a: Vec3 = [Math.sin(THETA), 0, Math.cos(THETA)], e1: Vec3 = [Math.cos(THETA), 0, -Math.sin(THETA)], e2: Vec3 = [0, 1, 0];
  for (let h = 2; h <= 18 + 1e-9; h += 0.5)
    for (let k = 0; k < 72; k++) {
      const t = (k * Math.PI) / 36;
      push([0, 1, 2].map((i) => [20 + DX, 15 + DY, 0][i]! + h * a[i]! + R_SCAN * (Math.cos(t) * e1[i]! + Math.sin(t) * e2[i]!)) as Vec3);
    }
  return pts;
}

let top: string, bottom: string, side: { x0: string; y0: string }, hole: string, lateral: string;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'plate', makeBox(oc, 100, 60, 10));
  addShapeBody(oc, engine.scene, 'block', makeDrilledBlock(oc, 4, 20, 15));
  addShapeBody(oc, engine.scene, 'blockCopy', makeDrilledBlock(oc, 4, 20, 15));
  addShapeBody(oc, engine.scene, 'shaft', makeCylinder(oc, 10, 40));
  top = await faceOf(engine, 'plate', /plan/i, [50, 30, 10]);
  bottom = await faceOf(engine, 'block', /plan/i, [20, 15, 0]);
  side = { x0: await faceOf(engine, 'block', /plan/i, [0, 15, 10]), y0: await faceOf(engine, 'block', /plan/i, [20, 0, 10]) };
  hole = await faceOf(engine, 'block', /cylind/i, [20, 15, 10]);
  lateral = await faceOf(engine, 'shaft', /cylind/i, [0, 0, 20]);

  // The plate's top scanned with a bow of 0.05 along x: z = 10 + b (1 - ((x - 50) / 45)^2) over x in [5, 95].
  const plate: number[] = [];
  for (let i = 0; i <= 36; i++) for (let j = 0; j <= 20; j++) {
    const x = 5 + 2.5 * i, y = 5 + 2.5 * j;
    plate.push(x, y, 10 + 0.05 * (1 - ((x - 50) / 45) ** 2));
  }
  addCloud(engine, 'bowed', plate);
  addCloud(engine, 'bore', boreScan());
  addCloud(engine, 'boreTiltedB', boreScan(undefined, KAPPA));
  addCloud(engine, 'boreMoved', boreScan(motion([0.6, -0.48, 0.64], (0.3 * Math.PI) / 180, [0.12, -0.07, 0.05])));
  // The shaft scanned with three lobes of amplitude e = 0.01: r = 10 + e cos(3 t), z in [2, 38].
  const shaft: number[] = [];
  for (let z = 2; z <= 38 + 1e-9; z += 0.25)
    for (let k = 0; k < 180; k++) {
      const t = (k * Math.PI) / 90, r = 10 + 0.01 * Math.cos(3 * t);
      shaft.push(r * Math.cos(t), r * Math.sin(t), z);
    }
  addCloud(engine, 'lobed', shaft);
});

describe('evaluate_gdt', () => {
  it('a plate scanned with a known bow: flatness = the bow (minimum zone); a profile with no datum floats: the bow too, wherever the scan stands', async () => {
    const r = await evaluate({
      actualBodyId: 'bowed',
      nominalBodyId: 'plate',
      characteristics: [
        { id: 'flat-tight', kind: 'flatness', faces: [top], tolerance: 0.04 },
        { id: 'flat-loose', kind: 'flatness', faces: [top], tolerance: 0.06 },
        { id: 'profile', kind: 'surfaceProfile', faces: [top], tolerance: 0.08 },
      ],
    });
    const [tight, loose, profile] = r.characteristics;
    expect(tight!.actual).toBeCloseTo(0.05, 9);
    expect(tight!.pass).toBe(false);
    expect(loose!.pass).toBe(true);
    expect(tight!.samples).toBe(37 * 21);
    // Read where it stands, the bow (0 to 0.05 above the face) is 0.1 wide about the nominal; the
    // zone floats down 0.025 onto it.
    expect(profile!.actual).toBeCloseTo(0.05, 9);
    expect(profile!.pass).toBe(true);
    expect(profile!.method).toContain('0.1 as placed');
    expect(r.warnings).toEqual([]);

    // The same scan lifted 0.5 (not aligned): the same reading, and a word that it looks unaligned.
    const lifted: number[] = [];
    for (let i = 0; i <= 36; i++) for (let j = 0; j <= 20; j++) lifted.push(5 + 2.5 * i, 5 + 2.5 * j, 10.5 + 0.05 * (1 - ((5 + 2.5 * i - 50) / 45) ** 2));
    addCloud(engine, 'bowedLifted', lifted);
    const far = await evaluate({ actualBodyId: 'bowedLifted', nominalBodyId: 'plate', characteristics: [{ id: 'profile', kind: 'surfaceProfile', faces: [top], tolerance: 0.08 }, { id: 'flat', kind: 'flatness', faces: [top], tolerance: 0.06 }] });
    expect(far.characteristics[0]!.actual).toBeCloseTo(0.05, 9);
    expect(far.characteristics[0]!.pass).toBe(true);
    expect(far.characteristics[0]!.method).toContain('1.1 as placed');
    expect(far.characteristics[1]!.actual).toBeCloseTo(0.05, 9);
    expect(far.warnings.map((w) => w.code)).toEqual(['SCAN_FAR_FROM_NOMINAL']);
    expect(far.warnings[0]!.message).toContain('more than the tightest profile tolerance (0.08, profile)');
    // No profile to judge by: nothing to say.
    const formOnly = await evaluate({ actualBodyId: 'bowedLifted', nominalBodyId: 'plate', characteristics: [{ id: 'flat', kind: 'flatness', faces: [top], tolerance: 0.06 }] });
    expect(formOnly.warnings).toEqual([]);
  });

  it('a profile to fewer datums than fix the face floats in what they leave free (a composite profile\'s lower segment)', async () => {
    // The block's far side (x = 40) scanned 0.3 long, turned 0.002 rad about z and bowed 0.02 across
    // z; the bottom (A) and the sides x = 0 (B) and y = 0 (C) true.
    const F = (y: number, z: number) => 40.3 + 0.002 * (y - 15) + 0.02 * (1 - ((z - 10) / 8) ** 2);
    const pts: number[] = [];
    for (let x = 2; x <= 38; x += 1) for (let y = 2; y <= 28; y += 1) if (Math.hypot(x - 20, y - 15) > 5.5) pts.push(x, y, 0);
    for (let y = 2; y <= 28; y += 1) for (let z = 2; z <= 18; z += 1) pts.push(0, y, z);
    for (let x = 2; x <= 38; x += 1) for (let z = 2; z <= 18; z += 1) pts.push(x, 0, z);
    for (let y = 2; y <= 28; y += 0.5) for (let z = 2; z <= 18; z += 0.5) pts.push(F(y, z), y, z);
    // The top (parallel to A) scanned 0.01 high.
    for (let x = 2; x <= 38; x += 1) for (let y = 2; y <= 28; y += 1) if (Math.hypot(x - 20, y - 15) > 5.5) pts.push(x, y, 20.01);
    addCloud(engine, 'longBlock', pts);
    const far = await faceOf(engine, 'block', /plan/i, [40, 15, 10]);
    const blockTop = await faceOf(engine, 'block', /plan/i, [20, 15, 20]);
    const datums = [
      { label: 'A', faces: [bottom] },
      { label: 'B', faces: [side.x0] },
      { label: 'C', faces: [side.y0] },
    ];
    const r = await evaluate({
      actualBodyId: 'longBlock',
      nominalBodyId: 'block',
      datums,
      borderMargin: 0.5,
      maxDistance: 2,
      characteristics: [
        { id: 'toABC', kind: 'surfaceProfile', faces: [far], tolerance: 0.8, datums: ['A', 'B', 'C'] },
        { id: 'toAB', kind: 'surfaceProfile', faces: [far], tolerance: 0.8, datums: ['A', 'B'] },
        { id: 'toA', kind: 'surfaceProfile', faces: [far], tolerance: 0.05, datums: ['A'] },
        { id: 'none', kind: 'surfaceProfile', faces: [far], tolerance: 0.05 },
        { id: 'topToA', kind: 'surfaceProfile', faces: [blockTop], tolerance: 0.05, datums: ['A'] },
        { id: 'topAlone', kind: 'surfaceProfile', faces: [blockTop], tolerance: 0.05 },
      ],
    });
    const [abc, ab, a, none, topToA, topAlone] = r.characteristics;
    // Located by B: twice the largest distance as placed, 0.3 + 0.002 x 13 + 0.02.
    expect(abc!.actual).toBeCloseTo(2 * (0.3 + 0.026 + 0.02), 9);
    expect(ab!.actual).toBeCloseTo(2 * (0.3 + 0.026 + 0.02), 9);
    expect(abc!.pass).toBe(true);
    // A leaves x, y and the turn about z free: the shift and the turn float away, the bow stays.
    expect(a!.actual).toBeCloseTo(0.02, 6);
    expect(a!.pass).toBe(true);
    expect(a!.method).toContain('2 translations and 1 rotation');
    expect(none!.actual).toBeCloseTo(0.02, 6);
    // A face parallel to A: what A leaves free slides it along itself; A locates it: 2 x 0.01.
    expect(topToA!.actual).toBeCloseTo(0.02, 9);
    expect(topToA!.method).toContain('none of which moves these faces across themselves');
    // With no datum the same face floats onto its scan: form only, a flat face.
    expect(topAlone!.actual).toBeLessThan(1e-9);
  });

  it('a bore with a known offset and tilt: position = twice the axis offset at its farther end, perpendicularity = the tilt over its length, MMC bonus', async () => {
    const datums = [
      { label: 'A', faces: [bottom] },
      { label: 'B', faces: [side.x0] },
      { label: 'C', faces: [side.y0] },
    ];
    const characteristics = [
      { id: 'pos', kind: 'position', faces: [hole], tolerance: 0.1, zone: 'diameter', datums: ['A', 'B', 'C'] },
      { id: 'posMmc', kind: 'position', faces: [hole], tolerance: 0.1, zone: 'diameter', datums: ['A', 'B', 'C'], modifiers: ['maximumMaterial'], size: { nominal: 8, upper: 0.1, lower: -0.1 } },
      { id: 'perp', kind: 'perpendicularity', faces: [hole], tolerance: 0.05, zone: 'diameter', datums: ['A'] },
      { id: 'size', kind: 'diameter', faces: [hole], nominal: 8, upper: 0.1, lower: -0.1 },
    ];
    const r = await evaluate({ actualBodyId: 'bore', nominalBodyId: 'block', datums, characteristics, borderMargin: 0.5 });
    // The axis at height h along itself: offset (DX + h sin(theta), DY) from the true position; the samples span h in [2, 18].
    const offset = (h: number) => Math.hypot(DX + h * Math.sin(THETA), DY);
    const [pos, posMmc, perp, size] = r.characteristics;
    expect(pos!.actual).toBeCloseTo(2 * Math.max(offset(2), offset(18)), 9);
    expect(pos!.pass).toBe(false); // 2 x 0.0535 > 0.1
    // MMC: the hole's maximum material size is 7.9; at 8.04 the bonus is 0.14.
    expect(posMmc!.bonus).toBeCloseTo(2 * R_SCAN - 7.9, 9);
    expect(posMmc!.tolerance).toBeCloseTo(0.1 + 2 * R_SCAN - 7.9, 9);
    expect(posMmc!.pass).toBe(true);
    expect(perp!.actual).toBeCloseTo(16 * Math.sin(THETA), 9);
    expect(perp!.pass).toBe(true);
    expect(size!.actual).toBeCloseTo(2 * R_SCAN, 9);
    expect(size!.pass).toBe(true);

    // B scanned out of square (x = KAPPA z, z in [2, 18], and a bump): datum B is simulated
    // perpendicular to A, touching B's high point across that direction (outward normal -x: the
    // smallest x, 2 KAPPA at z = 2, not the bump), so the frame's origin moves to x = 2 KAPPA and the
    // hole reads DX - 2 KAPPA off in x.
    const leaning = await evaluate({ actualBodyId: 'boreTiltedB', nominalBodyId: 'block', datums, characteristics: characteristics.slice(0, 1), borderMargin: 0.5 });
    const offsetB = (h: number) => Math.hypot(DX - 2 * KAPPA + h * Math.sin(THETA), DY);
    expect(leaning.characteristics[0]!.actual).toBeCloseTo(2 * Math.max(offsetB(2), offsetB(18)), 9);

    // The same scan moved rigidly: the datum frame absorbs the motion.
    const moved = await evaluate({ actualBodyId: 'boreMoved', nominalBodyId: 'block', datums, characteristics, borderMargin: 0.5 });
    for (let i = 0; i < 4; i++) expect(moved.characteristics[i]!.actual).toBeCloseTo(r.characteristics[i]!.actual!, 9);
  });

  it('a cylinder with known lobing: cylindricity and roundness = 2 e, diameter = nominal', async () => {
    const r = await evaluate({
      actualBodyId: 'lobed',
      nominalBodyId: 'shaft',
      characteristics: [
        { kind: 'cylindricity', faces: [lateral], tolerance: 0.015 },
        { kind: 'roundness', faces: [lateral], tolerance: 0.025 },
        { kind: 'diameter', faces: [lateral], nominal: 20, upper: 0, lower: -0.05 },
      ],
    });
    const [cyl, round, dia] = r.characteristics;
    expect(cyl!.actual).toBeCloseTo(0.02, 9);
    expect(cyl!.pass).toBe(false);
    expect(round!.actual).toBeCloseTo(0.02, 9);
    expect(round!.pass).toBe(true);
    expect(dia!.actual).toBeCloseTo(20, 9);
    expect(dia!.pass).toBe(true);
  });

  it('a BREP body as the scan (the nominal itself): sampled over its exact faces, every characteristic passes, the diameter reads nominal', async () => {
    // Its tessellation nodes lie mostly on edges (the border margin drops them): before, the bore was
    // read from a dozen nodes and its diameter failed (issue 30 item 4).
    const datums = [
      { label: 'A', faces: [bottom] },
      { label: 'B', faces: [side.x0] },
      { label: 'C', faces: [side.y0] },
    ];
    const r = await evaluate({
      actualBodyId: 'blockCopy',
      nominalBodyId: 'block',
      datums,
      maxSamples: 20000,
      characteristics: [
        { kind: 'position', faces: [hole], tolerance: 0.01, zone: 'diameter', datums: ['A', 'B', 'C'] },
        { kind: 'perpendicularity', faces: [hole], tolerance: 0.01, zone: 'diameter', datums: ['A'] },
        { kind: 'cylindricity', faces: [hole], tolerance: 0.001 },
        { kind: 'flatness', faces: [bottom], tolerance: 0.001 },
        { kind: 'surfaceProfile', faces: [side.x0, side.y0], tolerance: 0.001, datums: ['A', 'B', 'C'] },
        { kind: 'diameter', faces: [hole], nominal: 8, upper: 0, lower: -0.001 },
      ],
    });
    for (const c of r.characteristics) {
      expect(c.pass, c.kind).toBe(true);
      expect(c.samples, c.kind).toBeGreaterThan(200);
    }
    expect(r.characteristics[5]!.actual).toBeCloseTo(8, 9);
    for (const c of r.characteristics.slice(0, 5)) expect(c.actual!, c.kind).toBeLessThan(1e-9);
  });

  it('too few samples gives pass: null with the reason; unknown faces and ids are refused', async () => {
    const r = await evaluate({ actualBodyId: 'bowed', nominalBodyId: 'block', characteristics: [{ kind: 'flatness', faces: [bottom], tolerance: 0.1 }] });
    expect(r.characteristics[0]!.pass).toBeNull();
    expect(r.characteristics[0]!.reason).toMatch(/scan samples on its faces/);
    expect(await codeOf(evaluate({ actualBodyId: 'bowed', nominalBodyId: 'plate', characteristics: [{ kind: 'flatness', faces: ['face[99]'], tolerance: 0.1 }] }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(evaluate({ actualBodyId: 'bowed', nominalBodyId: 'plate', characteristics: ['tolerance[0]'] }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(evaluate({ actualBodyId: 'plate', nominalBodyId: 'bowed' }))).toBe('POINT_CLOUD_REFERENCE');
  });
});
