import type { IGESControl_Reader, STEPControl_Reader, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../../errors';
import { withKernel, type OC, type Own } from '../../kernel';
import { asBadInput } from './kernelFailure';
import { stepContextLengthUnit } from './stepContextUnit';
import { listNames, stepExternalFiles } from './stepExternalRefs';
import { withKernelFile } from './kernelFile';
import { validateBeforeKernel } from './validate';

/** A STEP or IGES file's shape, and the length unit the file declares (null when it declares none). */
export interface ExchangeShape {
  shape: TopoDS_Shape;
  /** The file's unit name as written (STEP: the representation context's length unit; IGES: the global section's). */
  declaredUnit: string | null;
}

/**
 * Reads a STEP or IGES file into one shape (a compound when the file has several roots). The
 * readers report failure through a status rather than an exception: both are checked. The readers
 * convert the file's length unit to millimetres (OCCT's default system unit), so the shape is in mm
 * whatever the file declares.
 */
export function readExchangeShape(oc: OC, bytes: Uint8Array, name: string, format: 'step' | 'iges'): ExchangeShape {
  validateBeforeKernel(format, bytes, name);
  return asBadInput(oc, name, () => readChecked(oc, bytes, name, format));
}

function readChecked(oc: OC, bytes: Uint8Array, name: string, format: 'step' | 'iges'): ExchangeShape {
  return withKernelFile(oc, bytes, format === 'step' ? 'step' : 'igs', (path) =>
    withKernel(oc, (own) => {
      const step = format === 'step' ? own(new oc.STEPControl_Reader_1()) : null;
      const iges = format === 'iges' ? own(new oc.IGESControl_Reader_1()) : null;
      const reader = (step ?? iges)!;
      const status = reader.ReadFile(path);
      if (status !== oc.IFSelect_ReturnStatus.IFSelect_RetDone) {
        throw new BrepscopeError('PARSE_FAILED', `${name}: not a readable ${format.toUpperCase()} file (the reader returned ${statusName(oc, status)})`);
      }
      const declaredUnit = step ? (stepLengthUnit(oc, own, step) ?? stepContextLengthUnit(bytes)) : igesLengthUnit(own, iges!);
      reader.TransferRoots(own(new oc.Message_ProgressRange_1()));
      if (reader.NbShapes() === 0) {
        throw externalOnly(bytes, name, format) ?? new BrepscopeError('PARSE_FAILED', `${name}: the ${format.toUpperCase()} file was read but holds no transferable shape`);
      }
      const shape = reader.OneShape();
      if (shape.IsNull()) {
        shape.delete();
        throw externalOnly(bytes, name, format) ?? new BrepscopeError('PARSE_FAILED', `${name}: the ${format.toUpperCase()} file produced an empty shape`);
      }
      return { shape, declaredUnit };
    }),
  );
}

/** The error for a STEP assembly whose parts are all in other files (external references), or null. */
function externalOnly(bytes: Uint8Array, name: string, format: 'step' | 'iges'): BrepscopeError | null {
  const files = format === 'step' ? stepExternalFiles(bytes) : [];
  if (!files.length) return null;
  return new BrepscopeError(
    'PARSE_FAILED',
    `${name}: a STEP assembly whose parts are in ${files.length} other file(s) (${listNames(files)}); external references are not followed, so this file alone holds no shape: import the part files, or export the assembly as a single STEP file`,
    { externalFiles: files },
  );
}

/** The length unit of a read STEP file (STEPControl_Reader.FileUnits: the first length unit the file's contexts use). */
function stepLengthUnit(oc: OC, own: Own, reader: STEPControl_Reader): string | null {
  const lengths = own(new oc.TColStd_SequenceOfAsciiString_1());
  reader.FileUnits(lengths, own(new oc.TColStd_SequenceOfAsciiString_1()), own(new oc.TColStd_SequenceOfAsciiString_1()));
  for (let i = 1; i <= lengths.Length(); i++) {
    const unit = lengths.Value(i).ToCString().trim();
    if (unit) return unit;
  }
  return null;
}

/** The length unit of a read IGES file: its global section's unit name (every IGES file has one; inch when the flag is absent). */
function igesLengthUnit(own: Own, reader: IGESControl_Reader): string | null {
  const model = own(reader.IGESModel());
  if (model.IsNull()) return null;
  const name = own(own(model.get().GlobalSection()).UnitName());
  return name.IsNull() ? null : name.get().ToCString().trim() || null;
}

function statusName(oc: OC, status: unknown): string {
  const names = ['IFSelect_RetVoid', 'IFSelect_RetError', 'IFSelect_RetFail', 'IFSelect_RetStop'] as const;
  return names.find((n) => oc.IFSelect_ReturnStatus[n] === status) ?? 'an unknown status';
}
