import { readFileSync } from 'node:fs';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { seededRandom } from '../mesh/generators';
import { addShapeBody } from '../scene/addShapeBody';
import type { BodySummary } from '../scene/describeBody';
import { readBrepShape } from '../scene/import/brep';
import type { DisplayMesh } from '../scene/tessellation';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { dataPath } from '../../test/data';
import { makeBox, makeCylinder } from '../../test/kernelShapes';
import { writePly, writePointText } from '../../test/meshWriters';
import { cloudOfPart } from '../../test/scanFixture';
import type { MetricsResult } from './computeMetrics';
import type { HeatmapResult } from './deviationHeatmap';
import type { HistogramResult } from './deviationHistogram';
import type { DeviationResult } from './measureDeviation';

let oc: OC;
let engine: Engine;
let nut: TopoDS_Shape;
const run = <T>(name: string, args: object) => engine.runJson(name as 'measure_deviation', args).then((r) => r.result as unknown as T);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const load = (fileName: string, bytes: Uint8Array) => run<BodySummary>('import_file', { bytes: b64(bytes), fileName });
const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: { code?: string }) => e.code);

/** The nut's scan as a cloud: points spread uniformly over its exact faces (through a fine tessellation), each moved +b along the exact outward normal with Gaussian noise (seeded), no normals. */
const B = 0.1, SIGMA = 0.02;
let scanPoints: Float64Array;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  nut = readBrepShape(oc, readFileSync(dataPath('occt/Pump_Nut.brep')), 'Pump_Nut');
  addShapeBody(oc, engine.scene, 'nut', nut);
  addShapeBody(oc, engine.scene, 'cyl', makeCylinder(oc, 10, 40));
  addShapeBody(oc, engine.scene, 'box', makeBox(oc, 10, 10, 10));
  scanPoints = cloudOfPart(oc, nut, { deflection: 0.02, count: 60000, offset: B, sigma: SIGMA, seed: 11 });
  await load('nutScan.xyz', writePointText(scanPoints, { header: 'x y z' }));
  await load('nutScan.ply', writePly({ positions: scanPoints, indices: new Uint32Array(0) }, { encoding: 'binary_little_endian', faces: false }));
});

describe('a point cloud against its part (issue 22 evidence)', () => {
  it('loads as a points body: point count, no normals, no topology', async () => {
    const { bodies } = await run<{ bodies: BodySummary[] }>('list_bodies', {});
    const xyz = bodies.find((b) => b.bodyId === 'nutScan')!;
    expect(xyz).toMatchObject({ kind: 'points', sourceFormat: 'xyz', points: scanPoints.length / 3, hasNormals: false, faces: 0, edges: 0, vertices: 0 });
    expect(bodies.find((b) => b.bodyId === 'nutScan_2')).toMatchObject({ kind: 'points', sourceFormat: 'ply', points: scanPoints.length / 3, hasNormals: false });
  });

  it('fromToTo signedMean within 2% of b at default settings; toToFrom about -b with the whole part covered', async () => {
    const r = await run<DeviationResult>('measure_deviation', { fromBodyId: 'nutScan', toBodyId: 'nut' });
    const f = r.fromToTo;
    // Exactly maxSamples (20000) samples, by the area each point stands for (cloudAreaSamples.ts).
    const n = scanPoints.length / 3;
    expect(n).toBeGreaterThan(40000);
    expect(f.samples + f.noDataSamples).toBe(20000);
    expect(f.ambiguousFraction).toBeLessThan(0.001);
    expect(Math.abs(f.signedMean! - B)).toBeLessThan(0.02 * B);
    expect(f.signedMin!).toBeGreaterThan(B - 5 * SIGMA);
    expect(f.signedMax!).toBeLessThan(B + 5 * SIGMA);
    // Every point lies within the default search distance of the part: none is a stray point.
    expect(f.noDataSamples).toBe(0);
    // The part against the cloud: local planes through the nearest points, so noise averages out.
    const t = r.toToFrom;
    expect(t.maxDistance).toBeGreaterThan(B);
    expect(t.noDataSamples).toBeLessThan(0.001 * (t.samples + t.noDataSamples));
    expect(Math.abs(t.signedMean! + B)).toBeLessThan(0.05 * B);
  });

  it('the same cloud as XYZ and as PLY gives identical figures in every deviation tool', async () => {
    const pair = async (fromBodyId: string) => ({
      deviation: await run<DeviationResult>('measure_deviation', { fromBodyId, toBodyId: 'nut', sectionAxis: [0, 0, 1], sections: 5 }),
      histogram: await run<HistogramResult>('deviation_histogram', { fromBodyId, referenceBodyId: 'nut', tolerance: 0.15 }),
      heat: await run<HeatmapResult>('deviation_heatmap', { fromBodyId, toBodyId: 'nut' }),
    });
    const xyz = await pair('nutScan');
    const ply = await pair('nutScan_2');
    expect(ply).toEqual(xyz);
    expect(Math.abs(xyz.histogram.mean! - B)).toBeLessThan(0.02 * B);
    expect(xyz.histogram.withinTolerance).toBeGreaterThan(0.95);
    // The heat map colours every drawn point (display_mesh's points, in their order).
    const display = await run<DisplayMesh>('display_mesh', { bodyId: 'nutScan' });
    expect(display.indices.length).toBe(0);
    expect(display.points).toEqual({ pointCount: scanPoints.length / 3, stride: 1 });
    expect(xyz.heat.vertexCount).toBe(display.positions.length / 3);
    expect(xyz.heat.signedVertices).toBeGreaterThan(0.999 * xyz.heat.vertexCount);
    let sum = 0;
    for (const v of xyz.heat.values) if (v === v) sum += v;
    expect(Math.abs(sum / xyz.heat.signedVertices - B)).toBeLessThan(0.02 * B);
  });

  it('a cloud cannot be the reference: POINT_CLOUD_REFERENCE in every deviation tool', async () => {
    expect(await codeOf(run('measure_deviation', { fromBodyId: 'nut', toBodyId: 'nutScan' }))).toBe('POINT_CLOUD_REFERENCE');
    expect(await codeOf(run('deviation_histogram', { fromBodyId: 'nut', referenceBodyId: 'nutScan' }))).toBe('POINT_CLOUD_REFERENCE');
    expect(await codeOf(run('deviation_heatmap', { fromBodyId: 'nut', toBodyId: 'nutScan' }))).toBe('POINT_CLOUD_REFERENCE');
    await expect(run('measure_deviation', { fromBodyId: 'nutScan_2', toBodyId: 'nutScan' })).rejects.toThrow(/Swap the roles/);
  });
});

