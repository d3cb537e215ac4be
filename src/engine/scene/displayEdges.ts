import { withKernel, type OC } from '../kernel';
import type { Body } from './Body';
import { displayDeflection } from './tessellation';
import { mapEntities } from './topology';

/** Line segments a renderer draws for a body's edges; fresh buffers the caller owns (and may transfer). */
export interface DisplayEdges {
  /** Segment endpoints, xyz xyz per segment. */
  positions: Float32Array<ArrayBuffer>;
  /** Per segment, the 0-based edge index (edge[N], TopExp.MapShapes order as query_topology). */
  edgeIds: Uint32Array<ArrayBuffer>;
}

/**
 * Angular deflection of the edge polylines (radians). The linear deflection is the body's display
 * deflection, so edges follow the same chordal error as the faces they bound; the angular bound
 * keeps small arcs (fillets, small holes) round on screen.
 */
const ANGULAR_DEFLECTION = 0.2;

/**
 * The body's edges as polylines for display: each non-degenerated edge's 3D curve (with the edge's
 * location) discretized by GCPnts_TangentialDeflection at the display deflection (0.2 % of the box
 * diagonal, as displayMesh). Mesh bodies have no edges worth drawing (every triangle side would be
 * one), point clouds none at all: empty arrays.
 */
export function displayEdges(oc: OC | undefined, body: Body, deflection?: number): DisplayEdges {
  if (body.kind !== 'brep') return { positions: new Float32Array(0), edgeIds: new Uint32Array(0) };
  if (!oc) throw new Error('displayEdges: a BREP body needs the kernel');
  const linear = deflection ?? displayDeflection(oc, body);
  const points: number[] = [];
  const ids: number[] = [];
  withKernel(oc, (own) => {
    const map = mapEntities(oc, own, body.shape, 'edge');
    for (let e = 0; e < map.Extent(); e++) {
      withKernel(oc, (local) => {
        const edge = local(oc.TopoDS.Edge_1(local(map.FindKey(e + 1))));
        // A degenerated edge (a sphere's pole, a cone's apex) is a point: nothing to draw.
        if (oc.BRep_Tool.Degenerated(edge)) return;
        const curve = local(new oc.BRepAdaptor_Curve_2(edge));
        const first = curve.FirstParameter();
        const last = curve.LastParameter();
        if (!(last > first)) return;
        const sampler = local(new oc.GCPnts_TangentialDeflection_3(curve, first, last, ANGULAR_DEFLECTION, linear, 2, 1e-9, 0));
        const n = sampler.NbPoints();
        let px = 0, py = 0, pz = 0;
        for (let i = 1; i <= n; i++) {
          const p = local(sampler.Value(i));
          const x = p.X(), y = p.Y(), z = p.Z();
          if (i > 1) {
            points.push(px, py, pz, x, y, z);
            ids.push(e);
          }
          px = x;
          py = y;
          pz = z;
        }
      });
    }
  });
  return { positions: Float32Array.from(points), edgeIds: Uint32Array.from(ids) };
}
