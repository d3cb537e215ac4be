import type { Handle_Geom_Curve, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC, type Own } from '../engine/kernel';
import { takeKernelFile, uniqueKernelPath } from '../engine/scene/import/kernelFile';

/** Kernel-made shapes with closed-form answers, for tests. Each returns a shape the caller owns. */

export function makeBox(oc: OC, dx: number, dy: number, dz: number, origin: [number, number, number] = [0, 0, 0]): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const p = own(new oc.gp_Pnt_3(...origin));
    return own(new oc.BRepPrimAPI_MakeBox_3(p, dx, dy, dz)).Shape();
  });
}

/** Cylinder of radius r and height h on the z axis, base at z = z0. */
export function makeCylinder(oc: OC, r: number, h: number, z0 = 0): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(0, 0, z0)), own(new oc.gp_Dir_4(0, 0, 1))));
    return own(new oc.BRepPrimAPI_MakeCylinder_3(axes, r, h)).Shape();
  });
}

export function makeSphere(oc: OC, r: number): TopoDS_Shape {
  return withKernel(oc, (own) => own(new oc.BRepPrimAPI_MakeSphere_1(r)).Shape());
}

/** A 40 x 30 x 20 block with a vertical through-hole of radius r at (xc, yc). */
export function makeDrilledBlock(oc: OC, r: number, xc = 20, yc = 15): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const block = own(makeBox(oc, 40, 30, 20));
    const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(xc, yc, -5)), own(new oc.gp_Dir_4(0, 0, 1))));
    const tool = own(own(new oc.BRepPrimAPI_MakeCylinder_3(axes, r, 30)).Shape());
    const cut = own(new oc.BRepAlgoAPI_Cut_3(block, tool, own(new oc.Message_ProgressRange_1())));
    return cut.Shape();
  });
}

/** `shape` (consumed) with vertical through-holes of radius r at (x, y), from z = -5 to 25. */
export function drillHoles(oc: OC, shape: TopoDS_Shape, holes: readonly (readonly [number, number])[], r: number): TopoDS_Shape {
  for (const [x, y] of holes) {
    const next = withKernel(oc, (own) => {
      const axes = own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, -5)), own(new oc.gp_Dir_4(0, 0, 1))));
      const tool = own(own(new oc.BRepPrimAPI_MakeCylinder_3(axes, r, 30)).Shape());
      return own(new oc.BRepAlgoAPI_Cut_3(shape, tool, own(new oc.Message_ProgressRange_1()))).Shape();
    });
    shape.delete();
    shape = next;
  }
  return shape;
}

/** The faces of a shape gathered into a new shell (or a solid around it), leaving out the face indices in `drop`. */
export function shellWithout(oc: OC, shape: TopoDS_Shape, drop: number[], asSolid: boolean): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const faces = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, oc.TopAbs_ShapeEnum.TopAbs_FACE as never, faces);
    const builder = own(new oc.BRep_Builder());
    const shell = new oc.TopoDS_Shell();
    builder.MakeShell(shell);
    for (let i = 1; i <= faces.Extent(); i++) if (!drop.includes(i - 1)) builder.Add(shell, own(faces.FindKey(i)));
    if (!asSolid) return shell;
    own(shell);
    const solid = new oc.TopoDS_Solid();
    builder.MakeSolid(solid);
    builder.Add(solid, shell);
    return solid;
  });
}

/** A compound of the given shapes (not fused: overlapping members stay overlapping). */
export function compoundOf(oc: OC, shapes: TopoDS_Shape[]): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const builder = own(new oc.BRep_Builder());
    const compound = new oc.TopoDS_Compound();
    builder.MakeCompound(compound);
    for (const s of shapes) builder.Add(compound, s);
    return compound;
  });
}

/** A Bezier curve through the given poles (a cubic for four poles). */
function bezierCurve(oc: OC, own: Own, poles: [number, number, number][]): Handle_Geom_Curve {
  const array = new oc.TColgp_Array1OfPnt_2(1, poles.length);
  own(array);
  poles.forEach((p, i) => array.SetValue(i + 1, own(new oc.gp_Pnt_3(...p)) as never));
  return new oc.Handle_Geom_Curve_2(new oc.Geom_BezierCurve_1(array));
}

