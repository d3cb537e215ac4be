import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { cylinder } from '../mesh/generators';
import type { TriMesh } from '../mesh/TriMesh';
import { addShapeBody } from '../scene/addShapeBody';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { addMeshBody, invertedCylinder, offsetShape, thinWallCandidate, thinWallReference } from '../../test/deviationFixtures';
import { makeCylinder } from '../../test/kernelShapes';
import { measureDirected } from '../deviation/measure';
import { Pacer } from '../deviation/pacer';
import { surfaceSamples } from '../deviation/samples';
import { deviationReference } from '../deviation/structures';
import { measuredSurface, surfaceMesh } from '../deviation/surfaces';
import { MAX_SECTIONS, type DeviationResult } from './measureDeviation';
import { MAX_DEVIATION_SAMPLES } from '../deviation/defaults';

let oc: OC;
let engine: Engine;
const deviation = (args: object) => engine.runJson('measure_deviation', args).then((r) => r.result) as Promise<DeviationResult>;

/**
 * Fine enough that the tessellation error is a tenth of the 0.2 offset. BRepMesh keeps the
 * deflection only approximately and not monotonically on the offset's 0.2-radius rounded rims
 * (measured worst sag: 0.011 at deflection 0.02, 0.046 at 0.01, 0.022 at 0.005), so the test
 * measures the error of both tessellations instead of trusting the deflection.
 */
const DEFLECTION = 0.02;

/** Distance from q to the solid cylinder r = 10, z in [0, 40] (0 inside). */
function distanceToSolid(x: number, y: number, z: number): number {
  const dr = Math.max(Math.hypot(x, y) - 10, 0);
  const dz = Math.max(-z, z - 40, 0);
  return Math.hypot(dr, dz);
}
/** Distance from q to the surface of that cylinder. */
function distanceToCylinder(x: number, y: number, z: number): number {
  const rho = Math.hypot(x, y);
  if (rho <= 10 && z >= 0 && z <= 40) return Math.min(10 - rho, z, 40 - z);
  return distanceToSolid(x, y, z);
}

/**
 * How far a tessellation strays from its exact surface: the largest |distance to the exact
 * surface| over a barycentric grid of 66 points per triangle (vertices lie on the surface; the
 * error is the chord sag inside the triangles).
 */
function tessellationError(mesh: TriMesh, distance: (x: number, y: number, z: number) => number): number {
  const p = mesh.positions, idx = mesh.indices;
  const G = 10;
  let worst = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t]!, b = 3 * idx[t + 1]!, c = 3 * idx[t + 2]!;
    for (let i = 0; i <= G; i++) {
      for (let j = 0; i + j <= G; j++) {
        const u = i / G, v = j / G, w = 1 - u - v;
        const q = [0, 1, 2].map((k) => w * p[a + k]! + u * p[b + k]! + v * p[c + k]!) as [number, number, number];
        worst = Math.max(worst, distance(...q));
      }
    }
  }
  return worst;
}

/** Bound on |sample deviation - 0.2|: the error of the sampled mesh plus that of the reference, 5% for the grid. */
let TESS = NaN;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  const ref = makeCylinder(oc, 10, 40);
  addShapeBody(oc, engine.scene, 'cyl', ref);
  addShapeBody(oc, engine.scene, 'offset', offsetShape(oc, ref, 0.2));
  addShapeBody(oc, engine.scene, 'flat', makeCylinder(oc, 10.2, 40));
  addShapeBody(oc, engine.scene, 'cyl2', makeCylinder(oc, 10, 40));
  addMeshBody(engine.scene, 'thinRef', thinWallReference());
  addMeshBody(engine.scene, 'thinCand', thinWallCandidate());
  addMeshBody(engine.scene, 'inverted', invertedCylinder());
  addMeshBody(engine.scene, 'meshCand', cylinder({ radius: 10.2, height: 40, segments: 128, stacks: 4, caps: true }));
  const errOffset = tessellationError(surfaceMesh(oc, engine.scene.get('offset'), DEFLECTION), (x, y, z) => Math.abs(distanceToSolid(x, y, z) - 0.2));
  const errCyl = tessellationError(surfaceMesh(oc, engine.scene.get('cyl'), DEFLECTION), distanceToCylinder);
  TESS = 1.05 * (errOffset + errCyl);
  // A bound that could not fail would be no test: both tessellations stray by about the deflection.
  expect(errCyl).toBeLessThan(1.05 * DEFLECTION);
  expect(errOffset).toBeLessThan(1.1 * DEFLECTION);
  expect(TESS).toBeLessThan(0.03);
});

