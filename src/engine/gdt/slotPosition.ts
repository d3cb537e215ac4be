import { apply, type Rigid } from '../math/rigid';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import { solveLinear } from '../math/solveLinear';
import { select, type PointSet } from './bodySamples';
import type { FeatureProbe } from './floatingZone';
import { centroid } from './leastSquares';
import { arcOpening, coaxialGroups, cylinderRadius, cylindersAndPlanes, indicesOn, openArc, surfaceAxis, widthFeature, type NominalAccess } from './nominalFaces';

/**
 * An elongated hole or a slot with round ends (two flats and two round ends: NIST FTC 9's and 10's):
 * ASME Y14.5 locates and orients such a feature by its two centre planes, one across its width (the
 * flats' centre plane: a width feature) and one across its length, midway between the round ends;
 * one tolerance given applies to both. This module reads the round ends, and finds the slots in a
 * callout's faces (a pattern of them, or their round ends named without the flats).
 *
 * A round end is an arc, whose least-squares axis trades place against radius (a scan's chord sag
 * moves it), so each end's centre is fitted with its radius held at the nominal's: an end bigger
 * or smaller on both sides alike moves both centres apart or together, the midway plane not.
 */
export interface SlotParts {
  /** The flats' two sides, or null when the callout names the round ends alone (FTC 9's tolerance[12]). */
  flats: [number[], number[]] | null;
  ends: [number[], number[]];
  /** The nominal ends' axes (point, unit direction) and radii. */
  axes: [EndAxis, EndAxis];
}

type EndAxis = { o: Vec3; z: Vec3; r: number };

/** An angle (radians) a cylinder's faces leave open above which they are a round end, not a hole or a shaft: a quarter turn. */
export const OPEN_ARC = Math.PI / 2;

/** The flats and the two round ends of faces that make one elongated hole or slot (the flats may be left out), or null. */
export function slotParts(nominal: NominalAccess, faces: number[]): SlotParts | null {
  const split = cylindersAndPlanes(nominal, faces);
  if (!split) return null;
  const { cylinders, planes } = split;
  const flats = planes.length ? widthFeature(nominal, planes) : null;
  if (planes.length && !flats) return null;
  const groups = coaxialGroups(nominal, cylinders);
  if (groups.length !== 2 || groups.flat().length !== cylinders.length) return null;
  if (groups.some((g) => (openArc(nominal, g) ?? 0) <= OPEN_ARC)) return null;
  const axes = groups.map((g) => endAxis(nominal, g));
  const [a, b] = axes;
  if (!a || !b || Math.abs(Math.abs(dot(a.z, b.z)) - 1) > 1e-9 || Math.abs(a.r - b.r) > 1e-6 * (1 + a.r)) return null;
  return { flats, ends: [groups[0]!, groups[1]!], axes: [a, b] };
}

function endAxis(nominal: NominalAccess, faces: number[]): EndAxis | null {
  const radii = new Set(faces.map((f) => cylinderRadius(nominal, f)));
  const fr = surfaceAxis(nominal, faces[0]!), r = cylinderRadius(nominal, faces[0]!);
  return fr && radii.size === 1 && Number.isFinite(r) ? { ...fr, r } : null;
}

/**
 * Faces grouped into elongated holes or slots (a pattern: FTC 9's two slots named by their four
 * round ends): each end (cylinder faces on one axis, leaving more than a quarter turn open) paired
 * with the nearest end of its radius that opens toward it (two slots' ends side by side open
 * across the line between them: not a pair), each planar face given to the slot whose
 * two ends it is tangent to, between them. Null unless every face finds its slot.
 */
export function slotGroups(nominal: NominalAccess, faces: number[]): number[][] | null {
  const split = cylindersAndPlanes(nominal, faces);
  if (!split?.cylinders.length) return null;
  const { cylinders, planes } = split;
  const tol = 1e-6 * nominal.ref.geometry.diagonal;
  const ends: (EndAxis & { faces: number[]; bulge: Vec3 })[] = [];
  for (const g of coaxialGroups(nominal, cylinders)) {
    const axis = endAxis(nominal, g), opening = arcOpening(nominal, g);
    if (!axis || !opening || opening.gap <= OPEN_ARC) return null;
    // The arc opens toward the slot's middle and bulges away from it.
    ends.push({ faces: g, ...axis, bulge: scale(opening.toward, -1) });
  }
  const pairs: { i: number; j: number; length: number }[] = [];
  for (let i = 0; i < ends.length; i++) {
    for (let j = i + 1; j < ends.length; j++) {
      const a = ends[i]!, b = ends[j]!;
      if (Math.abs(Math.abs(dot(a.z, b.z)) - 1) > 1e-9 || Math.abs(a.r - b.r) > tol) continue;
      const d = across(sub(b.o, a.o), a.z), length = Math.hypot(...d);
      if (length < tol) continue;
      const u = scale(d, 1 / length);
      // Loosely: an end split at its cylinder's seam and named in part opens askew (a quarter arc, 45 degrees off).
      if (dot(a.bulge, u) < -0.5 && dot(b.bulge, u) > 0.5) pairs.push({ i, j, length });
    }
  }
  pairs.sort((p, q) => p.length - q.length);
  const used = new Set<number>(), slots: { a: EndAxis; b: EndAxis; faces: number[] }[] = [];
  for (const p of pairs) {
    if (used.has(p.i) || used.has(p.j)) continue;
    used.add(p.i).add(p.j);
    slots.push({ a: ends[p.i]!, b: ends[p.j]!, faces: [...ends[p.i]!.faces, ...ends[p.j]!.faces] });
  }
  if (used.size !== ends.length) return null;
  for (const f of planes) {
    const c = centroid(nominal.nodes([f]).points);
    // A flat is tangent to both ends and lies between them.
    const slot = slots.find(({ a, b }) => {
      const d = across(sub(b.o, a.o), a.z), len = Math.hypot(...d), t = dot(sub(c, a.o), d) / len;
      const off = Math.hypot(...sub(across(sub(c, a.o), a.z), scale(d, t / len)));
      return t > 0 && t < len && Math.abs(off - a.r) < Math.max(tol, 1e-3 * a.r);
    });
    if (!slot) return null;
    slot.faces.push(f);
  }
  return slots.map((s) => s.faces);
}

