import { readFileSync } from 'node:fs';
import type { Engine } from '../engine/Engine';
import { toErrorPayload } from '../engine/errors';
import { withKernel, type OC } from '../engine/kernel';
import { uvSphere } from '../engine/mesh/generators';
import { readBrepShape } from '../engine/scene/import/brep';
import { takeKernelFile, uniqueKernelPath } from '../engine/scene/import/kernelFile';
import { writeBinaryStl } from '../engine/scene/import/stl';
import { dataPath } from './data';
import { write3mf, writeObj, writePly, writePointText } from './meshWriters';
import { mutant, type Mutant, type SourceFile } from './mutate';
import { deflateSync, strToU8, zipSync } from 'fflate';
import { shellFaceCycleIges } from './igesWriter';
import { brepBytes, compoundOf, makeBox } from './kernelShapes';
import { rawZip } from './zipWriter';

/** Codes that mean "our defect", never a user's bad file. */
export const INTERNAL_CODES = new Set(['INTERNAL_ERROR', 'KERNEL_ERROR', 'KERNEL_UNAVAILABLE', 'ENGINE_CRASHED']);

/** The good files the fuzz corpus mutates: real files from test-data, the rest made here (nothing big is committed). */
export function fuzzSources(oc: OC): SourceFile[] {
  const read = (file: string): Uint8Array => new Uint8Array(readFileSync(dataPath(file)));
  const sphere = uvSphere(5, 12, 6);
  for (let i = 0; i < sphere.positions.length; i++) sphere.positions[i] = Math.fround(sphere.positions[i]!);
  return [
    { fileName: 'sphere.stl', bytes: writeBinaryStl(sphere), kind: 'stl-binary' },
    { fileName: 'shape.stl', bytes: read('occt/shape.stl'), kind: 'stl-ascii' },
    { fileName: 'wedge_ok.brep', bytes: read('occt/wedge_ok.brep'), kind: 'brep' },
    { fileName: 'face.brep', bytes: read('occt/face.brep'), kind: 'brep' },
    { fileName: 'as1_pe_203.brep', bytes: read('cax-if/as1_pe_203.brep'), kind: 'brep' },
    { fileName: 'sg1-c5-214.stp', bytes: read('cax-if/sg1-c5-214.stp'), kind: 'step' },
    { fileName: 'screw.step', bytes: read('occt/screw.step'), kind: 'step' },
    { fileName: 'wedge.igs', bytes: igesOf(oc, read('occt/wedge_ok.brep')), kind: 'iges' },
    { fileName: 'sphere-le.ply', bytes: writePly(sphere, { encoding: 'binary_little_endian' }), kind: 'ply-binary' },
    { fileName: 'sphere-ascii.ply', bytes: writePly(sphere, { encoding: 'ascii' }), kind: 'ply-ascii' },
    { fileName: 'sphere.obj', bytes: writeObj(sphere, { form: 'v//vn', groups: 2 }), kind: 'obj' },
    { fileName: 'sphere.3mf', bytes: write3mf([{ mesh: sphere }]), kind: '3mf' },
    { fileName: 'points.xyz', bytes: writePointText(sphere.positions), kind: 'xyz' },
  ];
}

/** An IGES file written by the kernel from a BREP: a small real IGES without committing one. */
function igesOf(oc: OC, brep: Uint8Array): Uint8Array {
  return withKernel(oc, (own) => {
    const shape = own(readBrepShape(oc, brep, 'source.brep'));
    const writer = own(new oc.IGESControl_Writer_1());
    writer.AddShape(shape, own(new oc.Message_ProgressRange_1()));
    writer.ComputeModel();
    const path = uniqueKernelPath('igs');
    if (!writer.Write_2(path, false)) throw new Error('fuzz corpus: the kernel could not write IGES');
    return takeKernelFile(oc, path);
  });
}

export type Outcome = 'result' | 'coded error' | 'uncoded' | 'timeout';

export interface Trial {
  mutant: Mutant;
  outcome: Outcome;
  code?: string | undefined;
  message?: string | undefined;
  ms: number;
}

/**
 * Runs one mutant through import_file and, when it loads, compute_metrics (and validate_geometry
 * for a mesh: the tools a user runs next), then removes it. A run over the deadline counts as a timeout even if it ended: in-process,
 * a hang cannot be interrupted, only measured.
 */
export async function runMutant(engine: Engine, sources: SourceFile[], seed: number, deadlineMs: number): Promise<Trial> {
  const m = mutant(sources, seed);
  const started = performance.now();
  let outcome: Outcome = 'result';
  let code: string | undefined, message: string | undefined;
  try {
    const body = (await engine.run('import_file', { bytes: Buffer.from(m.bytes).toString('base64'), fileName: m.fileName, bodyId: 'fuzz' })).result as { bodyId: string };
    try {
      await engine.run('compute_metrics', { bodyId: body.bodyId, metrics: ['boundingBox', 'surfaceArea'] });
      // Issue 34: the scan-format mutants (meshes) through validate_geometry too. BREP mutants are
      // not: BRepCheck of a mutated 18-solid assembly alone outlasts the deadline on a loaded machine.
      if ((body as { kind?: string }).kind === 'mesh') await engine.run('validate_geometry', { bodyId: body.bodyId });
    } finally {
      await engine.run('remove_body', { bodyId: body.bodyId });
    }
  } catch (e) {
    const payload = toErrorPayload(e);
    code = payload.code;
    message = payload.message;
    outcome = INTERNAL_CODES.has(payload.code) ? 'uncoded' : 'coded error';
  }
  const ms = performance.now() - started;
  if (ms > deadlineMs) outcome = 'timeout';
  return { mutant: m, outcome, code, message, ms };
}

