import { surfaceBody } from '../scene/pointsBody';
import { z } from 'zod';
import { withKernel, type OC } from '../kernel';
import type { Vec3 } from '../math/vec3';
import type { SurfaceBody } from '../scene/Body';
import { checkCancelled } from '../errors';
import { closestPoint, createHit } from '../mesh/closestPoint';
import { Feature } from '../mesh/closestPointOnTriangle';
import { PointToShapeQuery } from '../scene/pointToShape';
import { mapEntities } from '../scene/topology';
import { defineTool } from './defineTool';
import { meshBvh } from '../deviation/structures';
import { surfaceOf } from '../deviation/surfaces';
import { bodyIdSchema } from './schemas';
import { percentile } from '../deviation/statistics';
import { warning, type ToolWarning } from '../warnings';

const schema = z
  .strictObject({
    fromBodyId: bodyIdSchema.describe('Body whose own vertices are measured (BREP vertices; STL corner points)'),
    toBodyId: bodyIdSchema.describe('Body measured against (its exact geometry; an STL as its facet shell)'),
    maxVertices: z.int().min(1).default(2000).describe('Cap on vertices measured, stride-subsampled'),
    worstN: z.int().min(0).default(20).describe('Number of worst vertices (largest distance first) in the response'),
    includeAllVertices: z.boolean().default(false).describe("Return every sampled vertex's entry"),
  })
  .refine((a) => a.fromBodyId !== a.toBodyId, { path: ['toBodyId'], message: 'toBodyId must differ from fromBodyId (a body fits itself exactly)' });

type NearestKind = 'vertex' | 'edge' | 'face';

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
    const from = surfaceBody(ctx.scene.get(args.fromBodyId), 'measure_vertex_fit', 'topological vertices (for a cloud, measure_deviation measures every point)');
    const to = surfaceBody(ctx.scene.get(args.toBodyId), 'measure_vertex_fit', 'a surface to measure to');
    const oc = await ctx.kernel();
    const points = bodyVertices(oc, from);
    const n = points.length;
    const stride = n > args.maxVertices ? Math.ceil(n / args.maxVertices) : 1;
    const warnings: ToolWarning[] = [];
    if (stride > 1) warnings.push(warning('SUBSAMPLED', `${n} vertices: every ${stride}th measured (maxVertices ${args.maxVertices})`));
    const entries: VertexFitEntry[] = [];
    let failed = 0;
    const measure = distanceTo(oc, to);
    try {
      for (let i = 0; i < n; i += stride) {
        checkCancelled(ctx, 'measure_vertex_fit');
        const point = points[i]!;
        const hit = measure.query(point);
        if (!hit) failed++;
        else entries.push({ index: i, point, distance: hit.distance, nearestKind: hit.kind });
      }
    } finally {
      measure.delete();
    }
    if (failed) warnings.push(warning('QUERIES_FAILED', `${failed} vertex queries found no solution and are left out`));
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

/**
 * Exact distance to the target's true geometry: a BREP through per-face and per-edge extremum
 * solvers; an STL (a facet shell) through the triangle BVH, whose closest point is exact too.
 */
function distanceTo(oc: OC, body: SurfaceBody): { query(p: Vec3): { distance: number; kind: NearestKind } | undefined; delete(): void } {
  if (body.kind === 'brep') return new PointToShapeQuery(oc, body.shape);
  // The body's BVH, built once and kept with the body (the deviation tools share it).
  const bvh = meshBvh(surfaceOf(body));
  const hit = createHit();
  return {
    query(p) {
      closestPoint(bvh, p[0], p[1], p[2], hit);
      if (!Number.isFinite(hit.distance)) return undefined;
      const kind: NearestKind = hit.feature === Feature.face ? 'face' : hit.feature >= Feature.vertexA ? 'vertex' : 'edge';
      return { distance: hit.distance, kind };
    },
    delete() {},
  };
}

/** A body's own vertices: BREP vertices in vertex[N] order, or an STL's welded corner points. */
function bodyVertices(oc: OC, body: SurfaceBody): Vec3[] {
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
