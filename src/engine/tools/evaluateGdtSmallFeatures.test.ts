import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { MeshBody, PointsBody, type BrepBody } from '../scene/Body';
import { sampleSurface } from '../mesh/sampleSurface';
import { measuredSurface } from '../deviation/surfaces';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { faceOf } from '../../test/gdtFixtures';
import { makeBox } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * Small holes on a large part at the default settings (maxSamples 50,000). A 300 x 300 x 4 plate
 * with four 3 mm holes: sampled by area over the whole part (184,800 mm^2), a hole's wall (37.7 mm^2)
 * gets 50000 x 37.7 / 184800 = 10 samples, fewer after the border margin: below minSamples (12), so
 * every hole callout was `pass: null` ("no verdict"), as NIST FTC 8's 5.4 mm holes (10 to 16
 * samples). Each face set now gets at least a few hundred samples drawn from the scan near its
 * faces, and the verdicts match the closed forms of a scan with one hole moved and one enlarged.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[]; datums: { label: string; samples: number }[]; samples: { total: number; added: number } };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);

const R = 1.5, T = 4;
const HOLES: [number, number][] = [[100, 100], [120, 100], [100, 120], [120, 120]];
/** The scan: hole 1 off its true position by (DX, DY), hole 3 of radius R3; the others as drawn. */
const DX = 0.03, DY = 0.04, R3 = 1.53;
const TURN = (0.3 * Math.PI) / 180, SHIFT: [number, number, number] = [0.2, -0.1, 0.05];
const PX = 0.12, PY = -0.09;

function plate(oc: OC, holes: [number, number, number][]): TopoDS_Shape {
  let shape = makeBox(oc, 300, 300, T);
  for (const [x, y, r] of holes) {
    const next = withKernel(oc, (own) => {
      const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, -1)), own(new oc.gp_Dir_4(0, 0, 1))));
      const tool = own(own(new oc.BRepPrimAPI_MakeCylinder_3(axes, r, T + 2)).Shape());
      return own(new oc.BRepAlgoAPI_Cut_3(shape, tool, own(new oc.Message_ProgressRange_1()))).Shape();
    });
    shape.delete();
    shape = next;
  }
  return shape;
}

let holes: string[], bottom: string, x0: string, y0: string;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'plate', plate(oc, HOLES.map(([x, y]) => [x, y, R])));
  const actual = HOLES.map(([x, y], i): [number, number, number] => (i === 1 ? [x + DX, y + DY, R] : [x, y, i === 3 ? R3 : R]));
  // The scan as a BREP (sampled on its exact faces: closed forms to 1e-9) and as its fine tessellation (a mesh scan).
  addShapeBody(oc, engine.scene, 'scanBrep', plate(oc, actual));
  // Every hole off by the same (PX, PY): the pattern displaced as a whole.
  addShapeBody(oc, engine.scene, 'patternShifted', plate(oc, HOLES.map(([x, y]) => [x + PX, y + PY, R])));
  const s = measuredSurface(oc, engine.scene.get('scanBrep') as BrepBody, 2e-4);
  engine.scene.add(new MeshBody({ bodyId: 'scanMesh', name: 'scanMesh', sourceFormat: 'stl', source: undefined }, { positions: Float64Array.from(s.mesh.positions), indices: Uint32Array.from(s.mesh.indices) }));
  // A dense cloud of the same surface: 400,000 points spread by area, 8 times maxSamples.
  const cloud = sampleSurface(s.mesh, 400_000);
  engine.scene.add(new PointsBody({ bodyId: 'scanCloud', name: 'scanCloud', sourceFormat: 'xyz', source: undefined }, { positions: cloud.points, count: cloud.count }));
  // The cloud turned by TURN about the z axis through (150, 150) and moved by SHIFT: an unaligned scan.
  const moved = new Float64Array(cloud.points.length);
  const c = Math.cos(TURN), sn = Math.sin(TURN);
  for (let i = 0; i < cloud.count; i++) {
    const x = cloud.points[3 * i]! - 150, y = cloud.points[3 * i + 1]! - 150;
    moved.set([150 + c * x - sn * y + SHIFT[0], 150 + sn * x + c * y + SHIFT[1], cloud.points[3 * i + 2]! + SHIFT[2]], 3 * i);
  }
  engine.scene.add(new PointsBody({ bodyId: 'movedCloud', name: 'movedCloud', sourceFormat: 'xyz', source: undefined }, { positions: moved, count: cloud.count }));
  holes = [];
  for (const [x, y] of HOLES) holes.push(await faceOf(engine, 'plate', /cylind/i, [x, y, T / 2]));
  bottom = await faceOf(engine, 'plate', /plan/i, [150, 150, 0]);
  x0 = await faceOf(engine, 'plate', /plan/i, [0, 150, T / 2]);
  y0 = await faceOf(engine, 'plate', /plan/i, [150, 0, T / 2]);
}, 120_000);

