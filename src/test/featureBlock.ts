import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../engine/kernel';

/**
 * A 40 x 30 x 20 block (corner at the origin) with a vertical through-hole of diameter 8 at
 * (10, 15) and a blind rectangular pocket 10 x 8 x 5 deep cut from the top at x 22..32, y 11..19.
 */
export const FEATURE_BLOCK = {
  size: [40, 30, 20] as const,
  hole: { radius: 4, centre: [10, 15] as const },
  pocket: { min: [22, 11, 15] as const, max: [32, 19, 20] as const },
  volume: 40 * 30 * 20 - Math.PI * 16 * 20 - 10 * 8 * 5,
};

/**
 * The block; with `bsplineHole` the drill is converted to B-splines first (BRepBuilderAPI_NurbsConvert),
 * so the hole's wall is a rational B-spline surface, as some CAD systems export a bore, while the
 * block's planes stay planes.
 */
export function makeFeatureBlock(oc: OC, options: { bsplineHole?: boolean } = {}): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const progress = () => own(new oc.Message_ProgressRange_1());
    const block = own(own(new oc.BRepPrimAPI_MakeBox_2(40, 30, 20)).Shape());
    const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(10, 15, -5)), own(new oc.gp_Dir_4(0, 0, 1))));
    let drill = own(own(new oc.BRepPrimAPI_MakeCylinder_3(axes, 4, 30)).Shape());
    if (options.bsplineHole) drill = own(own(new oc.BRepBuilderAPI_NurbsConvert_2(drill, false)).Shape());
    const drilled = own(own(new oc.BRepAlgoAPI_Cut_3(block, drill, progress())).Shape());
    const pocketTool = own(own(new oc.BRepPrimAPI_MakeBox_4(own(new oc.gp_Pnt_3(22, 11, 15)), own(new oc.gp_Pnt_3(32, 19, 25)))).Shape());
    return own(new oc.BRepAlgoAPI_Cut_3(drilled, pocketTool, progress())).Shape();
  });
}
