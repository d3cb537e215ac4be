import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { addShapeBody } from '../scene/addShapeBody';
import { displayMesh } from '../scene/tessellation';
import { meshArea } from '../mesh/refineMesh';
import { heatmapEdgeLength } from '../deviation/heatmapSurface';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { addMeshBody, invertedCylinder, thinWallCandidate, thinWallReference } from '../../test/deviationFixtures';
import { makeCylinder, makeSphere } from '../../test/kernelShapes';
import { gaussian } from '../../test/noise';
import { uvSphere } from '../mesh/generators';
import type { TriMesh } from '../mesh/TriMesh';

let oc: OC;
let engine: Engine;
/** The heat map as hosts ask for it: the deviation_heatmap tool (arguments as a caller sends them). */
const deviationHeatmap = (fromBodyId: string, toBodyId: string, options: Record<string, unknown> = {}) =>
  engine.runJson('deviation_heatmap', { fromBodyId, toBodyId, ...options }).then((r) => r.result);

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'cyl', makeCylinder(oc, 10, 40));
  // r = 10.2, h = 40.4 centred on the reference: lateral +0.2, caps +0.2, rims a little more.
  addShapeBody(oc, engine.scene, 'big', makeCylinder(oc, 10.2, 40.4, -0.2));
  addMeshBody(engine.scene, 'thinRef', thinWallReference());
  addMeshBody(engine.scene, 'thinCand', thinWallCandidate());
  addMeshBody(engine.scene, 'inverted', invertedCylinder());
});

