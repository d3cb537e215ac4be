import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { makeBox } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * A composite profile (ASME Y14.5-2018 11.6): the upper segment to A locates the top face, the
 * lower segment to A only orients it. A 60 x 30 x 20 block scanned LIFT too thick: the top reads
 * 2 LIFT to A (a profile, or the upper segment) and 0 as the lower segment, whose zone may move
 * along A. Tilted by TILT across its length, the lower segment reads the tilt.
 */
let engine: Engine;
type Result = { characteristics: Characteristic[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);
const LIFT = 0.15, TILT = 0.0005;
let top: string, bottom: string;

function scan(tilt: number): number[] {
  const pts: number[] = [];
  for (let x = 2; x <= 58; x += 1)
    for (let y = 2; y <= 28; y += 1) pts.push(x, y, 0, x, y, 20 + LIFT + tilt * (x - 30));
  return pts;
}

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'block', makeBox(oc, 60, 30, 20));
  top = await faceOf(engine, 'block', /plan/i, [30, 15, 20]);
  bottom = await faceOf(engine, 'block', /plan/i, [30, 15, 0]);
  addCloud(engine, 'thick', scan(0));
  addCloud(engine, 'tilted', scan(TILT));
});

describe('evaluate_gdt: composite frames', () => {
  it('the lower segment floats along its datum: a top LIFT too high passes 0.1 to A as the lower segment, fails as the upper', async () => {
    const profile = (id: string, tolerance: number, composite?: string) => ({ id, kind: 'surfaceProfile', faces: [top], tolerance, datums: ['A'], ...(composite ? { composite } : {}) });
    const args = (actualBodyId: string) => ({
      actualBodyId,
      nominalBodyId: 'block',
      datums: [{ label: 'A', faces: [bottom] }],
      characteristics: [profile('single', 0.1), profile('upper', 0.4, 'upper'), profile('lower', 0.1, 'lower')],
    });
    const [single, upper, lower] = (await evaluate(args('thick'))).characteristics;
    expect(single!.actual).toBeCloseTo(2 * LIFT, 9);
    expect(single!.pass).toBe(false);
    expect(upper!.actual).toBeCloseTo(2 * LIFT, 9);
    expect(upper!.pass).toBe(true);
    expect(lower!.actual).toBeLessThan(1e-9);
    expect(lower!.pass).toBe(true);
    expect(lower!.method).toMatch(/lower segment of a composite frame/);
    expect([single!.composite, upper!.composite, lower!.composite]).toEqual([undefined, 'upper', 'lower']);
    // Orientation stays the datum's: tilted TILT over x from 2 to 58, the lower segment reads 56 TILT.
    const [, , tilted] = (await evaluate(args('tilted'))).characteristics;
    expect(tilted!.actual).toBeCloseTo(56 * TILT, 9);
  });
});