/** Where a slot's round ends stand: each end's centre (radius held) and the true positions, with the slot's length and width directions. */
export interface SlotCentres {
  centres: [Vec3, Vec3];
  nominal: [Vec3, Vec3];
  along: Vec3;
  across: Vec3;
}

/** Each end's centre fitted with its nominal radius across the ends' axis, samples `mapped` into the datum frame; a reason when an end has too few samples. */
export function slotCentres(nominal: NominalAccess, pts: PointSet, mapped: Float64Array, parts: SlotParts, minSamples: number): SlotCentres | { reason: string } {
  const [a, b] = parts.axes;
  const along = normalize(across(sub(b.o, a.o), a.z));
  const mappedSet: PointSet = { points: mapped, normals: undefined, count: pts.count };
  const centres: Vec3[] = [];
  for (const [k, end] of parts.axes.entries()) {
    const s = select(mappedSet, indicesOn(pts, nominal, parts.ends[k]!));
    if (s.count < Math.max(3, minSamples)) return { reason: `the round end ${parts.ends[k]!.map((f) => `face[${f}]`).join(', ')} has ${s.count} scan samples (at least ${Math.max(3, minSamples)} needed)` };
    centres.push(circleCentre(s, end.o, a.z, end.r));
  }
  // b's centres brought onto a's plane across the axis, where a's was fitted.
  const level = (p: Vec3) => sub(p, scale(a.z, dot(sub(p, a.o), a.z)));
  return { centres: [centres[0]!, level(centres[1]!)], nominal: [a.o, level(b.o)], along, across: normalize(cross(a.z, along)) };
}

export const LENGTH_METHOD = 'length: twice the distance of the centre plane midway between the round ends (each end a circle of its nominal radius fitted across the axis) from the true position';
export const ENDS_ACROSS_METHOD = "the flats not named: twice the larger distance of the round ends' centres (each a circle of its nominal radius) from the true centre plane across the width";

/** Twice the distance of the midway (length) centre plane from the true one, the centres moved by `motion`. */
export function lengthOffset(c: SlotCentres, motion?: Rigid): number {
  const mid = midpoint(moved(c.centres[0], motion), moved(c.centres[1], motion));
  return 2 * Math.abs(dot(sub(mid, midpoint(...c.nominal)), c.along));
}

/** The width centre plane read through the ends' centres alone: twice the larger one's distance from the true centre plane. */
export function endsAcrossOffset(c: SlotCentres, motion?: Rigid): number {
  return 2 * Math.max(...c.centres.map((q, k) => Math.abs(dot(sub(moved(q, motion), c.nominal[k]!), c.across))));
}

/** The derived features a float moves: the length plane by its one point, the width plane from the ends by both centres. */
export function slotProbes(c: SlotCentres): { length: FeatureProbe; across: FeatureProbe } {
  const origin = midpoint(...c.nominal);
  return { length: { corners: [midpoint(...c.centres)], origin, normal: c.along }, across: { corners: [...c.centres], origin, normal: c.across } };
}

/**
 * Orientation read from the round ends: each end's axis fitted as a line of centres of the nominal
 * radius (its centre and its lean, Gauss-Newton), over the ends' samples' height range along the
 * axis; the length centre plane (midway between the two lines) and, from the ends alone, the width
 * centre plane (through them) at the bottom and top of that range, their extents across the basic
 * normals.
 */