/**
 * Three freeform faces whose surfaces the JS evaluator reads in swept form or leaves to the kernel,
 * in one compound: a surface of revolution (a cubic Bezier generatrix turned 270 degrees about z),
 * a linear extrusion (a cubic Bezier swept along (0, 2, 15)), and an offset surface (2 off a
 * revolution surface); the compound is moved by a rotation and a translation (a located shape).
 */
export function makeFreeformFaces(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const profile = own(bezierCurve(oc, own, [[10, 0, 0], [14, 0, 10], [9, 0, 20], [12, 0, 30]]));
    const edge = own(own(new oc.BRepBuilderAPI_MakeEdge_24(profile)).Edge());
    const zAxis = own(new oc.gp_Ax1_2(own(new oc.gp_Pnt_3(0, 0, 0)), own(new oc.gp_Dir_4(0, 0, 1))));
    const revolved = own(own(new oc.BRepPrimAPI_MakeRevol_1(edge, zAxis, 1.5 * Math.PI, false)).Shape());
    const path = own(bezierCurve(oc, own, [[40, 0, 0], [50, 8, 0], [60, -5, 0], [70, 3, 0]]));
    const pathEdge = own(own(new oc.BRepBuilderAPI_MakeEdge_24(path)).Edge());
    const prism = own(own(new oc.BRepPrimAPI_MakePrism_1(pathEdge, own(new oc.gp_Vec_4(0, 2, 15)), false, true)).Shape());
    const revSurface = new oc.Geom_SurfaceOfRevolution(profile, zAxis);
    const basis = own(new oc.Handle_Geom_Surface_2(revSurface));
    const offset = own(new oc.Handle_Geom_Surface_2(new oc.Geom_OffsetSurface(basis, 2, false)));
    const offsetFace = own(own(new oc.BRepBuilderAPI_MakeFace_14(offset, 0, Math.PI, 0, 1, 1e-7)).Face());
    const moved = own(new oc.gp_Trsf_1());
    moved.SetRotation_1(own(new oc.gp_Ax1_2(own(new oc.gp_Pnt_3(5, -3, 2)), own(new oc.gp_Dir_4(1, 1, 0.5)))), 0.7);
    moved.SetTranslationPart(own(new oc.gp_Vec_4(-20, 15, 30)));
    const compound = own(compoundOf(oc, [revolved, prism, offsetFace]));
    const loc = own(new oc.TopLoc_Location_2(moved));
    return compound.Moved(loc, false);
  });
}

/** A shape as OCCT BREP text (what import_file reads), freeing the shape. */
export function brepBytes(oc: OC, shape: TopoDS_Shape): Uint8Array {
  try {
    const path = uniqueKernelPath('brep');
    if (!withKernel(oc, (own) => oc.BRepTools.Write_3(shape, path, own(new oc.Message_ProgressRange_1())))) throw new Error('BRepTools.Write failed');
    return takeKernelFile(oc, path);
  } finally {
    shape.delete();
  }
}

/**
 * A prism 3 high over a closed polygon of `n` points on a figure eight (x = 10 sin 2t, y = 10 sin t):
 * the polygon crosses itself at the origin, so two side faces cut through each other there; n + 2
 * faces in all.
 */
export function figureEightPrism(oc: OC, n: number): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const polygon = own(new oc.BRepBuilderAPI_MakePolygon_1());
    // Offset by half a step so no corner falls on the crossing point.
    for (let k = 0; k < n; k++) {
      const t = (2 * Math.PI * (k + 0.5)) / n;
      polygon.Add_1(own(new oc.gp_Pnt_3(10 * Math.sin(2 * t), 10 * Math.sin(t), 0)));
    }
    polygon.Close();
    const face = own(own(new oc.BRepBuilderAPI_MakeFace_15(own(polygon.Wire()), true)).Face());
    return own(new oc.BRepPrimAPI_MakePrism_1(face, own(new oc.gp_Vec_4(0, 0, 3)), false, true)).Shape();
  });
}
