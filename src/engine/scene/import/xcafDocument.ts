import type { STEPCAFControl_Reader, TDocStd_Document } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../../errors';
import { withKernel, type OC, type Own } from '../../kernel';
import { asBadInput } from './kernelFailure';
import { withKernelFile } from './kernelFile';
import { validateBeforeKernel } from './validate';

export type AssemblyFormat = 'step' | 'iges' | 'xbf';

/**
 * Opens a STEP, IGES or XBF file as an XCAF document (names, assembly structure, placements) and
 * runs `fn` on it. Each call has its own TDocStd_Application and unique file path, and closes the
 * document afterwards, so no session state survives (reopening a path yields PCDM_RS_AlreadyRetrieved).
 */
/** `fn` gets the STEP reader too (its transfer map links the file's entities to the shapes), for STEP files. */
export type XcafVisitor<T> = (doc: TDocStd_Document, own: Own, stepReader?: STEPCAFControl_Reader) => T;

export function withXcafDocument<T>(oc: OC, bytes: Uint8Array, name: string, format: AssemblyFormat, fn: XcafVisitor<T>, options: XcafOptions = {}): T {
  validateBeforeKernel(format, bytes, name);
  // The document is the user's file all the way through: a kernel failure while walking it is bad input too.
  return asBadInput(oc, name, () => openDocument(oc, bytes, name, format, fn, options));
}

export interface XcafOptions {
  /** STEP: also read the semantic PMI (datums, dimensions, geometric tolerances) into the document's DimTol tool. */
  gdt?: boolean;
}

function openDocument<T>(oc: OC, bytes: Uint8Array, name: string, format: AssemblyFormat, fn: XcafVisitor<T>, options: XcafOptions): T {
  return withKernelFile(oc, bytes, format === 'iges' ? 'igs' : format, (path) =>
    withKernel(oc, (own) => {
      // The handle owns the application: the raw object is freed when the handle is deleted.
      const appHandle = own(new oc.Handle_TDocStd_Application_2(new oc.TDocStd_Application()));
      oc.BinXCAFDrivers.DefineFormat(appHandle);
      const app = appHandle.get();
      const docHandle = own(new oc.Handle_TDocStd_Document_1());
      let stepReader: STEPCAFControl_Reader | undefined;
      try {
        if (format === 'xbf') {
          const status = app.Open_2(own(new oc.TCollection_ExtendedString_2(path, true)), docHandle, own(new oc.Message_ProgressRange_1()));
          if (status !== oc.PCDM_ReaderStatus.PCDM_RS_OK || docHandle.IsNull()) {
            throw new BrepscopeError('PARSE_FAILED', `${name}: not a readable XBF document (the OCAF reader returned ${enumName(oc.PCDM_ReaderStatus, status)})`);
          }
        } else {
          app.NewDocument_2(own(new oc.TCollection_ExtendedString_2('BinXCAF', true)), docHandle);
          const step = format === 'step' ? own(new oc.STEPCAFControl_Reader_1()) : undefined;
          stepReader = step;
          const iges = format === 'iges' ? own(new oc.IGESCAFControl_Reader_1()) : undefined;
          const reader = (step ?? iges)!;
          reader.SetNameMode(true);
          if (step && options.gdt) step.SetGDTMode(true);
          const status = reader.ReadFile(path);
          if (status !== oc.IFSelect_ReturnStatus.IFSelect_RetDone) {
            throw new BrepscopeError('PARSE_FAILED', `${name}: not a readable ${format.toUpperCase()} file (the reader returned ${enumName(oc.IFSelect_ReturnStatus, status)})`);
          }
          const range = own(new oc.Message_ProgressRange_1());
          if (!(step ? step.Transfer_1(docHandle, range) : iges!.Transfer(docHandle, range))) {
            throw new BrepscopeError('PARSE_FAILED', `${name}: the ${format.toUpperCase()} file was read but its shapes could not be transferred`);
          }
        }
        return fn(docHandle.get(), own, stepReader);
      } finally {
        if (!docHandle.IsNull()) app.Close(docHandle);
      }
    }),
  );
}

export function enumName(table: object, value: unknown): string {
  return Object.keys(table).find((k) => (table as Record<string, unknown>)[k] === value) ?? `status ${String(value)}`;
}
