import { curveTypeName, shapeTypeName, surfaceTypeName } from '../scene/typeNames';
import type { TopoDS_Shape, TopTools_IndexedMapOfShape } from 'opencascade.js/dist/opencascade.full';
import { isShapeKind, topAbs, withKernel, type OC, type Own, type ShapeKind } from '../kernel';
import type { Vec3 } from '../math/vec3';
import { edgeConvexity, type Convexity } from '../scene/edgeConvexity';

/**
 * The topology graph of a BREP as plain data (no kernel objects kept). Every kind is indexed 0-based
 * in TopExp.MapShapes order of the whole shape, so `faces[N]` is `face[N]`, `edges[N]` is `edge[N]` and
 * `vertices[N]` is `vertex[N]` of the scene tools. Coedges (oriented uses of an edge in a wire) have
 * no kernel map: they are numbered face by face (face order), wire by wire (the face's wires in
 * iteration order), edge by edge (the wire's edges in iteration order); coedges of loose wires (in
 * no face) follow, in wire order.
 */
export interface TopologyGraph {
  /** Kind of the root shape: COMPOUND, COMPSOLID, SOLID, SHELL, FACE, WIRE, EDGE or VERTEX. */
  shapeType: string;
  solids: GraphSolid[];
  shells: GraphShell[];
  faces: GraphFace[];
  wires: GraphWire[];
  edges: GraphEdge[];
  vertices: GraphVertex[];
  coedges: GraphCoedge[];
  /** One entry per pair of distinct faces sharing at least one edge, face1 < face2, sorted by (face1, face2). */
  faceAdjacency: FaceAdjacency[];
}

interface GraphSolid {
  shells: number[];
}

interface GraphShell {
  faces: number[];
  /** The solids holding this shell (empty for a loose shell). */
  solids: number[];
  /** BRep_Tool::IsClosed: no edge of the shell bounds only one of its faces. */
  closed: boolean;
}

interface GraphFace {
  wires: number[];
  /** BRepTools::OuterWire; -1 for a face without wires. */
  outerWire: number;
  surfaceType: string;
  /** The face is REVERSED in the shape: its outward normal is -(dS/du x dS/dv). */
  reversed: boolean;
  shells: number[];
}

interface GraphWire {
  coedges: number[];
  /** The face the wire bounds; -1 for a loose wire. */
  face: number;
  /** BRep_Tool::IsClosed: every vertex of the wire is used an even number of times. */
  closed: boolean;
}

export type EdgeClass = 'boundary' | 'non-manifold' | 'seam' | 'degenerate';

interface GraphEdge {
  /** Vertex at the curve's first parameter (edge taken FORWARD); -1 when there is none (an infinite edge). */
  start: number;
  /** Vertex at the curve's last parameter; equals start on a closed edge. */
  end: number;
  /** Every distinct vertex of the edge (start, end, and internal vertices), sorted. */
  vertices: number[];
  curveType: string;
  degenerated: boolean;
  coedges: number[];
  /** Distinct faces using the edge, sorted. */
  faces: number[];
  /** Number of face uses (coedges in faces): 1 boundary, 2 manifold (a seam counts twice), >2 non-manifold. */
  faceUses: number;
  /** Used twice by one face (the seam of a closed surface). */
  seam: boolean;
  /** Exactly one face use and not degenerated: the edge bounds an opening (a free edge of a shell). */
  boundary: boolean;
  /** Exactly two face uses, or a degenerated edge with one use (a pole, closed on its own face). */
  manifold: boolean;
  /** More than two face uses. */
  nonManifold: boolean;
}

interface GraphVertex {
  position: Vec3;
  tolerance: number;
  /** Edges incident to the vertex, sorted. */
  edges: number[];
}

interface GraphCoedge {
  edge: number;
  wire: number;
  /** -1 for a coedge of a loose wire. */
  face: number;
  /**
   * The edge runs against its curve's direction here. Orientations are composed down from the face
   * as it sits in the shape, so a face's coedges run with the material on their left seen from
   * outside, and the two coedges of a manifold edge of a closed solid have opposite orientations.
   */
  reversed: boolean;
}

interface FaceAdjacency {
  face1: number;
  face2: number;
  /** How the faces meet at the first shared edge in edge order (scene/edgeConvexity.ts, sine tolerance SMOOTH_SINE). */
  convexity: Convexity;
  sharedEdgeCount: number;
  /** The shared edges, sorted. */
  sharedEdges: number[];
}

type KindMaps = Record<'solid' | 'shell' | 'face' | 'wire' | 'edge' | 'vertex', TopTools_IndexedMapOfShape>;

const MAP_KINDS: [keyof KindMaps, ShapeKind][] = [
  ['solid', 'SOLID'],
  ['shell', 'SHELL'],
  ['face', 'FACE'],
  ['wire', 'WIRE'],
  ['edge', 'EDGE'],
  ['vertex', 'VERTEX'],
];

