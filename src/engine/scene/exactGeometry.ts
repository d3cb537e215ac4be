import type {
  Adaptor3d_Curve,
  BRepAdaptor_Curve2d,
  BRepAdaptor_Surface,
  Geom_BSplineSurface,
  Geom_BezierSurface,
  gp_Ax22d,
  gp_Ax2,
  gp_Ax3,
  gp_Pnt,
  gp_Vec,
  TopoDS_Face,
  TopoDS_Shape,
} from 'opencascade.js/dist/opencascade.full';
import { evaluateCurve, type Curve } from '../exact/curves';
import { TRIM_TOLERANCE_RATIO, type ExactEdge, type ExactFace, type ExactGeometry } from '../exact/geometry';
import type { NurbsCurve, NurbsSurface } from '../exact/nurbs';
import { evaluateSurface, type KernelSurfaces, type Surface } from '../exact/surfaces';
import { buildTrim } from '../exact/trim';
import { topAbs, withKernel, type Deletable, type OC, type Own } from '../kernel';
import { mapEntities } from './topology';

/**
 * Reads a shape's faces, edges and vertices into plain data (ExactGeometry), once per body:
 * surfaces and curves with their kernel parameterization, trims as dense pcurve polygons, edge
 * polylines and adjacency. Afterwards distance queries run in JS; only faces whose surface has no
 * JS form (offset surfaces, surfaces of revolution or extrusion, ...) keep a kernel adaptor, in
 * `kernelSurfaces`, which the caller frees with `delete()`.
 */
export function extractExactGeometry(oc: OC, shape: TopoDS_Shape): { geometry: ExactGeometry; kernelSurfaces: KernelFaceSurfaces | null } {
  const kernelSurfaces = new KernelFaceSurfaces();
  try {
    const geometry = withKernel(oc, (own) => {
      const diagonal = shapeDiagonalOf(oc, own, shape);
      const tolerance = Math.max(TRIM_TOLERANCE_RATIO * diagonal, 1e-12);
      const vertexMap = mapEntities(oc, own, shape, 'vertex');
      const edgeMap = mapEntities(oc, own, shape, 'edge');
      const faceMap = mapEntities(oc, own, shape, 'face');

      const vertices = new Float64Array(3 * vertexMap.Extent());
      for (let i = 1; i <= vertexMap.Extent(); i++) {
        const p = own(oc.BRep_Tool.Pnt(own(oc.TopoDS.Vertex_1(own(vertexMap.FindKey(i))))));
        vertices.set([p.X(), p.Y(), p.Z()], 3 * (i - 1));
      }

      const edges: (ExactEdge | null)[] = [];
      for (let i = 1; i <= edgeMap.Extent(); i++) edges.push(readEdge(oc, own, oc.TopoDS.Edge_1(own(edgeMap.FindKey(i))), vertexMap, vertices, tolerance, diagonal));

      const faces: ExactFace[] = [];
      for (let f = 1; f <= faceMap.Extent(); f++) {
        const face = own(oc.TopoDS.Face_1(own(faceMap.FindKey(f))));
        faces.push(readFace(oc, own, face, f - 1, edgeMap, edges, tolerance, kernelSurfaces));
      }
      // Degenerate edges have no curve to measure; a placeholder keeps edge[N] at index N.
      const placeholder: ExactEdge = { curve: { kind: 'line', dim: 3, axes: new Float64Array(6) }, t0: 0, t1: 0, params: new Float64Array(0), points: new Float64Array(0), sag: 0, box: Float64Array.of(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity), v0: -1, v1: -1, faces: new Int32Array(0), pcurves: [] };
      return { faces, edges: edges.map((e) => e ?? placeholder), vertices, diagonal, tolerance } satisfies ExactGeometry;
    });
    if (kernelSurfaces.count === 0) {
      kernelSurfaces.delete();
      return { geometry, kernelSurfaces: null };
    }
    return { geometry, kernelSurfaces };
  } catch (e) {
    kernelSurfaces.delete();
    throw e;
  }
}

