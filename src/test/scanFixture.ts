import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../engine/kernel';
import { seededRandom } from '../engine/mesh/generators';
import { tessellateShape } from '../engine/mesh/tessellate';
import type { TriMesh } from '../engine/mesh/TriMesh';
import { weldVertexIds } from '../engine/mesh/weld';

/** A welded copy of a shape's BRepMesh tessellation at an absolute deflection (an "OCCT mesh" of the part). */
export function occtMesh(oc: OC, shape: TopoDS_Shape, deflection: number): TriMesh {
  const t = tessellateShape(oc, shape, deflection);
  const { ids, count } = weldVertexIds(t.positions);
  const positions = new Float64Array(3 * count);
  for (let v = 0; v < ids.length; v++) positions.set(t.positions.subarray(3 * v, 3 * v + 3), 3 * ids[v]!);
  return { positions, indices: t.indices.map((i) => ids[i]!) };
}

/**
 * A scan-like mesh of a part: its fine BRepMesh tessellation, each face's nodes moved by `offset`
 * plus Gaussian noise of `sigma` (seeded, Box-Muller) along the face's exact outward normal at the
 * node (the kernel's BRepAdaptor_Surface, not the code under test). Nodes lie on the exact
 * surface, so a node of a smooth face ends |offset + noise| from it; faces are moved apart, as a
 * scan's patches are not welded at sharp edges.
 */
export function scanOfPart(oc: OC, shape: TopoDS_Shape, options: { deflection: number; angularDeflection?: number; offset: number; sigma: number; seed: number }): TriMesh {
  const rand = seededRandom(options.seed);
  return withKernel(oc, (own) => {
    oc.BRepTools.Clean(shape, true);
    own(new oc.BRepMesh_IncrementalMesh_2(shape, options.deflection, false, options.angularDeflection ?? 0.5, false));
    const positions: number[] = [];
    const indices: number[] = [];
    const faces = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, oc.TopAbs_ShapeEnum.TopAbs_FACE as never, faces);
    const P = own(new oc.gp_Pnt_1()), du = own(new oc.gp_Vec_1()), dv = own(new oc.gp_Vec_1());
    for (let f = 1; f <= faces.Extent(); f++) {
      const face = own(oc.TopoDS.Face_1(own(faces.FindKey(f))));
      const loc = own(new oc.TopLoc_Location_1());
      const handle = own(oc.BRep_Tool.Triangulation(face, loc, 0));
      if (handle.IsNull()) continue;
      const tri = handle.get();
      const surface = own(new oc.BRepAdaptor_Surface_2(face, true));
      const reversed = face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED;
      const base = positions.length / 3;
      for (let i = 1; i <= tri.NbNodes(); i++) {
        const uv = own(tri.UVNode(i));
        surface.D1(uv.X(), uv.Y(), P, du, dv);
        const n = own(du.Crossed(dv));
        const len = n.Magnitude() * (reversed ? -1 : 1);
        const gauss = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
        const d = len !== 0 ? (options.offset + options.sigma * gauss) / len : 0;
        positions.push(P.X() + d * n.X(), P.Y() + d * n.Y(), P.Z() + d * n.Z());
      }
      for (let i = 1; i <= tri.NbTriangles(); i++) {
        const t = own(tri.Triangle(i));
        const a = t.Value(1) - 1, b = t.Value(2) - 1, c = t.Value(3) - 1;
        if (reversed) indices.push(base + a, base + c, base + b);
        else indices.push(base + a, base + b, base + c);
      }
    }
    return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
  });
}


/**
 * A scanner-like point cloud of a part: about `count` points spread uniformly by area over its
 * faces (seeded), each on the exact surface (a random point of a fine tessellation's triangle,
 * mapped through the triangle's (u, v) nodes onto the face's surface by the kernel's
 * BRepAdaptor_Surface), then moved by `offset` plus Gaussian noise of `sigma` along the exact
 * outward normal there. Positions only, as a scanner without normals writes them.
 */
export function cloudOfPart(oc: OC, shape: TopoDS_Shape, options: { deflection: number; count: number; offset: number; sigma: number; seed: number }): Float64Array {
  const rand = seededRandom(options.seed);
  return withKernel(oc, (own) => {
    oc.BRepTools.Clean(shape, true);
    own(new oc.BRepMesh_IncrementalMesh_2(shape, options.deflection, false, 0.1, false));
    const faces = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, oc.TopAbs_ShapeEnum.TopAbs_FACE as never, faces);
    // Triangles of every face with their (u, v) corners and 3D areas.
    const tris: { face: number; uv: number[]; area: number }[] = [];
    let total = 0;
    for (let f = 1; f <= faces.Extent(); f++) {
      const face = own(oc.TopoDS.Face_1(own(faces.FindKey(f))));
      const loc = own(new oc.TopLoc_Location_1());
      const handle = own(oc.BRep_Tool.Triangulation(face, loc, 0));
      if (handle.IsNull()) continue;
      const tri = handle.get();
      for (let i = 1; i <= tri.NbTriangles(); i++) {
        const t = own(tri.Triangle(i));
        const ids = [t.Value(1), t.Value(2), t.Value(3)];
        const p = ids.map((k) => own(tri.Node(k)));
        const uv = ids.flatMap((k) => {
          const q = own(tri.UVNode(k));
          return [q.X(), q.Y()];
        });
        const ux = p[1]!.X() - p[0]!.X(), uy = p[1]!.Y() - p[0]!.Y(), uz = p[1]!.Z() - p[0]!.Z();
        const vx = p[2]!.X() - p[0]!.X(), vy = p[2]!.Y() - p[0]!.Y(), vz = p[2]!.Z() - p[0]!.Z();
        const area = 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
        tris.push({ face: f, uv, area });
        total += area;
      }
    }
    const out: number[] = [];
    const P = own(new oc.gp_Pnt_1()), du = own(new oc.gp_Vec_1()), dv = own(new oc.gp_Vec_1());
    const surfaces = new Map<number, { surface: { D1(u: number, v: number, p: unknown, du: unknown, dv: unknown): void }; reversed: boolean }>();
    for (const t of tris) {
      const expected = (options.count * t.area) / total;
      const k = Math.floor(expected + rand());
      if (k === 0) continue;
      let s = surfaces.get(t.face);
      if (!s) {
        const face = own(oc.TopoDS.Face_1(own(faces.FindKey(t.face))));
        s = { surface: own(new oc.BRepAdaptor_Surface_2(face, true)), reversed: face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED };
        surfaces.set(t.face, s);
      }
      for (let j = 0; j < k; j++) {
        const r1 = rand(), r2 = rand();
        // Folded into the triangle: uniform over its area.
        const [a, b] = r1 + r2 > 1 ? [1 - r1, 1 - r2] : [r1, r2];
        const u = t.uv[0]! + a * (t.uv[2]! - t.uv[0]!) + b * (t.uv[4]! - t.uv[0]!);
        const v = t.uv[1]! + a * (t.uv[3]! - t.uv[1]!) + b * (t.uv[5]! - t.uv[1]!);
        s.surface.D1(u, v, P, du, dv);
        const n = own(du.Crossed(dv));
        const len = n.Magnitude() * (s.reversed ? -1 : 1);
        if (len === 0) continue;
        const gauss = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
        const d = (options.offset + options.sigma * gauss) / len;
        out.push(P.X() + d * n.X(), P.Y() + d * n.Y(), P.Z() + d * n.Z());
      }
    }
    return Float64Array.from(out);
  });
}
