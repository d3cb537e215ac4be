import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { box } from '../mesh/generators';
import type { MeshBody, PointsBody } from './Body';
import { unitMismatchWarning } from './unitMismatch';
import { writeBinaryStl } from './import/stl';
import { write3mf, writePointText } from '../../test/meshWriters';
import { testEngine } from '../../test/testEngine';
import type { AlignResult } from '../alignment/alignBodies';
import type { DeviationResult } from '../tools/measureDeviation';
import type { BodySummary } from './describeBody';

const INCH = 25.4;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-units-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sized = (bodyId: string, diagonal: number, kind: 'mesh' | 'brep' = 'mesh') => ({ body: { bodyId, kind, lengthUnit: kind === 'brep' ? { unit: 'mm', declared: 'MM' } : undefined } as never, diagonal });

describe('unitMismatchWarning', () => {
  it('names the smaller body and its probable unit when the sizes differ by a unit factor and the fit is poor', () => {
    const w = unitMismatchWarning(sized('scan', 40), sized('part', 40 * INCH, 'brep'), { rms: 2.5 });
    expect(w?.code).toBe('UNIT_MISMATCH');
    expect(w!.message).toContain("'scan' is 1/25.4 the size of 'part'");
    expect(w!.message).toContain('probably in inches');
    expect(w!.message).toContain('--unit scan=inch');
    // Either order of the arguments, the same body is named.
    expect(unitMismatchWarning(sized('part', 40 * INCH, 'brep'), sized('scan', 40), { rms: 2.5 })!.message).toBe(w!.message);
    expect(unitMismatchWarning(sized('scan', 0.9), sized('part', 900, 'brep'), { rms: 0.2 })!.message).toContain('probably in metres');
  });

  it('is silent for a good fit, a size ratio no unit explains, or a part body it cannot re-import', () => {
    // A partial scan 1/25 the size of its part that fits it (RMS 1% of its size).
    expect(unitMismatchWarning(sized('scan', 40), sized('part', 40 * INCH, 'brep'), { rms: 0.4, noDataShare: 0.1 })).toBeNull();
    // ...but one that leaves most of its samples without a counterpart does not.
    expect(unitMismatchWarning(sized('scan', 40), sized('part', 40 * INCH, 'brep'), { rms: 0.4, noDataShare: 0.4 })!.message).toContain('40% of the samples without a counterpart');
    expect(unitMismatchWarning(sized('scan', 40), sized('part', 40 * 18, 'brep'), { rms: 5 })).toBeNull();
    expect(unitMismatchWarning(sized('scan', 40), sized('part', 60, 'brep'), { rms: 5 })).toBeNull();
    // Two kernel bodies: said, without the advice to re-import.
    const kernel = unitMismatchWarning(sized('a', 40, 'brep'), sized('b', 40 * INCH, 'brep'), { rms: 5 });
    expect(kernel!.message).not.toContain('Import it again');
  });
});

describe('a scan file given its unit', () => {
  it('import_file scales an STL, a point file and a restored snapshot to millimetres; a file with its own unit refuses it', async () => {
    const engine = testEngine();
    const stl = join(dir, 'inch.stl');
    writeFileSync(stl, writeBinaryStl(box([0, 0, 0], [1, 2, 4])));
    const summary = (await engine.runJson('import_file', { path: stl, bodyId: 'scan', unit: 'inch' })).result as BodySummary;
    expect(summary).toMatchObject({ lengthUnit: 'mm', declaredUnit: 'inch (given at import)' });
    const mesh = (engine.scene.get('scan') as MeshBody).mesh;
    expect(Math.max(...mesh.positions)).toBeCloseTo(4 * INCH, 5);
    expect(Math.min(...mesh.positions)).toBe(0);

    const xyz = join(dir, 'm.xyz');
    writeFileSync(xyz, writePointText(Float64Array.of(0, 0, 0, 0.5, 0.25, 0.125)));
    await engine.runJson('import_file', { path: xyz, bodyId: 'cloud', unit: 'm' });
    expect(Array.from((engine.scene.get('cloud') as PointsBody).cloud.positions)).toEqual([0, 0, 0, 500, 250, 125]);

    const again = testEngine();
    expect(await again.restore(engine.snapshot(), { giveFiles: false })).toEqual({ restored: ['scan', 'cloud'], failed: [] });
    expect(Math.max(...(again.scene.get('scan') as MeshBody).mesh.positions)).toBeCloseTo(4 * INCH, 5);
    expect(Array.from((again.scene.get('cloud') as PointsBody).cloud.positions)).toEqual([0, 0, 0, 500, 250, 125]);

    const threeMf = join(dir, 'box.3mf');
    writeFileSync(threeMf, write3mf([{ mesh: box([0, 0, 0], [1, 1, 1]) }], 'inch'));
    await expect(engine.runJson('import_file', { path: threeMf, unit: 'inch' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('declares its unit') });
    await expect(engine.runJson('import_file', { path: stl, unit: 'furlong' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(engine.scene.list().map((b) => b.bodyId)).toEqual(['scan', 'cloud']);
  });

  it('a scan in inches against a part in millimetres: align_bodies and measure_deviation say so; given its unit it fits', async () => {
    const engine = testEngine();
    // The part: a 30 x 20 x 10 mm block with a step, so that the fit has one answer.
    const part = box([0, 0, 0], [30, 20, 10], 4);
    const stl = (name: string, scale: number) => {
      const path = join(dir, name);
      const positions = Float64Array.from(part.positions, (v) => v * scale);
      writeFileSync(path, writeBinaryStl({ positions, indices: part.indices }));
      return path;
    };
    const partPath = stl('part.stl', 1);
    const scanPath = stl('scan-inch.stl', 1 / INCH);
    await engine.runJson('import_file', { path: partPath, bodyId: 'part', unit: 'mm' });
    await engine.runJson('import_file', { path: scanPath, bodyId: 'scan' });
    const a = (await engine.runJson('align_bodies', { movingBodyId: 'scan', fixedBodyId: 'part' })).result as AlignResult;
    expect(a.warnings.map((w) => w.code)).toContain('UNIT_MISMATCH');
    const d = (await engine.runJson('measure_deviation', { fromBodyId: 'scan', toBodyId: 'part' })).result as DeviationResult;
    expect((d.warnings ?? []).map((w) => w.code)).toEqual(['UNIT_MISMATCH']);

    await engine.runJson('import_file', { path: scanPath, bodyId: 'scanMm', unit: 'inch' });
    const fit = (await engine.runJson('measure_deviation', { fromBodyId: 'scanMm', toBodyId: 'part' })).result as DeviationResult;
    expect(fit.warnings).toBeUndefined();
    // float32 coordinates of the file, scaled: within a few float32 steps of the part.
    expect(fit.fromToTo.max).toBeLessThan(1e-5);
  });
});