function shapeDiagonalOf(oc: OC, own: Own, shape: TopoDS_Shape): number {
  const box = own(new oc.Bnd_Box_1());
  oc.BRepBndLib.Add(shape, box, false);
  if (box.IsVoid()) return 0;
  box.SetGap(0);
  const lo = own(box.CornerMin()), hi = own(box.CornerMax());
  return Math.hypot(hi.X() - lo.X(), hi.Y() - lo.Y(), hi.Z() - lo.Z());
}

/**
 * Kernel adaptors of the faces whose surface has no JS form, evaluated through embind (a few
 * microseconds a call: fine for the rare surface types that need it).
 */
export class KernelFaceSurfaces implements KernelSurfaces {
  private readonly adaptors: BRepAdaptor_Surface[] = [];
  private readonly owned: Deletable[] = [];
  private scratch: { P: gp_Pnt; D1U: gp_Vec; D1V: gp_Vec; D2U: gp_Vec; D2V: gp_Vec; D2UV: gp_Vec } | null = null;

  get count(): number {
    return this.adaptors.length;
  }

  /** Keeps a copy of the face and its adaptor; returns the id `kernel` surfaces carry. */
  add(oc: OC, face: TopoDS_Face): number {
    const kept = oc.TopoDS.Face_1(face);
    this.owned.push(kept);
    const adaptor = new oc.BRepAdaptor_Surface_2(kept, true);
    this.owned.push(adaptor);
    this.adaptors.push(adaptor);
    if (!this.scratch) {
      this.scratch = { P: new oc.gp_Pnt_1(), D1U: new oc.gp_Vec_1(), D1V: new oc.gp_Vec_1(), D2U: new oc.gp_Vec_1(), D2V: new oc.gp_Vec_1(), D2UV: new oc.gp_Vec_1() };
      this.owned.push(...Object.values(this.scratch));
    }
    return this.adaptors.length - 1;
  }

  evaluate(id: number, u: number, v: number, out: Float64Array): void {
    const s = this.scratch!;
    this.adaptors[id]!.D2(u, v, s.P, s.D1U, s.D1V, s.D2U, s.D2V, s.D2UV);
    const vecs = [s.P, s.D1U, s.D1V, s.D2U, s.D2UV, s.D2V] as const;
    for (let k = 0; k < 6; k++) {
      const x = vecs[k]!;
      out[3 * k] = x.X();
      out[3 * k + 1] = x.Y();
      out[3 * k + 2] = x.Z();
    }
  }

  delete(): void {
    for (let i = this.owned.length - 1; i >= 0; i--) this.owned[i]!.delete();
    this.owned.length = 0;
    this.adaptors.length = 0;
    this.scratch = null;
  }
}

// --- faces ---

function readFace(oc: OC, own: Own, face: TopoDS_Face, index: number, edgeMap: ReturnType<typeof mapEntities>, edges: (ExactEdge | null)[], tolerance: number, kernel: KernelFaceSurfaces): ExactFace {
  const adaptor = own(new oc.BRepAdaptor_Surface_2(face, true));
  const { surface, uPeriod, vPeriod, box } = readSurface(oc, own, adaptor, face, kernel);
  const reversed = face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED;

  // Every edge occurrence of the face, with its orientation: a seam shows up twice, once per pcurve.
  const segments: number[] = [];
  // Per pcurve, the index of its first and one past its last segment, to close the loops afterwards.
  const pieces: number[] = [];
  const faceEdges = new Set<number>();
  const explorer = own(new oc.TopExp_Explorer_2(face, topAbs(oc, 'EDGE'), topAbs(oc, 'SHAPE')));
  for (; explorer.More(); explorer.Next()) {
    const edge = own(oc.TopoDS.Edge_1(own(explorer.Current())));
    const e = edgeMap.FindIndex(edge) - 1;
    const pc = own(new oc.BRepAdaptor_Curve2d_2(edge, face));
    const t0 = pc.FirstParameter(), t1 = pc.LastParameter();
    const curve = readCurve(oc, own, pc, 2, t0, t1, tolerance);
    const first = segments.length / 4;
    samplePcurve(curve, t0, t1, surface, tolerance, segments, kernel);
    pieces.push(first, segments.length / 4);
    const exact = edges[e];
    if (exact) {
      faceEdges.add(e);
      exact.faces = Int32Array.from([...exact.faces, index]);
      exact.pcurves.push(curve);
    }
  }
  closeLoops(segments, pieces);
  const trim = buildTrim(Float64Array.from(segments));
  let faceBox = box;
  if (surface.kind === 'kernel' && trim) {
    // Only the face's own parameter range is known to evaluate; a margin lets Newton reach the boundary.
    const mu = 0.05 * (trim.uMax - trim.uMin), mv = 0.05 * (trim.vMax - trim.vMin);
    faceBox = { u0: trim.uMin - mu, u1: trim.uMax + mu, v0: trim.vMin - mv, v1: trim.vMax + mv };
  }
  return { surface, reversed, box: faceBox, uPeriod, vPeriod, trim, edges: Int32Array.from([...faceEdges].sort((a, b) => a - b)) };
}