describe('deviation heat-map data', () => {
  it("BREP from-body: one value per vertex of its heat-map mesh (the display mesh's vertices first, in their order, then the refinement's, on the exact faces)", async () => {
    const h = await deviationHeatmap('big', 'cyl', { deflection: 0.01 });
    const display = displayMesh(oc, engine.scene.get('big'));
    const mesh = h.mesh!;
    const V = mesh.positions.length / 3;
    expect(h.displayVertices).toBe(display.positions.length / 3);
    expect(Array.from(mesh.positions.subarray(0, display.positions.length))).toEqual(Array.from(display.positions));
    const faces = display.faceIds!.reduce((a, b) => Math.max(a, b), 0) + 1;
    expect(mesh.faceIds!.every((f) => f < faces)).toBe(true);
    expect(h.values).toHaveLength(V);
    expect(h.vertexCount).toBe(V);
    expect(h.signedVertices).toBe(V);
    expect(h.ambiguousVertices).toBe(0);
    // The refinement rule: no edge longer than twice the statistics' sample spacing.
    const L = heatmapEdgeLength(meshArea({ positions: Float64Array.from(display.positions), indices: display.indices }), 20000);
    const p = mesh.positions, idx = mesh.indices;
    let longest = 0;
    for (let t = 0; t < idx.length; t += 3)
      for (let k = 0; k < 3; k++) {
        const a = 3 * idx[t + k]!, b = 3 * idx[t + ((k + 1) % 3)]!;
        longest = Math.max(longest, Math.hypot(p[a]! - p[b]!, p[a + 1]! - p[b + 1]!, p[a + 2]! - p[b + 2]!));
      }
    // (Vertices moved onto the exact faces stretch an edge by at most the display mesh's chord sag.)
    expect(longest).toBeLessThan(L * 1.01);
    expect(V).toBeGreaterThan(10 * h.displayVertices!);
    for (let v = 0; v < V; v++) {
      const [x, y, z] = [p[3 * v]!, p[3 * v + 1]!, p[3 * v + 2]!];
      // Display vertices and the refinement's lie on the exact surface; the reference is tessellated at 0.01, so the
      // value is the exact distance to the solid cylinder r = 10, z in [0, 40] within that.
      const exact = Math.hypot(Math.max(Math.hypot(x, y) - 10, 0), Math.max(-z, z - 40, 0));
      expect(Math.abs(h.values[v]! - exact)).toBeLessThan(0.015);
    }
    const m = Math.max(...h.values);
    expect(h.range).toEqual([-m, m]);
    expect(m).toBeCloseTo(Math.hypot(0.2, 0.2), 2);
  });

  it("the worst vertex is the scan's worst point: exactly its farthest vertex from the exact sphere, beyond every area sample", async () => {
    // A sphere scan of r 10 with 0.01 of radial noise per vertex, against the exact sphere: a vertex's
    // distance is | |p| - 10 | (float32 corners). The statistics' area samples lie inside triangles,
    // where the noise of three corners is averaged, so their max reads under the worst vertex.
    addShapeBody(oc, engine.scene, 'ball', makeSphere(oc, 10));
    const scan = uvSphere(10, 120, 60);
    const noise = gaussian(7);
    const p = scan.positions;
    for (let v = 0; v < p.length; v += 3) {
      const k = 1 + (0.01 * noise()) / 10;
      for (let c = 0; c < 3; c++) p[v + c] = Math.fround(p[v + c]! * k);
    }
    addMeshBody(engine.scene, 'noisyBall', scan);
    const h = await deviationHeatmap('noisyBall', 'ball', { statistics: true, tolerance: 0.02 });
    let worst = -1, far = -1;
    for (let v = 0; v < p.length / 3; v++) {
      const d = Math.abs(Math.hypot(p[3 * v]!, p[3 * v + 1]!, p[3 * v + 2]!) - 10);
      if (d > far) [far, worst] = [d, v];
    }
    expect(h.worstVertex!.distance).toBeCloseTo(far, 9);
    expect(h.worstVertex!.point).toEqual([p[3 * worst], p[3 * worst + 1], p[3 * worst + 2]]);
    expect(far).toBeGreaterThan(0.035);
    // 0.0361 against 0.0393 with this seed: 8 % under the worst measured point.
    expect(h.statistics!.maxAbs).toBeLessThan(far - 0.002);
  });

  it('a scan finer than the edge-length rule is coloured as it is: no mesh in the result, every vertex its own', async () => {
    // r = 10.05 sphere of 0.16-long edges, under the rule's 2 sqrt(A / 50,000) = 0.32.
    addMeshBody(engine.scene, 'fineScan', uvSphere(10.05, 400, 200));
    const h = await deviationHeatmap('fineScan', 'cyl');
    const triangles = (engine.scene.get('fineScan') as { mesh: TriMesh }).mesh;
    expect(heatmapEdgeLength(meshArea(triangles), 50_000)).toBeGreaterThan(0.3);
    expect(h.mesh).toBeUndefined();
    expect(h.displayVertices).toBe(h.vertexCount);
    expect(h.vertexCount).toBe(triangles.positions.length / 3);
  });

  it('thin-walled reference: robust withholds the sign (no -4.5 for a vertex 2.5 away), nearest about +2.5 on every vertex of the STL from-body', async () => {
    const robust = await deviationHeatmap('thinCand', 'thinRef');
    const nearest = await deviationHeatmap('thinCand', 'thinRef', { signMode: 'nearest' });
    const V = robust.mesh!.positions.length / 3;
    expect(robust.displayVertices).toBe((engine.scene.get('thinCand') as { mesh: { positions: Float64Array } }).mesh.positions.length / 3);
    expect(robust.values).toHaveLength(V);
    // A pick on a refined triangle names the STL triangle it was cut from (faceIds: the parent triangle).
    const thinTriangles = (engine.scene.get('thinCand') as { mesh: { indices: Uint32Array } }).mesh.indices.length / 3;
    expect(robust.mesh!.faceIds).toHaveLength(robust.mesh!.indices.length / 3);
    expect(robust.mesh!.faceIds!.reduce((a, b) => Math.max(a, b), 0)).toBe(thinTriangles - 1);
    // Each vertex is 2.5 outside the inner skin (its nearest surface) and 4.5 inside the outer one
    // (the surface facing it): they disagree on its side, so robust mode has no sign (issue 33).
    for (let v = 0; v < V; v++) {
      expect(Number.isNaN(robust.values[v]!)).toBe(true);
      expect(Math.abs(nearest.values[v]! - 2.5)).toBeLessThan(0.005);
    }
    expect(robust.ambiguousVertices).toBe(V);
    expect(robust.signMode).toBe('robust');
    expect(nearest.signMode).toBe('nearest');
  });

  it('inverted reference: no trustworthy sign (NaN) but at vertices square to a cap within rounding', async () => {
    const h = await deviationHeatmap('big', 'inverted');
    // The refined side wall's vertices next to the rims: their mesh normal is radial to rounding, so
    // an inverted cap (normal -z) passes the robust filter by a hair on some (217 of 47,459 here,
    // within 0.6 of a rim, reading the distance to the rim); measure_deviation's exact normals are
    // radial to the bit and sign none of 200,000 samples. Everything else is ambiguous.
    expect(h.ambiguousVertices + h.noDataVertices + h.signedVertices).toBe(h.vertexCount);
    expect(h.signedVertices).toBeLessThan(0.01 * h.vertexCount);
    const p = h.mesh!.positions;
    for (let v = 0; v < h.vertexCount; v++) {
      if (Number.isNaN(h.values[v]!)) continue;
      const z = p[3 * v + 2]!;
      expect(Math.min(Math.abs(z), Math.abs(z - 40))).toBeLessThan(0.6);
      expect(h.values[v]!).toBeLessThan(0.5);
    }
  });

  it('bad input: BODY_NOT_FOUND, INVALID_ARGUMENT', async () => {
    await expect(deviationHeatmap('nope', 'cyl')).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    await expect(deviationHeatmap('cyl', 'thinRef', { deflection: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(deviationHeatmap('cyl', 'thinRef', { signMode: 'x' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