/** A named hostile file (issue 34's findings) and what it must give: a result, or this code. */
export interface HostileCase {
  what: string;
  fileName: string;
  bytes: Uint8Array;
  expected: 'result' | string;
}

/**
 * Files that hung, crashed or were refused wrongly (issue 34), built here: zips that declare more
 * than they may inflate to, shapes the kernel cannot box, STEP reference cycles harmless and not.
 */
export function hostileCases(oc: OC): HostileCase[] {
  const model = strToU8('<model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources></resources><build></build></model>');
  const MODEL = '3D/3dmodel.model';
  const stored = deflateSync(new Uint8Array(6e6).map((_, i) => (i * 2654435761) >>> 24), { level: 0 });
  const emptySolid = (): ReturnType<typeof makeBox> =>
    withKernel(oc, (own) => {
      const solid = new oc.TopoDS_Solid();
      own(new oc.BRep_Builder()).MakeSolid(solid);
      return solid;
    });
  const part = new TextDecoder('latin1').decode(readFileSync(dataPath('cax-if/sg1-c5-214.stp')));
  const step = (lines: string[]): Uint8Array => new TextEncoder().encode(part.replace(/ENDSEC;\s*END-ISO-10303-21;\s*$/, `${lines.join('\n')}\nENDSEC;\nEND-ISO-10303-21;\n`));
  return [
    { what: '3MF whose model entry declares 10 GB (zip64)', fileName: 'declares10g.3mf', bytes: rawZip([{ name: MODEL, data: deflateSync(model), declared: 10e9 }]), expected: 'FILE_TOO_LARGE' },
    { what: '3MF whose entry declares 100 bytes and holds 2 MiB', fileName: 'lies.3mf', bytes: rawZip([{ name: MODEL, data: deflateSync(new Uint8Array(2 * 2 ** 20).fill(32)), declared: 100 }]), expected: 'PARSE_FAILED' },
    {
      what: '3MF of seven 1.45 GB parts',
      fileName: 'seven.3mf',
      bytes: rawZip(Array.from({ length: 7 }, (_, i) => ({ name: `3D/part${i}.model`, data: stored, declared: 1.45e9 }))),
      expected: 'FILE_TOO_LARGE',
    },
    { what: '3MF zip bomb (20 MiB of spaces)', fileName: 'bomb.3mf', bytes: zipSync({ [MODEL]: new Uint8Array(20 * 2 ** 20).fill(32) }, { level: 9 }), expected: 'FILE_TOO_LARGE' },
    { what: 'BREP compound with a solid without a shell', fileName: 'bearing-like.brep', bytes: brepBytes(oc, compoundOf(oc, [makeBox(oc, 10, 20, 30), emptySolid()])), expected: 'result' },
    { what: 'BREP of a lone solid without a shell (nothing to bound)', fileName: 'empty-solid.brep', bytes: brepBytes(oc, emptySolid()), expected: 'result' },
    {
      what: 'STEP with a material density record referring to itself',
      fileName: 'density.stp',
      bytes: step(["#900001=PROPERTY_DEFINITION('material property','density',#10);", '#900002=PROPERTY_DEFINITION_REPRESENTATION(#900001,#900003);', "#900003=REPRESENTATION('density',(#900003),#17);"]),
      expected: 'result',
    },
    { what: 'STEP with a shell containing itself', fileName: 'shellcycle.stp', bytes: step(["#900020=CLOSED_SHELL('',(#900020));"]), expected: 'PARSE_FAILED' },
    { what: 'IGES shell whose only face is a 514/510 cycle', fileName: 'shell-cycle.igs', bytes: shellFaceCycleIges(), expected: 'result' },
  ];
}

/**
 * A hostile case through import_file, compute_metrics and validate_geometry (self-intersection on,
 * a 1 s budget): the first error's code, or 'result'.
 */
export async function runHostile(engine: Engine, c: HostileCase): Promise<{ code: string; message?: string; ms: number }> {
  const started = performance.now();
  try {
    const body = (await engine.run('import_file', { bytes: Buffer.from(c.bytes).toString('base64'), fileName: c.fileName, bodyId: 'hostile' })).result as { bodyId: string };
    try {
      await engine.run('compute_metrics', { bodyId: body.bodyId });
      await engine.run('validate_geometry', { bodyId: body.bodyId, selfIntersectionBudgetSeconds: 1 });
    } finally {
      await engine.run('remove_body', { bodyId: body.bodyId });
    }
    return { code: 'result', ms: performance.now() - started };
  } catch (e) {
    const payload = toErrorPayload(e);
    return { code: payload.code, message: payload.message, ms: performance.now() - started };
  }
}