/** Points on a grid over the lateral surface of a cylinder of radius r, z in [z0, z1], with spacing about h. */
function cylinderCloud(r: number, z0: number, z1: number, h: number): Float64Array {
  const around = Math.ceil((2 * Math.PI * r) / h), up = Math.ceil((z1 - z0) / h);
  const out: number[] = [];
  for (let j = 0; j <= up; j++) for (let i = 0; i < around; i++) {
    const a = (2 * Math.PI * i) / around;
    out.push(r * Math.cos(a), r * Math.sin(a), z0 + ((z1 - z0) * j) / up);
  }
  return Float64Array.from(out);
}

describe('the part against a cloud: no data where the scan has no points', () => {
  it('a cloud of the lower half of the wall of a cylinder, 0.1 outside: the samples the search distance cannot reach are no data, as the areas say', async () => {
    await load('half.xyz', writePointText(cylinderCloud(10.1, 0, 20, 0.2)));
    const r = await run<DeviationResult>('measure_deviation', { fromBodyId: 'half', toBodyId: 'cyl', maxSamples: 50000 });
    expect(Math.abs(r.fromToTo.signedMean! - 0.1)).toBeLessThan(1e-5);
    const t = r.toToFrom;
    const D = t.maxDistance;
    // Covered: the wall up to z = 20 + sqrt(D^2 - 0.1^2) and the bottom cap's rim out to 10.1 - D.
    const lateral = 2 * Math.PI * 10, cap = Math.PI * 100;
    const uncovered = lateral * (20 - Math.sqrt(D * D - 0.01)) + cap + Math.PI * (10.1 - D) ** 2;
    const total = lateral * 40 + 2 * cap;
    // `samples` counts the covered samples (docs/deviation.md, "No data").
    expect(Math.abs(t.noDataSamples / (t.samples + t.noDataSamples) - uncovered / total)).toBeLessThan(0.005);
    // The covered wall reads -0.1 (the part is inside the cloud); figures leave the no-data samples out.
    expect(t.max).toBeLessThan(D);
    expect(t.signedSamples + t.ambiguousSamples).toBe(t.samples);
  });
});

describe('coincident points', () => {
  it('every point twice (a cloud of a tessellation\'s vertices, merged scans): the same default search distance and coverage as once', async () => {
    const once = cylinderCloud(10, 0, 20, 0.5);
    const twice = new Float64Array(2 * once.length);
    twice.set(once);
    twice.set(once, once.length);
    await load('once.xyz', writePointText(once));
    await load('twice.xyz', writePointText(twice));
    const a = await run<DeviationResult>('measure_deviation', { fromBodyId: 'once', toBodyId: 'cyl' });
    const b = await run<DeviationResult>('measure_deviation', { fromBodyId: 'twice', toBodyId: 'cyl' });
    // The points lie on the wall: the search distance is 3 x (p95 ~ 0 + spacing ~ 0.5), not 3 x p95.
    expect(a.toToFrom.maxDistance).toBeGreaterThan(1);
    expect(b.toToFrom.maxDistance).toBeCloseTo(a.toToFrom.maxDistance, 6);
    expect(b.toToFrom.noDataSamples).toBe(a.toToFrom.noDataSamples);
  });
});