/**
 * Makes pcurve ends that meet (within a millionth of the face's parameter range) meet exactly.
 * Consecutive pcurves of a wire end at the same vertex only within tolerance; a horizontal ray
 * through such a gap would cross the loop once instead of twice or not at all, and the even-odd
 * test would leak (a symmetric part puts many feet exactly on that line).
 */
function closeLoops(segments: number[], pieces: number[]): void {
  const ends: number[] = []; // segment coordinate offsets of every pcurve's start and end point
  for (let k = 0; k < pieces.length; k += 2) {
    if (pieces[k + 1]! <= pieces[k]!) continue;
    ends.push(4 * pieces[k]!, 4 * (pieces[k + 1]! - 1) + 2);
  }
  let uMin = Infinity, uMax = -Infinity, vMin = Infinity, vMax = -Infinity;
  for (const o of ends) {
    uMin = Math.min(uMin, segments[o]!);
    uMax = Math.max(uMax, segments[o]!);
    vMin = Math.min(vMin, segments[o + 1]!);
    vMax = Math.max(vMax, segments[o + 1]!);
  }
  const tol = 1e-6 * Math.hypot(uMax - uMin, vMax - vMin);
  const parent = ends.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (let i = 0; i < ends.length; i++) {
    for (let j = i + 1; j < ends.length; j++) {
      const a = ends[i]!, b = ends[j]!;
      if (Math.abs(segments[a]! - segments[b]!) <= tol && Math.abs(segments[a + 1]! - segments[b + 1]!) <= tol) parent[root(i)] = root(j);
    }
  }
  const sum = new Map<number, [number, number, number]>();
  for (let i = 0; i < ends.length; i++) {
    const r = root(i), o = ends[i]!;
    const acc = sum.get(r) ?? [0, 0, 0];
    acc[0] += segments[o]!;
    acc[1] += segments[o + 1]!;
    acc[2]++;
    sum.set(r, acc);
  }
  for (let i = 0; i < ends.length; i++) {
    const acc = sum.get(root(i))!, o = ends[i]!;
    segments[o] = acc[0] / acc[2];
    segments[o + 1] = acc[1] / acc[2];
  }
}

const INF_BOX = { u0: -Infinity, u1: Infinity, v0: -Infinity, v1: Infinity };
const TWO_PI = 2 * Math.PI;

function readSurface(oc: OC, own: Own, adaptor: BRepAdaptor_Surface, face: TopoDS_Face, kernel: KernelFaceSurfaces): { surface: Surface; uPeriod: number; vPeriod: number; box: typeof INF_BOX } {
  try {
    const read = readJsSurface(oc, own, adaptor);
    if (read) return read;
  } catch {
    // A surface the adaptor cannot hand out in JS form: the kernel evaluates it.
  }
  const id = kernel.add(oc, face);
  return { surface: { kind: 'kernel', id }, uPeriod: adaptor.IsUPeriodic() ? adaptor.UPeriod() : 0, vPeriod: adaptor.IsVPeriodic() ? adaptor.VPeriod() : 0, box: INF_BOX };
}

