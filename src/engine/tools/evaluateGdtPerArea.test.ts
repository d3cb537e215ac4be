import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { makeBox } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * Flatness and parallelism per unit area (NIST FTC 7's parallelism 0.762 per a 25.4 mm circle to
 * A): the zone applies to every area of that size on the face. A 40 x 30 x 20 block, datum A its
 * base; its top scanned on a 0.5 mm grid (x and y 0.5 to 39.5 and 29.5), tilted (z = 20 + TILT x)
 * or bent (z = 20 + BEND x^2). A window 10 across spans 10 of x: the tilt reads TILT x 10 in it,
 * 39 TILT over the face; the bend's flatness in it is BEND 10^2 / 4 (the parabola's sag under its
 * chord), BEND 39^2 / 4 over the face.
 */
const TILT = 0.001, BEND = 0.0001;
let engine: Engine;
const ids: Record<string, string> = {};
type Result = { characteristics: Characteristic[] };

function top(z: (x: number) => number): number[] {
  const pts: number[] = [];
  for (let x = 0.5; x <= 39.5; x += 0.5) for (let y = 0.5; y <= 29.5; y += 0.5) pts.push(x, y, 20 + z(x));
  for (let x = 1; x <= 39; x += 1) for (let y = 1; y <= 29; y += 1) pts.push(x, y, 0);
  return pts;
}

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'block', makeBox(oc, 40, 30, 20));
  ids.base = await faceOf(engine, 'block', /plan/i, [20, 15, 0]);
  ids.top = await faceOf(engine, 'block', /plan/i, [20, 15, 20]);
  addCloud(engine, 'tilted', top((x) => TILT * x));
  addCloud(engine, 'bent', top((x) => BEND * x * x));
});

const evaluate = (actualBodyId: string, characteristics: object[]) =>
  engine.runJson('evaluate_gdt', { actualBodyId, nominalBodyId: 'block', datums: [{ label: 'A', faces: [ids.base!] }], characteristics }).then((r) => (r.result as unknown as Result).characteristics);

describe('evaluate_gdt: zones per unit area', () => {
  it('a tilted top: parallelism per 10 mm circle reads the tilt over 10 mm and passes where the whole face fails', async () => {
    const [perArea, whole, rect] = await evaluate('tilted', [
      { id: 'perArea', kind: 'parallelism', faces: [ids.top!], tolerance: 0.012, datums: ['A'], perArea: { shape: 'circular', size: 10 } },
      { id: 'whole', kind: 'parallelism', faces: [ids.top!], tolerance: 0.03, datums: ['A'] },
      // A 10 x 20 rectangle either way round: 20 along x is the worse.
      { id: 'rect', kind: 'parallelism', faces: [ids.top!], tolerance: 0.012, datums: ['A'], perArea: { shape: 'rectangular', size: 10, second: 20 } },
    ]);
    expect(perArea!.actual).toBeCloseTo(TILT * 10, 9);
    expect(perArea!.pass).toBe(true);
    expect(perArea!.method).toMatch(/per unit area \(circular 10\): the worst of \d+ areas/);
    expect(whole!.actual).toBeCloseTo(TILT * 39, 9);
    expect(whole!.pass).toBe(false);
    expect(rect!.actual).toBeCloseTo(TILT * 20, 9);
    expect(rect!.pass).toBe(false);
  });

  it('a bent top: flatness per 10 mm square reads the bend over 10 mm; a position per unit area is not evaluated', async () => {
    const [perArea, whole, notPlanar] = await evaluate('bent', [
      { id: 'perArea', kind: 'flatness', faces: [ids.top!], tolerance: 0.003, perArea: { shape: 'square', size: 10 } },
      { id: 'whole', kind: 'flatness', faces: [ids.top!], tolerance: 0.003 },
      { id: 'position', kind: 'position', faces: [ids.top!], tolerance: 0.1, datums: ['A'], perArea: { shape: 'square', size: 10 } },
    ]);
    // Perpendicular to the chord, whose slope is at most 2 BEND x = 0.008: within 3.2e-5 relative.
    expect(perArea!.actual).toBeCloseTo((BEND * 100) / 4, 6);
    expect(perArea!.pass).toBe(true);
    expect(whole!.actual).toBeCloseTo((BEND * 39 * 39) / 4, 5);
    expect(whole!.pass).toBe(false);
    expect(notPlanar!.pass).toBeNull();
    expect(notPlanar!.reason).toMatch(/per unit area/);
  });
});
