import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { writeBinaryStl } from '../scene/import/stl';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { makeBox, makeCylinder, makeDrilledBlock } from '../../test/kernelShapes';
import type { MetricsResult } from './computeMetrics';

const REL = 1e-9;

function expectClose(actual: number, expected: number, rel = REL): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(expected)));
}

function expectVecClose(actual: readonly number[] | undefined, expected: readonly number[], rel = REL): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((e, i) => expectClose(actual![i]!, e, rel));
}

/** Parallel or antiparallel: principal axes have no preferred sign. */
function expectParallel(actual: readonly number[], expected: readonly number[]): void {
  const d = Math.abs(actual[0]! * expected[0]! + actual[1]! * expected[1]! + actual[2]! * expected[2]!);
  expectClose(d, 1);
}

let oc: OC;
let engine: Engine;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'box', makeBox(oc, 10, 20, 30));
  addShapeBody(oc, engine.scene, 'cyl', makeCylinder(oc, 5, 20));
  addShapeBody(oc, engine.scene, 'drilled', makeDrilledBlock(oc, 4));
});

const metrics = (args: object) => engine.run('compute_metrics', args) as Promise<MetricsResult>;

describe('compute_metrics on kernel-made shapes', () => {
  it('box 10x20x30: volume, area, centre, exact box, principal axes along x, y, z', async () => {
    const r = await metrics({ bodyId: 'box' });
    expectClose(r.volume!, 6000);
    expectClose(r.surfaceArea!, 2200);
    expectVecClose(r.centerOfMass!, [5, 10, 15]);
    expectVecClose(r.boundingBox!.min, [0, 0, 0]);
    expectVecClose(r.boundingBox!.max, [10, 20, 30]);
    // Moments m(b^2+c^2)/12 ascending: about z (10,20) < about y (10,30) < about x (20,30).
    const [a, b, c] = r.principalAxes!;
    expectParallel(a, [0, 0, 1]);
    expectParallel(b, [0, 1, 0]);
    expectParallel(c, [1, 0, 0]);
    expect(r.boundingBoxOptimal).toBeUndefined();
    expect(r.warnings).toEqual([]);
  });

  it('cylinder r=5 h=20: volume pi r^2 h, area 2 pi r (r + h), centre on the axis', async () => {
    const r = await metrics({ bodyId: 'cyl' });
    expectClose(r.volume!, Math.PI * 25 * 20);
    expectClose(r.surfaceArea!, 2 * Math.PI * 5 * (5 + 20));
    expectVecClose(r.centerOfMass!, [0, 0, 10]);
    // Axial moment m r^2/2 = 12.5 m is smaller than the transverse m(3r^2 + h^2)/12 = 39.6 m.
    expectParallel(r.principalAxes![0], [0, 0, 1]);
  });

  it('block with a drilled hole: box volume minus pi r^2 h', async () => {
    const r = await metrics({ bodyId: 'drilled', metrics: ['volume', 'surfaceArea'] });
    expectClose(r.volume!, 40 * 30 * 20 - Math.PI * 16 * 20);
    expectClose(r.surfaceArea!, 2 * (40 * 30 + 40 * 20 + 30 * 20) - 2 * Math.PI * 16 + 2 * Math.PI * 4 * 20);
    expect(Object.keys(r).sort()).toEqual(['surfaceArea', 'volume', 'warnings']);
  });

  it('boundingBoxOptimal only when listed, and equal to the box for a plain box', async () => {
    const r = await metrics({ bodyId: 'box', metrics: ['boundingBoxOptimal'] });
    expect(r.boundingBox).toBeUndefined();
    expectVecClose(r.boundingBoxOptimal!.max, [10, 20, 30], 1e-6);
  });

  it('a mesh body: an STL of the box gives the same exact figures', async () => {
    const box = engine.scene.get('box');
    if (box.kind !== 'brep') throw new Error('expected a BREP body');
    const { tessellateShape } = await import('../mesh/tessellate');
    const stl = writeBinaryStl(tessellateShape(oc, box.shape, 0.1));
    await engine.run('import_file', { bytes: Buffer.from(stl).toString('base64'), fileName: 'box.stl', bodyId: 'boxMesh' });
    const r = await metrics({ bodyId: 'boxMesh', metrics: [] });
    expectClose(r.volume!, 6000);
    expectClose(r.surfaceArea!, 2200);
    expectVecClose(r.centerOfMass!, [5, 10, 15]);
    expectVecClose(r.boundingBox!.max, [10, 20, 30]);
    expectParallel(r.principalAxes![0], [0, 0, 1]);
    expectParallel(r.principalAxes![2], [1, 0, 0]);
  });

  it('an open mesh reports volume null with a warning', async () => {
    // One triangle: an open facet shell.
    const stl = writeBinaryStl({ positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: Uint32Array.from([0, 1, 2]) });
    await engine.run('import_file', { bytes: Buffer.from(stl).toString('base64'), fileName: 'tri.stl', bodyId: 'tri' });
    const r = await metrics({ bodyId: 'tri' });
    expect(r.volume).toBeNull();
    expectClose(r.surfaceArea!, 0.5);
    expectVecClose(r.centerOfMass!, [1 / 3, 1 / 3, 0]);
    expect(r.warnings.join(' ')).toMatch(/not closed/);
  });

  it('rejects an unknown body, an unknown metric and unknown keys with stable codes', async () => {
    await expect(metrics({ bodyId: 'nope' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    await expect(metrics({ bodyId: 'box', metrics: ['mass'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('metrics[0]') });
    await expect(metrics({ bodyId: 'box', extra: 1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('extra') });
    await expect(metrics({ bodyId: 42 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('bodyId') });
  });
});
