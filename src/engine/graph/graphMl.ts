import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC, type Own } from '../kernel';
import type { Vec3 } from '../math/vec3';
import type { Convexity } from '../scene/edgeConvexity';
import { mapEntities } from '../scene/topology';
import { uvBounds } from './graphSelect';
import { buildTopologyGraph, faceNeighbours, type TopologyGraph } from './topologyGraph';

export const DEFAULT_UV_SAMPLES = 16;
export const DEFAULT_EDGE_SAMPLES = 32;
/**
 * Where the parametrisation is singular (a sphere's pole, a cone's apex: dS/du x dS/dv vanishes) the
 * normal and curvatures are their limits, evaluated this fraction of the UV range toward the face's
 * UV centre.
 */
export const SINGULAR_NUDGE = 1e-6;
/** dS/du x dS/dv is treated as vanishing when its length is below this times |dS/du| |dS/dv| (sine of the angle). */
const SINGULAR_SINE = 1e-9;

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
  /** Outward unit normals (flipped for a reversed face); [0, 0, 0] where no normal exists. */
  normals: Vec3[];
  gaussianCurvatures: (number | null)[];
  /** (k1 + k2) / 2, positive where the face bulges outward (a ball: +1/r, a shaft: +1/(2r)), negative where it is hollow (a hole: -1/(2r)). */
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
  const Su = own(new oc.gp_Vec_1()), Sv = own(new oc.gp_Vec_1());
  const Suu = own(new oc.gp_Vec_1()), Svv = own(new oc.gp_Vec_1()), Suv = own(new oc.gp_Vec_1());
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
      const sign = face.Orientation_1() === oc.TopAbs_Orientation.TopAbs_REVERSED ? -1 : 1;
      const uc = (u0 + u1) / 2, vc = (v0 + v1) / 2;
      const rec: GraphMlFace = { index: f, uSamples: n, vSamples: n, uvBounds: bounds, positions: [], normals: [], gaussianCurvatures: [], meanCurvatures: [], inside: [] };
      const evalAt = (u: number, v: number): { n: Vec3; K: number; H: number } | null => {
        surface.D2(u, v, P, Su, Sv, Suu, Svv, Suv);
        const ux = Su.X(), uy = Su.Y(), uz = Su.Z(), vx = Sv.X(), vy = Sv.Y(), vz = Sv.Z();
        const E = ux * ux + uy * uy + uz * uz, F = ux * vx + uy * vy + uz * vz, G = vx * vx + vy * vy + vz * vz;
        const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        const len = Math.hypot(nx, ny, nz);
        if (!(len > SINGULAR_SINE * Math.sqrt(E * G))) return null;
        const ex = nx / len, ey = ny / len, ez = nz / len;
        const L = Suu.X() * ex + Suu.Y() * ey + Suu.Z() * ez;
        const M = Suv.X() * ex + Suv.Y() * ey + Suv.Z() * ez;
        const N = Svv.X() * ex + Svv.Y() * ey + Svv.Z() * ez;
        const det = E * G - F * F;
        // Shape operator relative to the parametric normal; the mean curvature is reported relative to
        // the outward normal with convex positive, hence -sign.
        const Hpar = (E * N - 2 * F * M + G * L) / (2 * det);
        return { n: [sign * ex, sign * ey, sign * ez], K: (L * N - M * M) / det, H: -sign * Hpar };
      };
      for (const u of spaced(u0, u1, n)) {
        for (const v of spaced(v0, v1, n)) {
          let r = evalAt(u, v);
          const p: Vec3 = [P.X(), P.Y(), P.Z()];
          if (!r) r = evalAt(u + Math.sign(uc - u) * SINGULAR_NUDGE * (u1 - u0), v + Math.sign(vc - v) * SINGULAR_NUDGE * (v1 - v0));
          rec.positions.push(p);
          rec.normals.push(r ? r.n : [0, 0, 0]);
          rec.gaussianCurvatures.push(r ? r.K : null);
          rec.meanCurvatures.push(r ? r.H : null);
          uv.SetCoord_2(u, v);
          rec.inside.push(classifier.Perform(uv, false) !== outside);
        }
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
