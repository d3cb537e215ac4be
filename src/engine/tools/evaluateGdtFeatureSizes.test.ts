import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { addMeshBody } from '../../test/deviationFixtures';
import { sampleSurface } from '../mesh/sampleSurface';
import { tessellateShape } from '../mesh/tessellate';
import { makeBox } from '../../test/kernelShapes';
import { gaussian } from '../../test/noise';
import { seededRandom } from '../mesh/generators';
import type { Characteristic } from '../gdt/evaluate';

/**
 * Sizes between features other than two planes, as NIST's PMI gives them: a distance between two
 * bores (CTC 4's 75), from a face to a bore's axis, from a face to a hole's edge at its drill point
 * (FTC 10's 35 and 27.5, FTC 6's 12.7: hole depths), the diameter of a countersink's rim (CTC 4's
 * ⌀20, given on edges only) and a countersink's angle (CTC 4's 90 degrees on cones). Before:
 * "distance is evaluated between planar faces, these are cylinder", "distance needs faces of two
 * distinct planes", "angle is evaluated between planar faces, these are cone", "names no faces".
 * A 100 x 50 x 30 block: through bores of radius 3 at x = 15 and X2, a blind hole of radius 2.75 at
 * (80, 10) down to z = 30 - DEPTH with a 118 degree drill point, a countersink at (80, 32) whose
 * cone (half-angle HALF) has its apex at z = APEX. The scan: X2, DEPTH, HALF and APEX changed.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[] };
// A border margin wider than the scan's changes (0.12 at most): a sample of a moved feature never
// lands on a neighbouring nominal face (a scan plane's points over the nominal's wider countersink).
const evaluate = (args: object) => engine.runJson('evaluate_gdt', { borderMargin: 0.5, ...args }).then((r) => r.result as unknown as Result);

const NOM = { x2: 55, depth: 20, half: 45, apex: 20 };
// Small changes, as a made part's: a scan face's points then land on its nominal face (a deeper
// hole's wall, 0.1 below the nominal edge, would land on the nominal's drill point beyond the
// border margin and tilt its cone).
const SCAN = { x2: 55.04, depth: 20.02, half: 45.2, apex: 19.95 };
const RB = 2.75, POINT = (59 * Math.PI) / 180;

function part(p: { x2: number; depth: number; half: number; apex: number }): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const progress = () => own(new oc.Message_ProgressRange_1());
    const ax = (x: number, y: number, z: number) => own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, z)), own(new oc.gp_Dir_4(0, 0, 1))));
    const cut = (a: TopoDS_Shape, b: TopoDS_Shape) => own(own(new oc.BRepAlgoAPI_Cut_3(a, b, progress())).Shape());
    let s = own(makeBox(oc, 100, 50, 30));
    for (const x of [15, p.x2]) s = cut(s, own(own(new oc.BRepPrimAPI_MakeCylinder_3(ax(x, 20, -1), 3, 32)).Shape()));
    // The blind hole: a cylinder from z = 30 - depth up past the top, a 118 degree point below it.
    const bottom = 30 - p.depth, tip = RB / Math.tan(POINT);
    s = cut(s, own(own(new oc.BRepPrimAPI_MakeCylinder_3(ax(80, 10, bottom), RB, p.depth + 1)).Shape()));
    s = cut(s, own(own(new oc.BRepPrimAPI_MakeCone_3(ax(80, 10, bottom - tip), 0, RB, tip)).Shape()));
    // The countersink: apex at z = apex, widening upward past the top (z = 33).
    const h = 33 - p.apex;
    s = cut(s, own(own(new oc.BRepPrimAPI_MakeCone_3(ax(80, 32, p.apex), 0, h * Math.tan((p.half * Math.PI) / 180), h)).Shape()));
    return own(new oc.BRepBuilderAPI_Copy_2(s, true, false)).Shape();
  });
}

type Edge = { id: string; curveType: string; circleCenter?: number[]; radius?: number };
let bores: string[][], side: string, top: string, cone: string, drillEdges: string[], rimEdges: string[];

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'part', part(NOM));
  addShapeBody(oc, engine.scene, 'scan', part(SCAN));
  // The nominal's own tessellation: a perfect mesh scan, its corners on the exact surfaces.
  const nominalShape = part(NOM);
  const mesh = tessellateShape(oc, nominalShape, 0.01);
  nominalShape.delete();
  addMeshBody(engine.scene, 'mesh', mesh);
  addCloud(engine, 'meshSamples', Array.from(sampleSurface(mesh, 200_000).points));
  const faces = (await engine.runJson('query_topology', { bodyId: 'part', entity: 'face' })).result as unknown as { id: string; surfaceType: string; centroid: number[] }[];
  const near = (x: number, y: number) => faces.filter((f) => /cylind/i.test(f.surfaceType) && Math.hypot(f.centroid[0]! - x, f.centroid[1]! - y) < 3.5).map((f) => f.id);
  bores = [near(15, 20), near(NOM.x2, 20)];
  side = await faceOf(engine, 'part', /plan/i, [0, 25, 15]);
  top = await faceOf(engine, 'part', /plan/i, [50, 25, 30]);
  cone = await faceOf(engine, 'part', /con/i, [80, 32, 27]);
  const edges = (await engine.runJson('query_topology', { bodyId: 'part', entity: 'edge' })).result as unknown as Edge[];
  const circles = (x: number, y: number, z: number, r: number) => edges.filter((e) => e.circleCenter && Math.hypot(e.circleCenter[0]! - x, e.circleCenter[1]! - y, e.circleCenter[2]! - z) < 1e-6 && Math.abs(e.radius! - r) < 1e-6).map((e) => e.id);
  drillEdges = circles(80, 10, 30 - NOM.depth, RB);
  rimEdges = circles(80, 32, 30, 10);
}, 120_000);

describe('evaluate_gdt: sizes between bores, planes, circular edges and cones', () => {
  it('the fixture', () => {
    expect(bores.every((b) => b.length >= 1)).toBe(true);
    expect(drillEdges.length).toBeGreaterThan(0);
    expect(rimEdges.length).toBeGreaterThan(0);
  });

  it('a distance between two bores is axis to axis; from a face to a bore, the axis from the plane', async () => {
    const r = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'part',
      characteristics: [
        { id: 'axes', kind: 'distance', faces: [...bores[0]!, ...bores[1]!], nominal: 40, upper: 0.1, lower: -0.1 },
        { id: 'planeAxis', kind: 'distance', faces: [side, ...bores[1]!], nominal: 55, upper: 0.02, lower: -0.02 },
      ],
    });
    const [axes, planeAxis] = r.characteristics;
    expect(axes!.actual!).toBeCloseTo(SCAN.x2 - 15, 7);
    expect(axes!.pass).toBe(true);
    expect(planeAxis!.actual!).toBeCloseTo(SCAN.x2, 7);
    expect(planeAxis!.pass).toBe(false);
  });

  it('a distance over two bores, or between them, when the nominal value is that on the part (a slot over its round ends: NIST FTC 9)', async () => {
    // The bores' axes 40 apart, radius 3: over both 46, between them 34. Before, both read 40.04.
    const r = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'part',
      characteristics: [
        { id: 'over', kind: 'distance', faces: [...bores[0]!, ...bores[1]!], nominal: 46, upper: 0.05, lower: -0.05 },
        { id: 'between', kind: 'distance', faces: [...bores[0]!, ...bores[1]!], nominal: 34, upper: 0.05, lower: -0.05 },
      ],
    });
    const [over, between] = r.characteristics;
    expect(over!.actual!).toBeCloseTo(SCAN.x2 - 15 + 6, 6);
    expect(over!.pass).toBe(true);
    expect(over!.method).toMatch(/plus both least-squares radii/);
    expect(between!.actual!).toBeCloseTo(SCAN.x2 - 15 - 6, 6);
    expect(between!.pass).toBe(true);
  });

  it("a distance from a face to a hole's edge at its drill point is the hole's depth: the circle where the fitted cylinder and cone meet", async () => {
    const r = await evaluate({ actualBodyId: 'scan', nominalBodyId: 'part', characteristics: [{ id: 'depth', kind: 'distance', faces: [top], edges: drillEdges, nominal: NOM.depth, upper: 0.01, lower: -0.01 }] });
    const c = r.characteristics[0]!;
    expect(c.actual!).toBeCloseTo(SCAN.depth, 6);
    expect(c.pass).toBe(false);
    expect(c.method).toMatch(/cylinder and cone|cone and cylinder/);
  });

  it("a hole's depth on a noisy cloud with a dozen points on its drill point: the cone is fitted about the hole's axis", async () => {
    // NIST FTC 7 on a cloud with 0.01 of noise a coordinate: 13 samples on a drill point, a free
    // cone 70 degrees off the hole's axis, a 7.62 depth read 4.82 (FAIL on a good part).
    const bottom = 30 - SCAN.depth, tip = RB / Math.tan(POINT);
    const readings: number[] = [], uncertainties: number[] = [];
    for (let seed = 1; seed <= 30; seed++) {
      const rnd = seededRandom(seed), g = gaussian(seed + 50), pts: number[] = [];
      const push = (x: number, y: number, z: number) => pts.push(x + 0.01 * g(), y + 0.01 * g(), z + 0.01 * g());
      for (let i = 0; i < 3000; i++) {
        const x = 60 + 40 * rnd(), y = 20 * rnd();
        if (Math.hypot(x - 80, y - 10) > RB) push(x, y, 30);
      }
      for (let i = 0; i < 600; i++) {
        const t = 2 * Math.PI * rnd(), z = bottom + SCAN.depth * rnd();
        push(80 + RB * Math.cos(t), 10 + RB * Math.sin(t), z);
      }
      // 22 area-uniform points on the point, about a dozen of them clear of its borders.
      for (let i = 0; i < 22; i++) {
        const r = RB * Math.sqrt(rnd()), t = 2 * Math.PI * rnd();
        push(80 + r * Math.cos(t), 10 + r * Math.sin(t), bottom - tip + r / Math.tan(POINT));
      }
      addCloud(engine, `sparse${seed}`, pts);
      const r = await evaluate({ actualBodyId: `sparse${seed}`, nominalBodyId: 'part', characteristics: [{ id: 'depth', kind: 'distance', faces: [top], edges: drillEdges, nominal: NOM.depth, upper: 0.1, lower: -0.1 }] });
      readings.push(r.characteristics[0]!.actual ?? NaN);
      if (r.characteristics[0]!.actual !== null) uncertainties.push(r.characteristics[0]!.uncertainty ?? NaN);
    }
    // Fitted free, two of these 30 seeds read 1.13 and 1.92 short (FAIL); 28 were evaluated (two
    // seeds leave fewer than 12 samples clear of the point's borders: not evaluated, with the reason).
    const read = readings.filter((d) => !Number.isNaN(d));
    expect(read.length).toBeGreaterThanOrEqual(25);
    for (const d of read) expect(Math.abs(d - SCAN.depth)).toBeLessThan(0.02);
    // Every reading carries its jackknife uncertainty, though its drill point had a dozen samples
    // (a replicate reads a set from 10); half of it is the readings' spread over the seeds (0.86 times).
    expect(uncertainties.every((u) => u > 0)).toBe(true);
    const mean = read.reduce((a, b) => a + b, 0) / read.length;
    const spread = Math.sqrt(read.reduce((a, b) => a + (b - mean) ** 2, 0) / (read.length - 1));
    const estimate = uncertainties.reduce((a, b) => a + b, 0) / uncertainties.length / 2;
    expect(spread / estimate).toBeGreaterThan(0.6);
    expect(spread / estimate).toBeLessThan(1.6);
  });

  it("a drill point's angle on a dozen noisy points: read near its own, or refused with the reason, never a cone that turned away", async () => {
    const bottom = 30 - SCAN.depth, tip = RB / Math.tan(POINT);
    const point = await faceOf(engine, 'part', /con/i, [80, 10, 30 - NOM.depth - tip / 2]);
    const readings: (number | null)[] = [], reasons: string[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = seededRandom(seed), g = gaussian(seed + 90), pts: number[] = [];
      const push = (x: number, y: number, z: number) => pts.push(x + 0.01 * g(), y + 0.01 * g(), z + 0.01 * g());
      for (let i = 0; i < 16; i++) {
        const r = RB * Math.sqrt(rnd()), t = 2 * Math.PI * rnd();
        push(80 + r * Math.cos(t), 10 + r * Math.sin(t), bottom - tip + r / Math.tan(POINT));
      }
      addCloud(engine, `point${seed}`, pts);
      const r = await evaluate({ actualBodyId: `point${seed}`, nominalBodyId: 'part', borderMargin: 0.2, minSamples: 6, characteristics: [{ id: 'angle', kind: 'angle', faces: [point], nominal: 118, upper: 2, lower: -2 }] });
      const c = r.characteristics[0]!;
      readings.push(c.actual);
      if (c.actual === null) reasons.push(c.reason ?? '');
    }
    // Two of these 40 fits lost their way (read 37.0 and 53.9 degrees before, FAIL on a good part):
    // refused now; the other 38 read 116.4 to 119.5.
    const read = readings.filter((d): d is number => d !== null);
    expect(read.length).toBeGreaterThanOrEqual(35);
    for (const d of read) expect(Math.abs(d - (2 * POINT * 180) / Math.PI)).toBeLessThan(2.5);
    for (const r of reasons) expect(r).toMatch(/turns more than 5 degrees from the nominal's is refused/);
  });

  it("a countersink: its rim's diameter on edges alone, and its angle an angular size of the cone (twice the half-angle)", async () => {
    const r = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'part',
      characteristics: [
        { id: 'rim', kind: 'diameter', edges: rimEdges, nominal: 20, upper: 0.3, lower: -0.3 },
        { id: 'angle', kind: 'angle', faces: [cone], nominal: 90, upper: 0.3, lower: -0.3 },
      ],
    });
    const [rim, angle] = r.characteristics;
    // The apex 30 - APEX below the top face: the rim's radius is (30 - APEX) tan(half).
    expect(rim!.actual!).toBeCloseTo(2 * (30 - SCAN.apex) * Math.tan((SCAN.half * Math.PI) / 180), 6);
    expect(rim!.pass).toBe(true);
    expect(angle!.actual!).toBeCloseTo(2 * SCAN.half, 6);
    expect(angle!.pass).toBe(false);
  });

  it("on a mesh scan, a countersink's rim and angle and a slot's length over its round ends are read through the triangles' corners, not their chords", async () => {
    const characteristics = [
      { id: 'rim', kind: 'diameter', edges: rimEdges, nominal: 20, upper: 0.3, lower: -0.3 },
      { id: 'angle', kind: 'angle', faces: [cone], nominal: 90, upper: 0.3, lower: -0.3 },
      { id: 'over', kind: 'distance', faces: [...bores[0]!, ...bores[1]!], nominal: 46, upper: 0.05, lower: -0.05 },
    ];
    const [rim, angle, over] = (await evaluate({ actualBodyId: 'mesh', nominalBodyId: 'part', characteristics })).characteristics;
    expect(rim!.actual!).toBeCloseTo(20, 7);
    expect(angle!.actual!).toBeCloseTo(90, 6);
    expect(over!.actual!).toBeCloseTo(46, 7);
    for (const c of [rim, angle, over]) expect(c!.method).toMatch(/fitted through the scan triangles' \d+ corners/);
    // Its area samples alone (a cloud) sit on chords inside the curved faces: the rim and the
    // length over the bores read small (the deflection 0.01 bounds the sag).
    const [rimS, , overS] = (await evaluate({ actualBodyId: 'meshSamples', nominalBodyId: 'part', characteristics })).characteristics;
    expect(20 - rimS!.actual!).toBeGreaterThan(0.001);
    expect(46 - overS!.actual!).toBeGreaterThan(0.001);
    expect(rimS!.method).not.toMatch(/corners/);
  });

  it('a characteristic naming neither faces nor edges, or an edge the nominal has not, is INVALID_ARGUMENT', async () => {
    await expect(evaluate({ actualBodyId: 'scan', nominalBodyId: 'part', characteristics: [{ kind: 'diameter', nominal: 20 }] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('names no faces (and no edges)') });
    await expect(evaluate({ actualBodyId: 'scan', nominalBodyId: 'part', characteristics: [{ kind: 'diameter', edges: ['edge[99999]'], nominal: 20 }] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining("'edge[99999]' is not an edge of 'part'") });
  });
});
