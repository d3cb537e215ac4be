import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeKernel } from '../../node/nodeEngine';
import { dataPath } from '../../test/data';
import { lazyEmbind } from './lazyEmbind';
import type { OC } from './kernel';

const require = createRequire(import.meta.url);
const GLUE = require.resolve('opencascade.js/dist/opencascade.full.js');
const WASM = require.resolve('opencascade.js/dist/opencascade.full.wasm');

type Factory = (options: { instantiateWasm(imports: WebAssembly.Imports, receive: (i: WebAssembly.Instance, m: WebAssembly.Module) => void): object }) => Promise<OC>;

/** The error a call throws: its class name and message (embind's BindingError, or an OCCT exception's message). */
function thrown(oc: OC, call: () => unknown): string {
  try {
    call();
  } catch (e) {
    if (typeof e === 'number') return `OCCT: ${oc.OCJS.getStandard_FailureData(e).GetMessageString()}`;
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
  return 'no error';
}

/**
 * What a host sees of the kernel, through the paths embind builds at start: constructors and their
 * overloads, methods, static functions, enums, errors for a wrong argument count and for a deleted
 * object, OCCT exceptions, and a real STEP part read, measured and meshed.
 */
function probe(oc: OC) {
  const step = readFileSync(dataPath('occt/screw.step'));
  oc.FS.writeFile('/probe.step', step);
  const point = new oc.gp_Pnt_3(1, 2, 3);
  const box = new oc.BRepPrimAPI_MakeBox_2(10, 20, 30);
  const props = new oc.GProp_GProps_1();
  const reader = new oc.STEPControl_Reader_1();
  const range = new oc.Message_ProgressRange_1();
  const stepProps = new oc.GProp_GProps_1();
  const bounds = new oc.Bnd_Box_1();
  try {
    oc.BRepGProp.VolumeProperties_1(box.Shape(), props, false, false, false);
    const read = reader.ReadFile('/probe.step');
    reader.TransferRoots(range);
    const screw = reader.OneShape();
    oc.BRepGProp.VolumeProperties_1(screw, stepProps, false, false, false);
    oc.BRepBndLib.Add(screw, bounds, false);
    const mesh = new oc.BRepMesh_IncrementalMesh_2(screw, 0.5, false, 0.5, false);
    const faces = new oc.TopExp_Explorer_2(screw, oc.TopAbs_ShapeEnum.TopAbs_FACE as never, oc.TopAbs_ShapeEnum.TopAbs_SHAPE as never);
    let faceCount = 0;
    for (; faces.More(); faces.Next()) faceCount++;
    const result = {
      names: [oc.gp_Pnt.prototype.X.name, oc.BRepGProp.VolumeProperties_1.name, oc.gp_Pnt_3.name],
      point: [point.X(), point.Y(), point.Z()],
      distance: point.Distance(new oc.gp_Pnt_3(1, 2, 4)),
      boxVolume: props.Mass(),
      faceEnum: (oc.TopAbs_ShapeEnum.TopAbs_FACE as unknown as { value: number }).value,
      readStatus: (read as unknown as { value: number }).value,
      screwVolume: stepProps.Mass(),
      screwBox: [bounds.CornerMin().X(), bounds.CornerMin().Y(), bounds.CornerMin().Z(), bounds.CornerMax().X(), bounds.CornerMax().Y(), bounds.CornerMax().Z()],
      screwFaces: faceCount,
      meshDone: mesh.IsDone(),
      wrongArgumentCount: thrown(oc, () => (point as unknown as { SetX(): void }).SetX()),
      wrongArgumentType: thrown(oc, () => oc.BRepGProp.VolumeProperties_1(point as never, props, false, false, false)),
      occtException: thrown(oc, () => new oc.gp_Dir_4(0, 0, 0)),
      deleted: thrown(oc, () => {
        const gone = new oc.gp_Pnt_3(0, 0, 0);
        gone.delete();
        return gone.X();
      }),
    };
    faces.delete();
    mesh.delete();
    screw.delete();
    return result;
  } finally {
    for (const o of [point, box, props, reader, range, stepProps, bounds]) o.delete();
    oc.FS.unlink('/probe.step');
  }
}

describe('lazyEmbind: the kernel glue with bindings built on first call', () => {
  let stock: OC;
  let lazy: OC;
  let dir: string;

  beforeAll(async () => {
    // The stock kernel first: its loader sets the globals (require, __dirname) the glue reads in Node.
    stock = await nodeKernel();
    dir = mkdtempSync(join(tmpdir(), 'brepscope-glue-'));
    const file = join(dir, 'opencascade.lazy.js');
    writeFileSync(file, lazyEmbind(readFileSync(GLUE, 'utf8')));
    const { default: factory } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { default: Factory };
    const module = await WebAssembly.compile(readFileSync(WASM));
    lazy = await factory({
      instantiateWasm(imports, receive) {
        void WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module));
        return {};
      },
    });
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the stock kernel answers: overloads, statics, enums, errors, a STEP part measured and meshed', () => {
    const answers = probe(lazy);
    expect(answers).toEqual(probe(stock));
    // Not only equal: right where a closed form says so (a 10 x 20 x 30 box, a unit distance), the
    // screw's figures as the stock kernel gives them, and errors that name the problem.
    expect(answers.boxVolume).toBeCloseTo(6000, 9);
    expect(answers.distance).toBe(1);
    expect(answers.point).toEqual([1, 2, 3]);
    expect(answers.screwFaces).toBe(10);
    expect(answers.meshDone).toBe(true);
    expect(answers.names).toEqual(['gp_Pnt$X', 'BRepGProp$VolumeProperties_1', 'gp_Pnt_3']);
    expect(answers.wrongArgumentCount).toMatch(/^BindingError: function gp_Pnt\.SetX called with 0 arguments, expected 1/);
    expect(answers.wrongArgumentType).toMatch(/^BindingError: Expected null or instance of TopoDS_Shape, got an instance of gp_Pnt/);
    expect(answers.occtException).toMatch(/^OCCT: /);
    expect(answers.deleted).toMatch(/deleted object/);
  });

  it('stops with the reason when the glue is not the one it was written for', () => {
    expect(() => lazyEmbind('var Module = {};')).toThrow(/does not contain 'function createNamedFunction.*exactly once; was opencascade\.js upgraded\?/);
    const glue = readFileSync(GLUE, 'utf8');
    expect(() => lazyEmbind(glue + glue)).toThrow(/exactly once/);
    // Applied twice: the patched text no longer has the stock text.
    expect(() => lazyEmbind(lazyEmbind(glue))).toThrow(/exactly once/);
  });
});
