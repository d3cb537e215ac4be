import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../../errors';
import { withKernel, type OC } from '../../kernel';
import { asBadInput } from './kernelFailure';
import { withKernelFile } from './kernelFile';
import { validateBeforeKernel } from './validate';

/**
 * Reads an OCCT BREP file (text or binary form) into a shape the caller owns. The text form's
 * structure is checked first; whatever the kernel then throws or aborts on is reported as bad input.
 */
export function readBrepShape(oc: OC, bytes: Uint8Array, name: string): TopoDS_Shape {
  validateBeforeKernel('brep', bytes, name);
  return asBadInput(oc, name, () => readChecked(oc, bytes, name));
}

function readChecked(oc: OC, bytes: Uint8Array, name: string): TopoDS_Shape {
  return withKernelFile(oc, bytes, 'brep', (path) =>
    withKernel(oc, (own) => {
      const shape = new oc.TopoDS_Shape();
      let ok: boolean;
      try {
        ok = oc.BRepTools.Read_2(shape, path, own(new oc.BRep_Builder()), own(new oc.Message_ProgressRange_1()));
      } catch (e) {
        shape.delete();
        throw e;
      }
      if (!ok || shape.IsNull()) {
        shape.delete();
        throw new BrepscopeError('PARSE_FAILED', `${name}: not a readable OCCT BREP file (BRepTools::Read found no shape)`);
      }
      return shape;
    }),
  );
}
