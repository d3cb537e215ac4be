import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../engine/kernel';

/**
 * Shapes whose parametrisation is singular somewhere (poles, apexes, collapsed B-spline rows and
 * corners), with closed-form normals and curvatures. Each returns a shape the caller owns.
 */

/** Every face of the shape converted to a B-spline (rational where it must be) by BRepBuilderAPI_NurbsConvert. */
export function toNurbs(oc: OC, shape: TopoDS_Shape): TopoDS_Shape {
  return withKernel(oc, (own) => own(new oc.BRepBuilderAPI_NurbsConvert_2(shape, false)).Shape());
}

/**
 * A sphere of radius r centred at the origin as one rational B-spline face: the revolved surface
 * with a collapsed row of poles at each pole (what STEP exporters write for a sphere).
 */
export function makeNurbsSphere(oc: OC, r: number): TopoDS_Shape {
  return withKernel(oc, (own) => toNurbs(oc, own(own(new oc.BRepPrimAPI_MakeSphere_1(r)).Shape())));
}

/** A cone with its apex at the origin, base radius r at height h (z up). */
export function makeApexCone(oc: OC, r: number, h: number): TopoDS_Shape {
  return withKernel(oc, (own) => own(new oc.BRepPrimAPI_MakeCone_1(0, r, h)).Shape());
}

/**
 * One Bezier face of degree (4, 2) on [0, 1]^2 that is exactly the paraboloid z = x^2 + y^2, with
 * x = u^2 + u v and y = v: its first two poles of the v = 0 row coincide, so dS/du vanishes at the
 * corner (0, 0) alone (a collapsed corner, not a collapsed row). At a point (x, y):
 * K = 4 / (1 + 4x^2 + 4y^2)^2 and, against the face's normal (which points up, into the bowl),
 * H = -(2 + 4x^2 + 4y^2) / (1 + 4x^2 + 4y^2)^(3/2); at the corner K = 4, H = -2, normal (0, 0, 1).
 */
export function makeCollapsedCornerPatch(oc: OC): TopoDS_Shape {
  // Monomial coefficients [power of u, power of v, coefficient] per coordinate.
  const x: [number, number, number][] = [[2, 0, 1], [1, 1, 1]];
  const y: [number, number, number][] = [[0, 1, 1]];
  const z: [number, number, number][] = [[4, 0, 1], [3, 1, 2], [2, 2, 1], [0, 2, 1]];
  const nu = 4, nv = 2;
  const binom = (n: number, k: number): number => (k < 0 || k > n ? 0 : k === 0 || k === n ? 1 : binom(n - 1, k - 1) + binom(n - 1, k));
  // u^a = sum_i C(i, a) / C(n, a) B_i^n(u): the Bernstein form of a monomial.
  const pole = (terms: [number, number, number][], i: number, j: number): number =>
    terms.reduce((s, [a, b, c]) => s + (c * binom(i, a) * binom(j, b)) / (binom(nu, a) * binom(nv, b)), 0);
  return withKernel(oc, (own) => {
    const poles = own(new oc.TColgp_Array2OfPnt_2(1, nu + 1, 1, nv + 1));
    for (let i = 0; i <= nu; i++) for (let j = 0; j <= nv; j++) poles.SetValue(i + 1, j + 1, own(new oc.gp_Pnt_3(pole(x, i, j), pole(y, i, j), pole(z, i, j))));
    const surface = own(new oc.Handle_Geom_Surface_2(new oc.Geom_BezierSurface_1(poles)));
    return own(new oc.BRepBuilderAPI_MakeFace_8(surface, 1e-7)).Shape();
  });
}

/** Closed-form curvatures of the collapsed-corner paraboloid at a point of it (see makeCollapsedCornerPatch). */
export function paraboloidCurvatures(p: readonly number[]): { K: number; H: number; normal: [number, number, number] } {
  const [x, y] = [p[0]!, p[1]!];
  const w = 1 + 4 * x * x + 4 * y * y;
  const s = Math.sqrt(w);
  return { K: 4 / (w * w), H: -(2 + 4 * x * x + 4 * y * y) / (w * s), normal: [(-2 * x) / s, (-2 * y) / s, 1 / s] };
}
