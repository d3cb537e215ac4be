import { readFileSync } from 'node:fs';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { withKernel, type OC } from '../kernel';
import { closestPoint, createHit } from '../mesh/closestPoint';
import { buildBvh } from '../mesh/TriangleBvh';
import { addShapeBody } from '../scene/addShapeBody';
import { readBrepShape } from '../scene/import/brep';
import { PointToShapeQuery } from '../scene/pointToShape';
import { seededRandom } from '../mesh/generators';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { dataPath } from '../../test/data';
import { addMeshBody, offsetShape } from '../../test/deviationFixtures';
import { makeCylinder, makeSphere, shellWithout } from '../../test/kernelShapes';
import { occtMesh, scanOfPart } from '../../test/scanFixture';
import type { HeatmapResult } from './deviationHeatmap';
import type { HistogramResult } from './deviationHistogram';
import { deviationSamples } from '../deviation/samples';
import { measuredSurface, surfaceMesh } from '../deviation/surfaces';
import type { DeviationResult } from './measureDeviation';
import type { SymmetricDifferenceResult } from './symmetricDifferenceVolume';

let oc: OC;
let engine: Engine;
let nut: TopoDS_Shape;
const deviation = (args: object) => engine.runJson('measure_deviation', args).then((r) => r.result) as Promise<DeviationResult>;
const tool = <T>(name: string, args: object) => engine.runJson(name as 'measure_deviation', args).then((r) => r.result as unknown as T);


beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  const cyl = makeCylinder(oc, 10, 40);
  addShapeBody(oc, engine.scene, 'cyl', cyl);
  // The true offset of the solid by 0.2 (arc joins: rounded rims), every point exactly 0.2 away.
  addShapeBody(oc, engine.scene, 'offset', offsetShape(oc, cyl, 0.2));
  nut = readBrepShape(oc, readFileSync(dataPath('occt/Pump_Nut.brep')), 'Pump_Nut');
  addShapeBody(oc, engine.scene, 'nut', nut);
});

