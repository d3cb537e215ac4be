import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC, type Own } from '../kernel';
import type { Vec3 } from '../math/vec3';
import type { Convexity } from '../scene/edgeConvexity';
import { mapEntities } from '../scene/topology';
import { uvBounds } from './graphSelect';
import { surfaceProbe } from './surfaceDifferentials';
import { DEFAULT_EDGE_SAMPLES, DEFAULT_UV_SAMPLES } from './graphOptions';
import { buildTopologyGraph, faceNeighbours, type TopologyGraph } from './topologyGraph';

export { DEFAULT_EDGE_SAMPLES, DEFAULT_UV_SAMPLES };
export interface Coo {
  sources: number[];
  targets: number[];
}

export interface GraphMlFace {
  index: number;
  uSamples: number;
  vSamples: number;
  /** [umin, umax, vmin, vmax]: BRepTools::UVBounds of the trimmed face; the grid spans it, ends included. */
  uvBounds: [number, number, number, number];
  /** Grid points, u-major: sample (iu, iv) is entry iu * vSamples + iv. */
  positions: Vec3[];
  /** Outward unit normals (flipped for a reversed face); at a singular point of the parametrisation the limit; [0, 0, 0] where there is none. */
  normals: Vec3[];
  /** k1 k2; at a singular point the limit; null where it has no finite limit. */
  gaussianCurvatures: (number | null)[];
  /** (k1 + k2) / 2, positive where the face bulges outward (a ball: +1/r, a shaft: +1/(2r)), negative where it is hollow (a hole: -1/(2r)); null where it has no finite limit (a cone's apex). */
  meanCurvatures: (number | null)[];
  /** The sample lies inside the trimmed face or on its boundary (BRepTopAdaptor_FClass2d); points outside are still evaluated on the untrimmed surface. */
  inside: boolean[];
}

export interface GraphMlEdge {
  index: number;
  /** Points at parameters evenly spaced over the edge's range, from its first to its last parameter (ends included). */
  samples: Vec3[];
}

export interface GraphMlResult {
  vertexPositions: Vec3[];
  edgeBoundaryFlags: boolean[];
  edgeManifoldFlags: boolean[];
  faceAdjacentFaces: number[][];
  /** Every adjacent face pair in both directions. */
  faceToFace: Coo;
  /** Face to each distinct edge of its wires. */
  faceToEdge: Coo;
  /** Edge to each distinct vertex: start, then end (when different), then internal vertices. */
  edgeToVertex: Coo;
  faces: GraphMlFace[];
  edges: GraphMlEdge[];
  faceAdjacency: { face1: number; face2: number; convexity: Convexity; sharedEdgeCount: number }[];
  sampling: { uvSamples: number; edgeSamples: number };
}

export interface GraphMlOptions {
  uvSamples?: number;
  edgeSamples?: number;
}

export function graphMl(oc: OC, shape: TopoDS_Shape, options: GraphMlOptions = {}, prebuilt?: TopologyGraph): GraphMlResult {
  const uvSamples = options.uvSamples ?? DEFAULT_UV_SAMPLES;
  const edgeSamples = options.edgeSamples ?? DEFAULT_EDGE_SAMPLES;
  const graph = prebuilt ?? buildTopologyGraph(oc, shape);

  const faceToFace: Coo = { sources: [], targets: [] };
  const neighbours = faceNeighbours(graph);
  neighbours.forEach((list, f) => {
    for (const g of list) {
      faceToFace.sources.push(f);
      faceToFace.targets.push(g);
    }
  });
  const faceToEdge: Coo = { sources: [], targets: [] };
  const faceEdges: number[][] = graph.faces.map(() => []);
  for (const c of graph.coedges) if (c.face >= 0) faceEdges[c.face]!.push(c.edge);
  faceEdges.forEach((list, f) => {
    for (const e of [...new Set(list)].sort((a, b) => a - b)) {
      faceToEdge.sources.push(f);
      faceToEdge.targets.push(e);
    }
  });
  const edgeToVertex: Coo = { sources: [], targets: [] };
  graph.edges.forEach((edge, e) => {
    const ordered = [edge.start, edge.end, ...edge.vertices].filter((v, i, all) => v >= 0 && all.indexOf(v) === i);
    for (const v of ordered) {
      edgeToVertex.sources.push(e);
      edgeToVertex.targets.push(v);
    }
  });

  const { faces, edges } = withKernel(oc, (own) => ({
    faces: sampleFaces(oc, own, shape, uvSamples),
    edges: sampleEdges(oc, own, shape, edgeSamples),
  }));

  return {
    vertexPositions: graph.vertices.map((v) => v.position),
    edgeBoundaryFlags: graph.edges.map((e) => e.boundary),
    edgeManifoldFlags: graph.edges.map((e) => e.manifold),
    faceAdjacentFaces: neighbours,
    faceToFace,
    faceToEdge,
    edgeToVertex,
    faces,
    edges,
    faceAdjacency: graph.faceAdjacency.map((a) => ({ face1: a.face1, face2: a.face2, convexity: a.convexity, sharedEdgeCount: a.sharedEdgeCount })),
    sampling: { uvSamples, edgeSamples },
  };
}