/** The face's surface in JS form, or null for a type without one. */
function readJsSurface(oc: OC, own: Own, adaptor: BRepAdaptor_Surface): { surface: Surface; uPeriod: number; vPeriod: number; box: typeof INF_BOX } | null {
  const T = oc.GeomAbs_SurfaceType;
  const type = adaptor.GetType();
  switch (type) {
    case T.GeomAbs_Plane:
      return { surface: { kind: 'plane', frame: frameOf(own, own(own(adaptor.Plane()).Position())) }, uPeriod: 0, vPeriod: 0, box: INF_BOX };
    case T.GeomAbs_Cylinder: {
      const c = own(adaptor.Cylinder());
      return { surface: { kind: 'cylinder', frame: frameOf(own, own(c.Position())), radius: c.Radius() }, uPeriod: TWO_PI, vPeriod: 0, box: INF_BOX };
    }
    case T.GeomAbs_Cone: {
      const c = own(adaptor.Cone());
      return { surface: { kind: 'cone', frame: frameOf(own, own(c.Position())), radius: c.RefRadius(), semiAngle: c.SemiAngle() }, uPeriod: TWO_PI, vPeriod: 0, box: INF_BOX };
    }
    case T.GeomAbs_Sphere: {
      const s = own(adaptor.Sphere());
      return { surface: { kind: 'sphere', frame: frameOf(own, own(s.Position())), radius: s.Radius() }, uPeriod: TWO_PI, vPeriod: 0, box: { u0: -Infinity, u1: Infinity, v0: -Math.PI / 2, v1: Math.PI / 2 } };
    }
    case T.GeomAbs_Torus: {
      const t = own(adaptor.Torus());
      return { surface: { kind: 'torus', frame: frameOf(own, own(t.Position())), major: t.MajorRadius(), minor: t.MinorRadius() }, uPeriod: TWO_PI, vPeriod: TWO_PI, box: INF_BOX };
    }
    case T.GeomAbs_BSplineSurface: {
      const s = readBSplineSurface(oc, own, own(adaptor.BSpline()).get());
      return { surface: s, uPeriod: s.uPeriod, vPeriod: s.vPeriod, box: nurbsBox(s) };
    }
    case T.GeomAbs_BezierSurface: {
      const s = readBezierSurface(own(adaptor.Bezier()).get());
      return { surface: s, uPeriod: 0, vPeriod: 0, box: nurbsBox(s) };
    }
    case T.GeomAbs_SurfaceOfRevolution:
    case T.GeomAbs_SurfaceOfExtrusion: {
      // Swept surfaces with a basis curve the JS evaluator knows exactly (never a sampled polyline).
      const basis = own(adaptor.BasisCurve()).get();
      const curve = readCurve(oc, own, basis, 3, basis.FirstParameter(), basis.LastParameter(), 0);
      if (curve.kind === 'polyline') return null;
      const cPeriod = basis.IsPeriodic() ? basis.Period() : 0;
      if (type === T.GeomAbs_SurfaceOfRevolution) {
        const ax = own(adaptor.AxeOfRevolution());
        const o = own(ax.Location()), d = own(ax.Direction());
        return { surface: { kind: 'revolution', curve, axis: Float64Array.of(o.X(), o.Y(), o.Z(), d.X(), d.Y(), d.Z()) }, uPeriod: TWO_PI, vPeriod: cPeriod, box: { u0: -Infinity, u1: Infinity, v0: cPeriod ? -Infinity : basis.FirstParameter(), v1: cPeriod ? Infinity : basis.LastParameter() } };
      }
      const d = own(adaptor.Direction());
      return { surface: { kind: 'extrusion', curve, direction: Float64Array.of(d.X(), d.Y(), d.Z()) }, uPeriod: cPeriod, vPeriod: 0, box: { u0: cPeriod ? -Infinity : basis.FirstParameter(), u1: cPeriod ? Infinity : basis.LastParameter(), v0: -Infinity, v1: Infinity } };
    }
    default:
      return null;
  }
}

function nurbsBox(s: NurbsSurface): typeof INF_BOX {
  return {
    u0: s.uPeriod > 0 ? -Infinity : s.uKnots[s.uDegree]!,
    u1: s.uPeriod > 0 ? Infinity : s.uKnots[s.nu]!,
    v0: s.vPeriod > 0 ? -Infinity : s.vKnots[s.vDegree]!,
    v1: s.vPeriod > 0 ? Infinity : s.vKnots[s.nv]!,
  };
}