describe('other tools with a cloud', () => {
  beforeAll(async () => {
    // Eight corners and the centre of a 2 x 4 x 6 box at (1, 2, 3) .. (3, 6, 9), and its centre twice more.
    const p: number[] = [];
    for (const x of [1, 3]) for (const y of [2, 6]) for (const z of [3, 9]) p.push(x, y, z);
    p.push(2, 4, 6, 2, 4, 6);
    await load('corners.csv', writePointText(Float64Array.from(p), { separator: ',', header: 'x,y,z' }));
  });

  it('compute_metrics: boundingBox and centerOfMass of the points; volume, surfaceArea, principalAxes refused with a code', async () => {
    const m = await run<MetricsResult>('compute_metrics', { bodyId: 'corners' });
    expect(m.boundingBox).toEqual({ min: [1, 2, 3], max: [3, 6, 9] });
    expect(m.centerOfMass).toEqual([2, 4, 6]);
    expect(m.volume).toBeUndefined();
    expect(m.warnings.map((w) => w.code)).toEqual(['POINT_CLOUD_METRICS']);
    for (const metric of ['volume', 'surfaceArea', 'principalAxes']) {
      expect(await codeOf(run('compute_metrics', { bodyId: 'corners', metrics: ['boundingBox', metric] }))).toBe('POINT_CLOUD_UNSUPPORTED');
    }
  });

  it('measure_distance: nearest point to a BREP box (closed form), to the cloud from the box, and between two clouds', async () => {
    // The box is [0, 10]^3; the point (2, 4, 12) is nearest at 2 above its top, (11, 12, 3) sqrt(1 + 4) off its edge.
    await load('above.xyz', writePointText(Float64Array.from([2, 4, 12, 11, 12, 3, 20, 20, 20])));
    const d = await run<{ distance: number; contacts: { pointOnFrom: number[]; pointOnTo: number[] }[] }>('measure_distance', { fromBodyId: 'above', toBodyId: 'box', computeContacts: true });
    expect(d.distance).toBeCloseTo(2, 12);
    expect(d.contacts[0]!.pointOnFrom).toEqual([2, 4, 12]);
    expect(d.contacts[0]!.pointOnTo[2]).toBeCloseTo(10, 12);
    expect((await run<{ distance: number }>('measure_distance', { fromBodyId: 'box', toBodyId: 'above' })).distance).toBeCloseTo(2, 12);
    // corners to above: (2, 4, 12) is sqrt(1 + 4 + 9) from the corner (1, 2, 9), nearer than any other pair.
    expect((await run<{ distance: number }>('measure_distance', { fromBodyId: 'corners', toBodyId: 'above' })).distance).toBeCloseTo(Math.sqrt(14), 12);
  });

  it('display_edges is empty; every tool that needs a surface or topology refuses with POINT_CLOUD_UNSUPPORTED naming why', async () => {
    expect((await run<{ positions: Float32Array }>('display_edges', { bodyId: 'corners' })).positions.length).toBe(0);
    const refusals: [string, object][] = [
      ['validate_geometry', { bodyId: 'corners' }],
      ['query_topology', { bodyId: 'corners', entity: 'face' }],
      ['select_topology', { bodyId: 'corners', ids: ['face[0]'] }],
      ['recognize_features', { bodyId: 'corners' }],
      ['inspect_assembly', { bodyId: 'corners' }],
      ['measure_vertex_fit', { fromBodyId: 'corners', toBodyId: 'box' }],
      ['measure_vertex_fit', { fromBodyId: 'box', toBodyId: 'corners' }],
      ['symmetric_difference_volume', { fromBodyId: 'corners', referenceBodyId: 'box' }],
      ['symmetric_difference_volume', { fromBodyId: 'box', referenceBodyId: 'corners' }],
      ['cross_section_compare', { fromBodyId: 'corners', referenceBodyId: 'box', axis: [0, 0, 1] }],
      ['graph_validate', { bodyId: 'corners' }],
    ];
    for (const [name, args] of refusals) {
      const error = await run(name, args).then(() => null, (e: { code: string; message: string }) => e);
      expect(error, name).toMatchObject({ code: 'POINT_CLOUD_UNSUPPORTED' });
      expect(error!.message, name).toMatch(/is a point cloud .*needs /);
    }
    // A whole-scene check leaves clouds out rather than failing.
    const all = await run<{ bodies: { bodyId: string }[] }>('validate_geometry', {});
    expect(all.bodies.map((b) => b.bodyId)).not.toContain('corners');
  });

  it('maxSamples caps a cloud\'s samples; a cloud with normals uses them in the robust rule', async () => {
    const random = seededRandom(5);
    const p = cylinderCloud(10.05, 1, 39, 0.5);
    const n = p.length / 3;
    const normals = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      normals[3 * i] = p[3 * i]! * (1 + random() * 0.1);
      normals[3 * i + 1] = p[3 * i + 1]!;
    }
    await load('withNormals.xyz', writePointText(p, { normals }));
    const r = await run<DeviationResult>('measure_deviation', { fromBodyId: 'withNormals', toBodyId: 'cyl', maxSamples: 1000 });
    expect(n).toBeGreaterThan(1000);
    expect(r.fromToTo.samples).toBe(1000);
    expect(r.fromToTo.signedMean).toBeCloseTo(0.05, 5);
    expect(r.fromToTo.ambiguousSamples).toBe(0);
  });
});
