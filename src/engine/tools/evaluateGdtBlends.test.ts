import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { topAbs, withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { makeBox, makeCylinder } from '../../test/kernelShapes';
import { addMeshBody } from '../../test/deviationFixtures';
import { faceOf } from '../../test/gdtFixtures';
import { gaussian } from '../../test/noise';
import type { Characteristic } from '../gdt/evaluate';
import { tessellateShape } from '../mesh/tessellate';
import { exactReference } from '../deviation/structures';
import { defaultDeflection } from '../deviation/surfaces';
import { nominalAccess } from '../gdt/nominalAccess';
import { blendSection } from '../gdt/tangentArc';
import { parseEntityId } from '../scene/topology';
import type { BrepBody } from '../scene/Body';

/**
 * Radii of blends (NIST FTC 11: R1.5 on a fillet round a disc, R0.1 on a fillet 0.16 wide; FTC 6:
 * R3.175 on a chain of cylinders, tori and spheres). Before: "a radius needs cylindrical faces,
 * these are torus", and the 0.1 fillet had no sample at all (the border margin, 0.1% of the
 * diagonal, is wider than half the fillet). Kernel-made nominals and scans (BREP scans, sampled on
 * their exact faces): a disc of radius 40 with its top edge filleted R_TOP and its bottom edge
 * R_BOTTOM, scanned with R_TOP_S and R_BOTTOM_S; a 60 x 60 x 20 block with its vertical edges
 * rounded 8 and its top edges filleted R_CHAIN (cylinders along the straight edges, tori round the
 * corners), scanned with R_CHAIN_S; the same block with a small chain R_SMALL, scanned as a mesh
 * with R_SMALL_S and noise; a quarter of a disc (a box and a cylinder in common), whose arc meets
 * its sides at right angles.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);

const R_TOP = 0.1, R_BOTTOM = 1.5, R_TOP_S = 0.12, R_BOTTOM_S = 1.53;
const R_CHAIN = 2, R_CHAIN_S = 2.04;
const R_SMALL = 0.4, R_SMALL_S = 0.45, SIGMA = 0.01;

/** Every edge of `shape` whose points all satisfy `pick` filleted with radius r. */
function filleted(shape: TopoDS_Shape, r: number, pick: (z0: number, z1: number) => boolean): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const mk = own(new oc.BRepFilletAPI_MakeFillet(shape, oc.ChFi3d_FilletShape.ChFi3d_Rational as never));
    const edges = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, topAbs(oc, 'EDGE'), edges);
    for (let i = 1; i <= edges.Extent(); i++) {
      const e = oc.TopoDS.Edge_1(own(edges.FindKey(i)));
      const a = own(oc.BRep_Tool.Pnt(own(oc.TopExp.FirstVertex(e, false)))), b = own(oc.BRep_Tool.Pnt(own(oc.TopExp.LastVertex(e, false))));
      if (pick(a.Z(), b.Z())) mk.Add_2(r, e);
    }
    return mk.Shape();
  });
}

function disc(top: number, bottom: number): TopoDS_Shape {
  const c = makeCylinder(oc, 40, 10);
  const a = filleted(c, top, (z0, z1) => z0 > 9.99 && z1 > 9.99);
  const b = filleted(a, bottom, (z0, z1) => z0 < 0.01 && z1 < 0.01);
  c.delete();
  a.delete();
  return b;
}

function block(r: number): TopoDS_Shape {
  const b = makeBox(oc, 60, 60, 20);
  const v = filleted(b, 8, (z0, z1) => Math.abs(z1 - z0) > 19);
  const t = filleted(v, r, (z0, z1) => z0 > 19.99 && z1 > 19.99);
  b.delete();
  v.delete();
  return t;
}

const facesOf = async (bodyId: string) => (await engine.runJson('query_topology', { bodyId, entity: 'face' })).result as unknown as { id: string; surfaceType: string; centroid: number[] }[];

let top: string, bottom: string, chain: string[], small: string[], quarterArc: string, corner: string[];
const R_BALL = 3, R_BALL_S = 3.1;

/** A 40 x 30 x 20 box with every edge filleted r: its corners are rolling balls' spheres. */
function roundedBox(r: number): TopoDS_Shape {
  const b = makeBox(oc, 40, 30, 20);
  const f = filleted(b, r, () => true);
  b.delete();
  return f;
}

