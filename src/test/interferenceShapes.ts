import type { gp_Pnt, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../engine/kernel';
import { compoundOf, makeBox } from './kernelShapes';

/** Assemblies of separate solids in one compound, and one solid that crosses itself. Each returns a shape the caller owns. */

/** Two 10-cubes side by side, sharing the face x = 10 (not fused: two solids). */
export function makeTouchingBoxes(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => compoundOf(oc, [own(makeBox(oc, 10, 10, 10)), own(makeBox(oc, 10, 10, 10, [10, 0, 0]))]));
}

/** Two 10-cubes overlapping in the 5-cube [5, 10]^3 (volume 125). */
export function makeOverlappingBoxes(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => compoundOf(oc, [own(makeBox(oc, 10, 10, 10)), own(makeBox(oc, 10, 10, 10, [5, 5, 5]))]));
}

/**
 * A prism 5 high over a bow-tie: the quadrilateral (0,0) (4,4) (4,0) (0,4) crosses itself at (2, 2),
 * so two side faces of the one solid cut through each other along the line x = y = 2.
 */
export function makeBowTiePrism(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const pt = (x: number, y: number) => own(new oc.gp_Pnt_3(x, y, 0));
    const wire = own(own(new oc.BRepBuilderAPI_MakePolygon_4(pt(0, 0), pt(4, 4), pt(4, 0), pt(0, 4), true)).Wire());
    const face = own(own(new oc.BRepBuilderAPI_MakeFace_15(wire, true)).Face());
    return own(new oc.BRepPrimAPI_MakePrism_1(face, own(new oc.gp_Vec_4(0, 0, 5)), false, true)).Shape();
  });
}

/** The bracket-with-bolts assembly: what each pair of solids is, by construction. */
export const BRACKET = {
  plate: { size: [60, 40, 10] as const },
  holeRadius: 4,
  /** Bolt shanks through the holes at these (x, y): a slip fit (radius = hole radius), then a press fit. */
  bolts: [
    { at: [15, 20] as const, shankRadius: 4 },
    { at: [45, 20] as const, shankRadius: 4.02 },
  ],
  head: { radius: 7, height: 4 },
  /** The press-fitted shank shares a ring of the plate: pi (4.02^2 - 4^2) x 10. */
  pressFitOverlap: Math.PI * (4.02 ** 2 - 4 ** 2) * 10,
};

/**
 * A 60 x 40 x 10 plate with two holes of radius 4, and two bolts as separate solids: each a shank
 * from z = -5 to 10 fused with a head (radius 7, 4 high) resting on the plate's top face. Bolt 1
 * fills its hole exactly (touch: the hole wall and the top face); bolt 2's shank is 0.02 larger (a
 * press fit: overlap). solid[0] is the plate, solid[1] and solid[2] the bolts.
 */
export function makeBracketWithBolts(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const progress = () => own(new oc.Message_ProgressRange_1());
    const [w, d, t] = BRACKET.plate.size;
    const cylinder = (x: number, y: number, z: number, r: number, h: number) =>
      own(own(new oc.BRepPrimAPI_MakeCylinder_3(own(new oc.gp_Ax2_3(own(new oc.gp_Pnt_3(x, y, z)), own(new oc.gp_Dir_4(0, 0, 1)))), r, h)).Shape());
    let plate = own(makeBox(oc, w, d, t));
    for (const { at } of BRACKET.bolts) plate = own(own(new oc.BRepAlgoAPI_Cut_3(plate, cylinder(at[0], at[1], -5, BRACKET.holeRadius, 20), progress())).Shape());
    const bolts = BRACKET.bolts.map(({ at, shankRadius }) => {
      const shank = cylinder(at[0], at[1], -5, shankRadius, t + 5);
      const head = cylinder(at[0], at[1], t, BRACKET.head.radius, BRACKET.head.height);
      return own(own(new oc.BRepAlgoAPI_Fuse_3(shank, head, progress())).Shape());
    });
    return compoundOf(oc, [plate, ...bolts]);
  });
}

/**
 * A closed, consistently oriented triangle shell around one solid whose faces cross each other: a
 * bipyramid over the triangle of radius 10 at z = 0, with its lower apex at (0, 0, -4) and its other
 * apex pulled through to (7, 0, -6). BRepCheck_Analyzer accepts it (every face, wire and edge is
 * fine on its own); only the self-intersection check (BRepAlgoAPI_Check) finds the crossing faces.
 */
export function makeCrossedBipyramid(oc: OC): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const pt = (x: number, y: number, z: number) => own(new oc.gp_Pnt_3(x, y, z));
    const ring = [0, 1, 2].map((k) => pt(10 * Math.cos((2 * Math.PI * k) / 3), 10 * Math.sin((2 * Math.PI * k) / 3), 0));
    const pulled = pt(7, 0, -6);
    const lower = pt(0, 0, -4);
    const sewing = own(new oc.BRepBuilderAPI_Sewing(1e-6, true, true, true, false));
    const triangle = (a: gp_Pnt, b: gp_Pnt, c: gp_Pnt) => {
      const wire = own(own(new oc.BRepBuilderAPI_MakePolygon_3(a, b, c, true)).Wire());
      sewing.Add(own(own(new oc.BRepBuilderAPI_MakeFace_15(wire, true)).Face()));
    };
    for (let k = 0; k < 3; k++) {
      triangle(ring[k]!, ring[(k + 1) % 3]!, pulled);
      triangle(ring[(k + 1) % 3]!, ring[k]!, lower);
    }
    sewing.Perform(own(new oc.Message_ProgressRange_1()));
    const shell = own(oc.TopoDS.Shell_1(own(sewing.SewedShape())));
    return own(new oc.BRepBuilderAPI_MakeSolid_3(shell)).Solid();
  });
}