/** origin, x, y, z directions of an axis placement. */
function frameOf(own: Own, ax: gp_Ax3 | gp_Ax2): Float64Array {
  const o = own(ax.Location()), x = own(ax.XDirection()), y = own(ax.YDirection()), z = own(ax.Direction());
  return Float64Array.of(o.X(), o.Y(), o.Z(), x.X(), x.Y(), x.Z(), y.X(), y.Y(), y.Z(), z.X(), z.Y(), z.Z());
}

function readBSplineSurface(oc: OC, own: Own, source: Geom_BSplineSurface): NurbsSurface {
  let bs = source;
  const uPeriodic = bs.IsUPeriodic(), vPeriodic = bs.IsVPeriodic();
  let uPeriod = 0, vPeriod = 0;
  if (uPeriodic || vPeriodic) {
    // The evaluator reads non-periodic knots; convert a copy (never the body's own surface), same parameterization.
    const copy = own(new oc.Handle_Geom_BSplineSurface_2(own(bs.Copy()).get() as unknown as Geom_BSplineSurface)).get();
    if (uPeriodic) {
      uPeriod = copy.UPeriod();
      copy.SetUNotPeriodic();
    }
    if (vPeriodic) {
      vPeriod = copy.VPeriod();
      copy.SetVNotPeriodic();
    }
    bs = copy;
  }
  return {
    kind: 'nurbs',
    uDegree: bs.UDegree(),
    vDegree: bs.VDegree(),
    uKnots: flatKnots(own(bs.UKnotSequence_2())),
    vKnots: flatKnots(own(bs.VKnotSequence_2())),
    ...surfacePoles(bs),
    uPeriod,
    vPeriod,
  };
}

function readBezierSurface(bz: Geom_BezierSurface): NurbsSurface {
  const nu = bz.NbUPoles(), nv = bz.NbVPoles();
  return { kind: 'nurbs', uDegree: nu - 1, vDegree: nv - 1, uKnots: bezierKnots(nu - 1), vKnots: bezierKnots(nv - 1), ...surfacePoles(bz), uPeriod: 0, vPeriod: 0 };
}

/** Poles u-major (x y z each) and weights (null when polynomial) of a spline or Bezier surface. */
function surfacePoles(s: Geom_BSplineSurface | Geom_BezierSurface): { nu: number; nv: number; poles: Float64Array; weights: Float64Array | null } {
  const nu = s.NbUPoles(), nv = s.NbVPoles();
  const poles = new Float64Array(3 * nu * nv);
  const weights = s.IsURational() || s.IsVRational() ? new Float64Array(nu * nv) : null;
  for (let i = 1; i <= nu; i++) {
    for (let j = 1; j <= nv; j++) {
      const p = s.Pole(i, j);
      const o = (i - 1) * nv + (j - 1);
      poles[3 * o] = p.X();
      poles[3 * o + 1] = p.Y();
      poles[3 * o + 2] = p.Z();
      p.delete();
      if (weights) weights[o] = s.Weight(i, j);
    }
  }
  return { nu, nv, poles, weights };
}

function bezierKnots(degree: number): Float64Array {
  const k = new Float64Array(2 * degree + 2);
  k.fill(1, degree + 1);
  return k;
}

function flatKnots(seq: { Lower(): number; Upper(): number; Value(i: number): number }): Float64Array {
  const out = new Float64Array(seq.Upper() - seq.Lower() + 1);
  for (let i = seq.Lower(); i <= seq.Upper(); i++) out[i - seq.Lower()] = seq.Value(i);
  return out;
}

// --- curves ---

/** What readCurve needs of a 2D or 3D curve adaptor (BRepAdaptor_Curve2d, Adaptor3d_Curve). */
interface PointLike extends Deletable {
  X(): number;
  Y(): number;
  Z?(): number;
}
interface ConicLike extends Deletable {
  Position(): Deletable;
  Axis(): Deletable;
  Radius(): number;
  MajorRadius(): number;
  MinorRadius(): number;
  Focal(): number;
}
interface CurveAdaptor {
  GetType(): unknown;
  Line(): Deletable & { Location(): PointLike; Direction(): PointLike };
  Circle(): ConicLike;
  Ellipse(): ConicLike;
  Hyperbola(): ConicLike;
  Parabola(): ConicLike;
  BSpline(): Deletable & { get(): unknown };
  Bezier(): Deletable & { get(): unknown };
  Value(t: number): PointLike;
}