describe('exact surfaces: closed form', () => {
  it('offset r = 10.2 cylinder against the r = 10 cylinder at default settings: every figure +0.2 / -0.2 to 1e-6, both sign modes', async () => {
    for (const signMode of ['robust', 'nearest'] as const) {
      const r = await deviation({ fromBodyId: 'offset', toBodyId: 'cyl', signMode });
      expect(r.surface).toBe('exact');
      for (const [d, s] of [
        [r.fromToTo, 0.2],
        [r.toToFrom, -0.2],
      ] as const) {
        expect(d.samples).toBe(20000);
        expect(d.ambiguousSamples).toBe(0);
        expect(Math.abs(d.signedMean! - s)).toBeLessThan(1e-6);
        expect(Math.abs(d.signedMin! - s)).toBeLessThan(1e-6);
        expect(Math.abs(d.signedMax! - s)).toBeLessThan(1e-6);
        expect(Math.abs(d.max - 0.2)).toBeLessThan(1e-6);
        expect(Math.abs(d.mean - 0.2)).toBeLessThan(1e-6);
      }
      expect(Math.abs(r.symmetricHausdorff - 0.2)).toBeLessThan(1e-6);
    }
  });

  it('the same pair measured as tessellations (surface: tessellated) keeps the spec behaviour: chord sag in the figures, and the result says so', async () => {
    const r = await deviation({ fromBodyId: 'offset', toBodyId: 'cyl', surface: 'tessellated' });
    expect(r.surface).toBe('tessellated');
    // At the default deflection the chords of both bodies move the figures by far more than 1e-6.
    expect(Math.abs(r.fromToTo.signedMin! - 0.2)).toBeGreaterThan(1e-3);
    expect(Math.abs(r.toToFrom.signedMax! + 0.2)).toBeGreaterThan(1e-3);
  });

  it('exact samples of a BREP body lie on its faces, with the faces\u2019 outward normals, spread in proportion to face area', async () => {
    const body = engine.scene.get('offset');
    const samples = deviationSamples(oc, measuredSurface(oc, body, 0.05), 20000, 'exact');
    expect(samples.count).toBe(20000);
    let lateral = 0, caps = 0, rims = 0, worst = 0;
    for (let i = 0; i < samples.count; i++) {
      const [x, y, z] = [samples.points[3 * i]!, samples.points[3 * i + 1]!, samples.points[3 * i + 2]!];
      const [nx, ny, nz] = [samples.normals[3 * i]!, samples.normals[3 * i + 1]!, samples.normals[3 * i + 2]!];
      const rho = Math.hypot(x, y);
      // Every point of the offset body is 0.2 from the r = 10, z in [0, 40] cylinder; its normal points away from it.
      const dr = Math.max(rho - 10, 0), dz = Math.max(-z, z - 40, 0);
      worst = Math.max(worst, Math.abs(Math.hypot(dr, dz) - 0.2));
      const ox = dr * (x / rho), oy = dr * (y / rho), oz = z < 0 ? -dz : dz;
      worst = Math.max(worst, Math.hypot(nx - ox / 0.2, ny - oy / 0.2, nz - oz / 0.2));
      if (z > 0 && z < 40) lateral++;
      else if (rho < 10) caps++;
      else rims++;
    }
    expect(worst).toBeLessThan(1e-9);
    // Areas: lateral 2 pi 10.2 40, caps 2 pi 10^2, rims (quarter tori) 2 x pi^2 0.2 (10 + 0.4 / pi) ... shares of the total.
    const aLat = 2 * Math.PI * 10.2 * 40, aCaps = 2 * Math.PI * 100, aRims = 2 * (Math.PI * 0.2 * (Math.PI * 10 + 2 * 0.2));
    const total = aLat + aCaps + aRims;
    for (const [n, a] of [
      [lateral, aLat],
      [caps, aCaps],
      [rims, aRims],
    ] as const) {
      // Systematic sampling by area: each share within a few samples' worth (not a random binomial).
      expect(Math.abs(n / samples.count - a / total)).toBeLessThan(5 / samples.count + 1e-3 * (a / total));
    }
  });

  it('deviation_histogram and the heat map read the exact faces too: +0.2 everywhere, one mode', async () => {
    const h = await tool<HistogramResult>('deviation_histogram', { fromBodyId: 'offset', referenceBodyId: 'cyl' });
    expect(h.surface).toBe('exact');
    expect(Math.abs(h.mean! - 0.2)).toBeLessThan(1e-6);
    expect(Math.abs(h.signedMin! - 0.2)).toBeLessThan(1e-6);
    expect(Math.abs(h.signedMax! - 0.2)).toBeLessThan(1e-6);
    const forward = await tool<HeatmapResult>('deviation_heatmap', { fromBodyId: 'offset', toBodyId: 'cyl' });
    expect(forward.surface).toBe('exact');
    expect(forward.ambiguousVertices).toBe(0);
    // Display vertices lie on the exact offset body (float32 values): 0.2 to float precision.
    for (const v of forward.values) if (v === v) expect(Math.abs(v - 0.2)).toBeLessThan(2e-7);
    const back = await tool<HeatmapResult>('deviation_heatmap', { fromBodyId: 'cyl', toBodyId: 'offset' });
    for (const v of back.values) if (v === v) expect(Math.abs(v + 0.2)).toBeLessThan(2e-7);
    expect(back.signedVertices).toBeGreaterThan(0.99 * back.vertexCount);
  });

  it('cross_section_compare takes the exact extents of BREP bodies: the overlap is the r = 10 cylinder\u2019s [-10, 10] across its axis', async () => {
    const args = { fromBodyId: 'offset', referenceBodyId: 'cyl', axis: [1, 0, 0], stations: 3 };
    const exact = await tool<{ overlap: [number, number]; surface: string }>('cross_section_compare', args);
    expect(exact.surface).toBe('exact');
    expect(Math.abs(exact.overlap[0] + 10)).toBeLessThan(1e-9);
    expect(Math.abs(exact.overlap[1] - 10)).toBeLessThan(1e-9);
    const tess = await tool<{ overlap: [number, number] }>('cross_section_compare', { ...args, surface: 'tessellated' });
    // The tessellation's extreme vertices need not sit on the extreme generatrix.
    expect(tess.overlap[1]).toBeLessThanOrEqual(10 + 1e-9);
  });
});

