import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../errors';
import { withKernel, type OC } from '../kernel';
import type { MeshBody, SurfaceBody } from './Body';

/**
 * The spec's view of an STL body: a shell of planar triangular faces. Built on first use by a
 * kernel tool (distances, exact fits) and kept on the body; mesh tools never need it. Degenerate
 * triangles are left out (they have no plane).
 */
export function facetShape(oc: OC, body: MeshBody): TopoDS_Shape {
  if (body.facetShape) return body.facetShape;
  const { positions: p, indices: idx } = body.mesh;
  body.facetShape = withKernel(oc, (own) => {
    const builder = own(new oc.BRep_Builder());
    const compound = new oc.TopoDS_Compound();
    try {
      builder.MakeCompound(compound);
      let faces = 0;
      for (let t = 0; t < idx.length; t += 3) {
        const a = idx[t]!, b = idx[t + 1]!, c = idx[t + 2]!;
        if (a === b || b === c || a === c) continue;
        // Each triangle frees its own points, wire and face: a big mesh never holds them all at once.
        withKernel(oc, (inner) => {
          const point = (v: number) => inner(new oc.gp_Pnt_3(p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!));
          const polygon = inner(new oc.BRepBuilderAPI_MakePolygon_3(point(a), point(b), point(c), true));
          if (!polygon.IsDone()) return;
          const face = inner(new oc.BRepBuilderAPI_MakeFace_15(inner(polygon.Wire()), true));
          if (!face.IsDone()) return;
          builder.Add(compound, inner(face.Face()));
          faces++;
        });
      }
      // An empty compound made the kernel tools fail inside OCCT (BRepExtrema: "Standard_RangeError: NCollection_Array1::Create").
      if (faces === 0) throw new BrepscopeError('EMPTY_MESH', `body '${body.bodyId}' has no triangle with a plane (all ${idx.length / 3} are degenerate): there is no surface to measure`, { bodyId: body.bodyId });
      return compound;
    } catch (e) {
      compound.delete();
      throw e;
    }
  });
  return body.facetShape;
}

/** The OCCT shape a kernel tool works on: the body's own shape, or an STL's facet shell. */
export function kernelShape(oc: OC, body: SurfaceBody): TopoDS_Shape {
  return body.kind === 'brep' ? body.shape : facetShape(oc, body);
}
