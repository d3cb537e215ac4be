import { surfaceBody } from '../scene/pointsBody';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { z } from 'zod';
import { drainList, topAbs, withKernel, type OC, type Own } from '../kernel';
import { cross, dot, type Vec3 } from '../math/vec3';
import { faceNormalAt, faceNormalOnEdge, SMOOTH_SINE } from '../scene/edgeConvexity';
import { mapEntities } from '../scene/topology';
import { defineTool } from './defineTool';
import { cylinderFace, faceGraph, type CylinderFace, type FaceGraph } from '../features/featureFaces';
import { bodyIdSchema } from './schemas';
import { warning } from '../warnings';

const KINDS = ['pocket', 'hole'] as const;

const schema = z.strictObject({
  bodyId: bodyIdSchema.describe('Body to analyse'),
  kinds: z.array(z.enum(KINDS)).min(1).optional().describe('Any of pocket, hole. Default: both'),
});

export interface HoleFeature {
  kind: 'hole';
  /** The hole's cylindrical faces (ascending index), then the faces closing a blind hole's bottom. */
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
  /**
   * null when every wall face is an analytic cylinder; else the largest distance of a wall face
   * (B-spline or other) from the cylinder fitted to it, which is within that face's tolerance.
   */
  fitDeviation: number | null;
}

export interface PocketFeature {
  kind: 'pocket';
  /** The floor, then the walls (ascending index). */
  faces: string[];
  floor: string;
  walls: string[];
  /** From the floor to the top of the walls, along the floor normal. */
  depth: number;
  /** Sides of the smallest rectangle around the floor, in its plane (length >= width). */
  length: number;
  width: number;
  /** Walls all round the floor (every edge of its outer boundary concave) or open on some side. */
  closed: boolean;
}

export type Feature = HoleFeature | PocketFeature;

export const recognizeFeatures = defineTool({
  name: 'recognize_features',
  description:
    'Holes and pockets of a BREP body from its face adjacency graph. A hole: connected coaxial cylindrical faces of one radius spanning the full turn with normals toward the axis (diameter, depth, through or blind, axis); a B-spline or other face counts as cylindrical when it fits a cylinder within its tolerance everywhere. A pocket: a planar floor whose perpendicular walls meet its outer boundary over concave edges and end at convex edges, closed all round or open with at least two walls (depth, length, width, floor and wall faces). Each face belongs to at most one feature; features come holes first, then pockets, each by their lowest face index.',
  category: 'scene',
  schema,
  async run(args, ctx) {
    const body = surfaceBody(ctx.scene.get(args.bodyId), 'recognize_features', 'faces and their adjacency');
    const kinds = new Set(args.kinds ?? KINDS);
    if (body.kind === 'mesh') return { features: [], warnings: [warning('MESH_NO_FEATURES', 'an STL body has only planar facets: no holes or pockets are recognized on meshes')] };
    const oc = await ctx.kernel();
    return withKernel(oc, (own) => {
      const graph = faceGraph(oc, own, body.shape);
      // Holes claim their faces first, even when only pockets are asked for, so a hole's bottom is never a pocket.
      const holes = findHoles(oc, own, body.shape, graph);
      const claimed = new Set(holes.flatMap((h) => h.faces));
      const features: Feature[] = [];
      if (kinds.has('hole')) features.push(...holes);
      if (kinds.has('pocket')) features.push(...findPockets(oc, own, graph, claimed));
      return { features: sortFeatures(features) };
    });
  },
});

const faceId = (i: number) => `face[${i}]`;
const faceIndex = (id: string) => Number(id.slice(5, -1));
const xyz = (p: { X(): number; Y(): number; Z(): number }): Vec3 => [p.X(), p.Y(), p.Z()];
const add = (a: Vec3, b: Vec3, s = 1): Vec3 => [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];
/** Cylinder faces whose angles add up to at least this make a full turn. */
const FULL_TURN = 2 * Math.PI - 1e-3;

/** Holes first, then pockets; within a kind by the lowest face index: stable for a given body. */
function sortFeatures(features: Feature[]): Feature[] {
  const first = (f: Feature) => Math.min(...f.faces.map(faceIndex));
  return [...features].sort((a, b) => (a.kind === b.kind ? first(a) - first(b) : a.kind === 'hole' ? -1 : 1));
}

