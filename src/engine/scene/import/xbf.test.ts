import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { beforeAll, describe, expect, it } from 'vitest';
import { withKernel, type OC } from '../../kernel';
import type { MetricsResult } from '../../tools/computeMetrics';
import { nodeKernel } from '../../../node/nodeEngine';
import { testEngine } from '../../../test/testEngine';
import { makeBox } from '../../../test/kernelShapes';
import type { BodySummary } from '../describeBody';
import { takeKernelFile, uniqueKernelPath } from './kernelFile';
import { readXbfShape } from './xbf';

/**
 * Writes an XCAF document holding `shapes` as top-level shapes and saves it as XBF (BinXCAF) in the
 * kernel's file system; returns the bytes. `assembly` makes each compound an assembly of its parts.
 */
function writeXbf(oc: OC, shapes: TopoDS_Shape[], assembly = false): Uint8Array {
  return withKernel(oc, (own) => {
    const appHandle = own(new oc.Handle_TDocStd_Application_2(new oc.TDocStd_Application()));
    oc.BinXCAFDrivers.DefineFormat(appHandle);
    const app = appHandle.get();
    const docHandle = own(new oc.Handle_TDocStd_Document_1());
    app.NewDocument_2(own(new oc.TCollection_ExtendedString_2('BinXCAF', true)), docHandle);
    try {
      const shapeTool = own(oc.XCAFDoc_DocumentTool.ShapeTool(own(docHandle.get().Main())));
      for (const s of shapes) own(shapeTool.get().AddShape(s, assembly, true));
      const path = uniqueKernelPath('xbf');
      const status = app.SaveAs_1(docHandle, own(new oc.TCollection_ExtendedString_2(path, true)), own(new oc.Message_ProgressRange_1()));
      expect(status).toBe(oc.PCDM_StoreStatus.PCDM_SS_OK);
      return takeKernelFile(oc, path);
    } finally {
      app.Close(docHandle);
    }
  });
}

function compound(oc: OC, parts: TopoDS_Shape[]): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const c = new oc.TopoDS_Compound();
    const builder = own(new oc.BRep_Builder());
    builder.MakeCompound(c);
    for (const p of parts) builder.Add(c, p);
    return c;
  });
}

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');

let oc: OC;
let boxXbf: Uint8Array;
let twoRootsXbf: Uint8Array;
let assemblyXbf: Uint8Array;

beforeAll(async () => {
  oc = await nodeKernel();
  withKernel(oc, (own) => {
    const box = own(makeBox(oc, 10, 20, 30));
    const far = own(makeBox(oc, 1, 2, 3, [100, 0, 0]));
    boxXbf = writeXbf(oc, [box]);
    twoRootsXbf = writeXbf(oc, [box, far]);
    // Two instances of one part: the box and the same box placed 100 along x by a location.
    const trsf = own(new oc.gp_Trsf_1());
    trsf.SetTranslation_1(own(new oc.gp_Vec_4(100, 0, 0)));
    const placed = own(box.Moved(own(new oc.TopLoc_Location_2(trsf)), false));
    assemblyXbf = writeXbf(oc, [own(compound(oc, [box, placed]))], true);
  });
});

describe('readXbfShape', () => {
  it('reads back a box written by the kernel: volume 10 x 20 x 30', () => {
    expect(new TextDecoder().decode(boxXbf.subarray(0, 7))).toBe('BINFILE');
    withKernel(oc, (own) => {
      const shape = own(readXbfShape(oc, boxXbf, 'box.xbf'));
      const props = own(new oc.GProp_GProps_1());
      oc.BRepGProp.VolumeProperties_1(shape, props, false, false, false);
      expect(props.Mass()).toBeCloseTo(6000, 9);
    });
  });

  it('reads the same bytes again and again (a fresh path and application per read)', () => {
    for (let i = 0; i < 3; i++) readXbfShape(oc, boxXbf, 'box.xbf').delete();
    // Nothing is left behind in the kernel's file system.
    expect(oc.FS.readdir('/tmp').filter((f: string) => f.startsWith('brepscope-'))).toEqual([]);
  });

  it('refuses garbage, a lone signature and a text file with PARSE_FAILED', () => {
    const cases = [new TextEncoder().encode('BINFILE'), new TextEncoder().encode('BINFILE this is no document'), new TextEncoder().encode('hello, not a document\n'),
      // Cut inside the header, and early in the data: the reader fails, or opens a document with no shape.
      boxXbf.subarray(0, 50), boxXbf.subarray(0, 200), boxXbf.subarray(0, 1000)];
    for (const bytes of cases) expect(() => readXbfShape(oc, bytes, 'bad.xbf')).toThrow(expect.objectContaining({ code: 'PARSE_FAILED' }));
  });
});

describe('XBF bodies through import_file', () => {
  it('one free shape: the box itself (1 solid, 6 faces), found by its BINFILE signature', async () => {
    const engine = testEngine();
    const body = (await engine.run('import_file', { bytes: b64(boxXbf), fileName: 'upload' })).result as BodySummary;
    expect(body).toMatchObject({ kind: 'brep', sourceFormat: 'xbf', valid: true, solids: 1, shells: 1, faces: 6, edges: 12, vertices: 8 });
    const m = (await engine.run('compute_metrics', { bodyId: body.bodyId })).result as MetricsResult;
    expect(m.volume).toBeCloseTo(6000, 9);
    expect(m.surfaceArea).toBeCloseTo(2 * (200 + 300 + 600), 9);
  });

  it('two free shapes: one compound holding both, volumes added, box spans both', async () => {
    const engine = testEngine();
    await engine.run('import_file', { bytes: b64(twoRootsXbf), fileName: 'two.xbf', bodyId: 'two' });
    const list = (await engine.run('list_bodies', {})).result as { bodies: BodySummary[] };
    expect(list.bodies).toHaveLength(1);
    expect(list.bodies[0]).toMatchObject({ bodyId: 'two', solids: 2, faces: 12 });
    const m = (await engine.run('compute_metrics', { bodyId: 'two', metrics: ['volume', 'boundingBox'] })).result as MetricsResult;
    expect(m.volume).toBeCloseTo(6000 + 6, 9);
    expect(m.boundingBox!.max[0]).toBeCloseTo(101, 9);
  });

  it('an assembly root (one part, two placed instances): both instances in place, as one body', async () => {
    const engine = testEngine();
    const body = (await engine.run('import_file', { bytes: b64(assemblyXbf), fileName: 'asm.xbf', bodyId: 'asm' })).result as BodySummary;
    expect(body.solids).toBe(2);
    const m = (await engine.run('compute_metrics', { bodyId: 'asm', metrics: ['volume', 'boundingBox'] })).result as MetricsResult;
    expect(m.volume).toBeCloseTo(12000, 9);
    expect(m.boundingBox!.min).toEqual([expect.closeTo(0, 9), expect.closeTo(0, 9), expect.closeTo(0, 9)]);
    expect(m.boundingBox!.max).toEqual([expect.closeTo(110, 9), expect.closeTo(20, 9), expect.closeTo(30, 9)]);
  });

  it('a broken XBF is PARSE_FAILED and leaves the scene as it was', async () => {
    const engine = testEngine();
    await engine.run('import_file', { bytes: b64(boxXbf), fileName: 'box.xbf', bodyId: 'keep' });
    await expect(engine.run('import_file', { bytes: b64(boxXbf.subarray(0, 50)), fileName: 'cut.xbf' })).rejects.toMatchObject({ code: 'PARSE_FAILED' });
    expect(engine.scene.list().map((b) => b.bodyId)).toEqual(['keep']);
  });
});
