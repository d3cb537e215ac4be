import { surfaceBody } from '../scene/pointsBody';
import type { TopoDS_Edge, TopoDS_Face, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { z } from 'zod';
import { withKernel, type OC, type Own } from '../kernel';
import type { Vec3 } from '../math/vec3';
import type { TriMesh } from '../mesh/TriMesh';
import type { Body } from '../scene/Body';
import { entityId, mapEntities } from '../scene/topology';
import { curveTypeName, surfaceTypeName } from '../scene/typeNames';
import { INTEGRATION_EPS } from './computeMetrics';
import { defineTool } from './defineTool';
import { bodyIdSchema } from './schemas';

/** Surface type names in results; filters also accept the origin service's spellings (aliases). */
const SURFACE_TYPES = ['plane', 'cylinder', 'cone', 'sphere', 'torus', 'bezier', 'bspline', 'revolution', 'extrusion', 'offset', 'other'] as const;
const SURFACE_ALIASES: Record<string, (typeof SURFACE_TYPES)[number]> = {
  bezierSurface: 'bezier',
  bsplineSurface: 'bspline',
  surfaceOfRevolution: 'revolution',
  surfaceOfExtrusion: 'extrusion',
  offsetSurface: 'offset',
};
/** Curve type names in results (the spec shows LINE and CIRCULAR); lower-case origin spellings are accepted too. */
const CURVE_TYPES = ['LINE', 'CIRCULAR', 'ELLIPSE', 'HYPERBOLA', 'PARABOLA', 'BEZIER', 'BSPLINE', 'OFFSET', 'DEGENERATE', 'OTHER'] as const;
const CURVE_ALIASES: Record<string, (typeof CURVE_TYPES)[number]> = {
  line: 'LINE',
  circle: 'CIRCULAR',
  circular: 'CIRCULAR',
  ellipse: 'ELLIPSE',
  hyperbola: 'HYPERBOLA',
  parabola: 'PARABOLA',
  bezierCurve: 'BEZIER',
  bsplineCurve: 'BSPLINE',
  offsetCurve: 'OFFSET',
  degenerate: 'DEGENERATE',
  other: 'OTHER',
};

const surfaceTypeSchema = z.enum([...SURFACE_TYPES, ...(Object.keys(SURFACE_ALIASES) as [string, ...string[]])]);
const curveTypeSchema = z.enum([...CURVE_TYPES, ...(Object.keys(CURVE_ALIASES) as [string, ...string[]])]);

const schema = z
  .strictObject({
    bodyId: bodyIdSchema.describe('Body to query'),
    entity: z.enum(['face', 'edge', 'vertex']).describe('Which entities to list'),
    filter: z
      .strictObject({
        surfaceType: surfaceTypeSchema.optional().describe('Faces only: keep faces of this surface type'),
        curveType: curveTypeSchema.optional().describe('Edges only: keep edges of this curve type'),
        minArea: z.number().min(0).optional().describe('Faces only: keep faces with area >= minArea'),
        maxArea: z.number().min(0).optional().describe('Faces only: keep faces with area <= maxArea'),
      })
      .optional(),
    limit: z.int().min(1).optional().describe('Maximum number of entries returned'),
  })
  .superRefine((a, ctx) => {
    const f = a.filter ?? {};
    const faceOnly = (['surfaceType', 'minArea', 'maxArea'] as const).filter((k) => f[k] !== undefined);
    if (a.entity !== 'face' && faceOnly.length) ctx.addIssue({ code: 'custom', path: ['filter', faceOnly[0]!], message: `${faceOnly[0]} filters faces; entity is ${a.entity}` });
    if (a.entity !== 'edge' && f.curveType !== undefined) ctx.addIssue({ code: 'custom', path: ['filter', 'curveType'], message: `curveType filters edges; entity is ${a.entity}` });
    if (f.minArea !== undefined && f.maxArea !== undefined && f.minArea > f.maxArea) ctx.addIssue({ code: 'custom', path: ['filter', 'minArea'], message: 'minArea must not exceed maxArea' });
  });

export interface TopologyEntry {
  id: string;
  surfaceType?: string;
  curveType?: string;
  area?: number;
  length?: number;
  centroid: Vec3;
  endpoints?: [Vec3, Vec3];
  direction?: Vec3;
  circleCenter?: Vec3;
  radius?: number;
  axis?: Vec3;
  startAngle?: number;
  endAngle?: number;
}

interface Filter {
  surfaceType?: string | undefined;
  curveType?: string | undefined;
  minArea?: number | undefined;
  maxArea?: number | undefined;
}

export const queryTopology = defineTool({
  name: 'query_topology',
  description:
    'List the faces, edges or vertices of a body with their ids (face[N], edge[N], vertex[N]), surface or curve type, area or length and centroid; edges carry endpoints, LINE edges a direction, CIRCULAR edges centre, radius, axis and start/end angles (radians from the circle xAxis). Filter by surfaceType, curveType, minArea, maxArea; limit caps the count. No match gives an empty array.',
  category: 'scene',
  schema,
  async run(args, ctx) {
    const body = surfaceBody(ctx.scene.get(args.bodyId), 'query_topology', 'faces, edges and vertices');
    const filter: Filter = {
      ...args.filter,
      surfaceType: args.filter?.surfaceType !== undefined ? (SURFACE_ALIASES[args.filter.surfaceType] ?? args.filter.surfaceType) : undefined,
      curveType: args.filter?.curveType !== undefined ? (CURVE_ALIASES[args.filter.curveType] ?? args.filter.curveType) : undefined,
    };
    const limit = args.limit ?? Infinity;
    if (body.kind === 'mesh') return meshEntries(body, args.entity, filter, limit);
    const oc = await ctx.kernel();
    return brepEntries(oc, body.shape, args.entity, filter, limit);
  },
});

function keep(entry: TopologyEntry, f: Filter): boolean {
  if (f.surfaceType !== undefined && entry.surfaceType !== f.surfaceType) return false;
  if (f.curveType !== undefined && entry.curveType !== f.curveType) return false;
  if (f.minArea !== undefined && (entry.area ?? 0) < f.minArea) return false;
  if (f.maxArea !== undefined && (entry.area ?? 0) > f.maxArea) return false;
  return true;
}

function brepEntries(oc: OC, shape: TopoDS_Shape, kind: 'face' | 'edge' | 'vertex', f: Filter, limit: number): TopologyEntry[] {
  return withKernel(oc, (own) => {
    const map = mapEntities(oc, own, shape, kind);
    const out: TopologyEntry[] = [];
    for (let i = 1; i <= map.Extent() && out.length < limit; i++) {
      const sub = own(map.FindKey(i));
      const id = entityId(kind, i - 1);
      const entry =
        kind === 'face' ? faceEntry(oc, own, oc.TopoDS.Face_1(sub), id) : kind === 'edge' ? edgeEntry(oc, own, oc.TopoDS.Edge_1(sub), id) : vertexEntry(oc, own, sub, id);
      if (keep(entry, f)) out.push(entry);
    }
    return out;
  });
}

const pnt = (p: { X(): number; Y(): number; Z(): number }): Vec3 => [p.X(), p.Y(), p.Z()];


function faceEntry(oc: OC, own: Own, face: TopoDS_Face, id: string): TopologyEntry {
  own(face);
  const adaptor = own(new oc.BRepAdaptor_Surface_2(face, true));
  const props = own(new oc.GProp_GProps_1());
  oc.BRepGProp.SurfaceProperties_2(face, props, INTEGRATION_EPS, false);
  return { id, surfaceType: surfaceTypeName(oc, adaptor.GetType()), area: props.Mass(), centroid: pnt(own(props.CentreOfMass())) };
}

function edgeEntry(oc: OC, own: Own, edge: TopoDS_Edge, id: string): TopologyEntry {
  own(edge);
  if (oc.BRep_Tool.Degenerated(edge)) {
    const p = pnt(own(oc.BRep_Tool.Pnt(own(oc.TopExp.FirstVertex(edge, false)))));
    return { id, curveType: 'DEGENERATE', length: 0, centroid: p, endpoints: [p, p] };
  }
  const curve = own(new oc.BRepAdaptor_Curve_2(edge));
  const props = own(new oc.GProp_GProps_1());
  oc.BRepGProp.LinearProperties(edge, props, false, false);
  const u0 = curve.FirstParameter();
  const u1 = curve.LastParameter();
  const curveType = curveTypeName(oc, curve.GetType());
  const entry: TopologyEntry = {
    id,
    curveType,
    length: props.Mass(),
    centroid: pnt(own(props.CentreOfMass())),
    endpoints: [pnt(own(curve.Value(u0))), pnt(own(curve.Value(u1)))],
  };
  if (curveType === 'LINE') {
    const line = own(curve.Line());
    entry.direction = pnt(own(line.Direction()));
  } else if (curveType === 'CIRCULAR') {
    const circle = own(curve.Circle());
    entry.circleCenter = pnt(own(circle.Location()));
    entry.radius = circle.Radius();
    entry.axis = pnt(own(own(circle.Axis()).Direction()));
    // A circle's parameter is the angle from its own xAxis.
    entry.startAngle = u0;
    entry.endAngle = u1;
  }
  return entry;
}

function vertexEntry(oc: OC, own: Own, shape: TopoDS_Shape, id: string): TopologyEntry {
  const vertex = own(oc.TopoDS.Vertex_1(shape));
  return { id, centroid: pnt(own(oc.BRep_Tool.Pnt(vertex))) };
}

/** A mesh body as a facet shell: every triangle a planar face, every triangle edge a LINE edge. */
function meshEntries(body: Extract<Body, { kind: 'mesh' }>, kind: 'face' | 'edge' | 'vertex', f: Filter, limit: number): TopologyEntry[] {
  const { positions: p, indices } = body.mesh;
  const at = (v: number): Vec3 => [p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!];
  const out: TopologyEntry[] = [];
  if (kind === 'face') {
    for (let t = 0; t < indices.length / 3 && out.length < limit; t++) {
      const [a, b, c] = [at(indices[t * 3]!), at(indices[t * 3 + 1]!), at(indices[t * 3 + 2]!)];
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const area = 0.5 * Math.hypot(u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!);
      const entry: TopologyEntry = { id: entityId('face', t), surfaceType: 'plane', area, centroid: [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3] };
      if (keep(entry, f)) out.push(entry);
    }
    return out;
  }
  if (kind === 'vertex') {
    for (let v = 0; v < p.length / 3 && out.length < limit; v++) out.push({ id: entityId('vertex', v), centroid: at(v) });
    return out;
  }
  if (f.curveType !== undefined && f.curveType !== 'LINE') return out;
  let n = 0;
  for (const [a, b] of meshEdges(body.mesh)) {
    if (out.length >= limit) break;
    const pa = at(a), pb = at(b);
    // Welding merged identical corners, so a stored edge always has length > 0.
    const length = Math.hypot(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]);
    out.push({
      id: entityId('edge', n++),
      curveType: 'LINE',
      length,
      centroid: [(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2],
      endpoints: [pa, pb],
      direction: [(pb[0] - pa[0]) / length, (pb[1] - pa[1]) / length, (pb[2] - pa[2]) / length],
    });
  }
  return out;
}

/** Distinct undirected edges in order of first use by triangles (the mesh's edge[N] order). */
export function* meshEdges(mesh: TriMesh): Generator<[number, number]> {
  const seen = new Set<number>();
  const V = mesh.positions.length / 3;
  const idx = mesh.indices;
  for (let t = 0; t < idx.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = idx[t + k]!, b = idx[t + ((k + 1) % 3)]!;
      if (a === b) continue;
      const key = a < b ? a * V + b : b * V + a;
      if (seen.has(key)) continue;
      seen.add(key);
      yield a < b ? [a, b] : [b, a];
    }
  }
}
