import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../../errors';
import { withKernel, type OC } from '../../kernel';
import { asBadInput } from './kernelFailure';
import { withKernelFile } from './kernelFile';
import { validateBeforeKernel } from './validate';

/**
 * Reads a STEP or IGES file into one shape (a compound when the file has several roots). The
 * readers report failure through a status rather than an exception: both are checked.
 */
export function readExchangeShape(oc: OC, bytes: Uint8Array, name: string, format: 'step' | 'iges'): TopoDS_Shape {
  validateBeforeKernel(format, bytes, name);
  return asBadInput(oc, name, () => readChecked(oc, bytes, name, format));
}

function readChecked(oc: OC, bytes: Uint8Array, name: string, format: 'step' | 'iges'): TopoDS_Shape {
  return withKernelFile(oc, bytes, format === 'step' ? 'step' : 'igs', (path) =>
    withKernel(oc, (own) => {
      const reader = own(format === 'step' ? new oc.STEPControl_Reader_1() : new oc.IGESControl_Reader_1());
      const status = reader.ReadFile(path);
      if (status !== oc.IFSelect_ReturnStatus.IFSelect_RetDone) {
        throw new BrepscopeError('PARSE_FAILED', `${name}: not a readable ${format.toUpperCase()} file (the reader returned ${statusName(oc, status)})`);
      }
      reader.TransferRoots(own(new oc.Message_ProgressRange_1()));
      if (reader.NbShapes() === 0) {
        throw new BrepscopeError('PARSE_FAILED', `${name}: the ${format.toUpperCase()} file was read but holds no transferable shape`);
      }
      const shape = reader.OneShape();
      if (shape.IsNull()) {
        shape.delete();
        throw new BrepscopeError('PARSE_FAILED', `${name}: the ${format.toUpperCase()} file produced an empty shape`);
      }
      return shape;
    }),
  );
}

function statusName(oc: OC, status: unknown): string {
  const names = ['IFSelect_RetVoid', 'IFSelect_RetError', 'IFSelect_RetFail', 'IFSelect_RetStop'] as const;
  return names.find((n) => oc.IFSelect_ReturnStatus[n] === status) ?? 'an unknown status';
}