describe('measure_deviation: closed forms', () => {
  it('exact +0.2 offset of a cylinder: every forward sample +0.2, every reverse sample -0.2, Hausdorff 0.2, in both sign modes', async () => {
    for (const signMode of ['robust', 'nearest'] as const) {
      const r = await deviation({ fromBodyId: 'offset', toBodyId: 'cyl', deflection: DEFLECTION, signMode });
      expect(r.signMode).toBe(signMode);
      expect(r.deflection).toBe(DEFLECTION);
      const f = r.fromToTo;
      expect(f.samples).toBeGreaterThan(15000);
      expect(f.samples).toBeLessThanOrEqual(20000);
      expect(f.signedSamples).toBe(f.samples);
      expect(f.ambiguousSamples).toBe(0);
      expect(f.ambiguousFraction).toBe(0);
      expect(f.signedMin!).toBeGreaterThan(0.2 - TESS);
      expect(f.signedMax!).toBeLessThan(0.2 + TESS);
      // The bulk is much closer than the worst sample.
      expect(Math.abs(f.signedMean! - 0.2)).toBeLessThan(DEFLECTION / 2);
      expect(Math.abs(f.mean - 0.2)).toBeLessThan(DEFLECTION / 2);
      expect(Math.abs(f.rms - 0.2)).toBeLessThan(DEFLECTION / 2);
      expect(Math.abs(f.p95 - 0.2)).toBeLessThan(TESS);
      expect(Math.abs(f.max - 0.2)).toBeLessThan(TESS);
      const b = r.toToFrom;
      expect(b.signedSamples).toBe(b.samples);
      expect(b.signedMin!).toBeGreaterThan(-0.2 - TESS);
      expect(b.signedMax!).toBeLessThan(-0.2 + TESS);
      expect(Math.abs(b.signedMean! + 0.2)).toBeLessThan(DEFLECTION / 2);
      expect(Math.abs(b.max - 0.2)).toBeLessThan(TESS);
      expect(r.symmetricHausdorff).toBe(Math.max(f.max, b.max));
      expect(Math.abs(r.symmetricHausdorff - 0.2)).toBeLessThan(TESS);
      // The worst point is a sample on the offset body: 10.2 from the axis or on a rounded rim.
      const [x, y, z] = f.worstPoint;
      expect(Math.hypot(x, y)).toBeLessThan(10.2 + 1e-6);
      expect(z).toBeGreaterThanOrEqual(-0.2 - 1e-6);
      expect(z).toBeLessThanOrEqual(40.2 + 1e-6);
    }
  });

  it('sections along the axis of the offset cylinder: every station about +0.2, offsets from the minimum projection', async () => {
    const r = await deviation({ fromBodyId: 'offset', toBodyId: 'cyl', deflection: DEFLECTION, sectionAxis: [0, 0, 2], sections: 8 });
    const s = r.sections!;
    expect(s).toHaveLength(8);
    const width = 40.4 / 8;
    s.forEach((station, i) => {
      expect(Math.abs(station.offset - (i + 0.5) * width)).toBeLessThan(1e-6);
      expect(station.samples).toBeGreaterThan(100);
      expect(Math.abs(station.signedMean! - 0.2)).toBeLessThan(TESS);
      expect(Math.abs(station.rms! - 0.2)).toBeLessThan(TESS);
    });
    expect(s.reduce((n, st) => n + st.samples, 0)).toBe(r.fromToTo.signedSamples);
    // The axis direction matters, not its length or which way along it the from-body starts.
    const down = await deviation({ fromBodyId: 'offset', toBodyId: 'cyl', deflection: DEFLECTION, sectionAxis: [0, 0, -1], sections: 8 });
    expect(down.sections!.map((st) => st.samples)).toEqual([...s.map((st) => st.samples)].reverse());
    expect((await deviation({ fromBodyId: 'offset', toBodyId: 'cyl', deflection: DEFLECTION, sectionAxis: [0, 0, 1] })).sections).toBeUndefined();
  });

  it('candidate r = 10.2 with flat caps: lateral samples +0.2, overall the area-weighted mean of lateral 0.2 and caps 0..0.2', async () => {
    const r = await deviation({ fromBodyId: 'flat', toBodyId: 'cyl', deflection: DEFLECTION });
    // Lateral samples (horizontal normal) are +0.2 within the tessellation error.
    const from = engine.scene.get('flat'), to = engine.scene.get('cyl');
    const samples = surfaceSamples(measuredSurface(oc, from, DEFLECTION), 20000);
    const d = await measureDirected(samples, deviationReference(measuredSurface(oc, to, DEFLECTION)), 'robust', new Pacer({}), 't');
    let lateral = 0;
    for (let i = 0; i < samples.count; i++) {
      if (Math.abs(samples.normals[3 * i + 2]!) > 1e-9) continue;
      lateral++;
      expect(Math.abs(d.signed[i]! - 0.2)).toBeLessThan(TESS);
    }
    expect(lateral).toBeGreaterThan(0.6 * samples.count);
    // Overall: a cap sample at radius rho is 0 inside rho <= 10 (on the reference cap) and rho - 10
    // beyond it (to the reference rim), so the area mean is (0.2 A_lat + 2 * 2 pi int_10^10.2 rho (rho - 10)) / A.
    const aLat = 2 * Math.PI * 10.2 * 40;
    const aCaps = 2 * Math.PI * 10.2 ** 2;
    const capIntegral = 2 * Math.PI * ((10.2 ** 3 - 1000) / 3 - 5 * (10.2 ** 2 - 100));
    const expected = (0.2 * aLat + 2 * capIntegral) / (aLat + aCaps);
    const f = r.fromToTo;
    expect(f.ambiguousSamples).toBe(0);
    expect(Math.abs(f.signedMean! - expected)).toBeLessThan(0.005);
    expect(f.signedMin!).toBeGreaterThan(-TESS);
    expect(f.signedMin!).toBeLessThan(TESS);
    expect(Math.abs(f.signedMax! - 0.2)).toBeLessThan(TESS);
    expect(Math.abs(f.max - 0.2)).toBeLessThan(TESS);
    // Reverse: the reference lateral (area 400 pi) is 0.2 inside the candidate, its caps lie on the candidate's.
    const back = r.toToFrom;
    expect(Math.abs(back.signedMean! - (-0.2 * 400) / 500)).toBeLessThan(0.005);
    expect(Math.abs(back.signedMin! + 0.2)).toBeLessThan(TESS);
  });

  it('thin-walled open reference: robust withholds every sign (never -4.5) and warns; nearest about +2.5; max 2.5 in both', async () => {
    // 5000 samples: the robust tie band around a sample 4.5 from its surface holds thousands of triangles.
    const robust = await deviation({ fromBodyId: 'thinCand', toBodyId: 'thinRef', maxSamples: 5000 });
    const nearest = await deviation({ fromBodyId: 'thinCand', toBodyId: 'thinRef', maxSamples: 5000, signMode: 'nearest' });
    // Polygon sag of the 128- and 256-gons: under 0.002 either way.
    const eps = 0.005;
    for (const r of [robust, nearest]) {
      expect(Math.abs(r.fromToTo.max - 2.5)).toBeLessThan(eps);
      expect(Math.abs(r.fromToTo.mean - 2.5)).toBeLessThan(eps);
    }
    // Each candidate sample is 2.5 outside the inner skin (its nearest surface) and 4.5 inside the
    // outer one (the surface facing it): the two disagree on its side, and its magnitude is the
    // nearest distance 2.5, so robust mode has no sign to give (issue 33: no -4.5 for a sample 2.5 away).
    expect(robust.fromToTo.signedSamples).toBe(0);
    expect(robust.fromToTo.ambiguousSamples).toBe(5000);
    expect(robust.fromToTo.signedMean).toBeNull();
    expect(robust.warnings).toContainEqual({ code: 'THIN_WALLED_REFERENCE', message: expect.stringMatching(new RegExp(`^${escapeRegExp('thinCand against thinRef (fromToTo): 5000 of 5000 samples (100.0%) lie nearer a surface of the reference that faces away from them')}`)) });
    expect(nearest.fromToTo.ambiguousSamples).toBe(0);
    expect(Math.abs(nearest.fromToTo.signedMean! - 2.5)).toBeLessThan(eps);
    expect(Math.abs(nearest.fromToTo.signedMin! - 2.5)).toBeLessThan(eps);
    // The unsigned family does not move with signMode.
    expect(robust.fromToTo.max).toBe(nearest.fromToTo.max);
    expect(robust.fromToTo.p95).toBe(nearest.fromToTo.p95);
    expect(robust.symmetricHausdorff).toBe(nearest.symmetricHausdorff);
    // Sections have no robust sign to average either.
    const sr = await deviation({ fromBodyId: 'thinCand', toBodyId: 'thinRef', maxSamples: 5000, sectionAxis: [0, 0, 1], sections: 4 });
    for (const st of sr.sections!) expect(st.signedMean).toBeNull();
  });

  it('reference with inverted winding: ambiguousFraction about 1, signed figures null (never 0), sections empty', async () => {
    const r = await deviation({ fromBodyId: 'meshCand', toBodyId: 'inverted', sectionAxis: [0, 0, 1], sections: 3 });
    const f = r.fromToTo;
    expect(f.ambiguousFraction).toBeGreaterThan(0.99);
    expect(f.signedSamples).toBe(0);
    expect(f.signedMean).toBeNull();
    expect(f.signedMin).toBeNull();
    expect(f.signedMax).toBeNull();
    expect(Math.abs(f.max - 0.2)).toBeLessThan(0.01);
    for (const st of r.sections!) {
      expect(st.samples).toBe(0);
      expect(st.signedMean).toBeNull();
      expect(st.rms).toBeNull();
    }
    // The inverted body's own samples face inward, away from the candidate's outward triangles.
    expect(r.toToFrom.ambiguousFraction).toBeGreaterThan(0.99);
  });
});