export function slotEndsOrientation(nominal: NominalAccess, pts: PointSet, mapped: Float64Array, parts: SlotParts, minSamples: number): { length: number; across: number } | { reason: string } {
  const [a, b] = parts.axes;
  const z = a.z, along = normalize(across(sub(b.o, a.o), z)), acr = normalize(cross(z, along));
  const mappedSet: PointSet = { points: mapped, normals: undefined, count: pts.count };
  const lines: ((h: number) => Vec3)[] = [];
  let lo = Infinity, hi = -Infinity;
  for (const [k, end] of parts.axes.entries()) {
    const s = select(mappedSet, indicesOn(pts, nominal, parts.ends[k]!));
    if (s.count < Math.max(6, minSamples)) return { reason: `the round end ${parts.ends[k]!.map((f) => `face[${f}]`).join(', ')} has ${s.count} scan samples (at least ${Math.max(6, minSamples)} needed)` };
    for (let i = 0; i < s.count; i++) {
      const h = dot(sub([s.points[3 * i]!, s.points[3 * i + 1]!, s.points[3 * i + 2]!], a.o), z);
      lo = Math.min(lo, h);
      hi = Math.max(hi, h);
    }
    lines.push(axisLine(s, end.o, z, end.r, a.o));
  }
  const [la, lb] = lines as [(h: number) => Vec3, (h: number) => Vec3];
  const mid = (h: number) => midpoint(la(h), lb(h));
  const offs = [la(lo), la(hi), lb(lo), lb(hi)].map((p) => dot(p, acr));
  return { length: Math.abs(dot(sub(mid(hi), mid(lo)), along)), across: Math.max(...offs) - Math.min(...offs) };
}

/** A line of centres of circles of radius r through the samples: its centre and lean across z, heights from `base`. */
function axisLine(s: PointSet, o: Vec3, z: Vec3, r: number, base: Vec3): (h: number) => Vec3 {
  const u = normalize(Math.abs(z[0]) < 0.9 ? cross([1, 0, 0], z) : cross([0, 1, 0], z)), v = cross(z, u);
  const o0 = sub(o, scale(z, dot(sub(o, base), z)));
  const x = [0, 0, 0, 0]; // centre u, v; lean u, v
  for (let it = 0; it < 30; it++) {
    const A = Array.from({ length: 4 }, () => [0, 0, 0, 0]), g = [0, 0, 0, 0];
    for (let i = 0; i < s.count; i++) {
      const d = sub([s.points[3 * i]!, s.points[3 * i + 1]!, s.points[3 * i + 2]!], o0);
      const h = dot(d, z);
      const du = dot(d, u) - x[0]! - x[2]! * h, dv = dot(d, v) - x[1]! - x[3]! * h, len = Math.hypot(du, dv);
      if (len === 0) continue;
      // Residual len - r; its gradient in (centre, lean) is -(du, dv, du h, dv h) / len.
      const j = [-du / len, -dv / len, (-du / len) * h, (-dv / len) * h], res = len - r;
      for (let p = 0; p < 4; p++) {
        g[p]! += j[p]! * res;
        for (let q = 0; q < 4; q++) A[p]![q]! += j[p]! * j[q]!;
      }
    }
    const step = solveLinear(A, g.map((t) => -t));
    if (!step) break;
    for (let p = 0; p < 4; p++) x[p]! += step[p]!;
    if (Math.hypot(...step) < 1e-13 * Math.max(1, r)) break;
  }
  return (h) => add(o0, add(scale(z, h), add(scale(u, x[0]! + x[2]! * h), scale(v, x[1]! + x[3]! * h))));
}

/** The centre (on the plane through `o` across `z`) of a circle of radius r fitted to the samples' projections: Gauss-Newton from o. */
function circleCentre(s: PointSet, o: Vec3, z: Vec3, r: number): Vec3 {
  const u = normalize(Math.abs(z[0]) < 0.9 ? cross([1, 0, 0], z) : cross([0, 1, 0], z)), v = cross(z, u);
  let cu = 0, cv = 0;
  for (let it = 0; it < 30; it++) {
    let a11 = 0, a12 = 0, a22 = 0, g1 = 0, g2 = 0;
    for (let i = 0; i < s.count; i++) {
      const d = sub([s.points[3 * i]!, s.points[3 * i + 1]!, s.points[3 * i + 2]!], o);
      const du = dot(d, u) - cu, dv = dot(d, v) - cv, len = Math.hypot(du, dv);
      if (len === 0) continue;
      // Residual len - r; its gradient in the centre is -(du, dv) / len.
      const ju = -du / len, jv = -dv / len, res = len - r;
      a11 += ju * ju;
      a12 += ju * jv;
      a22 += jv * jv;
      g1 += ju * res;
      g2 += jv * res;
    }
    const det = a11 * a22 - a12 * a12;
    if (!(Math.abs(det) > 0)) break;
    const su = -(a22 * g1 - a12 * g2) / det, sv = -(a11 * g2 - a12 * g1) / det;
    cu += su;
    cv += sv;
    if (Math.hypot(su, sv) < 1e-12 * Math.max(1, r)) break;
  }
  return add(o, add(scale(u, cu), scale(v, cv)));
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const midpoint = (a: Vec3, b: Vec3): Vec3 => scale(add(a, b), 0.5);
const moved = (p: Vec3, motion?: Rigid): Vec3 => (motion ? apply(motion, ...p) : p);

/** d's component across the unit z. */
function across(d: Vec3, z: Vec3): Vec3 {
  return sub(d, scale(z, dot(d, z)));
}
