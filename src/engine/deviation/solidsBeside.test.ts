import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { box } from '../mesh/generators';
import { addShapeBody } from '../scene/addShapeBody';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { addMeshBody } from '../../test/deviationFixtures';
import { compoundOf, makeBox, shellWithout } from '../../test/kernelShapes';
import type { DeviationResult } from '../tools/measureDeviation';
import type { HistogramResult } from '../tools/deviationHistogram';
import type { HeatmapData } from '../tools/deviationHeatmap';

/**
 * A part whose file keeps construction surfaces beside its solid, as NIST's AP242 test parts do
 * (FTC 10: 12 open shells, some lying on the part's faces with the other orientation, some beside
 * it). Measured against all of its faces, the part-to-scan direction sampled the construction
 * surfaces as if they were the part: on FTC 10 with a scan 0.02 to 0.07 off the solid, max 2.16
 * and rms 0.069 where the solid's faces give 0.068 and 0.026 (native OCCT on the solid: 0.065, 0.026).
 */
const D = 0.05;
let oc: OC;
let engine: Engine;
let dir: string;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  dir = mkdtempSync(join(tmpdir(), 'brepscope-solids-'));
  const part = makeBox(oc, 10, 20, 30);
  // The top face (z = 30) again as a face of its own, reversed: a surface on the part's face facing in.
  const twin = makeBox(oc, 10, 20, 30);
  const onTop = shellWithout(oc, twin, [0, 1, 2, 3, 4], false);
  const reversed = onTop.Reversed();
  // A plane 1 above the part, as wide: a construction surface beside it.
  const slab = makeBox(oc, 10, 20, 1, [0, 0, 30]);
  const above = shellWithout(oc, slab, [0, 1, 2, 3, 4], false);
  addShapeBody(oc, engine.scene, 'part', compoundOf(oc, [part, reversed, above]));
  for (const s of [twin, onTop, reversed, slab, above]) s.delete();
  // The scan: the part grown by D on every side.
  addMeshBody(engine.scene, 'scan', box([-D, -D, -D], [10 + D, 20 + D, 30 + D], 8));
});

afterAll(() => {
  engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const codes = (w: { code: string }[] | undefined) => (w ?? []).map((x) => x.code);

describe('a part with construction surfaces beside its solid is measured as the solid', () => {
  it('measure_deviation: every point of the part is D inside the scan, every scan point at least D outside the part', async () => {
    const r = (await engine.runJson('measure_deviation', { fromBodyId: 'scan', toBodyId: 'part' })).result as DeviationResult;
    // Part to scan: the solid's faces lie exactly D inside the grown box.
    expect(r.toToFrom.max).toBeCloseTo(D, 12);
    expect(r.toToFrom.signedMin).toBeCloseTo(-D, 12);
    expect(r.toToFrom.signedMax).toBeCloseTo(-D, 12);
    expect(r.toToFrom.ambiguousSamples).toBe(0);
    expect(r.toToFrom.noDataSamples).toBe(0);
    expect(r.toToFrom.samples).toBe(20000);
    // Scan to part: D off a face, up to D sqrt(3) at a corner; the construction plane 1 above is not the part.
    expect(r.fromToTo.signedMin!).toBeGreaterThanOrEqual(D - 1e-12);
    expect(r.fromToTo.signedMax!).toBeLessThanOrEqual(D * Math.sqrt(3) + 1e-12);
    expect(r.fromToTo.ambiguousSamples).toBe(0);
    expect(codes(r.warnings)).toEqual(['OPEN_SURFACES_BESIDE_SOLIDS']);
    expect(r.warnings![0]!.message).toContain("body 'part' is measured as its 1 closed solid(s): 2 face(s) of open surfaces");
  });

  it('deviation_histogram of the part: every sample -D, with the warning', async () => {
    const h = (await engine.runJson('deviation_histogram', { fromBodyId: 'part', referenceBodyId: 'scan' })).result as HistogramResult;
    expect(h.mean!).toBeCloseTo(-D, 12);
    expect(h.maxAbs).toBeCloseTo(D, 12);
    expect(h.ambiguousSamples).toBe(0);
    expect(codes(h.warnings)).toEqual(['OPEN_SURFACES_BESIDE_SOLIDS']);
  });

  it('the heat map colours the solid and leaves the construction surfaces uncoloured', async () => {
    const data = (await engine.run('deviation_heatmap', { fromBodyId: 'part', toBodyId: 'scan' })).result as HeatmapData;
    expect(data.range![1]).toBeCloseTo(D, 6);
    let coloured = 0, blank = 0;
    const positions = data.mesh?.positions ?? (await engine.run('display_mesh', { bodyId: 'part' })).result.positions as Float32Array;
    for (let v = 0; v < data.values.length; v++) {
      const value = data.values[v]!;
      const z = positions[3 * v + 2]!;
      if (value === value) {
        coloured++;
        expect(value).toBeCloseTo(-D, 6);
      } else blank++;
      // Vertices of the plane at z = 31 belong to no solid face.
      if (Math.abs(z - 31) < 1e-6) expect(value).toBeNaN();
    }
    expect(coloured).toBeGreaterThan(0);
    expect(blank).toBeGreaterThan(0);
  });

  it('a point cloud scan: the same warning, every point at least D outside the solid', async () => {
    const lines: string[] = [];
    const lo = [-D, -D, -D], hi = [10 + D, 20 + D, 30 + D];
    for (let axis = 0; axis < 3; axis++) {
      const [u, v] = [(axis + 1) % 3, (axis + 2) % 3];
      for (const side of [lo[axis]!, hi[axis]!]) {
        for (let a = lo[u]! + 0.25; a < hi[u]!; a += 0.5) {
          for (let b = lo[v]! + 0.25; b < hi[v]!; b += 0.5) {
            const p = [0, 0, 0];
            p[axis] = side;
            p[u] = a;
            p[v] = b;
            lines.push(p.join(' '));
          }
        }
      }
    }
    await engine.run('import_file', { bytes: Buffer.from(lines.join('\n')).toString('base64'), fileName: 'grown.xyz', bodyId: 'cloud' });
    const r = (await engine.runJson('measure_deviation', { fromBodyId: 'cloud', toBodyId: 'part' })).result as DeviationResult;
    expect(r.fromToTo.signedMin!).toBeGreaterThanOrEqual(D - 1e-9);
    expect(r.fromToTo.signedMax!).toBeLessThanOrEqual(D * Math.sqrt(3) + 1e-9);
    expect(codes(r.warnings)).toEqual(['OPEN_SURFACES_BESIDE_SOLIDS']);
  });

  it('the inspection report says the part was measured as its solid', async () => {
    const out = join(dir, 'report.html');
    await engine.run('inspection_report', { fromBodyId: 'scan', referenceBodyId: 'part', views: ['front'], maxSamples: 2000, labels: false, tolerance: 0.1, outputPath: out });
    const text = readFileSync(out, 'utf8');
    expect(text).toContain("body &#39;part&#39; is measured as its 1 closed solid(s)");
  });

  it('compute_metrics keeps the whole body: the solid volume, the area of every face', async () => {
    const m = (await engine.runJson('compute_metrics', { bodyId: 'part', metrics: ['volume', 'surfaceArea'] })).result as { volume: number; surfaceArea: number };
    expect(m.volume).toBeCloseTo(6000, 6);
    expect(m.surfaceArea).toBeCloseTo(2200 + 200 + 200, 6);
  });
});