/**
 * An edge's 3D curve or a pcurve (dim 2) from its adaptor, in JS form with the kernel's
 * parameterization, or a polyline sampled by the kernel when it has none (an edge known only by
 * pcurves, an offset curve). A periodic spline is read as its non-periodic copy (same parameters
 * over a period).
 */
function readCurve(oc: OC, own: Own, adaptor: Adaptor3d_Curve | BRepAdaptor_Curve2d, dim: 2 | 3, t0: number, t1: number, tolerance: number): Curve {
  const T = oc.GeomAbs_CurveType;
  const c = adaptor as unknown as CurveAdaptor;
  const coords = (p: PointLike) => (dim === 3 ? [p.X(), p.Y(), p.Z!()] : [p.X(), p.Y()]);
  // 3D conics are placed by a gp_Ax2 (Position), 2D ones by a gp_Ax22d (Axis).
  const axes = (k: ConicLike) => (dim === 3 ? axes3(own, own(k.Position()) as gp_Ax2) : axes2(own, own(k.Axis()) as gp_Ax22d));
  try {
    switch (c.GetType()) {
      case T.GeomAbs_Line: {
        const l = own(c.Line());
        return { kind: 'line', dim, axes: Float64Array.from([...coords(own(l.Location())), ...coords(own(l.Direction()))]) };
      }
      case T.GeomAbs_Circle: {
        const k = own(c.Circle());
        return { kind: 'circle', dim, axes: axes(k), radius: k.Radius() };
      }
      case T.GeomAbs_Ellipse: {
        const k = own(c.Ellipse());
        return { kind: 'ellipse', dim, axes: axes(k), major: k.MajorRadius(), minor: k.MinorRadius() };
      }
      case T.GeomAbs_Hyperbola: {
        const k = own(c.Hyperbola());
        return { kind: 'hyperbola', dim, axes: axes(k), major: k.MajorRadius(), minor: k.MinorRadius() };
      }
      case T.GeomAbs_Parabola: {
        const k = own(c.Parabola());
        return { kind: 'parabola', dim, axes: axes(k), focal: k.Focal() };
      }
      case T.GeomAbs_BSplineCurve:
        return readBSplineCurve(oc, own, own(c.BSpline()).get() as SplineCurve, dim);
      case T.GeomAbs_BezierCurve:
        return readBezierCurve(own(c.Bezier()).get() as SplineCurveLike, dim);
    }
  } catch {
    // An adaptor that cannot hand out its curve: sample it instead.
  }
  return sampledCurve(t0, t1, dim, tolerance, (t, out) => {
    const p = c.Value(t);
    out.set(coords(p));
    p.delete();
  });
}

function axes3(own: Own, ax: gp_Ax2): Float64Array {
  return frameOf(own, ax).subarray(0, 9).slice();
}

function axes2(own: Own, ax: gp_Ax22d): Float64Array {
  const o = own(ax.Location()), x = own(ax.XDirection()), y = own(ax.YDirection());
  return Float64Array.of(o.X(), o.Y(), x.X(), x.Y(), y.X(), y.Y());
}

interface SplineCurveLike {
  IsRational(): boolean;
  Degree(): number;
  NbPoles(): number;
  Pole(i: number): PointLike;
  Weight(i: number): number;
}
type SplineCurve = SplineCurveLike & { IsPeriodic(): boolean; Copy(): Deletable & { get(): unknown }; Period(): number; KnotSequence_2(): Knots };
type Knots = Deletable & { Lower(): number; Upper(): number; Value(i: number): number };

