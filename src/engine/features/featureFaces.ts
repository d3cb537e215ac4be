import type { BRepAdaptor_Surface, gp_Pnt, TopoDS_Edge, TopoDS_Face, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { drainList, topAbs, type OC, type Own } from '../kernel';
import { fitCylinder, distanceToAxis } from '../math/fitCylinder';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import { uvBounds } from '../graph/graphSelect';
import { surfaceProbe } from '../graph/surfaceDifferentials';
import { edgeConvexity, faceNormalAt, type Convexity } from '../scene/edgeConvexity';
import { mapEntities } from '../scene/topology';

/**
 * What recognize_features reads of a body: its faces, edges and their adjacency with convexity, and
 * which faces are cylinders, either analytic or any other surface that fits one within tolerance
 * (a B-spline bore exported by a CAD system).
 */

export type SurfaceKind = 'plane' | 'cylinder' | 'other';

export interface FaceGraph {
  faces: TopoDS_Face[];
  edges: TopoDS_Edge[];
  /** Per edge, the distinct faces (indices) it bounds. */
  edgeFaces: number[][];
  /** Per face, its edges (indices). */
  faceEdges: number[][];
  /** Per face, the non-degenerated edges of its outer wire (BRepTools::OuterWire). */
  outerEdges: Set<number>[];
  surfaceType: SurfaceKind[];
  convexity(edge: number, from: number, to: number): Convexity;
}

export function faceGraph(oc: OC, own: Own, shape: TopoDS_Shape): FaceGraph {
  const faceMap = mapEntities(oc, own, shape, 'face');
  const edgeMap = mapEntities(oc, own, shape, 'edge');
  const faces: TopoDS_Face[] = [];
  const surfaceType: SurfaceKind[] = [];
  const outerEdges: Set<number>[] = [];
  for (let i = 1; i <= faceMap.Extent(); i++) {
    const face = own(oc.TopoDS.Face_1(own(faceMap.FindKey(i))));
    faces.push(face);
    const type = own(new oc.BRepAdaptor_Surface_2(face, true)).GetType();
    surfaceType.push(type === oc.GeomAbs_SurfaceType.GeomAbs_Plane ? 'plane' : type === oc.GeomAbs_SurfaceType.GeomAbs_Cylinder ? 'cylinder' : 'other');
    const outer = new Set<number>();
    const wire = own(oc.BRepTools.OuterWire(face));
    if (!wire.IsNull()) {
      for (const explorer = own(new oc.TopExp_Explorer_2(wire, topAbs(oc, 'EDGE'), topAbs(oc, 'SHAPE'))); explorer.More(); explorer.Next()) {
        const edge = own(oc.TopoDS.Edge_1(own(explorer.Current())));
        if (!oc.BRep_Tool.Degenerated(edge)) outer.add(edgeMap.FindIndex(edge) - 1);
      }
    }
    outerEdges.push(outer);
  }
  const ancestors = own(new oc.TopTools_IndexedDataMapOfShapeListOfShape_1());
  oc.TopExp.MapShapesAndAncestors(shape, topAbs(oc, 'EDGE'), topAbs(oc, 'FACE'), ancestors);
  const edges: TopoDS_Edge[] = [];
  const edgeFaces: number[][] = [];
  const faceEdges: number[][] = faces.map(() => []);
  for (let j = 1; j <= edgeMap.Extent(); j++) {
    const edge = own(oc.TopoDS.Edge_1(own(edgeMap.FindKey(j))));
    edges.push(edge);
    const k = ancestors.FindIndex(edge);
    const list = k > 0 ? drainList(own(ancestors.FindFromIndex(k))).map(own) : [];
    const indices = [...new Set(list.map((f) => faceMap.FindIndex(f) - 1))];
    edgeFaces.push(indices);
    for (const f of indices) faceEdges[f]!.push(j - 1);
  }
  const cache = new Map<string, Convexity>();
  return {
    faces,
    edges,
    edgeFaces,
    faceEdges,
    outerEdges,
    surfaceType,
    convexity(edge, from, to) {
      const key = `${edge}:${from}:${to}`;
      let c = cache.get(key);
      if (!c) {
        c = edgeConvexity(oc, own, edges[edge]!, faces[from]!, faces[to]!);
        cache.set(key, c);
      }
      return c;
    },
  };
}

export interface CylinderFace {
  index: number;
  /** A point of the axis; `sMin`/`sMax` are measured from it along `axis`. */
  origin: Vec3;
  axis: Vec3;
  radius: number;
  /** Angle the face turns through about its axis (radians), over its UV bounds. */
  span: number;
  sMin: number;
  sMax: number;
  /** The outward normal points toward the axis: material outside the cylinder (a hole's wall). */
  concave: boolean;
  /** null for an analytic cylinder; else the largest distance of the face from the fitted cylinder. */
  fitDeviation: number | null;
  /** Tolerance the face was matched within (0 for an analytic cylinder): also used to group coaxial faces. */
  tolerance: number;
}

/** Smallest tolerance a face is judged with (Precision::Confusion). */
const MIN_TOLERANCE = 1e-7;
/** UV grid of the least-squares fit, and the denser grid every point of which must then be within tolerance. */
const FIT_GRID = 9;
const CHECK_GRID = 17;
const EDGE_SAMPLES = 16;
const SWEEP_STEPS = 64;

const xyz = (p: { X(): number; Y(): number; Z(): number }): Vec3 => [p.X(), p.Y(), p.Z()];

/** The face as a cylinder: analytic, fitted within its tolerance, or null. */
export function cylinderFace(oc: OC, own: Own, g: FaceGraph, index: number): CylinderFace | null {
  const type = g.surfaceType[index];
  if (type === 'cylinder') return analyticCylinder(oc, own, g.faces[index]!, index);
  if (type === 'other') return fittedCylinder(oc, own, g, index);
  return null;
}

function analyticCylinder(oc: OC, own: Own, face: TopoDS_Face, index: number): CylinderFace {
  const surface = own(new oc.BRepAdaptor_Surface_2(face, true));
  const cylinder = own(surface.Cylinder());
  const ax = own(cylinder.Axis());
  const origin = xyz(own(ax.Location()));
  const axis = xyz(own(ax.Direction()));
  const [u0, u1, v0, v1] = [surface.FirstUParameter(), surface.LastUParameter(), surface.FirstVParameter(), surface.LastVParameter()];
  const um = (u0 + u1) / 2, vm = (v0 + v1) / 2;
  const concave = isConcave(faceNormalAt(oc, own, face, um, vm), xyz(own(surface.Value(um, vm))), origin, axis);
  return { index, origin, axis, radius: cylinder.Radius(), span: u1 - u0, sMin: v0, sMax: v1, concave, fitDeviation: null, tolerance: 0 };
}

function isConcave(normal: Vec3, p: Vec3, origin: Vec3, axis: Vec3): boolean {
  const rel: Vec3 = [p[0] - origin[0], p[1] - origin[1], p[2] - origin[2]];
  const along = dot(rel, axis);
  const radial: Vec3 = [rel[0] - along * axis[0], rel[1] - along * axis[1], rel[2] - along * axis[2]];
  return dot(normal, radial) < 0;
}

/** The largest tolerance the kernel declares for the face or its edges: how far its geometry may be from exact. */
function faceTolerance(oc: OC, g: FaceGraph, index: number): number {
  let tol = Math.max(MIN_TOLERANCE, oc.BRep_Tool.Tolerance_1(g.faces[index]!));
  for (const e of g.faceEdges[index]!) tol = Math.max(tol, oc.BRep_Tool.Tolerance_2(g.edges[e]!));
  return tol;
}

/**
 * A least-squares cylinder through points of the face's surface (a grid over its UV bounds) with their
 * normals, accepted only when every point of a denser grid and of its edges lies within the face's
 * tolerance of it.
 */
function fittedCylinder(oc: OC, own: Own, g: FaceGraph, index: number): CylinderFace | null {
  const face = g.faces[index]!;
  const bounds = uvBounds(oc, face);
  const [u0, u1, v0, v1] = bounds;
  const surface = own(new oc.BRepAdaptor_Surface_2(face, true));
  const P = own(new oc.gp_Pnt_1());
  const grid = (n: number) => {
    const out: [number, number][] = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out.push([u0 + ((u1 - u0) * i) / (n - 1), v0 + ((v1 - v0) * j) / (n - 1)]);
    return out;
  };
  const fitGrid = grid(FIT_GRID);
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const [u, v] of fitGrid) {
    surface.D0(u, v, P);
    xyz(P).forEach((c, k) => {
      lo[k] = Math.min(lo[k]!, c);
      hi[k] = Math.max(hi[k]!, c);
    });
  }
  const orientation = face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED ? -1 : 1;
  const probe = surfaceProbe(oc, own, surface, { uvBounds: bounds, size: Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]), orientation });
  const points: Vec3[] = [], normals: Vec3[] = [];
  for (const [u, v] of fitGrid) {
    const s = probe(u, v);
    if (!s.normal) continue;
    points.push(s.position);
    normals.push(s.normal);
  }
  const fit = fitCylinder(points, normals);
  const tolerance = faceTolerance(oc, g, index);
  if (!fit || fit.maxDeviation > tolerance) return null;

  // Checked everywhere: a denser grid over the face's whole UV box (stricter than its trimmed part), and its edges.
  const check: Vec3[] = [];
  for (const [u, v] of grid(CHECK_GRID)) {
    surface.D0(u, v, P);
    check.push(xyz(P));
  }
  for (const e of g.faceEdges[index]!) {
    const edge = g.edges[e]!;
    if (oc.BRep_Tool.Degenerated(edge)) continue;
    const curve = own(new oc.BRepAdaptor_Curve_2(edge));
    const t0 = curve.FirstParameter(), t1 = curve.LastParameter();
    for (let k = 0; k <= EDGE_SAMPLES; k++) {
      curve.D0(t0 + ((t1 - t0) * k) / EDGE_SAMPLES, P);
      check.push(xyz(P));
    }
  }
  let deviation = fit.maxDeviation;
  for (const p of check) deviation = Math.max(deviation, Math.abs(distanceToAxis(p, fit.origin, fit.axis) - fit.radius));
  if (deviation > tolerance) return null;

  let sMin = Infinity, sMax = -Infinity;
  for (const p of [...points, ...check]) {
    const s = dot([p[0] - fit.origin[0], p[1] - fit.origin[1], p[2] - fit.origin[2]], fit.axis);
    sMin = Math.min(sMin, s);
    sMax = Math.max(sMax, s);
  }
  const middle = points[Math.floor(points.length / 2)]!;
  const concave = isConcave(normals[Math.floor(points.length / 2)]!, middle, fit.origin, fit.axis);
  const span = sweptAngle(surface, P, bounds, fit.origin, fit.axis);
  return { index, origin: fit.origin, axis: fit.axis, radius: fit.radius, span, sMin, sMax, concave, fitDeviation: deviation, tolerance };
}

