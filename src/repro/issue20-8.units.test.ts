import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BodySummary, Engine } from '../engine';
import { withKernel, type OC } from '../engine/kernel';
import { box } from '../engine/mesh/generators';
import { takeKernelFile, uniqueKernelPath } from '../engine/scene/import/kernelFile';
import { writeBinaryStl } from '../engine/scene/import/stl';
import { nodeKernel } from '../node/nodeEngine';
import { testEngine } from '../test/testEngine';
import { dataPath } from '../test/data';
import { makeBox } from '../test/kernelShapes';
import { write3mf } from '../test/meshWriters';

/**
 * Issue 20, finding 8 (the engine half): STEP and IGES files declare their length unit, and 3MF its
 * own; the body says which (lengthUnit 'mm': the readers convert every declared unit to mm; the
 * file's own word in declaredUnit), files without one (BREP, STL, PLY, OBJ) say null: "model units".
 */

let oc: OC;
let engine: Engine;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const load = async (args: Record<string, unknown>) => (await engine.runJson('import_file', args)).result as BodySummary;

/** A 10 x 20 x 30 box written as STEP with the writer's length unit set to `unit` (the file's coordinates in that unit). */
function stepIn(unit: 'MM' | 'INCH'): Uint8Array {
  // The writer's parameters exist once a writer was made; the unit is read when the next one is.
  withKernel(oc, (own) => own(new oc.STEPControl_Writer_1()));
  const previous = oc.Interface_Static.CVal('write.step.unit');
  const shape = makeBox(oc, 10, 20, 30);
  try {
    oc.Interface_Static.SetCVal('write.step.unit', unit);
    return withKernel(oc, (own) => {
      const writer = own(new oc.STEPControl_Writer_1());
      writer.Transfer(shape, oc.STEPControl_StepModelType.STEPControl_AsIs as never, true, own(new oc.Message_ProgressRange_1()));
      const path = uniqueKernelPath('step');
      writer.Write(path);
      return takeKernelFile(oc, path);
    });
  } finally {
    oc.Interface_Static.SetCVal('write.step.unit', previous);
    shape.delete();
  }
}

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
});

describe('length units from the files (issue 20.8)', () => {
  it('a STEP file in inches: lengthUnit mm (converted by the reader), declaredUnit INCH, a note; its volume in mm³', async () => {
    const bytes = stepIn('INCH');
    const text = new TextDecoder().decode(bytes);
    expect(text).toContain("'INCH'");
    // The file holds the box's 30 mm side in inches.
    expect(text).toMatch(/1\.181102362/);
    const s = await load({ bytes: b64(bytes), fileName: 'box-inch.step', bodyId: 'inch' });
    expect(s).toMatchObject({ lengthUnit: 'mm', declaredUnit: 'INCH' });
    expect(s.notes).toEqual(['STEP length unit INCH: the kernel converted coordinates to millimetres']);
    const m = (await engine.run('compute_metrics', { bodyId: 'inch', metrics: ['volume'] })).result;
    expect(Math.abs(m.volume! - 6000) / 6000).toBeLessThan(1e-6);
  });

  it('a STEP file in mm and the project files: STEP and IGES declare their units, BREP and STL none', async () => {
    expect(await load({ bytes: b64(stepIn('MM')), fileName: 'box-mm.step', bodyId: 'mm' })).toMatchObject({ lengthUnit: 'mm', declaredUnit: 'millimetre' });
    expect((await load({ bytes: b64(stepIn('MM')), fileName: 'box-mm.step', bodyId: 'mm2' })).notes).toBeUndefined();
    expect(await load({ path: dataPath('occt/screw.step'), bodyId: 'screw' })).toMatchObject({ lengthUnit: 'mm', declaredUnit: 'millimetre' });
    expect(await load({ path: dataPath('cax-if/as1_pe_203.stp'), bodyId: 'as1' })).toMatchObject({ lengthUnit: 'mm', declaredUnit: 'INCH' });
    expect(await load({ path: dataPath('occt/hammer.iges'), bodyId: 'hammer' })).toMatchObject({ lengthUnit: 'mm', declaredUnit: 'MM' });
    const brep = await load({ path: dataPath('occt/bottle.brep'), bodyId: 'bottle' });
    expect(brep.lengthUnit).toBeNull();
    expect(brep.declaredUnit).toBeUndefined();
    expect((await load({ bytes: b64(readFileSync(dataPath('occt/shape.stl'))), fileName: 'shape.stl', bodyId: 'shape' })).lengthUnit).toBeNull();
    expect((await load({ bytes: b64(writeBinaryStl(box([0, 0, 0], [1, 1, 1]))), fileName: 'cube.stl', bodyId: 'cube' })).lengthUnit).toBeNull();
  });

  it('3MF declares its unit (millimeter by default): mm, and inch converted', async () => {
    const cube = box([0, 0, 0], [1, 2, 3]);
    expect(await load({ bytes: b64(write3mf([{ mesh: cube }])), fileName: 'cube.3mf', bodyId: 'mf' })).toMatchObject({ lengthUnit: 'mm', declaredUnit: 'millimeter' });
    const inch = await load({ bytes: b64(write3mf([{ mesh: cube }], 'inch')), fileName: 'cube-in.3mf', bodyId: 'mfin' });
    expect(inch).toMatchObject({ lengthUnit: 'mm', declaredUnit: 'inch' });
    const m = (await engine.run('compute_metrics', { bodyId: 'mfin', metrics: ['volume'] })).result;
    expect(Math.abs(m.volume! - 6 * 25.4 ** 3) / (6 * 25.4 ** 3)).toBeLessThan(1e-5);
  });
});