const datums = () => [
  { label: 'A', faces: [bottom] },
  { label: 'B', faces: [x0] },
  { label: 'C', faces: [y0] },
];
const characteristics = () => [
  { id: 'pos', kind: 'position', faces: holes, tolerance: 0.09, zone: 'diameter', datums: ['A', 'B', 'C'] },
  { id: 'posLoose', kind: 'position', faces: holes, tolerance: 0.11, zone: 'diameter', datums: ['A', 'B', 'C'] },
  { id: 'dia', kind: 'diameter', faces: holes, nominal: 2 * R, upper: 0.05, lower: -0.05 },
  { id: 'diaWide', kind: 'diameter', faces: holes, nominal: 2 * R, upper: 0.07, lower: -0.07 },
  { id: 'hole0', kind: 'diameter', faces: [holes[0]], nominal: 2 * R, upper: 0.05, lower: -0.05 },
];

describe('evaluate_gdt: small holes on a large part, default maxSamples', () => {
  it.each([
    ['scanBrep', 1e-9, 1e-9],
    // The tessellation's chords (deflection 2e-4) sit inside the hole: its diameter reads smaller by up to 2 x 2e-4.
    ['scanMesh', 1e-4, 4e-4],
  ])('%s: every hole gets a verdict matching the closed form (position 2 x the offset, diameter 2 x the radius)', async (scan, posTol, diaTol) => {
    const r = await evaluate({ actualBodyId: scan, nominalBodyId: 'plate', datums: datums(), characteristics: characteristics() });
    const [pos, posLoose, dia, diaWide, hole0] = r.characteristics;
    for (const c of r.characteristics) expect(c.pass, `${c.id}: ${c.reason ?? ''}`).not.toBeNull();
    // Position: hole 1's axis is hypot(0.03, 0.04) = 0.05 off: 0.1, over 0.09 and within 0.11.
    expect(Math.abs(pos!.actual! - 2 * Math.hypot(DX, DY))).toBeLessThan(posTol);
    expect(pos!.pass).toBe(false);
    expect(pos!.method).toContain(`the worst, ${holes[1]}:`);
    expect(posLoose!.pass).toBe(true);
    // Diameter: hole 3 is 3.06, over 3 + 0.05 and within 3 + 0.07.
    expect(Math.abs(dia!.actual! - 2 * R3)).toBeLessThan(diaTol);
    expect(dia!.pass).toBe(false);
    expect(dia!.method).toContain(`the worst, ${holes[3]}:`);
    expect(diaWide!.pass).toBe(true);
    expect(Math.abs(hole0!.actual! - 2 * R)).toBeLessThan(diaTol);
    expect(hole0!.pass).toBe(true);
    // At least 300 samples per hole (was 10 at most), each hole's own; the datums' plenty as drawn.
    expect(hole0!.samples).toBeGreaterThanOrEqual(300);
    expect(pos!.samples).toBeGreaterThanOrEqual(4 * 300);
    expect(r.samples.total).toBe(50000);
    expect(r.samples.added).toBeGreaterThanOrEqual(4 * 300 - 4 * 12);
    expect(r.samples.added).toBeLessThanOrEqual(50000);
  }, 120_000);

  it('a dense cloud (8 x maxSamples): every point near a hole is used, not every 8th, and the holes get their verdicts', async () => {
    const r = await evaluate({ actualBodyId: 'scanCloud', nominalBodyId: 'plate', datums: datums(), characteristics: characteristics() });
    const [pos, posLoose, dia, , hole0] = r.characteristics;
    for (const c of r.characteristics) expect(c.pass, `${c.id}: ${c.reason ?? ''}`).not.toBeNull();
    // 400000 x 37.7 / 184800 = 82 points on a hole's wall, less the border margin; every 8th gave 10 at most.
    expect(hole0!.samples).toBeGreaterThan(50);
    expect(hole0!.samples).toBeLessThan(82);
    // The cloud lies on the tessellation: its chords as for the mesh scan.
    expect(Math.abs(pos!.actual! - 2 * Math.hypot(DX, DY))).toBeLessThan(1e-4);
    expect(pos!.pass).toBe(false);
    expect(posLoose!.pass).toBe(true);
    expect(Math.abs(dia!.actual! - 2 * R3)).toBeLessThan(4e-4);
    expect(dia!.pass).toBe(false);
    expect(r.samples.total).toBe(50000);
  }, 120_000);

  it('datum alignment on a small hole (B): its datum gets the added samples in every round, and the moved cloud reads as the unmoved one', async () => {
    // A | hole 0's axis | y = 0: the hole locates the part. From every 8th point it had 10 at most (NO_COVERAGE).
    const onHole = [{ label: 'A', faces: [bottom] }, { label: 'B', faces: [holes[0]] }, { label: 'C', faces: [y0] }];
    const pos = [{ id: 'pos', kind: 'position', faces: holes.slice(1), tolerance: 0.09, zone: 'diameter', datums: ['A', 'B', 'C'] }];
    const asPlaced = await evaluate({ actualBodyId: 'scanCloud', nominalBodyId: 'plate', datums: onHole, characteristics: pos });
    const aligned = await evaluate({ actualBodyId: 'movedCloud', nominalBodyId: 'plate', datums: onHole, characteristics: pos, alignment: { method: 'datums' } });
    // Hole 1 is 0.05 off, measured from hole 0 (at its true position): 0.1 (the tessellation's chords aside).
    expect(Math.abs(asPlaced.characteristics[0]!.actual! - 0.1)).toBeLessThan(1e-4);
    expect(Math.abs(aligned.characteristics[0]!.actual! - asPlaced.characteristics[0]!.actual!)).toBeLessThan(1e-6);
    expect(aligned.characteristics[0]!.pass).toBe(false);
    const b = aligned.datums.find((d) => d.label === 'B')!;
    expect(b.samples).toBeGreaterThan(50);
  }, 120_000);

  it('a position to A alone (a composite position\'s lower segment) floats the pattern as a whole in what A leaves free', async () => {
    const tiers = [
      { id: 'upper', kind: 'position', faces: holes, tolerance: 0.4, zone: 'diameter', datums: ['A', 'B', 'C'] },
      { id: 'lower', kind: 'position', faces: holes, tolerance: 0.04, zone: 'diameter', datums: ['A'] },
    ];
    // The pattern displaced whole by (0.12, -0.09): 2 x 0.15 = 0.3 to A|B|C, nothing relative to each other.
    const whole = await evaluate({ actualBodyId: 'patternShifted', nominalBodyId: 'plate', datums: datums(), characteristics: tiers });
    const [upper, lower] = whole.characteristics;
    expect(upper!.actual).toBeCloseTo(2 * Math.hypot(PX, PY), 9);
    expect(upper!.pass).toBe(true);
    expect(lower!.actual!).toBeLessThan(1e-6);
    expect(lower!.pass).toBe(true);
    expect(lower!.method).toContain("the pattern's 4 axes floated together in what the datums leave free (2 translations and 1 rotation)");
    expect(lower!.method).toContain('the worst 0.3 as placed');
    // One hole 0.05 off the others: a rigid motion keeps the 20 mm between holes 0 and 1 at 20.03, so
    // some axis stays 0.015 off (0.03); moving the pattern by half the offset leaves 0.025 (0.05).
    const one = await evaluate({ actualBodyId: 'scanBrep', nominalBodyId: 'plate', datums: datums(), characteristics: tiers });
    const [, oneLower] = one.characteristics;
    expect(oneLower!.actual!).toBeGreaterThanOrEqual(0.03 - 1e-9);
    expect(oneLower!.actual!).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(oneLower!.pass).toBe(oneLower!.actual! <= 0.04);
  }, 120_000);

  it('the samples drawn near small faces do not run out for the callouts read last: a reading does not depend on the order', async () => {
    // maxSamples 1000 over a 300 x 300 plate: no base sample in a hole; each hole draws 600 near
    // it. One maxSamples drawn in all (before) served the first hole alone; the last three were
    // not evaluated, and which was read hung on the order of the callouts.
    const each = holes.map((h, i) => ({ id: `hole${i}`, kind: 'diameter', faces: [h], nominal: 2 * R, upper: 0.05, lower: -0.05 }));
    const forward = (await evaluate({ actualBodyId: 'scanMesh', nominalBodyId: 'plate', maxSamples: 1000, characteristics: each })).characteristics;
    const backward = (await evaluate({ actualBodyId: 'scanMesh', nominalBodyId: 'plate', maxSamples: 1000, characteristics: [...each].reverse() })).characteristics;
    for (const c of forward) {
      expect(c.samples, c.id).toBeGreaterThanOrEqual(300);
      expect(c.actual, c.id).toBeCloseTo(c.id === 'hole3' ? 2 * R3 : 2 * R, 3);
      expect(backward.find((b) => b.id === c.id)!.actual).toBe(c.actual);
    }
  }, 120_000);

  it("on a cloud, a face set whose box holds much of the part does not take the other callouts' points", async () => {
    // maxSamples 2000: the side faces' boxes (grown by the split's reach) hold about 11,000 of the
    // cloud's points each, 2,600 of them on the side. The budget (4 maxSamples) counted the box's
    // points: what was read first took most of it (a side read 1,020 samples read first and 156
    // read last; NIST FTC 9 on a cloud: holes that had 124 samples read alone had 11 in the whole
    // evaluation). It counts the points kept on the faces
    // now (at most 20 times the target, 6,000, a face set, as a mesh draws), and each point's face
    // is found once.
    const each = holes.map((h, i) => ({ id: `hole${i}`, kind: 'diameter', faces: [h], nominal: 2 * R, upper: 0.05, lower: -0.05 }));
    const sides = [x0, y0].map((f, i) => ({ id: `side${i}`, kind: 'flatness', faces: [f], tolerance: 0.01 }));
    const read = async (list: object[]) => (await evaluate({ actualBodyId: 'scanCloud', nominalBodyId: 'plate', maxSamples: 2000, characteristics: list })).characteristics;
    const forward = await read([...sides, ...each]);
    const backward = await read([...each, ...sides].reverse());
    const alone = await read(each);
    for (const c of forward) {
      const other = backward.find((b) => b.id === c.id)!;
      expect(other.actual, c.id).toBe(c.actual);
      expect(other.samples, c.id).toBe(c.samples);
      if (!c.id.startsWith('hole')) continue;
      // Every point of the cloud on the hole's wall, as when the holes are read alone.
      expect(c.samples, c.id).toBe(alone.find((a) => a.id === c.id)!.samples);
      expect(c.samples, c.id).toBeGreaterThan(50);
      expect(c.actual, c.id).toBeCloseTo(c.id === 'hole3' ? 2 * R3 : 2 * R, 3);
    }
  }, 120_000);
});