function readBSplineCurve(oc: OC, own: Own, source: SplineCurve, dim: 2 | 3): NurbsCurve {
  let bs = source;
  let period = 0;
  if (bs.IsPeriodic()) {
    const copied = own(bs.Copy()).get();
    const handle = dim === 3 ? own(new oc.Handle_Geom_BSplineCurve_2(copied as never)) : own(new oc.Handle_Geom2d_BSplineCurve_2(copied as never));
    const copy = handle.get() as unknown as SplineCurve & { SetNotPeriodic(): void };
    period = copy.Period();
    copy.SetNotPeriodic();
    bs = copy;
  }
  return { kind: 'nurbs', dim, degree: bs.Degree(), knots: flatKnots(own(bs.KnotSequence_2())), ...curvePoles(bs, dim), period };
}

function readBezierCurve(bz: SplineCurveLike, dim: 2 | 3): NurbsCurve {
  return { kind: 'nurbs', dim, degree: bz.NbPoles() - 1, knots: bezierKnots(bz.NbPoles() - 1), ...curvePoles(bz, dim), period: 0 };
}

function curvePoles(c: SplineCurveLike, dim: 2 | 3): { poles: Float64Array; weights: Float64Array | null } {
  const n = c.NbPoles();
  const poles = new Float64Array(dim * n);
  const weights = c.IsRational() ? new Float64Array(n) : null;
  for (let i = 1; i <= n; i++) {
    const p = c.Pole(i);
    poles[dim * (i - 1)] = p.X();
    poles[dim * (i - 1) + 1] = p.Y();
    if (dim === 3) poles[dim * (i - 1) + 2] = p.Z!();
    p.delete();
    if (weights) weights[i - 1] = c.Weight(i);
  }
  return { poles, weights };
}

/** A curve without a JS form, sampled until linear interpolation stays within tolerance. */
function sampledCurve(t0: number, t1: number, dim: 2 | 3, tolerance: number, at: (t: number, out: Float64Array) => void): Curve {
  const params: number[] = [];
  const points: number[] = [];
  const a = new Float64Array(3), b = new Float64Array(3), m = new Float64Array(3);
  const push = (t: number, p: Float64Array) => {
    params.push(t);
    for (let d = 0; d < dim; d++) points.push(p[d]!);
  };
  const refine = (ta: number, pa: Float64Array, tb: number, pb: Float64Array, depth: number): void => {
    const tm = 0.5 * (ta + tb);
    const pm = new Float64Array(3);
    at(tm, pm);
    let err = 0;
    for (let d = 0; d < dim; d++) err += (pm[d]! - 0.5 * (pa[d]! + pb[d]!)) ** 2;
    if (depth < 18 && (depth < 4 || Math.sqrt(err) > tolerance)) {
      refine(ta, pa, tm, pm, depth + 1);
      refine(tm, pm, tb, pb, depth + 1);
    } else push(tb, pb);
  };
  at(t0, a);
  at(t1, b);
  push(t0, a);
  m.set(b);
  refine(t0, a, t1, m, 0);
  return { kind: 'polyline', dim, params: Float64Array.from(params), points: Float64Array.from(points) };
}

// --- edges ---

function readEdge(oc: OC, own: Own, edge: ReturnType<OC['TopoDS']['Edge_1']>, vertexMap: ReturnType<typeof mapEntities>, vertices: Float64Array, tolerance: number, diagonal: number): ExactEdge | null {
  own(edge);
  if (oc.BRep_Tool.Degenerated(edge)) return null;
  const adaptor = own(new oc.BRepAdaptor_Curve_2(edge));
  const t0 = adaptor.FirstParameter(), t1 = adaptor.LastParameter();
  const curve = readCurve(oc, own, adaptor, 3, t0, t1, tolerance);
  const { params, points, sag } = edgePolyline(curve, t0, t1, diagonal);
  const box = Float64Array.of(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
  for (let i = 0; i < points.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      box[k] = Math.min(box[k]!, points[i + k]! - sag);
      box[3 + k] = Math.max(box[3 + k]!, points[i + k]! + sag);
    }
  }
  // The vertex at each end: the one nearer to the curve's end point (edge orientation aside).
  const ends = [own(oc.TopExp.FirstVertex(edge, false)), own(oc.TopExp.LastVertex(edge, false))].map((v) => (v.IsNull() ? -1 : vertexMap.FindIndex(v) - 1));
  const nearest = (k: number) => {
    let best = -1, bestD = Infinity;
    for (const v of ends) {
      if (v < 0) continue;
      const d = Math.hypot(vertices[3 * v]! - points[k]!, vertices[3 * v + 1]! - points[k + 1]!, vertices[3 * v + 2]! - points[k + 2]!);
      if (d < bestD) {
        bestD = d;
        best = v;
      }
    }
    return best;
  };
  return { curve, t0, t1, params, points, sag, box, v0: nearest(0), v1: nearest(points.length - 3), faces: new Int32Array(0), pcurves: [] };
}

