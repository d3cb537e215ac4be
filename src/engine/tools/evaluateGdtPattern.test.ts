import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { drillHoles, makeBox } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';

/**
 * evaluate_gdt on callouts that name several features (a pattern of holes, NIST FTC 6's "4X") and on
 * the orientation of a width feature, against closed forms. Before: the holes were read as one
 * cylinder through all of them (26400 mm position on a perfect scan of FTC 6), the width feature's two
 * sides as one plane (their separation as its perpendicularity).
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);

// A 60 x 30 x 20 block with two through holes of radius 4 at (15, 15) and (45, 15).
const HOLES: [number, number][] = [[15, 15], [45, 15]];
const twoHoleBlock = (oc: OC) => drillHoles(oc, makeBox(oc, 60, 30, 20), HOLES, 4);

/** The second hole scanned off its true position by (DX, DY) with radius R2; the first as drawn. */
const DX = 0.03, DY = -0.04, R2 = 4.05;
/** The block's x sides (x = 0 and x = 60) scanned leaning by KAPPA: x = x0 + KAPPA z. */
const KAPPA = 0.002;
function scan(): number[] {
  const pts: number[] = [];
  for (let x = 2; x <= 58; x += 1) for (let y = 2; y <= 28; y += 1) if (HOLES.every(([hx, hy]) => Math.hypot(x - hx, y - hy) > 5.5)) pts.push(x, y, 0);
  for (let y = 2; y <= 28; y += 1) for (let z = 2; z <= 18; z += 1) pts.push(KAPPA * z, y, z, 60 + KAPPA * z, y, z);
  for (let x = 2; x <= 58; x += 1) for (let z = 2; z <= 18; z += 1) pts.push(x, 0, z);
  HOLES.forEach(([hx, hy], i) => {
    const [cx, cy, r] = i === 0 ? [hx, hy, 4] : [hx + DX, hy + DY, R2];
    for (let z = 2; z <= 18 + 1e-9; z += 0.5)
      for (let k = 0; k < 72; k++) pts.push(cx + r * Math.cos((k * Math.PI) / 36), cy + r * Math.sin((k * Math.PI) / 36), z);
  });
  return pts;
}

let holes: string[], bottom: string, x0: string, x60: string, y0: string;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'block', twoHoleBlock(oc));
  holes = [await faceOf(engine, 'block', /cylind/i, [15, 15, 10]), await faceOf(engine, 'block', /cylind/i, [45, 15, 10])];
  bottom = await faceOf(engine, 'block', /plan/i, [30, 15, 0]);
  x0 = await faceOf(engine, 'block', /plan/i, [0, 15, 10]);
  x60 = await faceOf(engine, 'block', /plan/i, [60, 15, 10]);
  y0 = await faceOf(engine, 'block', /plan/i, [30, 0, 10]);
  addCloud(engine, 'scan', scan());
});