/**
 * Groups concave cylinder faces that are coaxial, of one radius and connected through shared edges (so
 * two holes on one axis, or a bolt hole and the nut's bore in an assembly, stay apart), and keeps the
 * groups that turn through the full circle.
 */
function findHoles(oc: OC, own: Own, shape: TopoDS_Shape, g: FaceGraph): HoleFeature[] {
  const cylinders = new Map<number, CylinderFace>();
  g.faces.forEach((_, i) => {
    const c = cylinderFace(oc, own, g, i);
    if (c?.concave) cylinders.set(i, c);
  });
  const parent = new Map([...cylinders.keys()].map((i) => [i, i]));
  const root = (i: number): number => {
    while (parent.get(i) !== i) i = parent.get(i)!;
    return i;
  };
  for (const [i, c] of cylinders) {
    for (const e of g.faceEdges[i]!) {
      for (const j of g.edgeFaces[e]!) {
        const d = cylinders.get(j);
        if (j > i && d && coaxial(c, d)) parent.set(root(j), root(i));
      }
    }
  }
  const groups = new Map<number, CylinderFace[]>();
  for (const [i, c] of cylinders) {
    const r = root(i);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(c);
  }
  const solidOf = owningSolids(oc, own, shape);
  const holes: HoleFeature[] = [];
  const claimed = new Set<number>();
  for (const group of [...groups.values()].sort((x, y) => x[0]!.index - y[0]!.index)) {
    if (group.reduce((s, c) => s + c.span, 0) < FULL_TURN) continue;
    const ref = group[0]!;
    // Along-axis extent in the reference cylinder's frame (each face may have its own origin).
    let sMin = Infinity, sMax = -Infinity;
    for (const c of group) {
      const shift = dot(add(c.origin, ref.origin, -1), ref.axis);
      const sign = dot(c.axis, ref.axis) > 0 ? 1 : -1;
      for (const s of [c.sMin, c.sMax]) {
        sMin = Math.min(sMin, shift + sign * s);
        sMax = Math.max(sMax, shift + sign * s);
      }
    }
    const start = add(ref.origin, ref.axis, sMin);
    const end = add(ref.origin, ref.axis, sMax);
    const eps = Math.max(1e-6, 0.01 * ref.radius);
    let through: boolean | null = null;
    let axis = ref.axis;
    let center = start;
    // Classified against the hole's own solid: in an assembly the bolt filling a hole is another solid.
    const inside = solidOf(ref.index);
    if (inside) {
      const startInside = inside(add(start, ref.axis, -eps));
      const endInside = inside(add(end, ref.axis, eps));
      through = !startInside && !endInside;
      if (startInside && !endInside) {
        axis = [-ref.axis[0], -ref.axis[1], -ref.axis[2]];
        center = end;
      }
    }
    const members = new Set(group.map((c) => c.index));
    // A blind hole's bottom meets the wall over concave edges (the opening's rim is convex); a bottom
    // already taken by an earlier hole stays with it.
    const bottom = new Set<number>();
    for (const c of group) {
      for (const e of g.faceEdges[c.index]!) {
        for (const other of g.edgeFaces[e]!) {
          if (!members.has(other) && !claimed.has(other) && g.convexity(e, c.index, other) === 'concave') bottom.add(other);
        }
      }
    }
    for (const f of [...members, ...bottom]) claimed.add(f);
    const deviations = group.flatMap((c) => (c.fitDeviation === null ? [] : [c.fitDeviation]));
    holes.push({
      kind: 'hole',
      faces: [...[...members].sort((x, y) => x - y), ...[...bottom].sort((x, y) => x - y)].map(faceId),
      diameter: 2 * ref.radius,
      depth: sMax - sMin,
      through,
      axis,
      center,
      fitDeviation: deviations.length ? Math.max(...deviations) : null,
    });
  }
  return holes;
}