const cev = new Float64Array(9);

/**
 * A polyline on an edge for start values and its box: chords within 0.2% of the body's diagonal
 * (at least 4, at most 4096), and their largest sag measured at the chord midpoints, with margin.
 */
function edgePolyline(curve: Curve, t0: number, t1: number, diagonal: number): { params: Float64Array; points: Float64Array; sag: number } {
  const tol = 2e-3 * diagonal;
  const params: number[] = [t0];
  const points: number[] = [];
  const at = (t: number) => {
    evaluateCurve(curve, t, cev);
    return [cev[0]!, cev[1]!, cev[2]!];
  };
  points.push(...at(t0));
  let sag = 0;
  const refine = (ta: number, pa: number[], tb: number, pb: number[], depth: number): void => {
    const tm = 0.5 * (ta + tb);
    const pm = at(tm);
    const err = Math.hypot(pm[0]! - 0.5 * (pa[0]! + pb[0]!), pm[1]! - 0.5 * (pa[1]! + pb[1]!), pm[2]! - 0.5 * (pa[2]! + pb[2]!));
    if (depth < 12 && (depth < 2 || (curve.kind !== 'line' && err > tol))) {
      refine(ta, pa, tm, pm, depth + 1);
      refine(tm, pm, tb, pb, depth + 1);
      return;
    }
    sag = Math.max(sag, err);
    params.push(tb);
    points.push(...pb);
  };
  refine(t0, at(t0), t1, at(t1), 0);
  return { params: Float64Array.from(params), points: Float64Array.from(points), sag: curve.kind === 'line' ? 0 : 1.5 * sag + 1e-9 * diagonal };
}

// --- trims ---

const sevA = new Float64Array(18), sevB = new Float64Array(18);
const pc = new Float64Array(6);

/**
 * Appends the segments of a pcurve's polygon in (u, v): a line is one segment; other curves are
 * split until the surface point of each chord's midpoint is within `tolerance` of the surface point
 * of the pcurve's midpoint (the trim error measured in model units).
 */
function samplePcurve(curve: Curve, t0: number, t1: number, surface: Surface, tolerance: number, segments: number[], kernel: KernelSurfaces): void {
  if (curve.kind === 'line') {
    evaluateCurve(curve, t0, pc);
    const u0 = pc[0]!, v0 = pc[1]!;
    evaluateCurve(curve, t1, pc);
    segments.push(u0, v0, pc[0]!, pc[1]!);
    return;
  }
  const refine = (ta: number, ua: number, va: number, tb: number, ub: number, vb: number, depth: number): void => {
    const tm = 0.5 * (ta + tb);
    evaluateCurve(curve, tm, pc);
    const um = pc[0]!, vm = pc[1]!;
    let err = Infinity;
    if (depth >= 3) {
      evaluateSurface(surface, um, vm, sevA, kernel);
      evaluateSurface(surface, 0.5 * (ua + ub), 0.5 * (va + vb), sevB, kernel);
      err = Math.hypot(sevA[0]! - sevB[0]!, sevA[1]! - sevB[1]!, sevA[2]! - sevB[2]!);
    }
    if (depth < 24 && err > tolerance) {
      refine(ta, ua, va, tm, um, vm, depth + 1);
      refine(tm, um, vm, tb, ub, vb, depth + 1);
      return;
    }
    segments.push(ua, va, ub, vb);
  };
  evaluateCurve(curve, t0, pc);
  const u0 = pc[0]!, v0 = pc[1]!;
  evaluateCurve(curve, t1, pc);
  refine(t0, u0, v0, t1, pc[0]!, pc[1]!, 0);
}
