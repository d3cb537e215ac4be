import type {
  BRep_Builder,
  Geom2d_Curve,
  gp_Trsf2d,
  Handle_Geom2d_Curve,
  Handle_Geom_Curve,
  Handle_Geom_Surface,
  TopLoc_Location,
  TopoDS_Edge,
  TopoDS_Face,
  TopoDS_Shape,
} from 'opencascade.js/dist/opencascade.full';
import { topAbs, withKernel, type OC, type Own } from '../kernel';
import { mapEntities } from '../scene/topology';

/** Points and lengths agree within this (OCCT's Precision::Confusion). */
const DEDUP_LINEAR_TOLERANCE = 1e-7;
/** Directions agree within this angle in radians (OCCT's Precision::Angular). */
const DEDUP_ANGULAR_TOLERANCE = 1e-12;

export interface DedupResult {
  /** Distinct surface objects the faces use after deduplication. */
  canonicalSurfaces: number;
  /** Distinct 3D curve objects the edges use after deduplication. */
  canonicalCurves: number;
  /** Faces re-pointed to a canonical surface. */
  surfaceRewrites: number;
  /** Edges re-pointed to a canonical curve. */
  curveRewrites: number;
}

type V3 = [number, number, number];

/** A surface or curve in world coordinates: its kind and the numbers that fix its parametrisation. */
interface Descriptor {
  type: string;
  /** Frame origin, X, Y, main direction Z (an indirect frame has Z = -(X x Y)) and the parametrisation's normal X x Y, world coordinates. */
  o: V3;
  x: V3;
  y: V3;
  z: V3;
  n: V3;
  /** Radii, angles. */
  params: number[];
}

const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const xyz = (p: { X(): number; Y(): number; Z(): number }): V3 => [p.X(), p.Y(), p.Z()];
const near = (a: V3, b: V3): boolean => Math.hypot(...sub(a, b)) <= DEDUP_LINEAR_TOLERANCE;
const parallel = (a: V3, b: V3): boolean => dot(a, b) > 0 && Math.hypot(...cross(a, b)) <= DEDUP_ANGULAR_TOLERANCE;
const sameParams = (a: number[], b: number[]): boolean => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]!) <= DEDUP_LINEAR_TOLERANCE);

/**
 * Identical, for graph-dedup: the same geometry with the same parametrisation, so the faces' pcurves
 * stay valid. Planes: coplanar (each origin on the other plane within the linear tolerance) with the
 * same parametric normal X x Y (parallel within the angular tolerance); a plane whose frame differs by
 * an in-plane rigid motion gets its pcurves mapped by that motion, exactly. Cylinders, cones, spheres,
 * tori: the same frame (origin, X, Y, main direction) and radii (and semi-angle). Lines, circles, ellipses: the same
 * origin, axes and radii. Other kinds (B-splines, offsets, sweeps) are left alone; so are coincident
 * curves with different parametrisations (collinear lines with different origins), because sharing
 * those would re-parametrise the edge and all its pcurves.
 */
function identicalSurface(a: Descriptor, b: Descriptor): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'plane') return parallel(a.n, b.n) && Math.abs(dot(sub(b.o, a.o), a.n)) <= DEDUP_LINEAR_TOLERANCE;
  return near(a.o, b.o) && parallel(a.x, b.x) && parallel(a.y, b.y) && parallel(a.z, b.z) && sameParams(a.params, b.params);
}

function identicalCurve(a: Descriptor, b: Descriptor): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'line') return near(a.o, b.o) && parallel(a.x, b.x);
  return near(a.o, b.o) && parallel(a.x, b.x) && parallel(a.y, b.y) && sameParams(a.params, b.params);
}

interface Coords {
  X(): number;
  Y(): number;
  Z(): number;
  delete(): void;
}

function frame(ax: { Location(): Coords; XDirection(): Coords; YDirection(): Coords; Direction(): Coords }, own: Own): Pick<Descriptor, 'o' | 'x' | 'y' | 'z' | 'n'> {
  const o = xyz(own(ax.Location()));
  const x = xyz(own(ax.XDirection()));
  const y = xyz(own(ax.YDirection()));
  return { o, x, y, z: xyz(own(ax.Direction())), n: cross(x, y) };
}