describe('evaluate_gdt: patterns and width features', () => {
  it('a pattern of two holes is evaluated hole by hole: position = 2 x the displaced hole offset, diameter = its diameter', async () => {
    const datums = [
      { label: 'A', faces: [bottom] },
      { label: 'B', faces: [x0] },
      { label: 'C', faces: [y0] },
    ];
    const size = { nominal: 8, upper: 0.08, lower: -0.08 };
    const characteristics = [
      { id: 'pos', kind: 'position', faces: holes, tolerance: 0.09, zone: 'diameter', datums: ['A', 'B', 'C'] },
      { id: 'posLoose', kind: 'position', faces: holes, tolerance: 0.1, zone: 'diameter', datums: ['A', 'B', 'C'] },
      { id: 'posMmc', kind: 'position', faces: holes, tolerance: 0.05, zone: 'diameter', datums: ['A', 'B', 'C'], modifiers: ['maximumMaterial'], size },
      { id: 'dia', kind: 'diameter', faces: holes, ...size },
      { id: 'diaWide', kind: 'diameter', faces: holes, nominal: 8, upper: 0.12, lower: -0.12 },
      { id: 'cyl', kind: 'cylindricity', faces: holes, tolerance: 0.01 },
    ];
    // B leans (x = KAPPA z): simulated square to A at its high point, x = 2 KAPPA, moving the frame.
    const r = await evaluate({ actualBodyId: 'scan', nominalBodyId: 'block', datums, characteristics, borderMargin: 0.5 });
    const [pos, posLoose, posMmc, dia, diaWide, cyl] = r.characteristics;
    const offset = 2 * Math.hypot(DX - 2 * KAPPA, DY);
    expect(pos!.actual).toBeCloseTo(offset, 9);
    expect(pos!.pass).toBe(false); // 2 x hypot(0.026, 0.04) = 0.0954: over 0.09, within 0.1
    expect(pos!.method).toMatch(/^pattern of 2 features/);
    expect(pos!.faces).toEqual(holes);
    expect(posLoose!.pass).toBe(true);
    // MMC (maximum material size 7.92): the displaced hole (8.1) gets 0.05 + 0.18 for 0.0954, the
    // drawn one (8.0) 0.05 + 0.08 for 4 KAPPA: the pattern passes, the drawn hole has the least margin.
    expect(posMmc!.pass).toBe(true);
    expect(posMmc!.bonus).toBeCloseTo(8 - 7.92, 9);
    expect(posMmc!.actual).toBeCloseTo(2 * 2 * KAPPA, 9); // the frame's origin at x = 2 KAPPA (B's high point)
    expect(posMmc!.method).toContain(`the worst, ${holes[0]}:`);
    expect(dia!.actual).toBeCloseTo(2 * R2, 9);
    expect(dia!.pass).toBe(false);
    expect(diaWide!.actual).toBeCloseTo(2 * R2, 9);
    expect(diaWide!.pass).toBe(true);
    expect(cyl!.actual).toBeLessThan(1e-9);
    expect(cyl!.pass).toBe(true);
  });

  it('a datum on a pattern of holes (or a common datum of parallel holes) sets the frame by their axes together', async () => {
    // The pattern's centre: midway between the axes, (30, 15) drawn, (30 + DX / 2, 15 + DY / 2)
    // scanned; its clocking: the line through the two holes, turned by theta on the scan.
    const theta = Math.atan2(DY, 30 + DX);
    // The y = 0 side's samples (x 2 to 58) seen in that frame: y' = 15 - sin(theta) (x - cx) + cos(theta) (0 - cy).
    const [cx, cy] = [30 + DX / 2, 15 + DY / 2];
    let worst = 0;
    for (let x = 2; x <= 58; x += 1) worst = Math.max(worst, Math.abs(15 - Math.sin(theta) * (x - cx) - Math.cos(theta) * cy));
    const characteristics = [{ id: 'prof', kind: 'surfaceProfile', faces: [y0], tolerance: 0.1, datums: ['A', 'P'] }];
    const pattern = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'block',
      datums: [{ label: 'A', faces: [bottom] }, { label: 'P', faces: holes }],
      characteristics,
      borderMargin: 0.5,
    });
    expect(pattern.characteristics[0]!.actual).toBeCloseTo(2 * worst, 9);
    expect(2 * worst).toBeGreaterThan(0.1);
    expect(pattern.characteristics[0]!.pass).toBe(false);

    // The two parallel holes as a common datum P-Q (NIST FTC 8's H-J) are the same pattern.
    const common = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'block',
      datums: [{ label: 'A', faces: [bottom] }, { label: 'P', faces: [holes[0]] }, { label: 'Q', faces: [holes[1]] }],
      characteristics: [{ ...characteristics[0], datums: ['A', 'P-Q'] }],
      borderMargin: 0.5,
    });
    expect(common.characteristics[0]!.actual).toBeCloseTo(2 * worst, 9);
  });

  it("a width feature's perpendicularity is its centre plane's lean over the samples' height", async () => {
    const r = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'block',
      datums: [{ label: 'A', faces: [bottom] }],
      characteristics: [
        { id: 'tight', kind: 'perpendicularity', faces: [x0, x60], tolerance: 0.03, datums: ['A'] },
        { id: 'loose', kind: 'perpendicularity', faces: [x60, x0], tolerance: 0.04, datums: ['A'] },
      ],
      borderMargin: 0.5,
    });
    const [tight, loose] = r.characteristics;
    // Centre plane x = 30 + KAPPA z over z in [2, 18]: 16 KAPPA = 0.032.
    expect(tight!.actual).toBeCloseTo(16 * KAPPA, 9);
    expect(tight!.pass).toBe(false);
    expect(loose!.actual).toBeCloseTo(16 * KAPPA, 9);
    expect(loose!.pass).toBe(true);
    expect(tight!.method).toMatch(/centre plane/);
  });

  it('a distance whose faces include one across the sides (FTC 8: a pocket\'s walls and its end): the sides only', async () => {
    const r = await evaluate({
      actualBodyId: 'scan',
      nominalBodyId: 'block',
      characteristics: [{ id: 'width', kind: 'distance', faces: [x0, y0, x60], nominal: 60, upper: 0.1, lower: -0.1 }],
      borderMargin: 0.5,
    });
    const [width] = r.characteristics;
    // Side x = KAPPA z (its own plane), the other x = 60 + KAPPA z: 60 / sqrt(1 + KAPPA^2) apart.
    expect(width!.actual).toBeCloseTo(60 / Math.hypot(1, KAPPA), 9);
    expect(width!.pass).toBe(true);
    expect(width!.method).toContain(`${y0} left out`);
  });
});
