import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { withKernel, type OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { makeBox, makeSphere } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * Position of a spherical feature (NIST FTC 6's two S-diameter 31.75 balls to D|B|C): the ball's
 * centre within a spherical zone about its true position. Nominal: a 40 x 40 x 10 block (z -12 to
 * -2) with a ball of radius 5 at the origin standing out of its top. Scans: clouds on the block's
 * datum faces and on the ball moved by MOVE.
 */
const MOVE = [0.01, -0.02, 0.015] as const;
const R = 5;

let oc: OC;
let engine: Engine;
const ids: Record<string, string> = {};
let ball: string[] = [];
type Result = { characteristics: Characteristic[] };

function grid(pts: number[], at: (u: number, v: number) => [number, number, number]): void {
  for (let u = -18; u <= 18; u += 2) for (let v = -18; v <= 18; v += 2) pts.push(...at(u, v));
}

function scan(move: readonly [number, number, number], radius = R): number[] {
  const pts: number[] = [];
  grid(pts, (u, v) => [u, v, -12]);
  grid(pts, (u, v) => [-20, u, -7 + v / 4]);
  grid(pts, (u, v) => [u, -20, -7 + v / 4]);
  // The ball from its top down to 100 degrees (its rim on the block is at about 114).
  for (let t = 5; t <= 100; t += 5)
    for (let p = 0; p < 360; p += 10) {
      const th = (t * Math.PI) / 180, ph = (p * Math.PI) / 180;
      pts.push(move[0] + radius * Math.sin(th) * Math.cos(ph), move[1] + radius * Math.sin(th) * Math.sin(ph), move[2] + radius * Math.cos(th));
    }
  return pts;
}

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  const part = withKernel(oc, (own) => own(new oc.BRepAlgoAPI_Fuse_3(own(makeBox(oc, 40, 40, 10, [-20, -20, -12])), own(makeSphere(oc, R)), own(new oc.Message_ProgressRange_1()))).Shape());
  addShapeBody(oc, engine.scene, 'part', part);
  ids.A = await faceOf(engine, 'part', /plan/i, [0, 0, -12]);
  ids.B = await faceOf(engine, 'part', /plan/i, [-20, 0, -7]);
  ids.C = await faceOf(engine, 'part', /plan/i, [0, -20, -7]);
  const faces = (await engine.runJson('query_topology', { bodyId: 'part', entity: 'face' })).result as unknown as { id: string; surfaceType: string }[];
  ball = faces.filter((f) => /spher/i.test(f.surfaceType)).map((f) => f.id);
  addCloud(engine, 'moved', scan(MOVE));
  addCloud(engine, 'inPlace', scan([0, 0, 0]));
  addCloud(engine, 'larger', scan([0, 0, 0], R + 0.05));
});

const datums = () => [
  { label: 'A', faces: [ids.A!] },
  { label: 'B', faces: [ids.B!] },
  { label: 'C', faces: [ids.C!] },
];
const evaluate = (actualBodyId: string, characteristics: object[]) =>
  engine.runJson('evaluate_gdt', { actualBodyId, nominalBodyId: 'part', datums: datums(), characteristics }).then((r) => (r.result as unknown as Result).characteristics);

describe('evaluate_gdt: position of a spherical feature', () => {
  it('a ball moved by MOVE reads twice |MOVE| to A|B|C; to A alone the zone floats across A and reads twice its height', async () => {
    expect(ball.length).toBeGreaterThan(0);
    const [abc, a] = await evaluate('moved', [
      { id: 'abc', kind: 'position', faces: ball, tolerance: 0.05, datums: ['A', 'B', 'C'] },
      { id: 'a', kind: 'position', faces: ball, tolerance: 0.05, datums: ['A'] },
    ]);
    expect(abc!.actual).toBeCloseTo(2 * Math.hypot(...MOVE), 9);
    expect(abc!.pass).toBe(false);
    expect(abc!.method).toMatch(/spherical zone/);
    expect(a!.actual).toBeCloseTo(2 * MOVE[2], 6);
    expect(a!.pass).toBe(true);
  });

  it('a ball in place reads 0 whatever its size; a material-condition bonus comes from its size', async () => {
    const [rfs, lmc] = await evaluate('larger', [
      { id: 'rfs', kind: 'position', faces: ball, tolerance: 0.05, datums: ['A', 'B', 'C'] },
      // A ball (external) at LMC, size 10 +-0.2: LMC size 9.8, actual 10.1, bonus 0.3.
      { id: 'lmc', kind: 'position', faces: ball, tolerance: 0.05, datums: ['A', 'B', 'C'], modifiers: ['leastMaterial'], size: { nominal: 10, upper: 0.2, lower: -0.2 } },
    ]);
    expect(rfs!.actual).toBeLessThan(1e-9);
    expect(rfs!.pass).toBe(true);
    expect(lmc!.bonus).toBeCloseTo(0.3, 9);
    const [inPlace] = await evaluate('inPlace', [{ id: 'p', kind: 'position', faces: ball, tolerance: 0.05, datums: ['A', 'B', 'C'] }]);
    expect(inPlace!.actual).toBeLessThan(1e-9);
  });
});