function surfaceDescriptor(oc: OC, own: Own, face: TopoDS_Face): Descriptor | undefined {
  const s = own(new oc.BRepAdaptor_Surface_2(face, false));
  const t = s.GetType();
  const T = oc.GeomAbs_SurfaceType;
  if (t === T.GeomAbs_Plane) return { type: 'plane', ...frame(own(own(s.Plane()).Position()), own), params: [] };
  if (t === T.GeomAbs_Cylinder) {
    const c = own(s.Cylinder());
    return { type: 'cylinder', ...frame(own(c.Position()), own), params: [c.Radius()] };
  }
  if (t === T.GeomAbs_Cone) {
    const c = own(s.Cone());
    return { type: 'cone', ...frame(own(c.Position()), own), params: [c.RefRadius(), c.SemiAngle()] };
  }
  if (t === T.GeomAbs_Sphere) {
    const c = own(s.Sphere());
    return { type: 'sphere', ...frame(own(c.Position()), own), params: [c.Radius()] };
  }
  if (t === T.GeomAbs_Torus) {
    const c = own(s.Torus());
    return { type: 'torus', ...frame(own(c.Position()), own), params: [c.MajorRadius(), c.MinorRadius()] };
  }
  return undefined;
}

function curveDescriptor(oc: OC, own: Own, edge: TopoDS_Edge): Descriptor | undefined {
  const c = own(new oc.BRepAdaptor_Curve_2(edge));
  const t = c.GetType();
  const T = oc.GeomAbs_CurveType;
  if (t === T.GeomAbs_Line) {
    const ax = own(own(c.Line()).Position());
    const d = xyz(own(ax.Direction()));
    return { type: 'line', o: xyz(own(ax.Location())), x: d, y: [0, 0, 0], z: [0, 0, 0], n: [0, 0, 0], params: [] };
  }
  if (t === T.GeomAbs_Circle) {
    const circ = own(c.Circle());
    return { type: 'circle', ...frame(own(circ.Position()), own), params: [circ.Radius()] };
  }
  if (t === T.GeomAbs_Ellipse) {
    const e = own(c.Ellipse());
    return { type: 'ellipse', ...frame(own(e.Position()), own), params: [e.MajorRadius(), e.MinorRadius()] };
  }
  return undefined;
}

/** Identity of a kernel object behind a JS wrapper (embind keeps the C++ pointer in $$.ptr). */
function ptrOf(obj: unknown): number {
  return (obj as { $$?: { ptr?: number } }).$$?.ptr ?? 0;
}

interface SurfaceUse {
  face: TopoDS_Face;
  handle: Handle_Geom_Surface;
  loc: TopLoc_Location;
  desc: Descriptor | undefined;
  /** The map from this face's (u, v) to its canonical surface's; undefined when the identity. */
  trsf?: gp_Trsf2d | undefined;
}

/** One pcurve of an edge as a face uses it, on the canonical surface. */
interface EdgeUse {
  edge: TopoDS_Edge;
  /** The edge's orientation relative to the surface's parametrisation (the face's orientation taken out): picks PCurve or PCurve2 of a closed edge. */
  reversed: boolean;
  pcurve: Handle_Geom2d_Curve;
}

/**
 * Points faces and edges with identical geometry at one shared surface or curve, in place: the
 * caller passes a shape it owns and may modify (graph-dedup reads it fresh from the file).
 */
export function dedupShape(oc: OC, shape: TopoDS_Shape, options: { surfaces?: boolean; curves?: boolean } = {}): DedupResult {
  return withKernel(oc, (own) => {
    const builder = own(new oc.BRep_Builder());
    const faceMap = mapEntities(oc, own, shape, 'face');
    const edgeMap = mapEntities(oc, own, shape, 'edge');
    const surfaceRewrites = options.surfaces === false ? 0 : dedupSurfaces(oc, own, builder, faceMap);
    const curveRewrites = options.curves === false ? 0 : dedupCurves(oc, own, builder, edgeMap);

    const surfaces = new Set<number>();
    for (let i = 1; i <= faceMap.Extent(); i++) {
      const face = own(oc.TopoDS.Face_1(own(faceMap.FindKey(i))));
      const h = own(oc.BRep_Tool.Surface_1(face, own(new oc.TopLoc_Location_1())));
      if (!h.IsNull()) surfaces.add(ptrOf(h.get()));
    }
    const curves = new Set<number>();
    for (let i = 1; i <= edgeMap.Extent(); i++) {
      const edge = own(oc.TopoDS.Edge_1(own(edgeMap.FindKey(i))));
      const h = own(oc.BRep_Tool.Curve_1(edge, own(new oc.TopLoc_Location_1()), { current: 0 } as never, { current: 0 } as never));
      if (!h.IsNull()) curves.add(ptrOf(h.get()));
    }
    return { canonicalSurfaces: surfaces.size, canonicalCurves: curves.size, surfaceRewrites, curveRewrites };
  });
}