/** A mesh scan: `shape` tessellated, each vertex moved by seeded normal noise of `sigma` a coordinate (the same at a position every face shares). */
function noisyScan(shape: TopoDS_Shape, deflection: number, sigma: number): { positions: Float64Array; indices: Uint32Array } {
  const mesh = tessellateShape(oc, shape, deflection), noise = gaussian(7), moved = new Map<string, number[]>();
  const positions = Float64Array.from(mesh.positions);
  for (let v = 0; v < positions.length / 3; v++) {
    const key = `${positions[3 * v]},${positions[3 * v + 1]},${positions[3 * v + 2]}`;
    let d = moved.get(key);
    if (!d) moved.set(key, (d = [sigma * noise(), sigma * noise(), sigma * noise()]));
    for (let k = 0; k < 3; k++) positions[3 * v + k]! += d[k]!;
  }
  return { positions, indices: Uint32Array.from(mesh.indices) };
}

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'disc', disc(R_TOP, R_BOTTOM));
  addShapeBody(oc, engine.scene, 'discScan', disc(R_TOP_S, R_BOTTOM_S));
  addShapeBody(oc, engine.scene, 'block', block(R_CHAIN));
  addShapeBody(oc, engine.scene, 'blockScan', block(R_CHAIN_S));
  const tori = (await facesOf('disc')).filter((f) => /toro|torus/i.test(f.surfaceType));
  top = tori.find((f) => f.centroid[2]! > 5)!.id;
  bottom = tori.find((f) => f.centroid[2]! < 5)!.id;
  // The top blend chain: faces above z = 20 - R_CHAIN that are not the top plane.
  chain = (await facesOf('block')).filter((f) => f.centroid[2]! > 20 - R_CHAIN && !/plan/i.test(f.surfaceType)).map((f) => f.id);
  addShapeBody(oc, engine.scene, 'smallBlock', block(R_SMALL));
  const scanShape = block(R_SMALL_S);
  addMeshBody(engine.scene, 'smallScan', noisyScan(scanShape, 0.005, SIGMA));
  scanShape.delete();
  small = (await facesOf('smallBlock')).filter((f) => f.centroid[2]! > 20 - R_SMALL && !/plan/i.test(f.surfaceType)).map((f) => f.id);
  const quarter = withKernel(oc, (own) => {
    const box = own(makeBox(oc, 40, 40, 10)), disc = own(makeCylinder(oc, 25, 10));
    return own(new oc.BRepAlgoAPI_Common_3(box, disc, own(new oc.Message_ProgressRange_1()))).Shape();
  });
  addShapeBody(oc, engine.scene, 'quarter', quarter);
  addShapeBody(oc, engine.scene, 'rounded', roundedBox(R_BALL));
  addShapeBody(oc, engine.scene, 'roundedScan', roundedBox(R_BALL_S));
  corner = (await facesOf('rounded')).filter((f) => !/plan/i.test(f.surfaceType)).map((f) => f.id);
  quarterArc = await faceOf(engine, 'quarter', /cylind/i, [17.7, 17.7, 5]);
}, 180_000);