/** Same radius, parallel axes and the same axis line, within the faces' tolerances (1e-7 relative for analytic cylinders). */
function coaxial(a: CylinderFace, b: CylinderFace): boolean {
  const tol = Math.max(1e-7 * Math.max(1, a.radius), a.tolerance, b.tolerance);
  if (Math.abs(a.radius - b.radius) > tol) return false;
  if (Math.hypot(...cross(a.axis, b.axis)) > Math.max(1e-9, tol / Math.max(a.radius, 1e-300))) return false;
  return Math.hypot(...cross(add(b.origin, a.origin, -1), a.axis)) <= tol;
}

/** Per face index, a point-in-solid test against the solid the face bounds (null for a face in no solid). */
function owningSolids(oc: OC, own: Own, shape: TopoDS_Shape): (face: number) => ((p: Vec3) => boolean) | null {
  const faces = mapEntities(oc, own, shape, 'face');
  const ancestors = own(new oc.TopTools_IndexedDataMapOfShapeListOfShape_1());
  oc.TopExp.MapShapesAndAncestors(shape, topAbs(oc, 'FACE'), topAbs(oc, 'SOLID'), ancestors);
  const solidMap = own(new oc.TopTools_IndexedMapOfShape_1());
  oc.TopExp.MapShapes_1(shape, topAbs(oc, 'SOLID'), solidMap);
  const classifiers = new Map<number, (p: Vec3) => boolean>();
  return (face) => {
    const k = ancestors.FindIndex(own(faces.FindKey(face + 1)));
    const solids = k > 0 ? drainList(own(ancestors.FindFromIndex(k))).map(own) : [];
    if (solids.length === 0) return null;
    const id = solidMap.FindIndex(solids[0]!);
    if (!classifiers.has(id)) {
      const classifier = own(new oc.BRepClass3d_SolidClassifier_2(solids[0]!));
      classifiers.set(id, (p) => {
        classifier.Perform(own(new oc.gp_Pnt_3(...p)), 1e-7);
        return classifier.State() === oc.TopAbs_State.TopAbs_IN;
      });
    }
    return classifiers.get(id)!;
  };
}

interface PocketCandidate {
  pocket: PocketFeature;
  /** Ranking when candidates share faces: closed first, then the larger share of concave floor boundary, then the floor facing up, then the larger floor. */
  rank: [number, number, number, number];
}

/**
 * A pocket: a planar floor, walls perpendicular to it that meet its outer boundary over concave
 * edges and end at convex (open) top edges. Walls only on inner boundaries are bosses standing on the
 * floor (a bolt's shank on its head), not a pocket; an open floor with a single wall is a step. Each
 * face goes to at most one feature: holes' faces are taken, then candidates by rank.
 */
function findPockets(oc: OC, own: Own, g: FaceGraph, claimed: Set<string>): PocketFeature[] {
  const candidates: PocketCandidate[] = [];
  g.surfaceType.forEach((type, f) => {
    if (type !== 'plane' || claimed.has(faceId(f))) return;
    const candidate = pocketOn(oc, own, g, f);
    if (candidate) candidates.push(candidate);
  });
  candidates.sort((a, b) => {
    for (let k = 0; k < 4; k++) if (a.rank[k] !== b.rank[k]) return b.rank[k]! - a.rank[k]!;
    return faceIndex(a.pocket.floor) - faceIndex(b.pocket.floor);
  });
  const taken = new Set(claimed);
  const pockets: PocketFeature[] = [];
  for (const { pocket } of candidates) {
    if (pocket.faces.some((id) => taken.has(id))) continue;
    for (const id of pocket.faces) taken.add(id);
    pockets.push(pocket);
  }
  return pockets;
}

