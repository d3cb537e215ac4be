import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { Vec3 } from '../math/vec3';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { makeBox, makeDrilledBlock } from '../../test/kernelShapes';
import type { Characteristic, DatumReport } from '../gdt/evaluate';

/**
 * Datums defined by datum targets (ASME Y14.5 ch. 7), simulated on generated scans of kernel-made
 * nominals, against closed forms: the targets' contacts fix the datum as the simulators would.
 */
let engine: Engine;
type Result = { characteristics: Characteristic[]; datums: DatumReport[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);

// The plate (100 x 60 x 10): its bottom scanned as the plane z = a + b x + c y (the three target
// points of A lifted into the material by a + b x + c y), with a bump 0.3 proud of it away from
// the targets; its top true (z = 10).
const A = 0.05, B = 0.0008, C = -0.0005;
const under = (x: number, y: number) => A + B * x + C * y;
const bump = (x: number, y: number) => x >= 60 && x <= 80 && y >= 36 && y <= 50;
const TARGETS_A = [
  { kind: 'point', origin: [10, 10, 0] },
  { kind: 'point', origin: [90, 10, 0] },
  { kind: 'point', origin: [50, 50, 0] },
];

// The drilled block (40 x 30 x 20, a hole of radius 4 at (20, 15)): side y = 0 scanned as
// y = -(P + Q x) (the two points of B), side x = 0 as x = -DC (the point of C), the other faces true.
const P = 0.05, Q = 0.002, DC = 0.04;
/** The second scan: sides y = 0 and y = 30 scanned W1 and W2 out (a width datum from two lines); the hole moved by (EX, EY) and scanned with radius 4.02. */
const W1 = 0.03, W2 = 0.09, EX = 0.025, EY = -0.015;

function blockScan(opts: { sideY0: (x: number) => number; sideX0: number; sideY30: number; hole: [number, number]; r: number; perTurn: number }): number[] {
  const pts: number[] = [];
  for (let x = 1; x <= 39; x += 1) for (let y = 1; y <= 29; y += 1) {
    if (Math.hypot(x - 20, y - 15) < 5.5) continue;
    pts.push(x, y, 0, x, y, 20);
  }
  for (let x = 1; x <= 39; x += 1) for (let z = 1; z <= 19; z += 1) pts.push(x, opts.sideY0(x), z, x, 30 + opts.sideY30, z);
  for (let y = 1; y <= 29; y += 1) for (let z = 1; z <= 19; z += 1) pts.push(-opts.sideX0, y, z, 40, y, z);
  for (let z = 1; z <= 19; z += 0.5) for (let k = 0; k < opts.perTurn; k++) {
    const t = (2 * k * Math.PI) / opts.perTurn;
    pts.push(opts.hole[0] + opts.r * Math.cos(t), opts.hole[1] + opts.r * Math.sin(t), z);
  }
  return pts;
}

let top: string, bottom: string, hole: string, blockX0: string;

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'plate', makeBox(oc, 100, 60, 10));
  addShapeBody(oc, engine.scene, 'block', makeDrilledBlock(oc, 4, 20, 15));
  top = await faceOf(engine, 'plate', /plan/i, [50, 30, 10]);
  bottom = await faceOf(engine, 'plate', /plan/i, [50, 30, 0]);
  hole = await faceOf(engine, 'block', /cylind/i, [20, 15, 10]);
  blockX0 = await faceOf(engine, 'block', /plan/i, [0, 15, 10]);

  const plate: number[] = [];
  for (let x = 2; x <= 98; x += 2) for (let y = 2; y <= 58; y += 2) plate.push(x, y, 10, x, y, under(x, y) - (bump(x, y) ? 0.3 : 0));
  addCloud(engine, 'plateScan', plate);
  addCloud(engine, 'blockScan', blockScan({ sideY0: (x) => -(P + Q * x), sideX0: DC, sideY30: 0, hole: [20, 15], r: 4, perTurn: 72 }));
  addCloud(engine, 'blockWide', blockScan({ sideY0: () => -W1, sideX0: 0, sideY30: W2, hole: [20 + EX, 15 + EY], r: 4.02, perTurn: 720 }));
}, 120_000);

