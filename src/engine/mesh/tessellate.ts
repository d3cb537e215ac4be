import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../errors';
import { topAbs, withKernel, type OC } from '../kernel';
import type { FaceTessellation } from './TriMesh';
import { refuseTooFine } from './tessellationBudget';

/** Angular deflection in radians used with every linear deflection (OCCT's usual 0.5). */
export const ANGULAR_DEFLECTION = 0.5;

/**
 * BRepMesh refuses a smaller linear deflection with "Standard_NumericError: initParameters: invalid
 * parameter value", which reached users as KERNEL_ERROR for what is a bad argument.
 */
export const MIN_DEFLECTION = 1e-7;

/** Poly_MeshPurpose_NONE: the glue binds Poly_MeshPurpose as a plain integer. */
const MESH_PURPOSE_NONE = 0;

/**
 * Tessellates a shape with BRepMesh at an absolute linear deflection and copies the triangles out
 * per face, in TopExp.MapShapes face order, wound outward (reversed faces flipped). Vertices are
 * not shared between faces, so face boundaries stay crisp for display. Each vertex keeps its
 * (u, v) on its face's surface, where exact queries start their projection.
 */
export function tessellateShape(oc: OC, shape: TopoDS_Shape, deflection: number): FaceTessellation {
  if (!(deflection >= MIN_DEFLECTION)) {
    throw new BrepscopeError('INVALID_ARGUMENT', `deflection ${deflection} is below ${MIN_DEFLECTION}, the smallest the kernel's mesher takes (Precision::Confusion)`);
  }
  refuseTooFine(oc, shape, deflection);
  return withKernel(oc, (own) => {
    // An existing finer triangulation would be kept by BRepMesh; clean so the requested deflection rules.
    oc.BRepTools.Clean(shape, true);
    own(new oc.BRepMesh_IncrementalMesh_2(shape, deflection, false, ANGULAR_DEFLECTION, false));
    const faces = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, topAbs(oc, "FACE"), faces);
    const positions: number[] = [];
    const uvs: number[] = [];
    const indices: number[] = [];
    const faceIds: number[] = [];
    for (let f = 1; f <= faces.Extent(); f++) {
      const face = own(oc.TopoDS.Face_1(own(faces.FindKey(f))));
      const loc = own(new oc.TopLoc_Location_1());
      const handle = own(oc.BRep_Tool.Triangulation(face, loc, MESH_PURPOSE_NONE));
      if (handle.IsNull()) continue;
      const tri = handle.get();
      const trsf = own(loc.Transformation());
      const base = positions.length / 3;
      const nodes = tri.NbNodes();
      const hasUv = tri.HasUVNodes();
      for (let i = 1; i <= nodes; i++) {
        const p = tri.Node(i);
        try {
          p.Transform(trsf);
          positions.push(p.X(), p.Y(), p.Z());
        } finally {
          p.delete();
        }
        if (hasUv) {
          const uv = tri.UVNode(i);
          try {
            uvs.push(uv.X(), uv.Y());
          } finally {
            uv.delete();
          }
        } else uvs.push(NaN, NaN);
      }
      const reversed = face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED;
      const count = tri.NbTriangles();
      for (let i = 1; i <= count; i++) {
        const t = tri.Triangle(i);
        try {
          const a = t.Value(1) - 1, b = t.Value(2) - 1, c = t.Value(3) - 1;
          if (reversed) indices.push(base + a, base + c, base + b);
          else indices.push(base + a, base + b, base + c);
          faceIds.push(f - 1);
        } finally {
          t.delete();
        }
      }
    }
    return {
      positions: Float64Array.from(positions),
      uvs: Float64Array.from(uvs),
      indices: Uint32Array.from(indices),
      faceIds: Uint32Array.from(faceIds),
      deflection,
    };
  });
}
