import type { TopoDS_Edge, TopoDS_Face, TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { z } from 'zod';
import { drainList, topAbs, withKernel, type OC, type Own } from '../kernel';
import { cross, dot, type Vec3 } from '../math/vec3';
import { edgeConvexity, faceNormalAt, faceNormalOnEdge, SMOOTH_SINE, type Convexity } from '../scene/edgeConvexity';
import { mapEntities } from '../scene/topology';
import { defineTool } from './defineTool';
import { bodyIdSchema } from './schemas';

const KINDS = ['pocket', 'hole'] as const;

const schema = z.strictObject({
  bodyId: bodyIdSchema.describe('Body to analyse'),
  kinds: z.array(z.enum(KINDS)).min(1).optional().describe('Any of pocket, hole. Default: both'),
});

export interface HoleFeature {
  kind: 'hole';
  /** The hole's cylindrical faces, then the faces closing a blind hole's bottom. */
  faces: string[];
  diameter: number;
  /** Length of the cylindrical wall along the axis. */
  depth: number;
  /** Open at both ends (null when the body has no solid to classify against). */
  through: boolean | null;
  /** Unit axis, pointing from the opening into the material for a blind hole. */
  axis: Vec3;
  /** Centre of the opening (a blind hole's open end; a through hole's end at the axis start). */
  center: Vec3;
}

export interface PocketFeature {
  kind: 'pocket';
  /** The floor, then the walls. */
  faces: string[];
  floor: string;
  walls: string[];
  /** From the floor to the top of the walls, along the floor normal. */
  depth: number;
  /** Walls all round the floor (every floor edge concave) or open on some side. */
  closed: boolean;
}

export type Feature = HoleFeature | PocketFeature;

export const recognizeFeatures = defineTool({
  name: 'recognize_features',
  description:
    'Holes and pockets of a BREP body from its face adjacency graph. A hole: coaxial cylindrical faces of one radius spanning the full turn with normals toward the axis (diameter, depth, through or blind, axis). A pocket: a planar floor whose perpendicular walls meet it over concave edges and end at convex edges (depth, floor and wall faces, closed or open).',
  category: 'scene',
  schema,
  async run(args, ctx) {
    const body = ctx.scene.get(args.bodyId);
    const kinds = new Set(args.kinds ?? KINDS);
    if (body.kind === 'mesh') return { features: [], warnings: ['an STL body has only planar facets: no holes or pockets are recognized on meshes'] };
    const oc = await ctx.kernel();
    return withKernel(oc, (own) => {
      const graph = faceGraph(oc, own, body.shape);
      const holes = findHoles(oc, own, body.shape, graph);
      const features: Feature[] = [];
      if (kinds.has('hole')) features.push(...holes);
      if (kinds.has('pocket')) features.push(...findPockets(oc, own, graph, holes));
      return { features };
    });
  },
});

interface FaceGraph {
  faces: TopoDS_Face[];
  edges: TopoDS_Edge[];
  /** Per edge, the distinct faces (indices) it bounds. */
  edgeFaces: number[][];
  /** Per face, its edges (indices). */
  faceEdges: number[][];
  surfaceType: string[];
  convexity(edge: number, from: number, to: number): Convexity;
}

function faceGraph(oc: OC, own: Own, shape: TopoDS_Shape): FaceGraph {
  const faceMap = mapEntities(oc, own, shape, 'face');
  const edgeMap = mapEntities(oc, own, shape, 'edge');
  const faces: TopoDS_Face[] = [];
  const surfaceType: string[] = [];
  for (let i = 1; i <= faceMap.Extent(); i++) {
    const face = own(oc.TopoDS.Face_1(own(faceMap.FindKey(i))));
    faces.push(face);
    const type = own(new oc.BRepAdaptor_Surface_2(face, true)).GetType();
    surfaceType.push(type === oc.GeomAbs_SurfaceType.GeomAbs_Plane ? 'plane' : type === oc.GeomAbs_SurfaceType.GeomAbs_Cylinder ? 'cylinder' : 'other');
  }
  const ancestors = own(new oc.TopTools_IndexedDataMapOfShapeListOfShape_1());
  oc.TopExp.MapShapesAndAncestors(shape, topAbs(oc, 'EDGE'), topAbs(oc, 'FACE'), ancestors);
  const edges: TopoDS_Edge[] = [];
  const edgeFaces: number[][] = [];
  const faceEdges: number[][] = faces.map(() => []);
  for (let j = 1; j <= edgeMap.Extent(); j++) {
    const edge = own(oc.TopoDS.Edge_1(own(edgeMap.FindKey(j))));
    edges.push(edge);
    const k = ancestors.FindIndex(edge);
    const list = k > 0 ? drainList(own(ancestors.FindFromIndex(k))).map(own) : [];
    const indices = [...new Set(list.map((f) => faceMap.FindIndex(f) - 1))];
    edgeFaces.push(indices);
    for (const f of indices) faceEdges[f]!.push(j - 1);
  }
  const cache = new Map<string, Convexity>();
  return {
    faces,
    edges,
    edgeFaces,
    faceEdges,
    surfaceType,
    convexity(edge, from, to) {
      const key = `${edge}:${from}:${to}`;
      let c = cache.get(key);
      if (!c) {
        c = edgeConvexity(oc, own, edges[edge]!, faces[from]!, faces[to]!);
        cache.set(key, c);
      }
      return c;
    },
  };
}

const faceId = (i: number) => `face[${i}]`;
const xyz = (p: { X(): number; Y(): number; Z(): number }): Vec3 => [p.X(), p.Y(), p.Z()];
const add = (a: Vec3, b: Vec3, s = 1): Vec3 => [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];

interface CylinderFace {
  index: number;
  origin: Vec3;
  axis: Vec3;
  radius: number;
  uSpan: number;
  vMin: number;
  vMax: number;
  concave: boolean;
}

function cylinderFace(oc: OC, own: Own, face: TopoDS_Face, index: number): CylinderFace {
  const surface = own(new oc.BRepAdaptor_Surface_2(face, true));
  const cylinder = own(surface.Cylinder());
  const ax = own(cylinder.Axis());
  const origin = xyz(own(ax.Location()));
  const axis = xyz(own(ax.Direction()));
  const [u0, u1, v0, v1] = [surface.FirstUParameter(), surface.LastUParameter(), surface.FirstVParameter(), surface.LastVParameter()];
  const um = (u0 + u1) / 2, vm = (v0 + v1) / 2;
  const p = xyz(own(surface.Value(um, vm)));
  const rel = add(p, origin, -1);
  const radial = add(rel, axis, -dot(rel, axis));
  // Concave (a hole): the outward normal points toward the axis, the material lies outside the cylinder.
  const concave = dot(faceNormalAt(oc, own, face, um, vm), radial) < 0;
  return { index, origin, axis, radius: cylinder.Radius(), uSpan: u1 - u0, vMin: v0, vMax: v1, concave };
}

function findHoles(oc: OC, own: Own, shape: TopoDS_Shape, g: FaceGraph): HoleFeature[] {
  const cylinders = g.surfaceType.flatMap((t, i) => (t === 'cylinder' ? [cylinderFace(oc, own, g.faces[i]!, i)] : [])).filter((c) => c.concave);
  const groups: CylinderFace[][] = [];
  for (const c of cylinders) {
    const group = groups.find((grp) => coaxial(grp[0]!, c));
    if (group) group.push(c);
    else groups.push([c]);
  }
  const hasSolid = mapCount(oc, own, shape, 'SOLID') > 0;
  const holes: HoleFeature[] = [];
  for (const group of groups) {
    if (group.reduce((s, c) => s + c.uSpan, 0) < 2 * Math.PI - 1e-6) continue;
    const ref = group[0]!;
    // Along-axis extent in the reference cylinder's frame (each face may have its own origin).
    let sMin = Infinity, sMax = -Infinity;
    for (const c of group) {
      const shift = dot(add(c.origin, ref.origin, -1), ref.axis);
      const sign = dot(c.axis, ref.axis) > 0 ? 1 : -1;
      for (const v of [c.vMin, c.vMax]) {
        const s = shift + sign * v;
        sMin = Math.min(sMin, s);
        sMax = Math.max(sMax, s);
      }
    }
    const start = add(ref.origin, ref.axis, sMin);
    const end = add(ref.origin, ref.axis, sMax);
    const eps = Math.max(1e-6, 0.01 * ref.radius);
    let through: boolean | null = null;
    let axis = ref.axis;
    let center = start;
    if (hasSolid) {
      const startInside = isInside(oc, own, shape, add(start, ref.axis, -eps));
      const endInside = isInside(oc, own, shape, add(end, ref.axis, eps));
      through = !startInside && !endInside;
      if (startInside && !endInside) {
        axis = [-ref.axis[0], -ref.axis[1], -ref.axis[2]];
        center = end;
      }
    }
    const members = new Set(group.map((c) => c.index));
    // A blind hole's bottom meets the wall over concave edges (the opening's rim is convex).
    const bottom = new Set<number>();
    for (const c of group) {
      for (const e of g.faceEdges[c.index]!) {
        for (const other of g.edgeFaces[e]!) if (!members.has(other) && g.convexity(e, c.index, other) === 'concave') bottom.add(other);
      }
    }
    holes.push({ kind: 'hole', faces: [...members, ...bottom].map(faceId), diameter: 2 * ref.radius, depth: sMax - sMin, through, axis, center });
  }
  return holes;
}

function coaxial(a: CylinderFace, b: CylinderFace): boolean {
  if (Math.abs(a.radius - b.radius) > 1e-7 * Math.max(1, a.radius)) return false;
  if (Math.hypot(...cross(a.axis, b.axis)) > 1e-9) return false;
  const rel = add(b.origin, a.origin, -1);
  return Math.hypot(...cross(rel, a.axis)) < 1e-7 * Math.max(1, a.radius);
}

function isInside(oc: OC, own: Own, shape: TopoDS_Shape, p: Vec3): boolean {
  const classifier = own(new oc.BRepClass3d_SolidClassifier_3(shape, own(new oc.gp_Pnt_3(...p)), 1e-7));
  return classifier.State() === oc.TopAbs_State.TopAbs_IN;
}

function mapCount(oc: OC, own: Own, shape: TopoDS_Shape, kind: 'SOLID'): number {
  const map = own(new oc.TopTools_IndexedMapOfShape_1());
  oc.TopExp.MapShapes_1(shape, topAbs(oc, kind), map);
  return map.Extent();
}

function findPockets(oc: OC, own: Own, g: FaceGraph, holes: HoleFeature[]): PocketFeature[] {
  const holeFaces = holes.map((h) => new Set(h.faces));
  const pockets: PocketFeature[] = [];
  g.surfaceType.forEach((type, f) => {
    if (type !== 'plane') return;
    const floor = g.faces[f]!;
    const surface = own(new oc.BRepAdaptor_Surface_2(floor, true));
    const um = (surface.FirstUParameter() + surface.LastUParameter()) / 2;
    const vm = (surface.FirstVParameter() + surface.LastVParameter()) / 2;
    const n = faceNormalAt(oc, own, floor, um, vm);
    const h0 = dot(n, xyz(own(surface.Value(um, vm))));
    const walls = new Set<number>();
    let concaveEdges = 0;
    for (const e of g.faceEdges[f]!) {
      for (const other of g.edgeFaces[e]!) {
        if (other === f || g.convexity(e, f, other) !== 'concave') continue;
        concaveEdges++;
        const curve = own(new oc.BRepAdaptor_Curve_2(g.edges[e]!));
        const tm = (curve.FirstParameter() + curve.LastParameter()) / 2;
        if (Math.abs(dot(faceNormalOnEdge(oc, own, g.faces[other]!, g.edges[e]!, tm), n)) < SMOOTH_SINE) walls.add(other);
      }
    }
    if (walls.size === 0) return;
    const wallIds = [...walls].map(faceId);
    if (holeFaces.some((hf) => wallIds.every((w) => hf.has(w)))) return; // a blind hole's bottom
    // A floor's walls end at the opening: their topmost edges must not be concave.
    let depth = 0;
    for (const w of walls) {
      const tops = topEdges(oc, own, g, w, n);
      if (tops.edges.some((e) => g.edgeFaces[e]!.some((other) => other !== w && g.convexity(e, w, other) === 'concave'))) return;
      depth = Math.max(depth, tops.height - h0);
    }
    const boundary = g.faceEdges[f]!.filter((e) => !oc.BRep_Tool.Degenerated(g.edges[e]!)).length;
    pockets.push({ kind: 'pocket', faces: [faceId(f), ...wallIds], floor: faceId(f), walls: wallIds, depth, closed: concaveEdges === boundary });
  });
  return pockets;
}

/** The wall's edges lying entirely at its greatest height along n, and that height. */
function topEdges(oc: OC, own: Own, g: FaceGraph, wall: number, n: Vec3): { edges: number[]; height: number } {
  const heights = g.faceEdges[wall]!.map((e) => {
    const edge = g.edges[e]!;
    const a = dot(n, xyz(own(oc.BRep_Tool.Pnt(own(oc.TopExp.FirstVertex(edge, false))))));
    const b = dot(n, xyz(own(oc.BRep_Tool.Pnt(own(oc.TopExp.LastVertex(edge, false))))));
    return { e, low: Math.min(a, b), high: Math.max(a, b) };
  });
  const height = Math.max(...heights.map((h) => h.high));
  const tol = 1e-7 * Math.max(1, Math.abs(height));
  return { edges: heights.filter((h) => h.low > height - tol).map((h) => h.e), height };
}