describe('evaluate_gdt: radii of blends', () => {
  it('the fixture: two toroidal fillets on the disc; cylinders and tori in the block\'s chain', async () => {
    expect(top).toBeDefined();
    expect(bottom).toBeDefined();
    const kinds = new Set((await facesOf('block')).filter((f) => chain.includes(f.id)).map((f) => f.surfaceType.toLowerCase()));
    expect([...kinds].some((k) => k.includes('cylind'))).toBe(true);
    expect([...kinds].some((k) => k.includes('tor'))).toBe(true);
  });

  it("a fillet's radius is its torus' minor radius, fitted; the 0.1 fillet narrower than the border margin gets samples", async () => {
    const r = await evaluate({
      actualBodyId: 'discScan',
      nominalBodyId: 'disc',
      characteristics: [
        { id: 'R1.5', kind: 'radius', faces: [bottom], nominal: R_BOTTOM, upper: 0.04, lower: -0.04 },
        { id: 'R0.1', kind: 'radius', faces: [top], nominal: R_TOP, upper: 0.01, lower: -0.01 },
      ],
    });
    const [big, small] = r.characteristics;
    expect(big!.actual!).toBeCloseTo(R_BOTTOM_S, 7);
    expect(big!.pass).toBe(true);
    expect(big!.method).toContain('torus (minor radius) tangent arc');
    // Fillet 0.157 wide, margin 0.114 (0.1% of the 113 mm diagonal): its middle half is kept.
    expect(small!.samples).toBeGreaterThan(12);
    expect(small!.actual!).toBeCloseTo(R_TOP_S, 7);
    expect(small!.pass).toBe(false);
  });

  it('a blend chain of cylinders and tori: each face by its kind, the worst reported', async () => {
    const r = await evaluate({ actualBodyId: 'blockScan', nominalBodyId: 'block', characteristics: [{ id: 'chain', kind: 'radius', faces: chain, nominal: R_CHAIN, upper: 0.05, lower: -0.05 }] });
    const c = r.characteristics[0]!;
    expect(c.actual!).toBeCloseTo(R_CHAIN_S, 6);
    expect(c.pass).toBe(true);
    expect(c.method).toContain(`blend of ${chain.length} faces`);
    expect(c.method).toContain('cylinder tangent arc');
    expect(c.method).toContain('torus (minor radius) tangent arc');
    // Every face held tangent: none fitted free (a cylinder whose nodes all lie on its edges once
    // was, NIST FTC 6's: the tangency probe found no node to stand on).
    expect(c.method).not.toMatch(/face\[\d+\] (cylinder|torus \(minor radius\)) \d/);
  });

  it('a small fillet on a noisy mesh scan reads near its radius: the arc held tangent to its neighbours', async () => {
    // Corner rounds of 0.45 where the drawing says 0.4 +-0.1, every vertex moved by noise of 0.01
    // a coordinate. A free fit of each quarter circle read FTC 7's 0.43 fillets 0.36 to 26 at this
    // noise; held tangent to the neighbours the radius is the one unknown.
    const r = await evaluate({ actualBodyId: 'smallScan', nominalBodyId: 'smallBlock', characteristics: [{ id: 'R0.4', kind: 'radius', faces: small, nominal: R_SMALL, upper: 0.1, lower: -0.1 }] });
    const c = r.characteristics[0]!;
    expect(c.pass).toBe(true);
    const values = [...c.method!.matchAll(/tangent arc (\d+\.\d+)/g)].map((m) => Number(m[1]));
    expect(values.length).toBeGreaterThan(small.length / 2);
    for (const v of values) expect(Math.abs(v - R_SMALL_S)).toBeLessThan(0.02);
    expect(Math.abs(c.actual! - R_SMALL_S)).toBeLessThan(0.02);
  });

  it('an arc that meets its sides at an angle is not held tangent: fitted free', async () => {
    const r = await evaluate({ actualBodyId: 'quarter', nominalBodyId: 'quarter', characteristics: [{ id: 'R25', kind: 'radius', faces: [quarterArc], nominal: 25, upper: 0.01, lower: -0.01 }] });
    const c = r.characteristics[0]!;
    expect(c.actual!).toBeCloseTo(25, 6);
    expect(c.method).not.toContain('tangent arc');
  });

  it("a fillet's tangency is probed from its edges when the nominal has no node inside it", async () => {
    // NIST FTC 6's corner cylinders are tessellated with nodes on their edges only, which the
    // nominal's nodes leave out: the probe once had nowhere to stand and fitted them free.
    const body = engine.scene.get('block') as BrepBody;
    const nominal = nominalAccess(oc, body, exactReference(oc, body, defaultDeflection(oc, body)));
    const bare = { ...nominal, nodes: () => ({ points: new Float64Array(0), normals: undefined, count: 0 }) };
    const faces = chain.map((id) => parseEntityId(id).index);
    for (const f of faces) {
      const s = blendSection(bare, f);
      expect(s, `face[${f}]`).not.toBeNull();
      expect(s!.arc).toBeCloseTo(Math.PI / 2, 2);
      expect(s!.radius).toBeCloseTo(R_CHAIN, 9);
    }
  });

  it("a rounded box's corners are rolling balls held tangent to their three walls", async () => {
    const kinds = new Set((await facesOf('rounded')).filter((f) => corner.includes(f.id)).map((f) => f.surfaceType.toLowerCase()));
    expect([...kinds].some((k) => k.includes('sphere'))).toBe(true);
    const r = await evaluate({ actualBodyId: 'roundedScan', nominalBodyId: 'rounded', characteristics: [{ id: 'R3', kind: 'radius', faces: corner, nominal: R_BALL, upper: 0.2, lower: -0.2 }] });
    const c = r.characteristics[0]!;
    // The balls read 3.1 (to the 6 digits `method` gives); the edges' cylinders 3.10001 to 3.10002:
    // the nominal's edge faces reach 0.1 farther along than the scan's, onto its corner balls.
    const balls = [...c.method!.matchAll(/sphere tangent ball (\d+(\.\d+)?)/g)].map((m) => Number(m[1]));
    expect(balls.length).toBe(8);
    for (const b of balls) expect(b).toBe(R_BALL_S);
    expect(c.actual!).toBeCloseTo(R_BALL_S, 4);
    expect(c.method).not.toMatch(/face\[\d+\] (cylinder|sphere|torus \(minor radius\)) \d/);
  });
});
