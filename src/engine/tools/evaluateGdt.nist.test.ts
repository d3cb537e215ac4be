import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import type { Characteristic } from '../gdt/evaluate';
import { PointsBody, type BrepBody } from '../scene/Body';
import { deviationSamples } from '../deviation/samples';
import { defaultDeflection, measuredSurface } from '../deviation/surfaces';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { dataPath } from '../../test/data';

/**
 * evaluate_gdt with NIST CTC 1's own PMI (read_pmi): a noise-free scan (points sampled on the
 * nominal's exact faces), the same scan moved rigidly, and scaled.
 */
let oc: OC;
let engine: Engine;
type Result = { characteristics: Characteristic[]; samples: { total: number; assigned: number; border: number; far: number }; alignment?: { method: string; datums?: string[]; transform: number[][] }; warnings: string[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);
let nodes: Float64Array;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  await engine.runJson('import_file', { bytes: readFileSync(dataPath('nist/nist_ctc_01_asme1_ap242-e1.stp')).toString('base64'), fileName: 'ctc1.stp', bodyId: 'ctc1' });
  // A noise-free scan: points on the nominal's exact faces (the deviation tools' exact sampling).
  const body = engine.scene.get('ctc1') as BrepBody;
  nodes = deviationSamples(oc, measuredSurface(oc, body, defaultDeflection(oc, body)), 60000, 'exact').points;
  engine.scene.add(new PointsBody({ bodyId: 'scan', name: 'scan', sourceFormat: 'xyz', source: undefined }, { positions: nodes, count: nodes.length / 3 }));
}, 120_000);

/** The scan moved: rotation by `angle` about the unit axis u through `c`, then translation t. */
function moved(points: Float64Array, u: number[], angle: number, c: number[], t: number[]): Float64Array {
  const out = new Float64Array(points.length);
  const cs = Math.cos(angle), sn = Math.sin(angle);
  for (let i = 0; i < points.length; i += 3) {
    const p = [0, 1, 2].map((k) => points[i + k]! - c[k]!);
    const d = u[0]! * p[0]! + u[1]! * p[1]! + u[2]! * p[2]!;
    const x = [u[1]! * p[2]! - u[2]! * p[1]!, u[2]! * p[0]! - u[0]! * p[2]!, u[0]! * p[1]! - u[1]! * p[0]!];
    for (let k = 0; k < 3; k++) out[i + k] = c[k]! + p[k]! * cs + x[k]! * sn + u[k]! * d * (1 - cs) + t[k]!;
  }
  return out;
}

function centroid(points: Float64Array): number[] {
  const c = [0, 0, 0];
  for (let i = 0; i < points.length; i += 3) for (let k = 0; k < 3; k++) c[k]! += points[i + k]! / (points.length / 3);
  return c;
}

function addCloud(bodyId: string, positions: Float64Array): void {
  engine.scene.add(new PointsBody({ bodyId, name: bodyId, sourceFormat: 'xyz', source: undefined }, { positions, count: positions.length / 3 }));
}