function dedupSurfaces(oc: OC, own: Own, builder: BRep_Builder, faceMap: ReturnType<typeof mapEntities>): number {
  // One entry per face TShape: an instanced face (same TShape at two locations) is rewritten once.
  const seenFaces = new Set<number>();
  const uses: SurfaceUse[] = [];
  for (let i = 1; i <= faceMap.Extent(); i++) {
    const face = own(oc.TopoDS.Face_1(own(faceMap.FindKey(i))));
    const id = ptrOf(own(face.TShape_1()).get());
    if (seenFaces.has(id)) continue;
    seenFaces.add(id);
    const loc = own(new oc.TopLoc_Location_1());
    const handle = own(oc.BRep_Tool.Surface_1(face, loc));
    if (handle.IsNull()) continue;
    uses.push({ face, handle, loc, desc: surfaceDescriptor(oc, own, face) });
  }

  // Groups: a canonical surface (the first of its kind, in face order), the faces already on it, and
  // the faces to re-point at it.
  const groups: { canon: SurfaceUse; on: SurfaceUse[]; moved: SurfaceUse[] }[] = [];
  for (const u of uses) {
    if (!u.desc) continue;
    const g = groups.find((k) => identicalSurface(k.canon.desc!, u.desc!));
    if (!g) groups.push({ canon: u, on: [u], moved: [] });
    else if (ptrOf(g.canon.handle.get()) === ptrOf(u.handle.get()) && g.canon.loc.IsEqual(u.loc)) g.on.push(u);
    else {
      u.trsf = planeMap(oc, own, u.desc, g.canon.desc!);
      g.moved.push(u);
    }
  }

  // Everything is read before anything changes: faces that share an old surface also share the
  // edges' representations on it.
  const plans: { canon: SurfaceUse; moved: SurfaceUse[]; edges: Map<number, EdgeUse[]> }[] = [];
  for (const g of groups) {
    if (g.moved.length === 0) continue;
    const edges = new Map<number, EdgeUse[]>();
    const touched = new Set<number>();
    for (const u of g.moved) for (const e of edgeUses(oc, own, u)) touched.add(ptrOf(own(e.edge.TShape_1()).get()));
    for (const u of [...g.on, ...g.moved]) {
      for (const e of edgeUses(oc, own, u)) {
        const key = ptrOf(own(e.edge.TShape_1()).get());
        if (!touched.has(key)) continue;
        if (!edges.has(key)) edges.set(key, []);
        edges.get(key)!.push(e);
      }
    }
    plans.push({ canon: g.canon, moved: g.moved, edges });
  }

  let rewrites = 0;
  const nullPcurve = own(new oc.Handle_Geom2d_Curve_1());
  for (const plan of plans) {
    const { handle, loc } = plan.canon;
    // Per edge on the merged surface: one pcurve, or two (PCurve for its forward use, PCurve2 for
    // its reversed use) where the faces meet it at two places of the parametrisation (u = 0 and
    // u = 2 pi of a cone split in halves). Anything else cannot be expressed: the group stays as it is.
    const updates: { edge: TopoDS_Edge; c1: Handle_Geom2d_Curve; c2: Handle_Geom2d_Curve | undefined }[] = [];
    let feasible = true;
    for (const list of plan.edges.values()) {
      const distinct: EdgeUse[] = [];
      for (const e of list) if (!distinct.some((d) => samePcurve(oc, own, d, e))) distinct.push(e);
      if (distinct.length === 1) updates.push({ edge: distinct[0]!.edge, c1: distinct[0]!.pcurve, c2: undefined });
      else if (distinct.length === 2 && distinct[0]!.reversed !== distinct[1]!.reversed) {
        const [f, r] = distinct[0]!.reversed ? [distinct[1]!, distinct[0]!] : [distinct[0]!, distinct[1]!];
        updates.push({ edge: f.edge, c1: f.pcurve, c2: r.pcurve });
      } else feasible = false;
    }
    if (!feasible) continue;
    for (const u of updates) {
      const tol = oc.BRep_Tool.Tolerance_2(u.edge);
      if (u.c2) builder.UpdateEdge_7(u.edge, u.c1, u.c2, handle, loc, tol);
      else builder.UpdateEdge_5(u.edge, u.c1, handle, loc, tol);
    }
    for (const u of plan.moved) {
      for (const e of edgeUses(oc, own, u)) builder.UpdateEdge_5(e.edge, nullPcurve, u.handle, u.loc, oc.BRep_Tool.Tolerance_2(e.edge));
      builder.UpdateFace_1(u.face, handle, loc, oc.BRep_Tool.Tolerance_1(u.face));
      rewrites++;
    }
  }
  return rewrites;
}

const useCache = new WeakMap<SurfaceUse, EdgeUse[]>();