/**
 * The angle the face turns about the axis over its UV bounds: along whichever parameter line (through
 * the UV centre) moves around the axis rather than along it, summing the unwrapped angle steps.
 */
function sweptAngle(surface: BRepAdaptor_Surface, P: gp_Pnt, [u0, u1, v0, v1]: [number, number, number, number], origin: Vec3, axis: Vec3): number {
  const helper: Vec3 = Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = normalize(cross(axis, helper));
  const e2 = cross(axis, e1);
  const angleAt = (u: number, v: number) => {
    surface.D0(u, v, P);
    const d: Vec3 = [P.X() - origin[0], P.Y() - origin[1], P.Z() - origin[2]];
    return Math.atan2(dot(d, e2), dot(d, e1));
  };
  const sweep = (from: [number, number], to: [number, number]) => {
    let total = 0;
    let prev = angleAt(...from);
    for (let k = 1; k <= SWEEP_STEPS; k++) {
      const t = k / SWEEP_STEPS;
      const a = angleAt(from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t);
      let d = a - prev;
      if (d > Math.PI) d -= 2 * Math.PI;
      else if (d < -Math.PI) d += 2 * Math.PI;
      total += d;
      prev = a;
    }
    return Math.abs(total);
  };
  const um = (u0 + u1) / 2, vm = (v0 + v1) / 2;
  return Math.max(sweep([u0, vm], [u1, vm]), sweep([um, v0], [um, v1]));
}