describe('datum targets', () => {
  it('three points on a primary plane fix it: the top read parallel to A is the tilt of the plane through the lifted points across the top', async () => {
    const r = await evaluate({
      actualBodyId: 'plateScan',
      nominalBodyId: 'plate',
      datums: [{ label: 'A', targets: TARGETS_A }, { label: 'F', faces: [bottom] }],
      characteristics: [{ id: 'targets', kind: 'parallelism', faces: [top], tolerance: 0.1, datums: ['A'] }],
    });
    // The datum plane: through the three contacts, z = a + b x + c y, outward normal (b, c, -1).
    const a = r.datums.find((d) => d.label === 'A')!;
    const k = Math.hypot(B, C, 1);
    const f = a.feature as { kind: string; normal: Vec3; point: Vec3 };
    expect(f.kind).toBe('plane');
    f.normal.forEach((v, i) => expect(v).toBeCloseTo([B / k, C / k, -1 / k][i]!, 10));
    expect(f.point[2]).toBeCloseTo(under(f.point[0], f.point[1]), 10);
    expect(a.samples).toBe(36);
    // The top (z = 10 over x in [2, 98], y in [2, 58]) across A's normal: (|b| 96 + |c| 56) / |(b, c, -1)|.
    const targets = r.characteristics[0]!;
    expect(targets.actual).toBeCloseTo((Math.abs(B) * 96 + Math.abs(C) * 56) / k, 9);
    expect(targets.pass).toBe(false);
    // The whole bottom as datum F rests on the bump instead, 0.3 below the targets' plane.
    const onBump = (r.datums.find((d) => d.label === 'F')!.feature as { point: Vec3 }).point;
    expect(under(onBump[0], onBump[1]) - onBump[2]).toBeCloseTo(0.3, 9);
  });

  it('3-2-1 points (A: 3 on the bottom, B: 2 on a side, C: 1 on the other) locate a hole by the known side tilt and offsets', async () => {
    const r = await evaluate({
      actualBodyId: 'blockScan',
      nominalBodyId: 'block',
      datums: [
        { label: 'A', targets: [{ kind: 'point', origin: [5, 5, 0] }, { kind: 'point', origin: [35, 5, 0] }, { kind: 'point', origin: [20, 27, 0] }] },
        { label: 'B', targets: [{ kind: 'point', origin: [5, 0, 10] }, { kind: 'point', origin: [35, 0, 10] }] },
        { label: 'C', targets: [{ kind: 'point', origin: [0, 20, 10] }] },
      ],
      characteristics: [{ id: 'pos', kind: 'position', faces: [hole], tolerance: 0.25, zone: 'diameter', datums: ['A', 'B', 'C'] }],
    });
    // B's line q x + y + p = 0 and C's plane across it through C1's contact (-DC, 20 + Q DC): the
    // hole (20, 15) seen from them: y' = (15 + 20 q + p) / s, x' = (20 + 5 q + DC s^2) / s with s = |(1, q)|.
    const s = Math.hypot(1, Q);
    const xh = (20 + 5 * Q + DC * s * s) / s, yh = (15 + 20 * Q + P) / s;
    const pos = r.characteristics[0]!;
    expect(pos.actual).toBeCloseTo(2 * Math.hypot(xh - 20, yh - 15), 8);
    expect(pos.pass).toBe(true);
    expect(r.datums.filter((d) => 'ABC'.includes(d.label)).map((d) => d.reason ?? '')).toEqual(['', '', '']);
    // Two points alone cannot be a primary plane; a common datum of target datums is not simulated: said so.
    const bad = await evaluate({
      actualBodyId: 'blockScan',
      nominalBodyId: 'block',
      datums: [
        { label: 'B', targets: [{ kind: 'point', origin: [5, 0, 10] }, { kind: 'point', origin: [35, 0, 10] }] },
        { label: 'C', targets: [{ kind: 'point', origin: [0, 20, 10] }] },
        // A corner: targets on the bottom and on two sides.
        { label: 'D', targets: [{ kind: 'point', origin: [5, 5, 0] }, { kind: 'point', origin: [5, 0, 10] }, { kind: 'point', origin: [0, 20, 10] }] },
      ],
      characteristics: [
        { id: 'p', kind: 'surfaceProfile', faces: [blockX0], tolerance: 0.2, datums: ['B'] },
        { id: 'q', kind: 'surfaceProfile', faces: [blockX0], tolerance: 0.2, datums: ['B-C'] },
        { id: 'r', kind: 'surfaceProfile', faces: [blockX0], tolerance: 0.2, datums: ['D'] },
      ],
    });
    expect(bad.characteristics.map((c) => c.pass)).toEqual([null, null, null]);
    expect(bad.characteristics[2]!.reason).toBe('datum D: its targets lie on faces facing more ways than one side or two opposed sides; not simulated');
    expect(bad.characteristics[0]!.reason).toBe('datum B: a primary datum plane needs targets spanning a plane (3 points not on one line, two lines, or an area)');
    expect(bad.characteristics[1]!.reason).toBe('common datum B-C: B, C are defined by datum targets; a common datum of target datums is not simulated');
  });

  it('line targets on two opposed sides make a centre plane; a circular curve in the hole makes its axis', async () => {
    const lines = [
      { kind: 'line', origin: [5, 0, 10], direction: [1, 0, 0], length: 30 },
      { kind: 'line', origin: [5, 30, 10], direction: [1, 0, 0], length: 30 },
    ];
    const r = await evaluate({
      actualBodyId: 'blockWide',
      nominalBodyId: 'block',
      datums: [
        { label: 'A', targets: [{ kind: 'rectangle', origin: [20, 4, 0], normal: [0, 0, -1], direction: [1, 0, 0], length: 30, width: 4 }, { kind: 'circle', origin: [8, 25, 0], normal: [0, 0, -1], diameter: 6 }, { kind: 'circle', origin: [32, 25, 0], normal: [0, 0, -1], diameter: 6 }] },
        { label: 'J', targets: lines },
        { label: 'G', targets: [{ kind: 'circular curve', origin: [20, 15, 10], normal: [0, 0, 1], diameter: 8 }] },
        { label: 'K', targets: [{ kind: 'point', origin: [0, 10, 10] }] },
      ],
      characteristics: [
        // The sides moved out by W1 and W2: the centre plane by (W2 - W1) / 2 in y; the side x = 0 (K) true.
        { id: 'pos', kind: 'position', faces: [hole], tolerance: 0.2, zone: 'diameter', datums: ['A', 'J', 'K'] },
        // The face x = 0 seen from the hole's axis: EX nearer; the rotation about the axis is free.
        { id: 'prof', kind: 'surfaceProfile', faces: [blockX0], tolerance: 0.2, datums: ['A', 'G'] },
      ],
    });
    const g = r.datums.find((d) => d.label === 'G')!.feature as { kind: string; point: Vec3; direction: Vec3 };
    expect(g.kind).toBe('axis');
    // Each contact is the scan's deviation at its station, fitted linearly over the 12 samples nearest
    // it: on the hole's wall (its deviation e cos(t) bends over their +-0.2 mm) within 2e-5 of the
    // scan's circle (1.2e-4 with samples every 5 degrees, +-1 mm).
    expect(Math.abs(g.point[0] - (20 + EX))).toBeLessThan(2e-5);
    expect(Math.abs(g.point[1] - (15 + EY))).toBeLessThan(2e-5);
    expect(g.direction).toEqual([0, 0, 1]);
    const [pos, prof] = r.characteristics;
    expect(pos!.actual).toBeCloseTo(2 * Math.hypot(EX, EY - (W2 - W1) / 2), 8);
    expect(pos!.pass).toBe(true);
    expect(Math.abs(prof!.actual! - 2 * EX)).toBeLessThan(4e-5);
    expect(r.datums.find((d) => d.label === 'J')!.samples).toBe(2 * 8 * 12);
  });
});