/** Each edge use of the face (a seam twice) with its pcurve mapped onto the canonical surface. */
function edgeUses(oc: OC, own: Own, u: SurfaceUse): EdgeUse[] {
  const cached = useCache.get(u);
  if (cached) return cached;
  const faceReversed = u.face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED;
  const out: EdgeUse[] = [];
  for (const ex = own(new oc.TopExp_Explorer_2(u.face, topAbs(oc, 'EDGE'), topAbs(oc, 'SHAPE'))); ex.More(); ex.Next()) {
    const edge = own(oc.TopoDS.Edge_1(own(ex.Current())));
    // BRepAdaptor_Curve2d picks the pcurve of this use (BRep_Tool::CurveOnSurface is unbound here).
    const pcurve = own(own(new oc.BRepAdaptor_Curve2d_2(edge, u.face)).Curve());
    if (pcurve.IsNull()) continue;
    const reversed = (edge.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED) !== faceReversed;
    out.push({ edge, reversed, pcurve: u.trsf ? transformed(oc, own, pcurve, u.trsf) : pcurve });
  }
  useCache.set(u, out);
  return out;
}

function transformed(oc: OC, own: Own, h: Handle_Geom2d_Curve, trsf: gp_Trsf2d): Handle_Geom2d_Curve {
  // Copy() is typed as a Geom2d_Geometry; the object is the same kind of curve. get() is a raw pointer the copy's handle owns.
  const copy = own(h.get().Copy()).get() as unknown as Geom2d_Curve;
  const moved = own(new oc.Handle_Geom2d_Curve_2(copy));
  moved.get().Transform(trsf);
  return moved;
}

/** Two pcurves of one edge agree at its ends and middle (in the surface's parameters). */
function samePcurve(oc: OC, own: Own, a: EdgeUse, b: EdgeUse): boolean {
  if (ptrOf(a.pcurve.get()) === ptrOf(b.pcurve.get())) return true;
  const f = { current: 0 }, l = { current: 0 };
  oc.BRep_Tool.Range_1(a.edge, f as never, l as never);
  for (const t of [f.current, (f.current + l.current) / 2, l.current]) {
    const p = own(a.pcurve.get().Value(t));
    const q = own(b.pcurve.get().Value(t));
    if (Math.hypot(p.X() - q.X(), p.Y() - q.Y()) > PCURVE_MATCH) return false;
  }
  return true;
}

/** Pcurves of one edge closer than this everywhere sampled are the same curve (they differ by a period otherwise). */
const PCURVE_MATCH = 1e-9;

/** For two coplanar planes, the map from the first one's (u, v) to the second's; undefined when it is the identity. */
function planeMap(oc: OC, own: Own, from: Descriptor, to: Descriptor): gp_Trsf2d | undefined {
  if (from.type !== 'plane') return undefined;
  const d = sub(from.o, to.o);
  const m = [dot(from.x, to.x), dot(from.y, to.x), dot(d, to.x), dot(from.x, to.y), dot(from.y, to.y), dot(d, to.y)] as const;
  const identity = [1, 0, 0, 0, 1, 0];
  if (m.every((v, i) => Math.abs(v - identity[i]!) <= 1e-15)) return undefined;
  const t = own(new oc.gp_Trsf2d_1());
  t.SetValues(...m);
  return t;
}

function dedupCurves(oc: OC, own: Own, builder: BRep_Builder, edgeMap: ReturnType<typeof mapEntities>): number {
  const seen = new Set<number>();
  const canon: { desc: Descriptor; handle: Handle_Geom_Curve; loc: TopLoc_Location }[] = [];
  let rewrites = 0;
  for (let i = 1; i <= edgeMap.Extent(); i++) {
    const edge = own(oc.TopoDS.Edge_1(own(edgeMap.FindKey(i))));
    const id = ptrOf(own(edge.TShape_1()).get());
    if (seen.has(id) || oc.BRep_Tool.Degenerated(edge)) continue;
    seen.add(id);
    const loc = own(new oc.TopLoc_Location_1());
    const handle = own(oc.BRep_Tool.Curve_1(edge, loc, { current: 0 } as never, { current: 0 } as never));
    if (handle.IsNull()) continue;
    const desc = curveDescriptor(oc, own, edge);
    if (!desc) continue;
    const c = canon.find((k) => identicalCurve(k.desc, desc));
    if (!c) {
      canon.push({ desc, handle, loc });
      continue;
    }
    if (ptrOf(c.handle.get()) === ptrOf(handle.get())) continue;
    builder.UpdateEdge_2(edge, c.handle, c.loc, oc.BRep_Tool.Tolerance_2(edge));
    rewrites++;
  }
  return rewrites;
}