describe('evaluate_gdt on NIST CTC 1 (its own PMI)', () => {
  let base: Result;
  beforeAll(async () => {
    base = await evaluate({ actualBodyId: 'scan', nominalBodyId: 'ctc1' });
  }, 120_000);

  it('a noise-free scan of the nominal passes every characteristic: form, orientation, location and profile read 0, sizes their nominal', () => {
    // 6 tolerances and 8 sized dimensions (the 4 location dimensions without a value are not characteristics).
    expect(base.characteristics).toHaveLength(14);
    for (const c of base.characteristics) {
      expect(c.pass, `${c.id} ${c.kind} ${c.reason ?? ''}`).toBe(true);
      if (c.tolerance !== null) expect(c.actual!, c.id).toBeLessThan(1e-9);
      else expect(c.actual!, c.id).toBeCloseTo(c.nominal!, 9);
      expect(c.samples, c.id).toBeGreaterThanOrEqual(12);
    }
  });

  it('the same scan moved rigidly gives the same actuals: the datum frame absorbs the motion, and the profile to A alone floats in what A leaves free', async () => {
    addCloud('movedScan', moved(nodes, [0.48, 0.6, 0.64], (0.02 * Math.PI) / 180, centroid(nodes), [0.05, -0.03, 0.04]));
    const r = await evaluate({ actualBodyId: 'movedScan', nominalBodyId: 'ctc1' });
    let floated = 0;
    for (const [i, c] of r.characteristics.entries()) {
      const b = base.characteristics[i]!;
      expect(c.id).toBe(b.id);
      expect(Math.abs(c.actual! - b.actual!), `${c.id} ${c.kind}`).toBeLessThan(1e-7);
      // The all-around profile to A alone: the shift along A and the turn about its normal are
      // free; as placed the motion showed there (docs/gdt.md).
      if (c.datums.join('|') === 'A' && c.kind === 'surfaceProfile') {
        expect(c.method).toContain('2 translations and 1 rotation');
        expect(Number(/: ([0-9.e-]+) as placed/.exec(c.method)![1])).toBeGreaterThan(1e-3);
        floated++;
      }
    }
    expect(floated).toBe(1);
  });

  it('alignment datums: a scan moved by 1 degree and 0.4 mm, fitted to A|B|C, reads every actual of the unmoved scan, the profile to A included', async () => {
    const u = [0.48, 0.6, 0.64], angle = Math.PI / 180, c = centroid(nodes), t = [0.4, -0.2, 0.1];
    addCloud('farScan', moved(nodes, u, angle, c, t));
    const free = await evaluate({ actualBodyId: 'farScan', nominalBodyId: 'ctc1' });
    const aligned = await evaluate({ actualBodyId: 'farScan', nominalBodyId: 'ctc1', alignment: { method: 'datums' } });
    expect(aligned.alignment).toMatchObject({ method: 'datums', datums: ['A', 'B', 'C'] });
    // Without alignment the motion shows (a 1 degree tilt of a 1 mm-tolerance part fails somewhere).
    expect(free.characteristics.some((x, i) => Math.abs(x.actual! - base.characteristics[i]!.actual!) > 1e-2)).toBe(true);
    for (const [i, x] of aligned.characteristics.entries()) {
      const b = base.characteristics[i]!;
      expect(x.id).toBe(b.id);
      expect(x.pass, `${x.id} ${x.kind}`).toBe(true);
      expect(Math.abs(x.actual! - b.actual!), `${x.id} ${x.kind}`).toBeLessThan(1e-7);
    }
    // The motion found undoes the one applied: its rotation is the inverse's, to 1e-9 rad.
    const m = aligned.alignment!.transform;
    const trace = m[0]![0]! + m[1]![1]! + m[2]![2]!;
    expect(Math.acos(Math.min(1, (trace - 1) / 2))).toBeCloseTo(angle, 9);
  }, 120_000);

  it('alignment transform: the inverse of the applied motion as a 4x4 gives the unmoved actuals; a scale is INVALID_ARGUMENT', async () => {
    // moved() about the centroid c: p -> c + R (p - c) + t; its inverse p -> c + R^T (p - c - t).
    const u = [0.48, 0.6, 0.64], angle = Math.PI / 180, c = centroid(nodes), t = [0.4, -0.2, 0.1];
    const R = [0, 1, 2].map((i) => moved(new Float64Array([...[0, 1, 2].map((k) => (k === i ? 1 : 0))]), u, angle, [0, 0, 0], [0, 0, 0]));
    // R's columns are the images of the unit vectors, so R^T's rows are those images.
    const rt = R.map((col) => [col[0]!, col[1]!, col[2]!]);
    const ct = [0, 1, 2].map((k) => c[k]! + t[k]!);
    const shift = [0, 1, 2].map((i) => c[i]! - (rt[i]![0]! * ct[0]! + rt[i]![1]! * ct[1]! + rt[i]![2]! * ct[2]!));
    const transform = [0, 1, 2].map((i) => [...rt[i]!, shift[i]!]).concat([[0, 0, 0, 1]]);
    const r = await evaluate({ actualBodyId: 'farScan', nominalBodyId: 'ctc1', alignment: { method: 'transform', transform } });
    for (const [i, x] of r.characteristics.entries()) expect(Math.abs(x.actual! - base.characteristics[i]!.actual!), `${x.id} ${x.kind}`).toBeLessThan(1e-6);
    const scale = [[1.01, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
    await expect(engine.runJson('evaluate_gdt', { actualBodyId: 'farScan', nominalBodyId: 'ctc1', alignment: { method: 'transform', transform: scale } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  }, 120_000);

  it('the scan scaled by 1.002 about its centroid reads every diameter as nominal x 1.002', async () => {
    const c = centroid(nodes);
    const scaled = nodes.map((v, i) => c[i % 3]! + 1.002 * (v - c[i % 3]!));
    addCloud('scaledScan', scaled);
    const r = await evaluate({ actualBodyId: 'scaledScan', nominalBodyId: 'ctc1' });
    const diameters = r.characteristics.filter((x) => x.kind === 'diameter');
    expect(diameters).toHaveLength(7);
    for (const d of diameters) expect(d.actual!, d.id).toBeCloseTo(d.nominal! * 1.002, 9);
  });
});
