/**
 * Writes the demo part (public/demo/part.brep) as a STEP file, for the browser benchmark's dropped
 * STEP + STL pair (the STL is the demo's scan of the same part). Run by coldStart.bench.ts in a child
 * process, so the Playwright process never loads the kernel:
 *   npx tsx bench/browser/demoStep.ts <out.step>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { nodeKernel } from '../../src/node/nodeEngine';

const out = process.argv[2];
if (!out) throw new Error('usage: npx tsx bench/browser/demoStep.ts <out.step>');
const oc = await nodeKernel();
const own: { delete(): void }[] = [];
const keep = <T extends { delete(): void }>(o: T): T => (own.push(o), o);
try {
  oc.FS.writeFile('/part.brep', readFileSync(new URL('../../public/demo/part.brep', import.meta.url)));
  const shape = keep(new oc.TopoDS_Shape());
  if (!oc.BRepTools.Read_2(shape, '/part.brep', keep(new oc.BRep_Builder()), keep(new oc.Message_ProgressRange_1()))) throw new Error('demoStep: could not read part.brep');
  const writer = keep(new oc.STEPControl_Writer_1());
  // The glue types enum members as `{}`.
  const asIs = oc.STEPControl_StepModelType.STEPControl_AsIs as unknown as Parameters<typeof writer.Transfer>[1];
  const done = oc.IFSelect_ReturnStatus.IFSelect_RetDone as unknown;
  if (writer.Transfer(shape, asIs, true, keep(new oc.Message_ProgressRange_1())) !== done) throw new Error('demoStep: STEP transfer failed');
  if (writer.Write('/part.step') !== done) throw new Error('demoStep: STEP write failed');
  writeFileSync(out, oc.FS.readFile('/part.step'));
} finally {
  for (const o of own.reverse()) o.delete();
}
process.exit(0);
