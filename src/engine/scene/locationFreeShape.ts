import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../kernel';
import type { SurfaceBody } from './Body';
import { kernelShape } from './facetShape';

/**
 * The body's shape with every location folded into its geometry, for BRepExtrema_DistShapeShape.
 *
 * Why: in our WASM build of OCCT, BRepExtrema_DistShapeShape gets edge-to-face distances wrong when
 * the edge belongs to a located sub-shape (an assembly's placed part). On the CAx-IF AS1 assembly
 * it reports 5e-8 between solids 825.5 apart (a foot point at the origin, on neither solid) and
 * 63.5 where native OCCT 7.6.3 gives 278.9; 14 of the 153 solid pairs were wrong. With the
 * placements folded into the geometry every pair matches native OCCT (src/repro/ has the case).
 *
 * Compounds are rebuilt with each child folded separately, so shared parts stay cheap to copy;
 * a shape whose own location is the identity and whose sub-shapes carry none is used as it is.
 */
export function locationFreeShape(oc: OC, body: SurfaceBody): TopoDS_Shape {
  const held = body.cache.get('locationFreeShape', () => {
    const shape = foldLocations(oc, kernelShape(oc, body));
    return { shape, dispose: () => shape.delete() };
  });
  return held.shape;
}

/** A new shape equal to `shape` with no located sub-shape (the caller deletes it). */
export function foldLocations(oc: OC, shape: TopoDS_Shape): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const compoundType = oc.TopAbs_ShapeEnum.TopAbs_COMPOUND;
    if (shape.ShapeType() === compoundType) {
      const builder = own(new oc.BRep_Builder());
      const out = new oc.TopoDS_Compound();
      builder.MakeCompound(out);
      // Children with their accumulated location and orientation, each folded on its own.
      for (const it = own(new oc.TopoDS_Iterator_2(shape, true, true)); it.More(); it.Next()) {
        builder.Add(out, own(foldLocations(oc, own(it.Value()))));
      }
      return out;
    }
    const location = own(shape.Location_1());
    // A new handle on the same TShape: nothing to fold, nothing copied.
    if (location.IsIdentity() && !hasLocatedPart(oc, shape)) return shape.Located(location, false);
    const bare = own(shape.Located(own(new oc.TopLoc_Location_1()), false));
    const trsf = own(location.Transformation());
    return own(new oc.BRepBuilderAPI_Transform_2(bare, trsf, true)).Shape();
  });
}

function hasLocatedPart(oc: OC, shape: TopoDS_Shape): boolean {
  return withKernel(oc, (own) => {
    for (const it = own(new oc.TopoDS_Iterator_2(shape, false, false)); it.More(); it.Next()) {
      const child = own(it.Value());
      if (!own(child.Location_1()).IsIdentity() || hasLocatedPart(oc, child)) return true;
    }
    return false;
  });
}
