import type { TopoDS_Edge, TopoDS_Face } from 'opencascade.js/dist/opencascade.full';
import { topAbs, type OC, type Own } from '../kernel';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';

export type Convexity = 'convex' | 'concave' | 'smooth';

/** Faces whose normals differ by less than this sine across an edge meet smoothly (tangent). */
export const SMOOTH_SINE = 0.01;

/**
 * How two faces meet along a shared edge, judged at the edge's middle: with n1, n2 the outward
 * normals and t the edge tangent oriented as the edge runs in face 1's boundary (material on the
 * left seen from outside), the edge is convex when (n1 x n2) . t > 0 and concave when < 0.
 */
export function edgeConvexity(oc: OC, own: Own, edge: TopoDS_Edge, face1: TopoDS_Face, face2: TopoDS_Face): Convexity {
  if (oc.BRep_Tool.Degenerated(edge)) return 'smooth';
  const curve = own(new oc.BRepAdaptor_Curve_2(edge));
  const tm = (curve.FirstParameter() + curve.LastParameter()) / 2;
  const p = own(new oc.gp_Pnt_1());
  const d = own(new oc.gp_Vec_1());
  curve.D1(tm, p, d);
  let t: Vec3 = normalize([d.X(), d.Y(), d.Z()]);
  if (edgeReversedIn(oc, own, edge, face1)) t = [-t[0], -t[1], -t[2]];
  const n1 = faceNormalOnEdge(oc, own, face1, edge, tm);
  const n2 = faceNormalOnEdge(oc, own, face2, edge, tm);
  const c = cross(n1, n2);
  if (Math.hypot(...c) < SMOOTH_SINE && dot(n1, n2) > 0) return 'smooth';
  return dot(c, t) > 0 ? 'convex' : 'concave';
}

/** Whether the edge runs reversed in the face's boundary (its orientation there, not its own). */
function edgeReversedIn(oc: OC, own: Own, edge: TopoDS_Edge, face: TopoDS_Face): boolean {
  const explorer = own(new oc.TopExp_Explorer_2(face, topAbs(oc, 'EDGE'), topAbs(oc, 'SHAPE')));
  for (; explorer.More(); explorer.Next()) {
    const e = own(explorer.Current());
    if (e.IsSame(edge)) return e.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED;
  }
  return false;
}

/** The face's outward unit normal at the point of the edge with parameter t (through the edge's pcurve). */
export function faceNormalOnEdge(oc: OC, own: Own, face: TopoDS_Face, edge: TopoDS_Edge, t: number): Vec3 {
  const pcurve = own(new oc.BRepAdaptor_Curve2d_2(edge, face));
  const uv = own(pcurve.Value(t));
  return faceNormalAt(oc, own, face, uv.X(), uv.Y());
}

/** The face's outward unit normal at (u, v): du x dv, flipped for a reversed face. */
export function faceNormalAt(oc: OC, own: Own, face: TopoDS_Face, u: number, v: number): Vec3 {
  const surface = own(new oc.BRepAdaptor_Surface_2(face, true));
  const p = own(new oc.gp_Pnt_1());
  const du = own(new oc.gp_Vec_1());
  const dv = own(new oc.gp_Vec_1());
  surface.D1(u, v, p, du, dv);
  let n = normalize(cross([du.X(), du.Y(), du.Z()], [dv.X(), dv.Y(), dv.Z()]));
  if (face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED) n = [-n[0], -n[1], -n[2]];
  return n;
}
