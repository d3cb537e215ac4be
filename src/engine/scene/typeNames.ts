import { isShapeKind, type OC, type ShapeKind } from '../kernel';

/** The names results use for OCCT's shape, surface and curve types (one table for every tool and command). */

/** COMPOUND, SOLID, SHELL ... for a TopAbs_ShapeEnum value. */
export function shapeTypeName(oc: OC, type: unknown): string {
  const kinds: ShapeKind[] = ['COMPOUND', 'COMPSOLID', 'SOLID', 'SHELL', 'FACE', 'WIRE', 'EDGE', 'VERTEX'];
  return kinds.find((k) => isShapeKind(oc, type, k)) ?? 'SHAPE';
}

export function surfaceTypeName(oc: OC, type: unknown): string {
  const t = oc.GeomAbs_SurfaceType;
  const table: [unknown, string][] = [
    [t.GeomAbs_Plane, 'plane'],
    [t.GeomAbs_Cylinder, 'cylinder'],
    [t.GeomAbs_Cone, 'cone'],
    [t.GeomAbs_Sphere, 'sphere'],
    [t.GeomAbs_Torus, 'torus'],
    [t.GeomAbs_BezierSurface, 'bezier'],
    [t.GeomAbs_BSplineSurface, 'bspline'],
    [t.GeomAbs_SurfaceOfRevolution, 'revolution'],
    [t.GeomAbs_SurfaceOfExtrusion, 'extrusion'],
    [t.GeomAbs_OffsetSurface, 'offset'],
  ];
  return table.find(([v]) => v === type)?.[1] ?? 'other';
}

export function curveTypeName(oc: OC, type: unknown): string {
  const t = oc.GeomAbs_CurveType;
  const table: [unknown, string][] = [
    [t.GeomAbs_Line, 'LINE'],
    [t.GeomAbs_Circle, 'CIRCULAR'],
    [t.GeomAbs_Ellipse, 'ELLIPSE'],
    [t.GeomAbs_Hyperbola, 'HYPERBOLA'],
    [t.GeomAbs_Parabola, 'PARABOLA'],
    [t.GeomAbs_BezierCurve, 'BEZIER'],
    [t.GeomAbs_BSplineCurve, 'BSPLINE'],
    [t.GeomAbs_OffsetCurve, 'OFFSET'],
  ];
  return table.find(([v]) => v === type)?.[1] ?? 'OTHER';
}