describe('measure_deviation: degenerate cases and bad input', () => {
  it('a body against itself and against an identical copy: deviation 0', async () => {
    for (const toBodyId of ['cyl', 'cyl2']) {
      const r = await deviation({ fromBodyId: 'cyl', toBodyId, deflection: 0.05 });
      expect(r.symmetricHausdorff).toBeLessThan(1e-9);
      expect(r.fromToTo.ambiguousSamples).toBe(0);
      expect(Math.abs(r.fromToTo.signedMean!)).toBeLessThan(1e-9);
      expect(Math.abs(r.toToFrom.signedMax!)).toBeLessThan(1e-9);
    }
    const m = await deviation({ fromBodyId: 'thinRef', toBodyId: 'thinRef', maxSamples: 3000 });
    expect(m.symmetricHausdorff).toBeLessThan(1e-9);
    expect(m.fromToTo.signedSamples).toBe(m.fromToTo.samples);
  });

  it('maxSamples caps the samples per direction', async () => {
    const r = await deviation({ fromBodyId: 'offset', toBodyId: 'thinRef', maxSamples: 500 });
    expect(r.fromToTo.samples).toBeLessThanOrEqual(500);
    expect(r.fromToTo.samples).toBeGreaterThan(250);
    expect(r.toToFrom.samples).toBeLessThanOrEqual(500);
    const one = await deviation({ fromBodyId: 'thinCand', toBodyId: 'thinRef', maxSamples: 1 });
    expect(one.fromToTo.samples).toBe(1);
  });

  it('empty mesh, zero-area mesh and a BREP without faces: EMPTY_MESH; the scene keeps working', async () => {
    addMeshBody(engine.scene, 'empty', { positions: new Float64Array(0), indices: new Uint32Array(0) });
    addMeshBody(engine.scene, 'flatline', { positions: new Float64Array([0, 0, 0, 1, 0, 0, 2, 0, 0]), indices: new Uint32Array([0, 1, 2, 2, 1, 0]) });
    const edge = (() => {
      const p1 = new oc.gp_Pnt_3(0, 0, 0), p2 = new oc.gp_Pnt_3(10, 0, 0);
      const mk = new oc.BRepBuilderAPI_MakeEdge_3(p1, p2);
      const e = mk.Edge();
      p1.delete();
      p2.delete();
      mk.delete();
      return e;
    })();
    addShapeBody(oc, engine.scene, 'wire', edge);
    for (const [fromBodyId, toBodyId] of [
      ['empty', 'cyl'],
      ['cyl', 'empty'],
      ['flatline', 'cyl'],
      ['cyl', 'flatline'],
      ['wire', 'cyl'],
      ['cyl', 'wire'],
    ]) {
      await expect(deviation({ fromBodyId, toBodyId })).rejects.toMatchObject({ code: 'EMPTY_MESH' });
    }
    expect((await deviation({ fromBodyId: 'thinCand', toBodyId: 'thinRef', maxSamples: 200 })).fromToTo.samples).toBeGreaterThan(0);
  });

  it('bad arguments: INVALID_ARGUMENT before any work; unknown bodies: BODY_NOT_FOUND', async () => {
    const base = { fromBodyId: 'thinCand', toBodyId: 'thinRef' };
    for (const bad of [
      // Beyond what can be allocated: refused, not a RangeError (INTERNAL_ERROR) or a dead host.
      { maxSamples: 1e15 },
      { sectionAxis: [0, 0, 1], sections: 1e15 },
      { maxSamples: MAX_DEVIATION_SAMPLES + 1 },
      { sectionAxis: [0, 0, 1], sections: MAX_SECTIONS + 1 },
      { sections: 4 },
      { sectionAxis: [0, 0, 1], sections: 1 },
      { sectionAxis: [0, 0, 1], sections: 2.5 },
      { sectionAxis: [0, 0, 0], sections: 4 },
      { sectionAxis: [0, 0, 0] },
      { sectionAxis: [0, 1] },
      { maxSamples: 0 },
      { maxSamples: 1.5 },
      { deflection: 0 },
      { deflection: -1 },
      { signMode: 'closest' },
      { extra: true },
    ]) {
      await expect(deviation({ ...base, ...bad })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    // Below what BRepMesh takes: a bad argument, not the kernel's Standard_NumericError (KERNEL_ERROR).
    await expect(deviation({ fromBodyId: 'cyl2', toBodyId: 'cyl', deflection: 1e-12 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('deflection 1e-12 is below 1e-7') });
    await expect(deviation({ fromBodyId: 'nope', toBodyId: 'cyl' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
    await expect(deviation({ fromBodyId: 'cyl', toBodyId: 'nope' })).rejects.toMatchObject({ code: 'BODY_NOT_FOUND' });
  });

  it('every deviation tool refuses maxSamples over MAX_DEVIATION_SAMPLES with INVALID_ARGUMENT; the schemas state both limits', async () => {
    const pair = { fromBodyId: 'thinCand', referenceBodyId: 'thinRef' };
    for (const [tool, args] of [
      ['measure_deviation', { fromBodyId: 'thinCand', toBodyId: 'thinRef' }],
      ['deviation_heatmap', { fromBodyId: 'thinCand', toBodyId: 'thinRef', statistics: true }],
      ['deviation_histogram', pair],
      ['symmetric_difference_volume', pair],
      ['inspection_report', { ...pair, outputPath: 'never-written.html' }],
    ] as const) {
      for (const maxSamples of [1e15, MAX_DEVIATION_SAMPLES + 1]) {
        await expect(engine.runJson(tool, { ...args, maxSamples }), `${tool} ${maxSamples}`).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      }
    }
    const schema = engine.tools().find((t) => t.name === 'measure_deviation')!.inputSchema as { properties: Record<string, { maximum?: number }> };
    expect(schema.properties['maxSamples']!.maximum).toBe(MAX_DEVIATION_SAMPLES);
    expect(schema.properties['sections']!.maximum).toBe(MAX_SECTIONS);
  });

  it('default deflection is 0.5% of the from-body box diagonal', async () => {
    const r = await deviation({ fromBodyId: 'offset', toBodyId: 'cyl', maxSamples: 200 });
    // BRepBndLib.Add of the offset: 20.4 x 20.4 x 40.4 (plus OCCT's enlargement of curved faces' boxes, which is small).
    expect(r.deflection).toBeGreaterThan(0.005 * Math.hypot(20.4, 20.4, 40.4) * 0.999);
    expect(r.deflection).toBeLessThan(0.005 * Math.hypot(20.4, 20.4, 40.4) * 1.05);
    const m = await deviation({ fromBodyId: 'thinCand', toBodyId: 'thinRef', maxSamples: 200 });
    expect(m.deflection).toBeCloseTo(0.005 * Math.hypot(11, 11, 40), 12);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
