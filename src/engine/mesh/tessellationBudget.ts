import type { TopoDS_Face, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../errors';
import { topAbs, withKernel, type OC, type Own } from '../kernel';

/**
 * The most triangles (as estimated below) a BREP body is tessellated into. A deflection far below
 * anything a part needs (1e-7 mm on a 20 mm sphere: 3.6e8 triangles) ran BRepMesh to the host's deadline;
 * it is refused at once. The bound refuses the absurd, not the merely slow (BRepMesh's time grows
 * faster than its output: a 22 k triangle torus takes 2 s in WASM); the deadline stops those. The
 * hosts' own tests use the bottle at 1e-5 (estimate 2.8e7) as a real kernel hang: a lower bound
 * needs another hang there (docs/deviation.md, "Deflection bound").
 */
export const MAX_TESSELLATION_TRIANGLES = 30_000_000;

/**
 * What a shape's triangle count depends on: a doubly curved face (sphere, torus, cone, free form)
 * takes about `area / (2 sqrt(3) R d)` triangles at deflection d (a chord of sag d on radius R is
 * sqrt(8 R d) long); a cylinder only curves around its axis, so its count grows with 1/sqrt(d);
 * planar faces take a few triangles whatever d is.
 */
export interface TriangleLaw {
  /** Triangles = perInverseDeflection / d + perInverseRootDeflection / sqrt(d). */
  perInverseDeflection: number;
  perInverseRootDeflection: number;
}

export function estimatedTriangles(law: TriangleLaw, deflection: number): number {
  return law.perInverseDeflection / deflection + law.perInverseRootDeflection / Math.sqrt(deflection);
}

/** The deflection at which the estimate equals `max` (a x^2 + b x = max, x = 1 / sqrt(d)). */
export function smallestDeflection(law: TriangleLaw, max: number): number {
  const a = law.perInverseDeflection, b = law.perInverseRootDeflection;
  if (a <= 0 && b <= 0) return 0;
  const x = a > 0 ? (-b + Math.sqrt(b * b + 4 * a * max)) / (2 * a) : max / b;
  return 1 / (x * x);
}

const TWO_ROOT_3 = 2 * Math.sqrt(3);

/** Reads each face's kind, area and size from the kernel (no meshing): cheap beside BRepMesh itself. */
export function triangleLaw(oc: OC, shape: TopoDS_Shape): TriangleLaw {
  return withKernel(oc, (own) => {
    const faces = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, topAbs(oc, 'FACE'), faces);
    const law = { perInverseDeflection: 0, perInverseRootDeflection: 0 };
    const T = oc.GeomAbs_SurfaceType;
    for (let f = 1; f <= faces.Extent(); f++) {
      const face = own(oc.TopoDS.Face_1(own(faces.FindKey(f))));
      const surface = own(new oc.BRepAdaptor_Surface_2(face, false));
      const type = surface.GetType();
      if (type === T.GeomAbs_Plane) continue;
      if (type === T.GeomAbs_Cylinder) {
        // Segments around a full turn: pi / sqrt(2 d / r); two triangles each along the axis.
        const r = own(surface.Cylinder()).Radius();
        law.perInverseRootDeflection += 2 * Math.PI * Math.sqrt(r / 2);
        continue;
      }
      const half = faceDiagonal(oc, own, face) / 2;
      const radius =
        type === T.GeomAbs_Sphere ? own(surface.Sphere()).Radius() : type === T.GeomAbs_Torus ? own(surface.Torus()).MinorRadius() : half;
      const r = Math.min(radius, half);
      if (!(r > 0)) continue;
      law.perInverseDeflection += faceArea(oc, own, face) / (TWO_ROOT_3 * r);
    }
    return law;
  });
}

function faceArea(oc: OC, own: Own, face: TopoDS_Face): number {
  const props = own(new oc.GProp_GProps_1());
  oc.BRepGProp.SurfaceProperties_1(face, props, false, false);
  return Math.abs(props.Mass());
}

function faceDiagonal(oc: OC, own: Own, face: TopoDS_Face): number {
  const box = own(new oc.Bnd_Box_1());
  oc.BRepBndLib.Add(face, box, false);
  if (box.IsVoid()) return 0;
  const lo = own(box.CornerMin()), hi = own(box.CornerMax());
  return Math.hypot(hi.X() - lo.X(), hi.Y() - lo.Y(), hi.Z() - lo.Z());
}

/** INVALID_ARGUMENT before meshing when `deflection` would give more than MAX_TESSELLATION_TRIANGLES. */
export function refuseTooFine(oc: OC, shape: TopoDS_Shape, deflection: number): void {
  const law = triangleLaw(oc, shape);
  const estimate = estimatedTriangles(law, deflection);
  if (!(estimate > MAX_TESSELLATION_TRIANGLES)) return;
  const smallest = smallestDeflection(law, MAX_TESSELLATION_TRIANGLES);
  throw new BrepscopeError(
    'INVALID_ARGUMENT',
    `deflection ${deflection} would tessellate the body into about ${Math.round(estimate).toExponential(1)} triangles, more than the ${MAX_TESSELLATION_TRIANGLES.toLocaleString('en-US')} allowed; use a deflection of at least ${smallest.toExponential(1)}`,
    { deflection, estimatedTriangles: Math.round(estimate), maxTriangles: MAX_TESSELLATION_TRIANGLES, smallestDeflection: Number(smallest.toExponential(1)) },
  );
}