function pocketOn(oc: OC, own: Own, g: FaceGraph, f: number): PocketCandidate | null {
  const floor = g.faces[f]!;
  const surface = own(new oc.BRepAdaptor_Surface_2(floor, true));
  const um = (surface.FirstUParameter() + surface.LastUParameter()) / 2;
  const vm = (surface.FirstVParameter() + surface.LastVParameter()) / 2;
  const n = faceNormalAt(oc, own, floor, um, vm);
  const h0 = dot(n, xyz(own(surface.Value(um, vm))));
  const walls = new Set<number>();
  const outerWalls = new Set<number>();
  const outer = g.outerEdges[f]!;
  let concaveOuter = 0;
  for (const e of g.faceEdges[f]!) {
    let concave = false;
    for (const other of g.edgeFaces[e]!) {
      if (other === f || g.convexity(e, f, other) !== 'concave') continue;
      concave = true;
      const curve = own(new oc.BRepAdaptor_Curve_2(g.edges[e]!));
      const tm = (curve.FirstParameter() + curve.LastParameter()) / 2;
      if (Math.abs(dot(faceNormalOnEdge(oc, own, g.faces[other]!, g.edges[e]!, tm), n)) >= SMOOTH_SINE) continue;
      walls.add(other);
      if (outer.has(e)) outerWalls.add(other);
    }
    if (concave && outer.has(e)) concaveOuter++;
  }
  if (outerWalls.size === 0) return null;
  const closed = concaveOuter === outer.size;
  if (!closed && outerWalls.size < 2) return null;
  // A floor's walls end at the opening: their topmost edges must not be concave.
  let depth = 0;
  for (const w of walls) {
    const tops = topEdges(oc, own, g, w, n);
    if (tops.edges.some((e) => g.edgeFaces[e]!.some((other) => other !== w && g.convexity(e, w, other) === 'concave'))) return null;
    depth = Math.max(depth, tops.height - h0);
  }
  if (!(depth > 1e-7 * Math.max(1, Math.abs(h0)))) return null;
  const { length, width } = floorRectangle(oc, own, g, f, n);
  const wallIds = [...walls].sort((a, b) => a - b).map(faceId);
  const area = own(new oc.GProp_GProps_1());
  oc.BRepGProp.SurfaceProperties_1(floor, area, false, false);
  return {
    pocket: { kind: 'pocket', faces: [faceId(f), ...wallIds], floor: faceId(f), walls: wallIds, depth, length, width, closed },
    rank: [closed ? 1 : 0, outer.size ? concaveOuter / outer.size : 0, n[2], area.Mass()],
  };
}

/** The smallest rectangle around the floor's outer boundary in the floor's plane (rotating the hull's edges). */
function floorRectangle(oc: OC, own: Own, g: FaceGraph, f: number, n: Vec3): { length: number; width: number } {
  const helper: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = cross(n, helper);
  const l1 = Math.hypot(...e1);
  const a: Vec3 = [e1[0] / l1, e1[1] / l1, e1[2] / l1];
  const b = cross(n, a);
  const P = own(new oc.gp_Pnt_1());
  const pts: [number, number][] = [];
  for (const e of g.outerEdges[f]!) {
    const curve = own(new oc.BRepAdaptor_Curve_2(g.edges[e]!));
    const t0 = curve.FirstParameter(), t1 = curve.LastParameter();
    for (let k = 0; k <= 32; k++) {
      curve.D0(t0 + ((t1 - t0) * k) / 32, P);
      const p = xyz(P);
      pts.push([dot(p, a), dot(p, b)]);
    }
  }
  const hull = convexHull(pts);
  let best = { area: Infinity, length: 0, width: 0 };
  for (let i = 0; i < hull.length; i++) {
    const [x0, y0] = hull[i]!, [x1, y1] = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (!(len > 0)) continue;
    const dx = (x1 - x0) / len, dy = (y1 - y0) / len;
    let minA = Infinity, maxA = -Infinity, minB = Infinity, maxB = -Infinity;
    for (const [x, y] of hull) {
      const s = x * dx + y * dy, t = -x * dy + y * dx;
      minA = Math.min(minA, s);
      maxA = Math.max(maxA, s);
      minB = Math.min(minB, t);
      maxB = Math.max(maxB, t);
    }
    const area = (maxA - minA) * (maxB - minB);
    if (area < best.area) best = { area, length: Math.max(maxA - minA, maxB - minB), width: Math.min(maxA - minA, maxB - minB) };
  }
  return { length: best.length, width: best.width };
}

/** Andrew's monotone chain, counter-clockwise, without collinear points. */
function convexHull(points: [number, number][]): [number, number][] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const turn = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: [number, number][]) => {
    const out: [number, number][] = [];
    for (const q of list) {
      while (out.length >= 2 && turn(out[out.length - 2]!, out[out.length - 1]!, q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  return [...half(p), ...half([...p].reverse())];
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

