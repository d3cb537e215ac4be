import { z } from 'zod';
import { withKernel, type OC } from '../kernel';
import type { Vec3 } from '../math/vec3';
import type { Body } from '../scene/Body';
import { kernelShape } from '../scene/facetShape';
import { mapEntities } from '../scene/topology';
import { defineTool } from './defineTool';
import { bodyIdSchema } from './schemas';
import { percentile } from './statistics';

const schema = z
  .strictObject({
    fromBodyId: bodyIdSchema.describe('Body whose own vertices are measured (BREP vertices; STL corner points)'),
    toBodyId: bodyIdSchema.describe('Body measured against (its exact geometry; an STL as its facet shell)'),
    maxVertices: z.int().min(1).default(2000).describe('Cap on vertices measured, stride-subsampled'),
    worstN: z.int().min(0).default(20).describe('Number of worst vertices (largest distance first) in the response'),
    includeAllVertices: z.boolean().default(false).describe("Return every sampled vertex's entry"),
  })
  .refine((a) => a.fromBodyId !== a.toBodyId, { path: ['toBodyId'], message: 'toBodyId must differ from fromBodyId (a body fits itself exactly)' });

export type NearestKind = 'vertex' | 'edge' | 'face' | 'unknown';

export interface VertexFitEntry {
  index: number;
  point: Vec3;
  distance: number;
  nearestKind: NearestKind;
}

export const measureVertexFit = defineTool({
  name: 'measure_vertex_fit',
  description:
    "Exact distance from each vertex of fromBodyId (BREP vertices in vertex[N] order, or an STL's corner points) to the true BRep geometry of toBodyId, no re-tessellation, with the kind of entity nearest (vertex, edge or face). Stride-subsampled to maxVertices; mean, rms, max, p95, the worstN worst vertices, optionally all.",
  category: 'scene',
  schema,
  async run(args, ctx) {
    const from = ctx.scene.get(args.fromBodyId);
    const to = ctx.scene.get(args.toBodyId);
    const oc = await ctx.kernel();
    const points = bodyVertices(oc, from);
    const n = points.length;
    const stride = n > args.maxVertices ? Math.ceil(n / args.maxVertices) : 1;
    const warnings: string[] = [];
    if (stride > 1) warnings.push(`${n} vertices: every ${stride}th measured (maxVertices ${args.maxVertices})`);
    const entries: VertexFitEntry[] = [];
    let failed = 0;
    withKernel(oc, (own) => {
      const extrema = own(new oc.BRepExtrema_DistShapeShape_1());
      // Loaded once: the target's sub-shape boxes are computed on the first Perform and reused.
      extrema.LoadS2(kernelShape(oc, to));
      const range = own(new oc.Message_ProgressRange_1());
      for (let i = 0; i < n; i += stride) {
        if (ctx.signal?.aborted) break;
        const point = points[i]!;
        const ok = withKernel(oc, (inner) => {
          const vertex = inner(inner(new oc.BRepBuilderAPI_MakeVertex(inner(new oc.gp_Pnt_3(...point)))).Vertex());
          extrema.LoadS1(vertex);
          if (!extrema.Perform(range) || !extrema.IsDone() || extrema.NbSolution() === 0) return false;
          entries.push({ index: i, point, distance: extrema.Value(), nearestKind: supportKind(oc, extrema.SupportTypeShape2(1)) });
          return true;
        });
        if (!ok) failed++;
      }
    });
    if (failed) warnings.push(`${failed} vertex queries found no solution and are left out`);
    const distances = entries.map((e) => e.distance);
    const sorted = [...distances].sort((a, b) => a - b);
    const count = distances.length;
    const mean = count ? distances.reduce((s, d) => s + d, 0) / count : null;
    const rms = count ? Math.sqrt(distances.reduce((s, d) => s + d * d, 0) / count) : null;
    const worst = [...entries].sort((a, b) => b.distance - a.distance || a.index - b.index).slice(0, args.worstN);
    return {
      vertexCount: n,
      sampledCount: count,
      stride,
      mean,
      rms,
      max: count ? sorted[count - 1]! : null,
      p95: count ? percentile(sorted, 0.95) : null,
      worst,
      ...(args.includeAllVertices ? { vertices: entries } : {}),
      warnings,
    };
  },
});

function supportKind(oc: OC, type: unknown): NearestKind {
  const t = oc.BRepExtrema_SupportType;
  if (type === t.BRepExtrema_IsVertex) return 'vertex';
  if (type === t.BRepExtrema_IsOnEdge) return 'edge';
  if (type === t.BRepExtrema_IsInFace) return 'face';
  return 'unknown';
}

/** A body's own vertices: BREP vertices in vertex[N] order, or an STL's welded corner points. */
function bodyVertices(oc: OC, body: Body): Vec3[] {
  if (body.kind === 'mesh') {
    const p = body.mesh.positions;
    const out: Vec3[] = [];
    for (let v = 0; v < p.length; v += 3) out.push([p[v]!, p[v + 1]!, p[v + 2]!]);
    return out;
  }
  return withKernel(oc, (own) => {
    const map = mapEntities(oc, own, body.shape, 'vertex');
    const out: Vec3[] = [];
    for (let i = 1; i <= map.Extent(); i++) {
      const p = own(oc.BRep_Tool.Pnt(own(oc.TopoDS.Vertex_1(own(map.FindKey(i))))));
      out.push([p.X(), p.Y(), p.Z()]);
    }
    return out;
  });
}
