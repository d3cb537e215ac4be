import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { drillHoles, makeBox } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * A turn the datums leave free is a turn about the datum axis that holds the translations, not
 * about the feature read. A|B with B a bore: the part may turn about B, so a hole 30 away whose scan
 * is turned about B by PHI is in position (before: read about its own axis, that turn could not
 * move it, and it read 2 x 30 sin(PHI), 0.105 here, as if misplaced).
 */
let engine: Engine;
type Result = { characteristics: Characteristic[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);

const HOLES = [[15, 15], [45, 15]] as const;
const PHI = 0.00175;

/** The block's bottom and its holes scanned turned by PHI about the first hole's axis; its y = 0 side as drawn. */
function scan(): number[] {
  const turn = (x: number, y: number): [number, number] => [15 + Math.cos(PHI) * (x - 15) - Math.sin(PHI) * (y - 15), 15 + Math.sin(PHI) * (x - 15) + Math.cos(PHI) * (y - 15)];
  const pts: number[] = [];
  for (let x = 2; x <= 58; x += 1) for (let y = 2; y <= 28; y += 1) if (HOLES.every(([hx, hy]) => Math.hypot(x - hx, y - hy) > 5.5)) pts.push(...turn(x, y), 0);
  for (let x = 2; x <= 58; x += 1) for (let z = 2; z <= 18; z += 1) pts.push(x, 0, z);
  for (const [hx, hy] of HOLES)
    for (let z = 2; z <= 18 + 1e-9; z += 0.5)
      for (let k = 0; k < 72; k++) pts.push(...turn(hx + 4 * Math.cos((k * Math.PI) / 36), hy + 4 * Math.sin((k * Math.PI) / 36)), z);
  return pts;
}

let holes: string[], bottom: string, y0: string;

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'block', drillHoles(oc, makeBox(oc, 60, 30, 20), HOLES, 4));
  holes = [await faceOf(engine, 'block', /cylind/i, [15, 15, 10]), await faceOf(engine, 'block', /cylind/i, [45, 15, 10])];
  bottom = await faceOf(engine, 'block', /plan/i, [30, 15, 0]);
  y0 = await faceOf(engine, 'block', /plan/i, [30, 0, 10]);
  addCloud(engine, 'turned', scan());
});

describe('evaluate_gdt: zones float about the datum axis that is left free to turn', () => {
  it('a hole 30 from datum bore B, turned about B by PHI: in position to A|B, 2 x 30 sin(PHI) off to A|B|C', async () => {
    const r = await evaluate({
      actualBodyId: 'turned',
      nominalBodyId: 'block',
      datums: [
        { label: 'A', faces: [bottom] },
        { label: 'B', faces: [holes[0]] },
        { label: 'C', faces: [y0] },
      ],
      characteristics: [
        { id: 'pos', kind: 'position', faces: [holes[1]], tolerance: 0.05, zone: 'diameter', datums: ['A', 'B'] },
        { id: 'clocked', kind: 'position', faces: [holes[1]], tolerance: 0.05, zone: 'diameter', datums: ['A', 'B', 'C'] },
      ],
      borderMargin: 0.5,
    });
    const [pos, clocked] = r.characteristics;
    expect(pos!.actual).toBeLessThan(1e-6);
    expect(pos!.pass).toBe(true);
    expect(pos!.method).toMatch(/floated in what the datums leave free \(1 rotation\).*the worst 0\.105/);
    expect(2 * 30 * Math.sin(PHI)).toBeCloseTo(0.105, 3);
    // C, the y = 0 side scanned as drawn, clocks the frame: the turn is the hole's error.
    expect(clocked!.actual).toBeCloseTo(2 * 30 * Math.sin(PHI), 6);
    expect(clocked!.pass).toBe(false);
  });
});