describe('exact surfaces: a real part (Pump_Nut.brep)', () => {
  it('an OCCT mesh of the part at deflection 0.02 against the part: symmetric Hausdorff within 10% of the mesh\u2019s true chord error, measured with the kernel', async () => {
    const mesh = occtMesh(oc, nut, 0.02);
    addMeshBody(engine.scene, 'nutMesh', mesh);
    const r = await deviation({ fromBodyId: 'nutMesh', toBodyId: 'nut' });
    // The true chord error, independently: the kernel's exact distance (PointToShapeQuery, checked
    // against BRepExtrema) from the mesh's triangles to the part (centroids of all, then a dense
    // grid on the 30 worst), and from the exact surface to the mesh (the nodes of a 20 times finer
    // BRepMesh, which lie on the faces) by exact point-triangle distance.
    const query = new PointToShapeQuery(oc, nut);
    let meshToPart = 0;
    try {
      const P = mesh.positions, I = mesh.indices, T = I.length / 3;
      const at = (t: number, a: number, b: number): [number, number, number] => {
        const c = 1 - a - b;
        return [0, 1, 2].map((k) => a * P[3 * I[3 * t]! + k]! + b * P[3 * I[3 * t + 1]! + k]! + c * P[3 * I[3 * t + 2]! + k]!) as [number, number, number];
      };
      const centroid = new Float64Array(T);
      for (let t = 0; t < T; t++) centroid[t] = query.query(at(t, 1 / 3, 1 / 3))!.distance;
      const worst = Array.from(centroid.keys()).sort((a, b) => centroid[b]! - centroid[a]!).slice(0, 30);
      const G = 12;
      for (const t of worst) for (let i = 0; i <= G; i++) for (let j = 0; i + j <= G; j++) meshToPart = Math.max(meshToPart, query.query(at(t, i / G, j / G))!.distance);
    } finally {
      query.delete();
    }
    const fine = occtMesh(oc, nut, 0.001);
    const bvh = buildBvh(mesh);
    const hit = createHit();
    let partToMesh = 0;
    for (let v = 0; v < fine.positions.length / 3; v++) partToMesh = Math.max(partToMesh, closestPoint(bvh, fine.positions[3 * v]!, fine.positions[3 * v + 1]!, fine.positions[3 * v + 2]!, hit).distance);
    const truth = Math.max(meshToPart, partToMesh);
    // BRepMesh overshoots the 0.02 it was asked for; the truth is what the mesh really is.
    expect(truth).toBeGreaterThan(0.02);
    expect(Math.abs(r.symmetricHausdorff - truth)).toBeLessThan(0.1 * truth);
    // As tessellations at the default deflection, the same pair reads several times the truth.
    const tess = await deviation({ fromBodyId: 'nutMesh', toBodyId: 'nut', surface: 'tessellated' });
    expect(tess.symmetricHausdorff).toBeGreaterThan(2 * truth);
  });

  it('a scan-like mesh (fine tessellation, every node moved +0.1 along its normal, noise sigma 0.02): signedMean within 2% of 0.1, signedMin above 0.1 - 5 sigma; per sample as the kernel measures', async () => {
    const b = 0.1, sigma = 0.02;
    const scan = scanOfPart(oc, nut, { deflection: 0.025, angularDeflection: 0.1, offset: b, sigma, seed: 3 });
    addMeshBody(engine.scene, 'nutScan', scan);
    const r = await deviation({ fromBodyId: 'nutScan', toBodyId: 'nut' });
    expect(r.surface).toBe('exact');
    const f = r.fromToTo;
    expect(f.samples).toBeGreaterThan(15000);
    expect(f.ambiguousFraction).toBeLessThan(0.001);
    expect(Math.abs(f.signedMean! - b)).toBeLessThan(0.02 * b);
    expect(f.signedMin!).toBeGreaterThan(b - 5 * sigma);
    // The tessellated reference reads the chord sag at the default deflection into the same figures.
    const tess = await deviation({ fromBodyId: 'nutScan', toBodyId: 'nut', surface: 'tessellated' });
    expect(Math.abs(tess.fromToTo.signedMean! - b)).toBeGreaterThan(0.05 * b);
    // Every 25th sample against the kernel's exact distance to the part (the robust winner is the
    // nearest face here, so |signed| is that distance).
    const body = engine.scene.get('nutScan');
    const samples = deviationSamples(oc, measuredSurface(oc, body, r.deflection), 20000, 'exact');
    const query = new PointToShapeQuery(oc, nut);
    const { ExactReference } = await import('../exact/ExactReference');
    const { exactReference } = await import('../deviation/structures');
    const ref = exactReference(oc, engine.scene.get('nut') as never, r.deflection);
    expect(ref).toBeInstanceOf(ExactReference);
    let worst = 0, checked = 0;
    try {
      for (let i = 0; i < samples.count; i += 25) {
        const p: [number, number, number] = [samples.points[3 * i]!, samples.points[3 * i + 1]!, samples.points[3 * i + 2]!];
        worst = Math.max(worst, Math.abs(ref.nearest(...p).distance - query.query(p)!.distance));
        checked++;
      }
    } finally {
      query.delete();
    }
    expect(checked).toBeGreaterThan(600);
    expect(worst).toBeLessThan(1e-9);
  });

  it('symmetric_difference_volume of the part against itself: nothing in the difference, and the sampled volume within 3 standard errors of the exact volume', async () => {
    const N = 20000;
    const r = await tool<SymmetricDifferenceResult>('symmetric_difference_volume', { fromBodyId: 'nut', referenceBodyId: 'nut', maxSamples: N });
    expect(r.surface).toBe('exact');
    expect(r.ambiguousSamples).toBe(0);
    expect(r.symmetricDifferenceFraction).toBe(0);
    expect(r.symmetricDifferenceVolumeMm3!).toBeLessThanOrEqual(r.estimatedStdErrMm3!);
    const exact = r.fromExactVolumeMm3!;
    const p = exact / r.boundingBoxVolumeMm3;
    const se = r.boundingBoxVolumeMm3 * Math.sqrt((p * (1 - p)) / N);
    expect(Math.abs(r.fromVolumeMm3! - exact)).toBeLessThan(3 * se);
    expect(r.reliable).toBe(true);
  });
});

