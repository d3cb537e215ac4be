import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../errors';
import { withKernel, type OC } from '../kernel';
import { readBrepShape } from '../scene/import/brep';
import { takeKernelFile, uniqueKernelPath } from '../scene/import/kernelFile';

/** File access as the hosts give it (the tools' FileAccess has the same shape). */
interface GraphFiles {
  read(path: string, options?: { format?: 'brep' }): Promise<Uint8Array>;
  write(path: string, bytes: Uint8Array): Promise<void>;
}

/** What a graph command needs from its host: files and the kernel. */
interface GraphHost {
  files: GraphFiles;
  kernel: () => Promise<OC>;
}

/** Reads a BREP file into a shape the caller owns. */
async function readBrepFile(host: GraphHost, path: string): Promise<{ oc: OC; shape: TopoDS_Shape }> {
  // Read as BREP whatever its name: the kernel's size limit, not a mesh file's.
  const bytes = await host.files.read(path, { format: 'brep' });
  if (bytes.byteLength === 0) throw new BrepscopeError('EMPTY_FILE', `${path}: the file is empty`);
  const oc = await host.kernel();
  return { oc, shape: readBrepShape(oc, bytes, path) };
}

/** The shape as OCCT BREP text (BRepTools::Write, the form BRepTools::Read and the importers take). */
export function writeBrepBytes(oc: OC, shape: TopoDS_Shape): Uint8Array {
  const path = uniqueKernelPath('brep');
  const ok = withKernel(oc, (own) => oc.BRepTools.Write_3(shape, path, own(new oc.Message_ProgressRange_1())));
  const bytes = takeKernelFile(oc, path);
  if (!ok) throw new BrepscopeError('WRITE_FAILED', 'BRepTools::Write refused the shape');
  return bytes;
}

/** Graph commands write a new file and never the input (spec: "leave the input"). */
export function checkOutputPath(input: string, output: string): void {
  if (normalise(input) === normalise(output)) {
    throw new BrepscopeError('INVALID_ARGUMENT', `the output path ${output} is the input file: graph commands never overwrite their input`);
  }
}

function normalise(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/+/g, '/').replace(/(^|\/)\.\//g, '$1');
}

/** Runs `fn` on the shape of a BREP file and frees the shape afterwards. */
export async function withBrepFile<T>(host: GraphHost, path: string, fn: (oc: OC, shape: TopoDS_Shape) => T | Promise<T>): Promise<T> {
  const { oc, shape } = await readBrepFile(host, path);
  try {
    return await fn(oc, shape);
  } finally {
    shape.delete();
  }
}