/** n evenly spaced values over [a, b], ends included; one sample sits in the middle. */
function spaced(a: number, b: number, n: number): number[] {
  if (n === 1) return [(a + b) / 2];
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? b : a + ((b - a) * i) / (n - 1)));
}

function sampleFaces(oc: OC, own: Own, shape: TopoDS_Shape, n: number): GraphMlFace[] {
  const map = mapEntities(oc, own, shape, 'face');
  const P = own(new oc.gp_Pnt_1());
  const uv = own(new oc.gp_Pnt2d_1());
  const out: GraphMlFace[] = [];
  const outside = oc.TopAbs_State.TopAbs_OUT;
  for (let f = 0; f < map.Extent(); f++) {
    withKernel(oc, (local) => {
      const face = local(oc.TopoDS.Face_1(local(map.FindKey(f + 1))));
      const bounds = uvBounds(oc, face);
      const [u0, u1, v0, v1] = bounds;
      const surface = local(new oc.BRepAdaptor_Surface_2(face, true));
      const classifier = local(new oc.BRepTopAdaptor_FClass2d(face, 1e-7));
      const grid = spaced(u0, u1, n).flatMap((u) => spaced(v0, v1, n).map((v) => [u, v] as const));
      // The face's size (its grid's box) is what "a vanishing derivative" is measured against.
      const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
      for (const [u, v] of grid) {
        surface.D0(u, v, P);
        [P.X(), P.Y(), P.Z()].forEach((c, k) => {
          lo[k] = Math.min(lo[k]!, c);
          hi[k] = Math.max(hi[k]!, c);
        });
      }
      const probe = surfaceProbe(oc, local, surface, {
        uvBounds: bounds,
        size: Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]),
        orientation: face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED ? -1 : 1,
      });
      const rec: GraphMlFace = { index: f, uSamples: n, vSamples: n, uvBounds: bounds, positions: [], normals: [], gaussianCurvatures: [], meanCurvatures: [], inside: [] };
      for (const [u, v] of grid) {
        const s = probe(u, v);
        rec.positions.push(s.position);
        rec.normals.push(s.normal ?? [0, 0, 0]);
        rec.gaussianCurvatures.push(s.gaussian);
        rec.meanCurvatures.push(s.mean);
        uv.SetCoord_2(u, v);
        rec.inside.push(classifier.Perform(uv, false) !== outside);
      }
      out.push(rec);
    });
  }
  return out;
}

function sampleEdges(oc: OC, own: Own, shape: TopoDS_Shape, n: number): GraphMlEdge[] {
  const map = mapEntities(oc, own, shape, 'edge');
  const P = own(new oc.gp_Pnt_1());
  const out: GraphMlEdge[] = [];
  for (let e = 0; e < map.Extent(); e++) {
    withKernel(oc, (local) => {
      const edge = local(oc.TopoDS.Edge_1(local(map.FindKey(e + 1))));
      const samples: Vec3[] = [];
      if (oc.BRep_Tool.Degenerated(edge)) {
        const p = local(oc.BRep_Tool.Pnt(local(oc.TopExp.FirstVertex(edge, false))));
        for (let i = 0; i < n; i++) samples.push([p.X(), p.Y(), p.Z()]);
      } else {
        const curve = local(new oc.BRepAdaptor_Curve_2(edge));
        for (const t of spaced(curve.FirstParameter(), curve.LastParameter(), n)) {
          curve.D0(t, P);
          samples.push([P.X(), P.Y(), P.Z()]);
        }
      }
      out.push({ index: e, samples });
    });
  }
  return out;
}
