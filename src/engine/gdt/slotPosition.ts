import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import { select, type PointSet } from './bodySamples';
import { coaxialGroups, indicesOn, surfaceAxis, widthFeature, type NominalAccess } from './nominalFaces';

/**
 * The length half of an elongated hole's or a slot's position (two flats and two round ends: NIST
 * FTC 7's, 9's and 10's): ASME Y14.5 locates such a feature by its two centre planes, one across
 * its width (the flats' centre plane: a width feature) and one across its length, midway between
 * the round ends; one tolerance given applies to both. This module reads the length one.
 *
 * A round end is an arc, whose least-squares axis trades place against radius (a scan's chord sag
 * moves it), so each end's centre is fitted with its radius held at the nominal's: an end bigger
 * or smaller on both sides alike moves both centres apart or together, the midway plane not.
 */
export interface SlotParts {
  flats: [number[], number[]];
  ends: [number[], number[]];
  /** The nominal ends' axes (point, unit direction) and radii. */
  axes: [{ o: Vec3; z: Vec3; r: number }, { o: Vec3; z: Vec3; r: number }];
}

/** The flats and the two round ends of faces that make an elongated hole or slot, or null. */
export function slotParts(nominal: NominalAccess, faces: number[]): SlotParts | null {
  const planes = faces.filter((f) => nominal.surfaceKind(f) === 'plane');
  const cylinders = faces.filter((f) => nominal.surfaceKind(f) === 'cylinder');
  if (planes.length + cylinders.length !== faces.length) return null;
  const flats = widthFeature(nominal, planes);
  if (!flats) return null;
  const groups = coaxialGroups(nominal, cylinders);
  if (groups.length !== 2 || groups.flat().length !== cylinders.length) return null;
  const axes = groups.map((g) => {
    const s = nominal.ref.geometry.faces[g[0]!]?.surface, fr = surfaceAxis(nominal, g[0]!);
    return s?.kind === 'cylinder' && fr ? { ...fr, r: s.radius } : null;
  });
  const [a, b] = axes;
  if (!a || !b || Math.abs(Math.abs(dot(a.z, b.z)) - 1) > 1e-9) return null;
  return { flats, ends: [groups[0]!, groups[1]!], axes: [a, b] };
}

/**
 * Twice the distance of the actual length centre plane (midway between the ends' centres, each
 * fitted with its nominal radius across the ends' axis) from the nominal one, samples `mapped`
 * into the datum frame. A reason when an end has too few samples.
 */
export function lengthCentreReading(nominal: NominalAccess, pts: PointSet, mapped: Float64Array, parts: SlotParts, minSamples: number): { value: number; method: string } | { reason: string } {
  const [a, b] = parts.axes;
  const z = a.z;
  const along = normalize(offAxisVector(b.o, a.o, z));
  const nominalMid = scale(add(a.o, b.o), 0.5);
  const mappedSet: PointSet = { points: mapped, normals: undefined, count: pts.count };
  const centres: Vec3[] = [];
  for (const [k, end] of parts.axes.entries()) {
    const s = select(mappedSet, indicesOn(pts, nominal, parts.ends[k]!));
    if (s.count < Math.max(3, minSamples)) return { reason: `the round end ${parts.ends[k]!.map((f) => `face[${f}]`).join(', ')} has ${s.count} scan samples (at least ${Math.max(3, minSamples)} needed)` };
    centres.push(circleCentre(s, end.o, z, end.r));
  }
  const mid = scale(add(centres[0]!, centres[1]!), 0.5);
  return {
    value: 2 * Math.abs(dot(sub(mid, nominalMid), along)),
    method: 'length: twice the distance of the centre plane midway between the round ends (each end a circle of its nominal radius fitted across the axis) from the true position',
  };
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

/** p's offset from the line through o along unit z, as a vector across z. */
function offAxisVector(p: Vec3, o: Vec3, z: Vec3): Vec3 {
  const d = sub(p, o);
  return sub(d, scale(z, dot(d, z)));
}