/** MapShapes of every kind the graph indexes (owned by `own`). */
export function kindMaps(oc: OC, own: Own, shape: TopoDS_Shape): KindMaps {
  const maps = {} as KindMaps;
  for (const [name, kind] of MAP_KINDS) {
    const map = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, topAbs(oc, kind), map);
    maps[name] = map;
  }
  return maps;
}


/** Children of a shape, with orientation and location composed from the parent. */
function children(oc: OC, own: Own, shape: TopoDS_Shape): TopoDS_Shape[] {
  const out: TopoDS_Shape[] = [];
  for (const it = own(new oc.TopoDS_Iterator_2(shape, true, true)); it.More(); it.Next()) out.push(own(it.Value()));
  return out;
}

const sortedUnique = (xs: Iterable<number>): number[] => [...new Set(xs)].sort((a, b) => a - b);

/** Builds the graph; with `convexity` false the face adjacency gets 'smooth' everywhere (cheaper, for counts only). */
export function buildTopologyGraph(oc: OC, shape: TopoDS_Shape, options: { convexity?: boolean } = {}): TopologyGraph {
  return withKernel(oc, (own) => {
    const maps = kindMaps(oc, own, shape);
    const key = (kind: keyof KindMaps, i: number): TopoDS_Shape => own(maps[kind].FindKey(i + 1));
    const index = (kind: keyof KindMaps, s: TopoDS_Shape): number => maps[kind].FindIndex(s) - 1;
    const kindOf = (s: TopoDS_Shape, k: ShapeKind): boolean => isShapeKind(oc, s.ShapeType(), k);
    const reversedOri = oc.TopAbs_Orientation.TopAbs_REVERSED;

    const solids: GraphSolid[] = [];
    const shells: GraphShell[] = [];
    for (let i = 0; i < maps.shell.Extent(); i++) shells.push({ faces: [], solids: [], closed: oc.BRep_Tool.IsClosed_1(key('shell', i)) });
    for (let i = 0; i < maps.solid.Extent(); i++) {
      const shellIds = children(oc, own, key('solid', i))
        .filter((c) => kindOf(c, 'SHELL'))
        .map((c) => index('shell', c));
      solids.push({ shells: sortedUnique(shellIds) });
      for (const s of shellIds) shells[s]!.solids.push(i);
    }
    const faceShells: number[][] = Array.from({ length: maps.face.Extent() }, () => []);
    for (let i = 0; i < shells.length; i++) {
      const faceIds = children(oc, own, key('shell', i))
        .filter((c) => kindOf(c, 'FACE'))
        .map((c) => index('face', c));
      shells[i]!.faces = sortedUnique(faceIds);
      for (const f of shells[i]!.faces) faceShells[f]!.push(i);
    }

    const wires: GraphWire[] = [];
    for (let i = 0; i < maps.wire.Extent(); i++) wires.push({ coedges: [], face: -1, closed: oc.BRep_Tool.IsClosed_1(key('wire', i)) });
    const coedges: GraphCoedge[] = [];
    const addCoedges = (wire: TopoDS_Shape, w: number, f: number): void => {
      for (const e of children(oc, own, wire)) {
        if (!kindOf(e, 'EDGE')) continue;
        wires[w]!.coedges.push(coedges.length);
        coedges.push({ edge: index('edge', e), wire: w, face: f, reversed: e.Orientation_1() === reversedOri });
      }
    };

    const faces: GraphFace[] = [];
    for (let f = 0; f < maps.face.Extent(); f++) {
      const face = own(oc.TopoDS.Face_1(key('face', f)));
      const surface = own(new oc.BRepAdaptor_Surface_2(face, false));
      const wireIds: number[] = [];
      for (const w of children(oc, own, face)) {
        if (!kindOf(w, 'WIRE')) continue;
        const wi = index('wire', w);
        wireIds.push(wi);
        if (wires[wi]!.face < 0) wires[wi]!.face = f;
        addCoedges(w, wi, f);
      }
      const outer = wireIds.length ? own(oc.BRepTools.OuterWire(face)) : undefined;
      faces.push({
        wires: wireIds,
        outerWire: outer && !outer.IsNull() ? index('wire', outer) : -1,
        surfaceType: surfaceTypeName(oc, surface.GetType()),
        reversed: face.Orientation_1() === reversedOri,
        shells: faceShells[f]!,
      });
    }
    for (let w = 0; w < wires.length; w++) if (wires[w]!.face < 0) addCoedges(key('wire', w), w, -1);

    const vertices: GraphVertex[] = [];
    for (let v = 0; v < maps.vertex.Extent(); v++) {
      const vertex = own(oc.TopoDS.Vertex_1(key('vertex', v)));
      const p = own(oc.BRep_Tool.Pnt(vertex));
      vertices.push({ position: [p.X(), p.Y(), p.Z()], tolerance: oc.BRep_Tool.Tolerance_3(vertex), edges: [] });
    }

    const edges: GraphEdge[] = [];
    const forward = oc.TopAbs_Orientation.TopAbs_FORWARD as never;
    for (let e = 0; e < maps.edge.Extent(); e++) {
      const edge = own(oc.TopoDS.Edge_1(key('edge', e)));
      const fwd = own(oc.TopoDS.Edge_1(own(edge.Oriented(forward))));
      const v1 = own(oc.TopExp.FirstVertex(fwd, false));
      const v2 = own(oc.TopExp.LastVertex(fwd, false));
      const degenerated = oc.BRep_Tool.Degenerated(edge);
      const curveType = degenerated ? 'DEGENERATE' : curveTypeName(oc, own(new oc.BRepAdaptor_Curve_2(edge)).GetType());
      const vertexIds = sortedUnique(children(oc, own, edge).filter((c) => kindOf(c, 'VERTEX')).map((c) => index('vertex', c)));
      for (const v of vertexIds) vertices[v]!.edges.push(e);
      edges.push({
        start: v1.IsNull() ? -1 : index('vertex', v1),
        end: v2.IsNull() ? -1 : index('vertex', v2),
        vertices: vertexIds,
        curveType,
        degenerated,
        coedges: [],
        faces: [],
        faceUses: 0,
        seam: false,
        boundary: false,
        manifold: false,
        nonManifold: false,
      });
    }
    for (let c = 0; c < coedges.length; c++) {
      const co = coedges[c]!;
      const edge = edges[co.edge]!;
      edge.coedges.push(c);
      if (co.face < 0) continue;
      if (edge.faces.includes(co.face)) edge.seam = true;
      else edge.faces.push(co.face);
      edge.faceUses++;
    }
    for (const edge of edges) {
      edge.faces.sort((a, b) => a - b);
      if (edge.degenerated) edge.seam = false;
      edge.boundary = !edge.degenerated && edge.faceUses === 1;
      edge.manifold = edge.faceUses === 2 || (edge.degenerated && edge.faceUses === 1);
      edge.nonManifold = edge.faceUses > 2;
    }

    const faceAdjacency = adjacency(edges, options.convexity !== false ? (e, f1, f2) => edgeConvexity(oc, own, own(oc.TopoDS.Edge_1(key('edge', e))), own(oc.TopoDS.Face_1(key('face', f1))), own(oc.TopoDS.Face_1(key('face', f2)))) : () => 'smooth');

    return { shapeType: shapeTypeName(oc, shape.ShapeType()), solids, shells, faces, wires, edges, vertices, coedges, faceAdjacency };
  });
}