describe('exact surfaces: the chord band in symmetric_difference_volume', () => {
  it('a coarse sphere: points between chords and sphere are classified by the sphere, so the volume converges to 4/3 pi r^3 where the tessellation\u2019s does not', async () => {
    addShapeBody(oc, engine.scene, 'ball', makeSphere(oc, 10));
    const exactVolume = (4 / 3) * Math.PI * 1000;
    const run = (surface: string) => tool<SymmetricDifferenceResult>('symmetric_difference_volume', { fromBodyId: 'ball', referenceBodyId: 'ball', maxSamples: 50000, deflection: 1, surface });
    const exact = await run('exact');
    const tess = await run('tessellated');
    // Halton points integrate far better than the binomial error: 0.2% of the volume at 50,000.
    expect(Math.abs(exact.fromVolumeMm3! - exactVolume)).toBeLessThan(0.002 * exactVolume);
    // The inscribed polyhedron at deflection 1 misses several percent of the sphere.
    expect(exactVolume - tess.fromVolumeMm3!).toBeGreaterThan(0.02 * exactVolume);
  });
});

describe('exact surfaces: sign rules against a BREP reference', () => {
  it('thin-walled BREP tube (r 8 to 10) and an exact r = 5.5 skin: robust withholds the sign and warns (never -4.5), nearest classifies +2.5 exactly', async () => {
    const tube = withKernel(oc, (own) => {
      const outer = own(makeCylinder(oc, 10, 40));
      const inner = own(makeCylinder(oc, 8, 40));
      return own(new oc.BRepAlgoAPI_Cut_3(outer, inner, own(new oc.Message_ProgressRange_1()))).Shape();
    });
    addShapeBody(oc, engine.scene, 'tube', tube);
    // The candidate: the lateral face of an r = 5.5 cylinder alone (an open skin facing out); its faces are 0 lateral, 1 and 2 caps.
    const full = makeCylinder(oc, 5.5, 40);
    addShapeBody(oc, engine.scene, 'skin', shellWithout(oc, full, [1, 2], false));
    full.delete();
    const robust = await deviation({ fromBodyId: 'skin', toBodyId: 'tube' });
    // A skin sample is in the bore: 2.5 outside the solid (its nearest face, the inner wall) and 4.5
    // inside the outer wall (the face facing it). The two disagree on its side: no robust sign, and
    // the magnitude would be 2.5 (issue 33), so the sample is withheld and the tube called thin-walled.
    expect(robust.fromToTo.signedSamples).toBe(0);
    expect(robust.fromToTo.signedMean).toBeNull();
    expect(Math.abs(robust.fromToTo.max - 2.5)).toBeLessThan(1e-9);
    expect(robust.warnings).toContainEqual({ code: 'THIN_WALLED_REFERENCE', message: expect.stringMatching(new RegExp(`^${escapeRegExp('skin against tube (fromToTo): ')}`)) });
    const nearest = await deviation({ fromBodyId: 'skin', toBodyId: 'tube', signMode: 'nearest' });
    expect(Math.abs(nearest.fromToTo.signedMean! - 2.5)).toBeLessThan(1e-9);
    expect(Math.abs(nearest.fromToTo.signedMax! - 2.5)).toBeLessThan(1e-9);
  });

  it('a reference inside out (every face reversed): robust finds no compatible face, every sample ambiguous, signed figures null', async () => {
    const flipped = withKernel(oc, (own) => own(makeCylinder(oc, 10, 40)).Reversed());
    addShapeBody(oc, engine.scene, 'flipped', flipped);
    const r = await deviation({ fromBodyId: 'offset', toBodyId: 'flipped' });
    expect(r.fromToTo.ambiguousFraction).toBe(1);
    expect(r.fromToTo.signedMean).toBeNull();
    expect(Math.abs(r.fromToTo.max - 0.2)).toBeLessThan(1e-6);
  });

  it('points around the part against the kernel: nearest exact distance and sign agree with PointToShapeQuery and BRepClass3d_SolidClassifier', () => {
    const ref = (() => {
      const body = engine.scene.get('nut');
      return { body, mesh: surfaceMesh(oc, body, 0.4) };
    })();
    void ref;
    const rand = seededRandom(17);
    const query = new PointToShapeQuery(oc, nut);
    let worst = 0, agree = 0, total = 0;
    return (async () => {
      const { exactReference } = await import('../deviation/structures');
      const exact = exactReference(oc, engine.scene.get('nut') as never, 0.4);
      try {
        withKernel(oc, (own) => {
          const classifier = own(new oc.BRepClass3d_SolidClassifier_1());
          classifier.Load(nut);
          for (let i = 0; i < 300; i++) {
            const p: [number, number, number] = [-50 + 100 * rand(), -50 + 100 * rand(), -10 + 60 * rand()];
            const d = query.query(p)!.distance;
            if (d < 1e-6) continue;
            worst = Math.max(worst, Math.abs(exact.nearest(...p).distance - d));
            classifier.Perform(own(new oc.gp_Pnt_3(...p)), 1e-7);
            const state = classifier.State();
            const inside = state === oc.TopAbs_State.TopAbs_IN;
            const side = exact.side(...p);
            total++;
            if ((side < 0) === inside) agree++;
          }
        });
      } finally {
        query.delete();
      }
      expect(total).toBeGreaterThan(250);
      expect(worst).toBeLessThan(1e-9);
      expect(agree).toBe(total);
    })();
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
