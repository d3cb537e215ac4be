import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { makeBox, makeCylinder } from '../../test/kernelShapes';
import type { Characteristic } from '../gdt/evaluate';
import { exactReference } from '../deviation/structures';
import { defaultDeflection } from '../deviation/surfaces';
import { nominalAccess } from '../gdt/nominalAccess';
import { calloutLines } from '../gdt/straightness';
import type { BrepBody } from '../scene/Body';

/**
 * Straightness (src/engine/gdt/straightness.ts) against closed forms: kernel nominals, point-cloud
 * scans with a known defect, characteristics written out.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => (r.result as unknown as Result).characteristics);

const R = 10, S = 0.05, A = 0.01, WAVE = 20;
/** The shaft's lateral face scanned with its axis bowed by S in x: x offset S (1 - ((z - 20) / 18)^2), z in [2, 38]. */
const bow = (z: number) => S * (1 - ((z - 20) / 18) ** 2);
/** The same with its middle (|z - 20| < 5) moved over by S: a median line symmetric about z = 20. */
const bump = (z: number) => (Math.abs(z - 20) < 5 ? S : 0);
function shaftScan(offset: (z: number) => number): number[] {
  const pts: number[] = [];
  for (let i = 0; i <= 144; i++)
    for (let k = 0; k < 144; k++) {
      const z = 2 + 0.25 * i, t = (k * Math.PI) / 72;
      pts.push(offset(z) + R * Math.cos(t), R * Math.sin(t), z);
    }
  return pts;
}

let lateral: string, top: string;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'shaft', makeCylinder(oc, R, 40));
  addShapeBody(oc, engine.scene, 'plate', makeBox(oc, 100, 60, 10));
  lateral = await faceOf(engine, 'shaft', /cylind/i, [0, 0, 20]);
  top = await faceOf(engine, 'plate', /plan/i, [50, 30, 10]);
  addCloud(engine, 'bowed', shaftScan(bow));
  addCloud(engine, 'bumped', shaftScan(bump));
  addCloud(engine, 'round', shaftScan(() => 0));
  // The plate's top with a ripple along x: z = 10 + A sin(2 pi x / WAVE), x in [5, 95], y in [5, 55].
  const plate: number[] = [];
  for (let i = 0; i <= 180; i++) for (let j = 0; j <= 50; j++) {
    const x = 5 + 0.5 * i, y = 5 + j;
    plate.push(x, y, 10 + A * Math.sin((2 * Math.PI * x) / WAVE));
  }
  addCloud(engine, 'rippled', plate);
}, 120_000);

const straightness = (extra: object = {}) => ({ kind: 'straightness', faces: [lateral], tolerance: 0.04, ...extra });

