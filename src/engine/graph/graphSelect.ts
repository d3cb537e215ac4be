import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError, invalidArgument } from '../errors';
import { withKernel, type OC } from '../kernel';
import type { Vec3 } from '../math/vec3';
import type { Convexity } from '../scene/edgeConvexity';
import { faceNormalAt } from '../scene/edgeConvexity';
import { mapEntities } from '../scene/topology';
import { EDGE_CLASSES, SELECT_QUERIES } from './graphOptions';
import { buildTopologyGraph, edgesOfClass, type EdgeClass, type TopologyGraph } from './topologyGraph';

export { EDGE_CLASSES, SELECT_QUERIES };
type SelectQuery = (typeof SELECT_QUERIES)[number];

/** A face is horizontal when |n.z| > cos(ORIENTATION_ANGLE) and vertical when |n.z| < sin(ORIENTATION_ANGLE) (radians). */
const ORIENTATION_ANGLE = 0.01;

export interface GraphSelectArgs {
  query: string;
  face?: number | undefined;
  edge?: number | undefined;
  vertex?: number | undefined;
  class?: string | undefined;
}

export interface FaceNeighborsResult {
  query: 'face-neighbors';
  face: number;
  isPlanar: boolean;
  isVertical: boolean;
  isHorizontal: boolean;
  normal: Vec3;
  neighbors: { face: number; convexity: Convexity; sharedEdgeCount: number }[];
}

export interface EdgeFacesResult {
  query: 'edge-faces';
  edge: number;
  faces: number[];
  startVertex: number | null;
  endVertex: number | null;
  boundary: boolean;
  manifold: boolean;
  seam: boolean;
  degenerated: boolean;
}

interface VertexEdgesResult {
  query: 'vertex-edges';
  vertex: number;
  edges: number[];
}

interface FaceAdjacencyResult {
  query: 'face-adjacency';
  faceCount: number;
  adjacencies: { face1: number; face2: number; convexity: Convexity; sharedEdgeCount: number }[];
}

export interface EdgesClassResult {
  query: 'edges-class';
  class: EdgeClass;
  edges: number[];
}

export type GraphSelectResult = FaceNeighborsResult | EdgeFacesResult | VertexEdgesResult | FaceAdjacencyResult | EdgesClassResult;

const SELECTOR: Record<SelectQuery, 'face' | 'edge' | 'vertex' | 'class' | undefined> = {
  'face-neighbors': 'face',
  'edge-faces': 'edge',
  'vertex-edges': 'vertex',
  'face-adjacency': undefined,
  'edges-class': 'class',
};

/** Checks the query and its selector before any file is read; returns the query. */
export function checkSelectArgs(args: GraphSelectArgs): SelectQuery {
  const query = args.query as SelectQuery;
  if (!SELECT_QUERIES.includes(query)) throw invalidArgument(`--query: '${args.query}' is not one of ${SELECT_QUERIES.join(', ')}`);
  const needed = SELECTOR[query];
  if (needed !== undefined && args[needed] === undefined) {
    throw new BrepscopeError('INVALID_ARGUMENT', `--query ${query} needs --${needed}`, { missing: `--${needed}` });
  }
  if (query === 'edges-class' && !EDGE_CLASSES.includes(args.class as EdgeClass)) {
    throw invalidArgument(`--class: '${args.class}' is not one of ${EDGE_CLASSES.join(', ')}`);
  }
  for (const k of ['face', 'edge', 'vertex'] as const) {
    const v = args[k];
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw invalidArgument(`--${k}: expected an integer >= 0, got ${v}`);
  }
  return query;
}

function checkIndex(kind: 'face' | 'edge' | 'vertex', index: number, count: number): void {
  if (index >= count) throw invalidArgument(`--${kind} ${index} is out of range: the shape has ${count} ${kind === 'vertex' ? 'vertices' : `${kind}s`} (0..${count - 1})`);
}

export function graphSelect(oc: OC, shape: TopoDS_Shape, args: GraphSelectArgs, prebuilt?: TopologyGraph): GraphSelectResult {
  const query = checkSelectArgs(args);
  const graph = prebuilt ?? buildTopologyGraph(oc, shape, { convexity: query === 'face-neighbors' || query === 'face-adjacency' });
  switch (query) {
    case 'face-neighbors': {
      const f = args.face!;
      checkIndex('face', f, graph.faces.length);
      const normal = faceMidNormal(oc, shape, f);
      const neighbors = graph.faceAdjacency
        .filter((a) => a.face1 === f || a.face2 === f)
        .map((a) => ({ face: a.face1 === f ? a.face2 : a.face1, convexity: a.convexity, sharedEdgeCount: a.sharedEdgeCount }))
        .sort((a, b) => a.face - b.face);
      const nz = Math.abs(normal[2]);
      return {
        query,
        face: f,
        isPlanar: graph.faces[f]!.surfaceType === 'plane',
        isVertical: nz < Math.sin(ORIENTATION_ANGLE),
        isHorizontal: nz > Math.cos(ORIENTATION_ANGLE),
        normal,
        neighbors,
      };
    }
    case 'edge-faces': {
      const e = args.edge!;
      checkIndex('edge', e, graph.edges.length);
      const edge = graph.edges[e]!;
      return {
        query,
        edge: e,
        faces: edge.faces,
        startVertex: edge.start < 0 ? null : edge.start,
        endVertex: edge.end < 0 ? null : edge.end,
        boundary: edge.boundary,
        manifold: edge.manifold,
        seam: edge.seam,
        degenerated: edge.degenerated,
      };
    }
    case 'vertex-edges': {
      const v = args.vertex!;
      checkIndex('vertex', v, graph.vertices.length);
      return { query, vertex: v, edges: graph.vertices[v]!.edges };
    }
    case 'face-adjacency':
      return {
        query,
        faceCount: graph.faces.length,
        adjacencies: graph.faceAdjacency.map((a) => ({ face1: a.face1, face2: a.face2, convexity: a.convexity, sharedEdgeCount: a.sharedEdgeCount })),
      };
    case 'edges-class': {
      const cls = args.class as EdgeClass;
      return { query, class: cls, edges: edgesOfClass(graph, cls) };
    }
  }
}

/** The outward normal at the middle of the face's UV bounds. */
function faceMidNormal(oc: OC, shape: TopoDS_Shape, f: number): Vec3 {
  return withKernel(oc, (own) => {
    const face = own(oc.TopoDS.Face_1(own(mapEntities(oc, own, shape, 'face').FindKey(f + 1))));
    const [u0, u1, v0, v1] = uvBounds(oc, face);
    return faceNormalAt(oc, own, face, (u0 + u1) / 2, (v0 + v1) / 2);
  });
}

/** BRepTools::UVBounds of a face: [umin, umax, vmin, vmax]. */
export function uvBounds(oc: OC, face: Parameters<OC['BRepTools']['UVBounds_1']>[0]): [number, number, number, number] {
  const r = [{ current: 0 }, { current: 0 }, { current: 0 }, { current: 0 }];
  // Standard_Real& out-parameters are passed as { current } boxes by the bindings.
  oc.BRepTools.UVBounds_1(face, r[0] as never, r[1] as never, r[2] as never, r[3] as never);
  return [r[0]!.current, r[1]!.current, r[2]!.current, r[3]!.current];
}
