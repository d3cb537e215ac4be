import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { exactGeometryOf } from '../deviation/structures';
import { fromMatrix4, rotationDistance, IDENTITY, type Rigid } from '../math/rigid';
import type { Vec3 } from '../math/vec3';
import { addShapeBody } from '../scene/addShapeBody';
import type { BrepBody } from '../scene/Body';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addCloud } from '../../test/gdtFixtures';
import { makeBox } from '../../test/kernelShapes';
import { planarFaceIds } from '../../test/flangeParts';
import type { AlignResult } from './alignBodies';

/**
 * Issue 30 item 5: align_bodies' datum alignment and evaluate_gdt's datum frame are one construction
 * (src/engine/gdt): the same faces give the same datums. The scan: a 40 x 30 x 20 block as a point
 * cloud whose bottom (datum A) bows out by BOW along x (z = -BOW (1 - u^2), u = (x - 20) / 20), the
 * sides B (x = 0) and C (y = 0) true. ASME's simulator for A is the plane touching the high point
 * (x = 20, z = -BOW) in the minimum-zone orientation (level: the bow is symmetric), so the datum
 * alignment is the translation (0, 0, BOW) exactly; a least-squares 3-2-1 puts A at the bow's mean
 * height instead (2/3 of it on a continuous face).
 */
const BOW = 0.05;
let oc: OC;
let engine: Engine;
const faceIds: Record<string, string> = {};

function scanPoints(move: (p: Vec3) => Vec3): number[] {
  const pts: number[] = [];
  const push = (p: Vec3) => pts.push(...move(p));
  for (let x = 0.5; x <= 39.5; x += 0.5) for (let y = 1; y <= 29; y += 1) push([x, y, -BOW * (1 - ((x - 20) / 20) ** 2)]);
  for (let y = 1; y <= 29; y += 1) for (let z = 1; z <= 19; z += 1) push([0, y, z]);
  for (let x = 1; x <= 39; x += 1) for (let z = 1; z <= 19; z += 1) push([x, 0, z]);
  for (let x = 1; x <= 39; x += 1) for (let y = 1; y <= 29; y += 1) push([x, y, 20]);
  return pts;
}

/** A small rigid motion: a turn by `angle` about z through (20, 15, 0), then a translation. */
const turn = (angle: number, t: Vec3) => (p: Vec3): Vec3 => {
  const c = Math.cos(angle), s = Math.sin(angle), x = p[0] - 20, y = p[1] - 15;
  return [20 + c * x - s * y + t[0], 15 + s * x + c * y + t[1], p[2] + t[2]];
};

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'block', makeBox(oc, 40, 30, 20));
  Object.assign(faceIds, planarFaceIds(exactGeometryOf(oc, engine.scene.get('block') as BrepBody).geometry));
  addCloud(engine, 'scan', scanPoints((p) => p));
  addCloud(engine, 'moved', scanPoints(turn(0.004, [0.03, -0.02, 0.01])));
});

const align = (movingBodyId: string, method: string) =>
  engine
    .runJson('align_bodies', { movingBodyId, fixedBodyId: 'block', method, datums: ['-z@0', '-x@0', '-y@0'].map((k) => ({ face: faceIds[k]! })), mode: 'fine', sampleCount: 20000 })
    .then((r) => r.result as unknown as AlignResult);

const gdtAlignment = (actualBodyId: string) =>
  engine
    .runJson('evaluate_gdt', {
      actualBodyId,
      nominalBodyId: 'block',
      datums: [
        { label: 'A', faces: [faceIds['-z@0']!] },
        { label: 'B', faces: [faceIds['-x@0']!] },
        { label: 'C', faces: [faceIds['-y@0']!] },
      ],
      characteristics: [{ kind: 'flatness', faces: [faceIds['-z@0']!], tolerance: 0.1 }],
      alignment: { method: 'datums', datums: ['A', 'B', 'C'] },
    })
    .then((r) => (r.result as unknown as { alignment: { transform: number[][] }; characteristics: { actual: number }[] }));

/** The mean of u^2 over the bottom's sample columns x = 0.5 .. 39.5. */
function meanU2(): number {
  let s = 0, n = 0;
  for (let x = 0.5; x <= 39.5; x += 0.5, n++) s += ((x - 20) / 20) ** 2;
  return s / n;
}

const rigid = (m: number[][]) => fromMatrix4(m) as Rigid;
const apart = (a: Rigid, b: Rigid) => ({ rotation: rotationDistance(a.r, b.r), translation: Math.hypot(a.t[0]! - b.t[0]!, a.t[1]! - b.t[1]!, a.t[2]! - b.t[2]!) });

describe('align_bodies method datums uses the datums evaluate_gdt builds', () => {
  it('a bowed primary: the tangent plane at the high point (translation (0, 0, BOW)), the same motion as evaluate_gdt', async () => {
    const a = await align('scan', 'datums');
    const g = await gdtAlignment('scan');
    const found = rigid(a.transform);
    expect(a.outcome).toBe('aligned');
    expect(apart(found, { r: IDENTITY.r, t: [0, 0, BOW] }).rotation).toBeLessThan(1e-9);
    expect(apart(found, { r: IDENTITY.r, t: [0, 0, BOW] }).translation).toBeLessThan(1e-9);
    const same = apart(found, rigid(g.alignment.transform));
    expect(same.rotation).toBeLessThan(1e-10);
    expect(same.translation).toBeLessThan(1e-9);
    // The bottom's samples then stand BOW u^2 inside the part (negative: actual minus nominal along
    // the outward normal -z); evaluate_gdt's flatness of A is the bow over the samples, BOW 0.975^2.
    const primary = a.constraints[0]!;
    expect(primary.role).toBe('primary');
    expect(primary.points).toBe(79 * 29);
    expect(primary.meanSigned!).toBeCloseTo(-BOW * meanU2(), 9);
    expect(g.characteristics[0]!.actual).toBeCloseTo(BOW * 0.975 ** 2, 9);
  });

  it('the scan moved by a small rigid motion: both tools find the same motion back', async () => {
    const a = rigid((await align('moved', 'datums')).transform);
    const g = rigid((await gdtAlignment('moved')).alignment.transform);
    const same = apart(a, g);
    expect(same.rotation).toBeLessThan(1e-9);
    expect(same.translation).toBeLessThan(1e-8);
    // And it is the inverse of the motion applied, followed by the lift (0, 0, BOW): a point of the
    // moved scan goes back where the unmoved scan's datum alignment puts it.
    const p: Vec3 = [7, 11, 13];
    const q = turn(0.004, [0.03, -0.02, 0.01])(p);
    const back = [0, 1, 2].map((i) => a.r[3 * i]! * q[0] + a.r[3 * i + 1]! * q[1] + a.r[3 * i + 2]! * q[2] + a.t[i]!);
    expect(Math.hypot(back[0]! - p[0], back[1]! - p[1], back[2]! - p[2] - BOW)).toBeLessThan(1e-8);
  });

  it("method 3-2-1 fits least-squares planes instead: A at the bow's mean height, not its high point", async () => {
    const a = rigid((await align('scan', '3-2-1')).transform);
    // The samples' mean of BOW (1 - u^2) over x = 0.5 .. 39.5 (the border margin keeps them all).
    expect(rotationDistance(a.r, IDENTITY.r)).toBeLessThan(1e-9);
    expect(a.t[2]!).toBeCloseTo(BOW * (1 - meanU2()), 9);
    expect(Math.abs(a.t[0]!)).toBeLessThan(1e-9);
    expect(Math.abs(a.t[1]!)).toBeLessThan(1e-9);
  });
});
