import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import type { MeshBody } from '../scene/Body';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { addMeshBody, addOffsetSpheres } from '../../test/deviationFixtures';
import { makeSphere } from '../../test/kernelShapes';
import { scanOfPart } from '../../test/scanFixture';
import type { DeviationLabelsResult } from './deviationLabels';

let oc: OC;
let engine: Engine;
const labels = (args: object) => engine.runJson('deviation_labels', args).then((r) => r.result as DeviationLabelsResult);
const SIGMA = 0.002;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addOffsetSpheres(oc, engine.scene);
  // A scan of the r = 10 sphere moved +0.1 along its normal with noise of sigma 0.002 (seeded).
  addMeshBody(engine.scene, 'scan', scanOfPart(oc, makeSphere(oc, 10), { deflection: 0.02, offset: 0.1, sigma: SIGMA, seed: 7 }));
});

const norm = (p: readonly number[]) => Math.hypot(p[0]!, p[1]!, p[2]!);

describe('deviation_labels', () => {
  it('automatic labels on a +0.1 scan read 0.100 within the noise, stand on the scan, are spread apart and PASS/FAIL by the tolerance', async () => {
    const r = await labels({ fromBodyId: 'scan', referenceBodyId: 'ref', count: 6, tolerance: 0.1 });
    expect(r.mode).toBe('auto');
    expect(r.labels).toHaveLength(6);
    expect(r.minDistance).toBeCloseTo(0.1 * Math.hypot(20.2, 20.2, 20.2), 1);
    const mesh = (engine.scene.get('scan') as MeshBody).mesh.positions;
    for (const l of r.labels) {
      // A scan vertex: exactly one of the mesh's points, 10 + 0.1 + noise from the centre.
      let onMesh = false;
      for (let v = 0; v < mesh.length / 3 && !onMesh; v++) onMesh = mesh[3 * v] === l.point[0] && mesh[3 * v + 1] === l.point[1] && mesh[3 * v + 2] === l.point[2];
      expect(onMesh).toBe(true);
      // Against the exact sphere the deviation is |p| - 10 and the reference point is p scaled to r = 10.
      expect(l.signed!).toBeCloseTo(norm(l.point) - 10, 9);
      expect(Math.abs(l.signed! - 0.1)).toBeLessThan(5 * SIGMA);
      expect(l.distance).toBeCloseTo(l.signed!, 9);
      const s = 10 / norm(l.point);
      l.referencePoint!.forEach((c, k) => expect(c).toBeCloseTo(l.point[k]! * s, 6));
      expect(norm(l.normal)).toBeCloseTo(1, 9);
      expect(l.pass).toBe(l.signed! <= 0.1);
    }
    // The most deviating first, and the largest is the scan's largest local deviation.
    for (let i = 1; i < r.labels.length; i++) expect(Math.abs(r.labels[i]!.signed!)).toBeLessThanOrEqual(Math.abs(r.labels[i - 1]!.signed!));
    let largest = 0;
    for (let v = 0; v < mesh.length / 3; v++) largest = Math.max(largest, Math.hypot(mesh[3 * v]!, mesh[3 * v + 1]!, mesh[3 * v + 2]!) - 10);
    expect(r.labels[0]!.signed!).toBeCloseTo(largest, 9);
    // Spread: no two labels nearer than minDistance; the noise peaks above 0.1 FAIL, those at or below PASS.
    for (let i = 0; i < r.labels.length; i++) for (let j = 0; j < i; j++) expect(norm(r.labels[i]!.point.map((c, k) => c - r.labels[j]!.point[k]!))).toBeGreaterThanOrEqual(r.minDistance!);
    expect(r.labels[0]!.pass).toBe(false);
  });

  it('labels given points at their nearest point on the candidate: exact BREP spheres read +0.1 and -0.1', async () => {
    const asked = [
      [0, 0, 20],
      [3, -4, 0],
      [1, 2, -2],
    ] as const;
    const proud = await labels({ fromBodyId: 'proud', referenceBodyId: 'ref', points: asked, tolerance: 0.05 });
    const shy = await labels({ fromBodyId: 'shy', referenceBodyId: 'ref', points: asked, tolerance: 0.2 });
    expect(proud.mode).toBe('points');
    for (const [r, radius, want, pass] of [
      [proud, 10.1, 0.1, false],
      [shy, 9.9, -0.1, true],
    ] as const) {
      expect(r.labels.map((l) => l.number)).toEqual([1, 2, 3]);
      r.labels.forEach((l, i) => {
        const p = asked[i]!;
        const u = p.map((c) => c / norm(p));
        l.point.forEach((c, k) => expect(c).toBeCloseTo(u[k]! * radius, 6));
        l.referencePoint!.forEach((c, k) => expect(c).toBeCloseTo(u[k]! * 10, 6));
        expect(l.signed!).toBeCloseTo(want, 6);
        expect(l.offset!).toBeCloseTo(Math.abs(norm(p) - radius), 6);
        expect(l.requested).toEqual([...p]);
        expect(l.pass).toBe(pass);
      });
    }
    // Tessellated surfaces: the same within the chord sag of the tessellations.
    const mesh = await labels({ fromBodyId: 'proud', referenceBodyId: 'ref', points: asked, surface: 'tessellated', deflection: 0.005 });
    for (const l of mesh.labels) expect(Math.abs(l.signed! - 0.1)).toBeLessThan(0.012);
  });

  it('defaults its tolerance to the heat map band and refuses bad input with stable codes', async () => {
    const r = await labels({ fromBodyId: 'proud', referenceBodyId: 'ref', count: 1 });
    // Every value 0.1: range 0.1, band 0.01 (the app's default tolerance rule).
    expect(r.tolerance).toBe(0.01);
    await expect(labels({ fromBodyId: 'nope', referenceBodyId: 'ref' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    await expect(labels({ fromBodyId: 'proud', referenceBodyId: 'ref', points: [[0, 0, Number.NaN]] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(labels({ fromBodyId: 'proud', referenceBodyId: 'ref', count: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('a point past the placements\' range is INVALID_ARGUMENT, not a body without a surface (bad-input sweep); 2^29 itself is labelled', async () => {
    // At 1e200 the squared distance overflowed and the labels said EMPTY_MESH "has no surface".
    for (const x of [1e200, 1e308, -(2 ** 29 + 1)]) {
      await expect(labels({ fromBodyId: 'proud', referenceBodyId: 'ref', points: [[x, 0, 0]] })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('within ±536870912 model units'),
      });
    }
    // The nearest point of the r = 10.1 sphere to (2^29, 0, 0) is (10.1, 0, 0), exactly +0.1 from the reference.
    const far = await labels({ fromBodyId: 'proud', referenceBodyId: 'ref', points: [[2 ** 29, 0, 0]] });
    expect(far.labels[0]!.point[0]).toBeCloseTo(10.1, 9);
    expect(Math.hypot(far.labels[0]!.point[1], far.labels[0]!.point[2])).toBeLessThan(1e-9);
    expect(far.labels[0]!.signed!).toBeCloseTo(0.1, 9);
  });
});
