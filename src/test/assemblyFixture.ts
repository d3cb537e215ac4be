import type { gp_Trsf, TDF_Label, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC, type Own } from '../engine/kernel';
import { takeKernelFile, uniqueKernelPath } from '../engine/scene/import/kernelFile';
import { makeBox, makeCylinder } from './kernelShapes';

/**
 * A two-level assembly with known names and placements:
 *   Machine
 *     bracket  (Bracket: box 10 x 4 x 2)           at identity
 *     pins-1   (PinPair)                           translated (0, 0, 2)
 *       pin-A  (Pin: cylinder r 1, h 5)            identity
 *       pin-B  (Pin)                               rotated 90 deg about z, translated (5, 0, 0)
 *     pins-2   (PinPair)                           rotated 180 deg about x, translated (0, 4, 0)
 * Written as STEP (AP214 through STEPCAFControl_Writer) and as XBF; both returned as bytes.
 */
export function makeAssemblyFiles(oc: OC): { step: Uint8Array; xbf: Uint8Array } {
  return withKernel(oc, (own) => {
    const appHandle = own(new oc.Handle_TDocStd_Application_2(new oc.TDocStd_Application()));
    oc.BinXCAFDrivers.DefineFormat(appHandle);
    const app = appHandle.get();
    const docHandle = own(new oc.Handle_TDocStd_Document_1());
    app.NewDocument_2(own(new oc.TCollection_ExtendedString_2('BinXCAF', true)), docHandle);
    try {
      const tool = own(oc.XCAFDoc_DocumentTool.ShapeTool(own(docHandle.get().Main()))).get();
      const name = (label: TDF_Label, text: string) => own(oc.TDataStd_Name.Set_1(label, own(new oc.TCollection_ExtendedString_2(text, true))));
      const part = (shape: TopoDS_Shape, text: string) => {
        const label = own(tool.AddShape(own(shape), false, true));
        name(label, text);
        return label;
      };
      const bracket = part(makeBox(oc, 10, 4, 2), 'Bracket');
      const pin = part(makeCylinder(oc, 1, 5), 'Pin');
      const pinPair = own(tool.NewShape());
      name(pinPair, 'PinPair');
      const machine = own(tool.NewShape());
      name(machine, 'Machine');
      const add = (assembly: TDF_Label, component: TDF_Label, text: string, trsfOf: (own: Own) => gp_Trsf) => {
        const loc = own(new oc.TopLoc_Location_2(trsfOf(own)));
        name(own(tool.AddComponent_1(assembly, component, loc)), text);
      };
      add(pinPair, pin, 'pin-A', (o) => o(new oc.gp_Trsf_1()));
      add(pinPair, pin, 'pin-B', (o) => rotation(oc, o, [0, 0, 1], Math.PI / 2, [5, 0, 0]));
      add(machine, bracket, 'bracket', (o) => o(new oc.gp_Trsf_1()));
      add(machine, pinPair, 'pins-1', (o) => rotation(oc, o, [0, 0, 1], 0, [0, 0, 2]));
      add(machine, pinPair, 'pins-2', (o) => rotation(oc, o, [1, 0, 0], Math.PI, [0, 4, 0]));
      tool.UpdateAssemblies();

      const xbfPath = uniqueKernelPath('xbf');
      const saved = app.SaveAs_1(docHandle, own(new oc.TCollection_ExtendedString_2(xbfPath, true)), own(new oc.Message_ProgressRange_1()));
      if (saved !== oc.PCDM_StoreStatus.PCDM_SS_OK) throw new Error('assembly fixture: XBF SaveAs failed');
      const xbf = takeKernelFile(oc, xbfPath);

      const stepPath = uniqueKernelPath('step');
      const writer = own(new oc.STEPCAFControl_Writer_1());
      writer.SetNameMode(true);
      if (!writer.Perform_2(docHandle, stepPath, own(new oc.Message_ProgressRange_1()))) throw new Error('assembly fixture: STEP write failed');
      return { step: takeKernelFile(oc, stepPath), xbf };
    } finally {
      app.Close(docHandle);
    }
  });
}

/** Rotation by `angle` about the axis through the origin, then the translation. */
function rotation(oc: OC, own: Own, axis: [number, number, number], angle: number, translation: [number, number, number]) {
  const trsf = own(new oc.gp_Trsf_1());
  trsf.SetRotation_1(own(new oc.gp_Ax1_2(own(new oc.gp_Pnt_3(0, 0, 0)), own(new oc.gp_Dir_4(...axis)))), angle);
  trsf.SetTranslationPart(own(new oc.gp_Vec_4(...translation)));
  return trsf;
}
