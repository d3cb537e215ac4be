import type { BRepExtrema_ExtPC, BRepExtrema_ExtPF, TopoDS_Edge, TopoDS_Face, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type Deletable, type OC } from '../kernel';
import type { Vec3 } from '../math/vec3';
import { mapEntities } from './topology';

export type SupportKind = 'vertex' | 'edge' | 'face';

export interface PointToShape {
  distance: number;
  /** The closest point on the shape. */
  point: Vec3;
  /** The lowest-dimensional entity that holds the closest point (vertex before edge before face). */
  kind: SupportKind;
}

interface Boxed<T> {
  item: T;
  min: Vec3;
  max: Vec3;
}

/**
 * Exact distance from points to a shape's geometry, for many points: every face and edge gets its
 * extremum solver initialized once (BRepExtrema_DistShapeShape would rebuild a face's surface grid
 * for every query), and faces and edges whose tolerance-padded boxes lie farther than the best so
 * far are skipped. Call `delete()` when done.
 */
export class PointToShapeQuery {
  private readonly owned: Deletable[] = [];
  private readonly vertices: Vec3[] = [];
  private readonly edges: Boxed<{ edge: TopoDS_Edge; solver: BRepExtrema_ExtPC }>[] = [];
  private readonly faces: Boxed<{ face: TopoDS_Face; solver: BRepExtrema_ExtPF }>[] = [];

  constructor(
    private readonly oc: OC,
    shape: TopoDS_Shape,
  ) {
    const keep = <T extends Deletable>(o: T): T => {
      this.owned.push(o);
      return o;
    };
    withKernel(oc, (own) => {
      const vertexMap = mapEntities(oc, own, shape, 'vertex');
      for (let i = 1; i <= vertexMap.Extent(); i++) {
        const p = own(oc.BRep_Tool.Pnt(own(oc.TopoDS.Vertex_1(own(vertexMap.FindKey(i))))));
        this.vertices.push([p.X(), p.Y(), p.Z()]);
      }
      const edgeMap = mapEntities(oc, own, shape, 'edge');
      for (let i = 1; i <= edgeMap.Extent(); i++) {
        const edge = keep(oc.TopoDS.Edge_1(own(edgeMap.FindKey(i))));
        if (oc.BRep_Tool.Degenerated(edge)) continue; // its point is a vertex
        const solver = keep(new oc.BRepExtrema_ExtPC_1());
        solver.Initialize(edge);
        this.edges.push({ item: { edge, solver }, ...box(oc, edge) });
      }
      const faceMap = mapEntities(oc, own, shape, 'face');
      for (let i = 1; i <= faceMap.Extent(); i++) {
        const face = keep(oc.TopoDS.Face_1(own(faceMap.FindKey(i))));
        const solver = keep(new oc.BRepExtrema_ExtPF_1());
        solver.Initialize(face, oc.Extrema_ExtFlag.Extrema_ExtFlag_MIN as never, oc.Extrema_ExtAlgo.Extrema_ExtAlgo_Grad as never);
        this.faces.push({ item: { face, solver }, ...box(oc, face) });
      }
    });
  }

  /** The closest point of the shape to p; undefined for a shape without geometry. */
  query(p: Vec3): PointToShape | undefined {
    let best: PointToShape | undefined;
    // Lower-dimensional entities first, and a later candidate must be strictly closer, so a point
    // closest to an edge is reported on the edge, not on the faces that meet there.
    const consider = (d: number, point: Vec3, kind: SupportKind) => {
      if (!best || d < best.distance - 1e-12 * (1 + best.distance)) best = { distance: d, point, kind };
    };
    for (const v of this.vertices) consider(Math.hypot(v[0] - p[0], v[1] - p[1], v[2] - p[2]), v, 'vertex');
    if (this.edges.length === 0 && this.faces.length === 0) return best;
    const oc = this.oc;
    withKernel(oc, (own) => {
      const vertex = own(own(new oc.BRepBuilderAPI_MakeVertex(own(new oc.gp_Pnt_3(...p)))).Vertex());
      for (const { item, min, max } of byBoxDistance(this.edges, p)) {
        if (best && boxDistance(min, max, p) > best.distance) break;
        item.solver.Perform(vertex);
        if (!item.solver.IsDone()) continue;
        for (let n = 1; n <= item.solver.NbExt(); n++) {
          const q = own(item.solver.Point(n));
          consider(Math.sqrt(item.solver.SquareDistance(n)), [q.X(), q.Y(), q.Z()], 'edge');
        }
      }
      for (const { item, min, max } of byBoxDistance(this.faces, p)) {
        if (best && boxDistance(min, max, p) > best.distance) break;
        item.solver.Perform(vertex, item.face);
        if (!item.solver.IsDone()) continue;
        for (let n = 1; n <= item.solver.NbExt(); n++) {
          const q = own(item.solver.Point(n));
          consider(Math.sqrt(item.solver.SquareDistance(n)), [q.X(), q.Y(), q.Z()], 'face');
        }
      }
    });
    return best;
  }

  delete(): void {
    for (let i = this.owned.length - 1; i >= 0; i--) this.owned[i]!.delete();
    this.owned.length = 0;
  }
}

/** The box of a sub-shape from its exact geometry, padded by its tolerance (a safe lower bound). */
function box(oc: OC, shape: TopoDS_Shape): { min: Vec3; max: Vec3 } {
  return withKernel(oc, (own) => {
    const b = own(new oc.Bnd_Box_1());
    oc.BRepBndLib.Add(shape, b, false);
    // Nothing to bound: an empty box, farther than any point (CornerMin would throw).
    if (b.IsVoid()) return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
    const lo = own(b.CornerMin());
    const hi = own(b.CornerMax());
    return { min: [lo.X(), lo.Y(), lo.Z()], max: [hi.X(), hi.Y(), hi.Z()] };
  });
}

function boxDistance(min: Vec3, max: Vec3, p: Vec3): number {
  const dx = Math.max(min[0] - p[0], 0, p[0] - max[0]);
  const dy = Math.max(min[1] - p[1], 0, p[1] - max[1]);
  const dz = Math.max(min[2] - p[2], 0, p[2] - max[2]);
  return Math.hypot(dx, dy, dz);
}

function byBoxDistance<T>(items: Boxed<T>[], p: Vec3): Boxed<T>[] {
  return items
    .map((b) => ({ b, d: boxDistance(b.min, b.max, p) }))
    .sort((x, y) => x.d - y.d)
    .map((x) => x.b);
}
