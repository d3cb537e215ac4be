import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { KernelError, topAbs, withKernel, type OC } from '../kernel';
import type { PlaneFrame } from '../mesh/sliceMesh';

/** One station of a kernel section: one in-plane polyline (x, y interleaved) per section edge, or why the kernel failed. */
interface BrepStationSection {
  pieces: Float64Array[];
  /** The largest tolerance of the section's vertices: edge ends up to twice this apart meet. */
  vertexTolerance: number;
  /** OCCT's message when the section at this level failed (no pieces then). */
  error?: string;
}

/**
 * Cuts a shape with the planes p . axis = level (BRepAlgoAPI_Section against a gp_Pln) and
 * discretizes every section edge at the linear `deflection` (GCPnts_QuasiUniformDeflection, with
 * GCPnts_TangentialDeflection as the fallback), one in-plane polyline per edge for chainPolylines.
 * A failing level is reported, not thrown, so one bad station does not sink the others.
 */
export function sectionBrep(oc: OC, shape: TopoDS_Shape, frame: PlaneFrame, levels: readonly number[], deflection: number): BrepStationSection[] {
  const { axis, u, v } = frame;
  return levels.map((level) => {
    const pieces: Float64Array[] = [];
    let vertexTolerance = 0;
    try {
      withKernel(oc, (own) => {
        const origin = own(new oc.gp_Pnt_3(axis[0] * level, axis[1] * level, axis[2] * level));
        const plane = own(new oc.gp_Pln_3(origin, own(new oc.gp_Dir_4(axis[0], axis[1], axis[2]))));
        const section = own(new oc.BRepAlgoAPI_Section_5(shape, plane, false));
        section.Approximation(false);
        section.Build(own(new oc.Message_ProgressRange_1()));
        if (!section.IsDone()) throw new KernelError('BRepAlgoAPI_Section did not complete');
        const result = own(section.Shape());
        const edges = own(new oc.TopExp_Explorer_2(result, topAbs(oc, 'EDGE'), topAbs(oc, 'SHAPE')));
        for (; edges.More(); edges.Next()) {
          withKernel(oc, (inner) => {
            const edge = inner(oc.TopoDS.Edge_1(inner(edges.Current())));
            if (oc.BRep_Tool.Degenerated(edge)) return;
            const curve = inner(new oc.BRepAdaptor_Curve_2(edge));
            const points = discretize(oc, inner, curve, deflection);
            const piece = new Float64Array((2 * points.length) / 3);
            for (let i = 0, o = 0; i < points.length; i += 3) {
              piece[o++] = points[i]! * u[0] + points[i + 1]! * u[1] + points[i + 2]! * u[2];
              piece[o++] = points[i]! * v[0] + points[i + 1]! * v[1] + points[i + 2]! * v[2];
            }
            if (piece.length >= 4) pieces.push(piece);
          });
        }
        const vertices = own(new oc.TopExp_Explorer_2(result, topAbs(oc, 'VERTEX'), topAbs(oc, 'SHAPE')));
        for (; vertices.More(); vertices.Next()) {
          withKernel(oc, (inner) => {
            const vertex = inner(oc.TopoDS.Vertex_1(inner(vertices.Current())));
            vertexTolerance = Math.max(vertexTolerance, oc.BRep_Tool.Tolerance_3(vertex));
          });
        }
      });
    } catch (e) {
      if (!(e instanceof KernelError)) throw e;
      return { pieces: [], vertexTolerance: 0, error: e.message };
    }
    return { pieces, vertexTolerance };
  });
}

type Curve = InstanceType<OC['BRepAdaptor_Curve_2']>;

/** Points along an edge curve within the linear deflection, flat x, y, z. */
function discretize(oc: OC, own: <T extends { delete(): void }>(o: T) => T, curve: Curve, deflection: number): number[] {
  const first = curve.FirstParameter(), last = curve.LastParameter();
  const pts: number[] = [];
  const quasi = own(new oc.GCPnts_QuasiUniformDeflection_4(curve, deflection, first, last, oc.GeomAbs_Shape.GeomAbs_C0 as never));
  if (quasi.IsDone() && quasi.NbPoints() >= 2) {
    for (let i = 1; i <= quasi.NbPoints(); i++) {
      const p = own(quasi.Value(i));
      pts.push(p.X(), p.Y(), p.Z());
    }
    return pts;
  }
  const tangential = own(new oc.GCPnts_TangentialDeflection_3(curve, first, last, 0.1, deflection, 2, 1e-9, 0));
  for (let i = 1; i <= tangential.NbPoints(); i++) {
    const p = own(tangential.Value(i));
    pts.push(p.X(), p.Y(), p.Z());
  }
  return pts;
}