describe('straightness', () => {
  it("a cylinder's line elements: a perfect scan reads 0; its axis bowed by S reads the bow's sag S (the element on the bow's side)", async () => {
    const [perfect] = await evaluate({ actualBodyId: 'round', nominalBodyId: 'shaft', characteristics: [straightness()] });
    expect(perfect!.actual).toBeLessThan(1e-9);
    expect(perfect!.pass).toBe(true);
    const [bowed] = await evaluate({ actualBodyId: 'bowed', nominalBodyId: 'shaft', characteristics: [straightness()] });
    // The element at angle t reads S cos t (+ S^2 / 2R sin^2 t); a strip 5 degrees wide holds
    // columns within 5 degrees of its centre: S cos(5 deg) = 0.9962 S at the least.
    expect(bowed!.actual).toBeGreaterThan(S * Math.cos((5 * Math.PI) / 180));
    expect(bowed!.actual).toBeLessThan(S * (1 + 1e-3));
    expect(bowed!.pass).toBe(false);
    expect(bowed!.method).toMatch(/line elements along the cylinder's axis: 72 elements/);
  });

  it('a derived median line (diameter zone): the middle of the axis moved over by S reads S; a perfect scan 0', async () => {
    const [stepped] = await evaluate({ actualBodyId: 'bumped', nominalBodyId: 'shaft', characteristics: [straightness({ zone: 'diameter' })] });
    const [perfect] = await evaluate({ actualBodyId: 'round', nominalBodyId: 'shaft', characteristics: [straightness({ zone: 'diameter' })] });
    // Section centres on the axis at both ends and S over in the middle (sections straddling the
    // bump's ends in between): the problem is symmetric about z = 20 and convex, so a best line is
    // parallel to the axis, midway: diameter S. (A step S over half the length is not a closed form:
    // a line tilted across the step does better than S, by the sections' spacing.)
    expect(stepped!.actual).toBeCloseTo(S, 9);
    expect(perfect!.actual).toBeLessThan(1e-9);
    expect(stepped!.method).toMatch(/derived median line: the least-squares circle centres of 15 cross-sections/);
  });

  it("a plane's line elements along its longest extent: a ripple of amplitude A reads 2 A; per unit length, the worst window reads A (1 - cos(pi L / wave)), less than the whole", async () => {
    const [whole, perLength] = await evaluate({
      actualBodyId: 'rippled',
      nominalBodyId: 'plate',
      characteristics: [
        { kind: 'straightness', faces: [top], tolerance: 0.01 },
        { kind: 'straightness', faces: [top], tolerance: 0.01, perLength: WAVE / 4 },
      ],
    });
    // Along x (the plate's 100 mm side, the PMI giving no direction): more than two waves between
    // two parallel lines: 2 A.
    expect(whole!.actual).toBeCloseTo(2 * A, 9);
    expect(whole!.method).toMatch(/along the face's longest extent \(the PMI gives no direction\), direction \(1, 0, 0\)/);
    expect(whole!.pass).toBe(false);
    // A window of a quarter wave centred on a crest: the cap of a cosine, A (1 - cos(pi / 4)).
    expect(perLength!.actual).toBeCloseTo(A * (1 - Math.cos(Math.PI / 4)), 9);
    expect(perLength!.actual).toBeLessThan(whole!.actual! / 6);
    expect(perLength!.pass).toBe(true);
    expect(perLength!.method).toMatch(/per unit length 5: the worst of \d+ windows/);
  });

  it('a zone that does not apply says why: a diameter zone on a plane, a sphere zone', async () => {
    const [plane, sphere] = await evaluate({
      actualBodyId: 'rippled',
      nominalBodyId: 'plate',
      characteristics: [{ kind: 'straightness', faces: [top], tolerance: 0.01, zone: 'diameter' }, { kind: 'flatness', faces: [top], tolerance: 0.01, perLength: 10 }],
    });
    expect(plane!.pass).toBeNull();
    expect(plane!.reason).toMatch(/diameter zone applies to a derived median line/);
    expect(sphere!.pass).toBeNull();
    expect(sphere!.reason).toMatch(/flatness zone per unit length is not evaluated/);
  });

  it("a callout on a line edge (NIST CTC 5's straightness names one): the faces it lies on and its direction; a circle edge says why", async () => {
    const edges = (await engine.runJson('query_topology', { bodyId: 'shaft', entity: 'edge' })).result as unknown as { id: string; curveType: string }[];
    const index = (type: string) => Number(/\d+/.exec(edges.find((e) => e.curveType === type)!.id)![0]);
    const body = engine.scene.get('shaft') as BrepBody;
    const nominal = nominalAccess(oc, body, exactReference(oc, body, defaultDeflection(oc, body)));
    const lateralIndex = Number(/\d+/.exec(lateral)![0]);
    // The shaft's seam: the line x = 10, y = 0 along z, on the lateral face.
    type Spec = { faces: number[]; edges: number[]; direction?: [number, number, number] | null; lineReason?: string };
    const seam = calloutLines<Spec>(nominal, { faces: [], edges: [index('LINE')] });
    expect(seam.faces).toEqual([lateralIndex]);
    expect(Math.abs(seam.direction![2])).toBeCloseTo(1, 12);
    expect(seam.lineReason).toBeUndefined();
    const circle = calloutLines<Spec>(nominal, { faces: [], edges: [index('CIRCULAR')] });
    expect(circle.faces).toEqual([]);
    expect(circle.lineReason).toMatch(/is not a straight line|closed/);
  });
});

