import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { displayMesh } from '../scene/tessellation';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addMeshBody, invertedCylinder, thinWallCandidate, thinWallReference } from '../../test/deviationFixtures';
import { makeCylinder } from '../../test/kernelShapes';

let oc: OC;
let engine: Engine;
/** The heat map as hosts ask for it: the deviation_heatmap tool (arguments as a caller sends them). */
const deviationHeatmap = (fromBodyId: string, toBodyId: string, options: Record<string, unknown> = {}) =>
  engine.runJson('deviation_heatmap', { fromBodyId, toBodyId, ...options }).then((r) => r.result);

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  addShapeBody(oc, engine.scene, 'cyl', makeCylinder(oc, 10, 40));
  // r = 10.2, h = 40.4 centred on the reference: lateral +0.2, caps +0.2, rims a little more.
  addShapeBody(oc, engine.scene, 'big', makeCylinder(oc, 10.2, 40.4, -0.2));
  addMeshBody(engine.scene, 'thinRef', thinWallReference());
  addMeshBody(engine.scene, 'thinCand', thinWallCandidate());
  addMeshBody(engine.scene, 'inverted', invertedCylinder());
});

describe('deviation heat-map data', () => {
  it("BREP from-body: one value per vertex of its display mesh, in the display mesh's vertex order", async () => {
    const h = await deviationHeatmap('big', 'cyl', { deflection: 0.01 });
    const display = displayMesh(oc, engine.scene.get('big'));
    const V = display.positions.length / 3;
    expect(h.values).toHaveLength(V);
    expect(h.vertexCount).toBe(V);
    expect(h.signedVertices).toBe(V);
    expect(h.ambiguousVertices).toBe(0);
    for (let v = 0; v < V; v++) {
      const [x, y, z] = [display.positions[3 * v]!, display.positions[3 * v + 1]!, display.positions[3 * v + 2]!];
      // Display vertices lie on the exact surface; the reference is tessellated at 0.01, so the
      // value is the exact distance to the solid cylinder r = 10, z in [0, 40] within that.
      const exact = Math.hypot(Math.max(Math.hypot(x, y) - 10, 0), Math.max(-z, z - 40, 0));
      expect(Math.abs(h.values[v]! - exact)).toBeLessThan(0.015);
    }
    const m = Math.max(...h.values);
    expect(h.range).toEqual([-m, m]);
    expect(m).toBeCloseTo(Math.hypot(0.2, 0.2), 2);
  });

  it('thin-walled reference: robust about -4.5, nearest about +2.5 on every vertex of the STL from-body', async () => {
    const robust = await deviationHeatmap('thinCand', 'thinRef');
    const nearest = await deviationHeatmap('thinCand', 'thinRef', { signMode: 'nearest' });
    const V = (engine.scene.get('thinCand') as { mesh: { positions: Float64Array } }).mesh.positions.length / 3;
    expect(robust.values).toHaveLength(V);
    for (let v = 0; v < V; v++) {
      expect(Math.abs(robust.values[v]! + 4.5)).toBeLessThan(0.005);
      expect(Math.abs(nearest.values[v]! - 2.5)).toBeLessThan(0.005);
    }
    expect(robust.signMode).toBe('robust');
    expect(nearest.signMode).toBe('nearest');
  });

  it('inverted reference: every value NaN, no range', async () => {
    const h = await deviationHeatmap('big', 'inverted');
    expect(h.ambiguousVertices).toBe(h.vertexCount);
    expect(h.signedVertices).toBe(0);
    expect(h.range).toBeNull();
    expect(Array.from(h.values).every((v) => Number.isNaN(v))).toBe(true);
  });

  it('bad input: BODY_NOT_FOUND, INVALID_ARGUMENT', async () => {
    await expect(deviationHeatmap('nope', 'cyl')).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    await expect(deviationHeatmap('cyl', 'thinRef', { deflection: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(deviationHeatmap('cyl', 'thinRef', { signMode: 'x' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