function adjacency(edges: GraphEdge[], convexity: (edge: number, f1: number, f2: number) => Convexity): FaceAdjacency[] {
  const pairs = new Map<number, { face1: number; face2: number; sharedEdges: number[] }>();
  const stride = 2 ** 26;
  for (let e = 0; e < edges.length; e++) {
    const edge = edges[e]!;
    if (edge.degenerated || edge.faces.length < 2) continue;
    for (let i = 0; i < edge.faces.length; i++) {
      for (let j = i + 1; j < edge.faces.length; j++) {
        const face1 = edge.faces[i]!, face2 = edge.faces[j]!;
        const k = face1 * stride + face2;
        let pair = pairs.get(k);
        if (!pair) pairs.set(k, (pair = { face1, face2, sharedEdges: [] }));
        pair.sharedEdges.push(e);
      }
    }
  }
  return [...pairs.values()]
    .sort((a, b) => a.face1 - b.face1 || a.face2 - b.face2)
    .map((p) => ({ face1: p.face1, face2: p.face2, convexity: convexity(p.sharedEdges[0]!, p.face1, p.face2), sharedEdgeCount: p.sharedEdges.length, sharedEdges: p.sharedEdges }));
}

/** Indices of the edges of one class. */
export function edgesOfClass(graph: TopologyGraph, cls: EdgeClass): number[] {
  const test: Record<EdgeClass, (e: GraphEdge) => boolean> = {
    boundary: (e) => e.boundary,
    'non-manifold': (e) => e.nonManifold,
    seam: (e) => e.seam,
    degenerate: (e) => e.degenerated,
  };
  const out: number[] = [];
  graph.edges.forEach((e, i) => {
    if (test[cls](e)) out.push(i);
  });
  return out;
}

/** Neighbouring faces per face (sorted), from the adjacency list. */
export function faceNeighbours(graph: TopologyGraph): number[][] {
  const out: number[][] = graph.faces.map(() => []);
  for (const a of graph.faceAdjacency) {
    out[a.face1]!.push(a.face2);
    out[a.face2]!.push(a.face1);
  }
  for (const list of out) list.sort((a, b) => a - b);
  return out;
}
