import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { tessellateShape } from '../mesh/tessellate';
import { addShapeBody } from '../scene/addShapeBody';
import { writeBinaryStl } from '../scene/import/stl';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeBox, makeSphere } from '../../test/kernelShapes';
import type { ContactPair } from './measureDistance';

let oc: OC;
let engine: Engine;
const distance = (args: object) => engine.runJson('measure_distance', args).then((r) => r.result) as Promise<{ distance: number; contacts?: ContactPair[] }>;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'a', makeBox(oc, 10, 10, 10));
  addShapeBody(oc, engine.scene, 'gap', makeBox(oc, 10, 10, 10, [17.5, 0, 0]));
  addShapeBody(oc, engine.scene, 'touch', makeBox(oc, 10, 10, 10, [10, 0, 0]));
  addShapeBody(oc, engine.scene, 'overlap', makeBox(oc, 10, 10, 10, [5, 5, 5]));
  addShapeBody(oc, engine.scene, 'inner', makeBox(oc, 2, 2, 2, [4, 4, 4]));
});

describe('measure_distance', () => {
  it('two boxes 7.5 apart: distance 7.5 with contacts on the facing faces', async () => {
    const r = await distance({ fromBodyId: 'a', toBodyId: 'gap', computeContacts: true });
    expect(Math.abs(r.distance - 7.5)).toBeLessThan(1e-9);
    expect(r.contacts!.length).toBeGreaterThan(0);
    expect(r.contacts!.length).toBeLessThanOrEqual(32);
    for (const c of r.contacts!) {
      expect(Math.abs(c.pointOnFrom[0] - 10)).toBeLessThan(1e-9);
      expect(Math.abs(c.pointOnTo[0] - 17.5)).toBeLessThan(1e-9);
      expect(Math.hypot(c.pointOnTo[0] - c.pointOnFrom[0], c.pointOnTo[1] - c.pointOnFrom[1], c.pointOnTo[2] - c.pointOnFrom[2]) - 7.5).toBeLessThan(1e-9);
    }
    expect((await distance({ fromBodyId: 'a', toBodyId: 'gap' })).contacts).toBeUndefined();
  });

  it('touching, overlapping and nested boxes: 0', async () => {
    expect((await distance({ fromBodyId: 'a', toBodyId: 'touch' })).distance).toBeLessThan(1e-9);
    expect((await distance({ fromBodyId: 'a', toBodyId: 'overlap' })).distance).toBeLessThan(1e-9);
    expect((await distance({ fromBodyId: 'a', toBodyId: 'inner' })).distance).toBeLessThan(1e-9);
  });

  it('a sphere and a box: the analytic gap', async () => {
    const sphere = makeSphere(oc, 3); // centred at the origin
    const box = makeBox(oc, 4, 4, 4, [10, 10, 10]);
    addShapeBody(oc, engine.scene, 'sphere', sphere);
    addShapeBody(oc, engine.scene, 'corner', box);
    const r = await distance({ fromBodyId: 'sphere', toBodyId: 'corner' });
    expect(Math.abs(r.distance - (Math.sqrt(300) - 3))).toBeLessThan(1e-7);
  });

  it('an STL body counts as its facet shell', async () => {
    const shifted = makeBox(oc, 10, 10, 10, [17.5, 0, 0]);
    const stl = writeBinaryStl(tessellateShape(oc, shifted, 1));
    shifted.delete();
    await engine.run('import_file', { bytes: Buffer.from(stl).toString('base64'), fileName: 'gap.stl', bodyId: 'gapMesh' });
    const r = await distance({ fromBodyId: 'a', toBodyId: 'gapMesh', computeContacts: true });
    expect(Math.abs(r.distance - 7.5)).toBeLessThan(1e-6);
    expect(r.contacts!.every((c) => Math.abs(c.pointOnTo[0] - 17.5) < 1e-6)).toBe(true);
  });

  it('an STL whose triangles are all collapsed has no facet shell: EMPTY_MESH, not an OCCT exception', async () => {
    const collapsed = { positions: Float64Array.from([5, 5, 5]), indices: Uint32Array.from([0, 0, 0]) };
    await engine.run('import_file', { bytes: Buffer.from(writeBinaryStl(collapsed)).toString('base64'), fileName: 'dot.stl', bodyId: 'dot' });
    for (const args of [{ fromBodyId: 'dot', toBodyId: 'a' }, { fromBodyId: 'a', toBodyId: 'dot', computeContacts: true }]) {
      await expect(distance(args)).rejects.toMatchObject({ code: 'EMPTY_MESH', message: "body 'dot' has no triangle with a plane (all 1 are degenerate): there is no surface to measure" });
    }
    expect((await distance({ fromBodyId: 'a', toBodyId: 'gap' })).distance).toBeCloseTo(7.5, 9);
  });

  it('unknown bodies and bad args', async () => {
    await expect(distance({ fromBodyId: 'a', toBodyId: 'nope' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    await expect(distance({ fromBodyId: 'a' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(distance({ fromBodyId: 'a', toBodyId: 'gap', computeContacts: 'yes' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
