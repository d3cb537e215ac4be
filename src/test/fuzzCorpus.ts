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
 * Runs one mutant through import_file and, when it loads, compute_metrics (the tools a user runs
 * next), then removes it. A run over the deadline counts as a timeout even if it ended: in-process,
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
