import { dot, type Vec3 } from '../math/vec3';
import type { PointSet } from './bodySamples';
import { fitConeAbout, fitConeFrom, fitCylinderFrom, fitPlane, radial } from './leastSquares';
import { coaxialGroups, planeGroups, surfaceAxis, type NominalAccess } from './nominalFaces';
import { coneResidual, cornerFit, cylinderResidual } from './vertexQuadrature';

/**
 * Sizes between features other than two planes, as a CMM or GOM user measures them: each feature
 * fitted on its own samples, then the size read between the fitted elements.
 * - A distance between two bores (NIST CTC 4's 75 between two 14 mm holes): axis to axis; over
 *   both (a slot's length over its round ends, NIST FTC 9's 38.1) or between them (the wall between
 *   two holes) when the nominal value is that distance on the nominal part.
 * - A distance between a plane and a bore's axis: the axis' mid point from the plane.
 * - A distance from a plane to a circular edge (a hole's depth to its drill point, NIST FTC 10's
 *   35 and 27.5, FTC 6's 12.7): the edge as the intersection of the fitted surfaces it joins
 *   (cylinder and cone: the section of the cone as wide as the cylinder), its centre from the plane.
 * - A diameter (radius) of circular edges (NIST CTC 4's countersinks, ⌀20 at the top face): the
 *   circle where the fitted cone meets the fitted plane (or a cylinder meets a plane).
 * - An angle on cones (NIST CTC 4's 90 degrees countersinks): the cone's apex angle (twice its
 *   half-angle), an angular size.
 * Several features (a pattern of circles, of cones): each read, the farthest from nominal reported.
 */
export type SizeReading = { actual: number; method: string; samples: number } | { reason: string; samples: number };

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const ids = (fs: number[]) => fs.map((f) => `face[${f}]`).join(', ');
const r6 = (v: number) => Number(v.toPrecision(6));

interface Circle {
  centre: Vec3;
  radius: number;
}

/** A fitted element of some faces: a plane, an axis (cylinder, with radius), or a cone. */
type Element =
  | { kind: 'plane'; origin: Vec3; normal: Vec3 }
  | { kind: 'cylinder'; origin: Vec3; axis: Vec3; radius: number; mid: Vec3; corners?: number }
  | { kind: 'cone'; apex: Vec3; axis: Vec3; halfAngle: number; corners?: number };


/** The nominal element of faces of one kind, exactly from the surface (a cone's axis toward its widening). */
function nominalElement(nominal: NominalAccess, f: number): Element | null {
  const s = nominal.ref.geometry.faces[f]?.surface, fr = surfaceAxis(nominal, f);
  if (!s || !fr) return null;
  if (s.kind === 'plane') return { kind: 'plane', origin: fr.o, normal: fr.z };
  if (s.kind === 'cylinder') return { kind: 'cylinder', origin: fr.o, axis: fr.z, radius: s.radius, mid: fr.o };
  if (s.kind === 'cone') {
    const t = Math.tan(s.semiAngle);
    const axis = t > 0 ? fr.z : scale(fr.z, -1);
    return { kind: 'cone', apex: sub(fr.o, scale(fr.z, s.radius / t)), axis, halfAngle: Math.abs(s.semiAngle) };
  }
  return null;
}

/**
 * The scan's element on faces of one kind, started from the nominal one; a cone `about` a fitted
 * axis (coaxialCone) keeps that axis.
 */
function fitted(nominal: NominalAccess, faces: number[], pts: PointSet, used: { corners: number }, about?: { origin: Vec3; axis: Vec3 }): Element | null {
  const nom = nominalElement(nominal, faces[0]!);
  if (!nom) return null;
  if (nom.kind === 'plane') {
    const p = fitPlane(pts.points);
    return p && { kind: 'plane', origin: p.origin, normal: dot(p.normal, nom.normal) < 0 ? scale(p.normal, -1) : p.normal };
  }
  // A mesh scan's cylinders and cones: fitted through its triangles' corners, not their chords
  // (vertexQuadrature.ts), as evaluate.ts reads a hole's own diameter. Planes keep their area
  // samples: a plane's chords lie on it.
  if (nom.kind === 'cylinder') {
    const area = fitCylinderFrom(pts.points, nom.axis);
    if (!area) return null;
    const corners = cornerFit(pts, area, (p) => fitCylinderFrom(p.points, nom.axis), cylinderResidual, area.radius);
    const c = corners?.fit ?? area;
    used.corners += corners?.corners ?? 0;
    // The axis point level with the samples' middle.
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < pts.count; i++) {
      const h = dot(sub([pts.points[3 * i]!, pts.points[3 * i + 1]!, pts.points[3 * i + 2]!], c.origin), c.axis);
      lo = Math.min(lo, h);
      hi = Math.max(hi, h);
    }
    return { kind: 'cylinder', origin: c.origin, axis: c.axis, radius: c.radius, mid: add(c.origin, scale(c.axis, (lo + hi) / 2)), ...(corners ? { corners: corners.corners } : {}) };
  }
  const fitCone = (p: PointSet['points']) => (about ? fitConeAbout(p, about.origin, about.axis) : fitConeFrom(p, nom.axis));
  const area = fitCone(pts.points);
  if (!area) return null;
  const corners = cornerFit(pts, area, (p) => fitCone(p.points), coneResidual, area.radius);
  const c = corners?.fit ?? area;
  used.corners += corners?.corners ?? 0;
  // A cone that widens another way than the nominal's is not a reading of it but a fit that lost
  // its way on too few or too noisy samples: refused, not read.
  if (dot(c.axis, nom.axis) < Math.cos(MAX_CONE_TURN)) return null;
  return { kind: 'cone', apex: c.apex, axis: c.axis, halfAngle: c.halfAngle, ...(corners ? { corners: corners.corners } : {}) };
}

const CONE_REFUSED = ' (a cone whose axis turns more than 5 degrees from the nominal\'s is refused: too few or too noisy samples to hold one)';
/** The most a fitted cone's axis may turn from the nominal's: no made part's countersink or drill point is tilted 5 degrees. */
const MAX_CONE_TURN = (5 * Math.PI) / 180;

/** The circle two elements meet in (cylinder and cone, cone and plane, cylinder and plane), or null. */
function meet(a: Element, b: Element): Circle | null {
  const [p, q] = a.kind === 'plane' ? [b, a] : [a, b];
  if (q.kind === 'plane') {
    if (p.kind === 'cylinder') {
      const t = dot(sub(q.origin, p.origin), q.normal) / dot(p.axis, q.normal);
      return { centre: add(p.origin, scale(p.axis, t)), radius: p.radius };
    }
    if (p.kind === 'cone') {
      const t = dot(sub(q.origin, p.apex), q.normal) / dot(p.axis, q.normal);
      return { centre: add(p.apex, scale(p.axis, t)), radius: Math.abs(t) * Math.tan(p.halfAngle) };
    }
    return null;
  }
  const cyl = p.kind === 'cylinder' ? p : q.kind === 'cylinder' ? q : null, cone = p.kind === 'cone' ? p : q.kind === 'cone' ? q : null;
  if (!cyl || !cone) return null;
  return { centre: add(cone.apex, scale(cone.axis, cyl.radius / Math.tan(cone.halfAngle))), radius: cyl.radius };
}

/**
 * The fitted elements of a circle's two sides. A cone coaxial with the cylinder it meets on the
 * nominal (a drill point, a countersink over its hole) is fitted about the scan cylinder's axis:
 * one machined feature, and a cone of a few dozen samples cannot hold an axis of its own (NIST FTC
 * 7's drill point, 13 samples of a cloud with 0.01 of noise: a free fit 70 degrees off its hole's
 * axis put the circle 2.8 mm from its place and FAILED the hole's depth on a good part).
 */
function fitSides(nominal: NominalAccess, sides: number[][], sets: PointSet[], used: { corners: number }): (Element | null)[] {
  const noms = sides.map((s) => nominalElement(nominal, s[0]!));
  const k = noms.findIndex((e) => e?.kind === 'cylinder'), j = noms.findIndex((e) => e?.kind === 'cone');
  if (sides.length !== 2 || k < 0 || j < 0 || !coaxialCone(noms[k]!, noms[j]!, nominal.ref.geometry.diagonal)) return sides.map((s, i) => fitted(nominal, s, sets[i]!, used));
  const cyl = fitted(nominal, sides[k]!, sets[k]!, used);
  const out: (Element | null)[] = [null, null];
  out[k] = cyl;
  out[j] = cyl?.kind === 'cylinder' ? fitted(nominal, sides[j]!, sets[j]!, used, { origin: cyl.origin, axis: cyl.axis }) : null;
  return out;
}

/** Whether a nominal cone shares a nominal cylinder's axis (parallel to 1e-9, its apex on the axis to a millionth of the part's size). */
function coaxialCone(cyl: Element, cone: Element, diagonal: number): boolean {
  if (cyl.kind !== 'cylinder' || cone.kind !== 'cone') return false;
  const d = dot(cyl.axis, cone.axis);
  return 1 - Math.abs(d) < 1e-9 && radial(cone.apex, cyl.origin, cyl.axis) <= 1e-6 * diagonal;
}

/** Faces of one circle's two sides, by kind: the solid faces its edges join. */
function circleGroups(nominal: NominalAccess, edges: number[]): { edges: number[]; sides: number[][]; nominal: Circle }[] {
  const g = nominal.ref.geometry;
  const out: { edges: number[]; sides: number[][]; nominal: Circle }[] = [];
  for (const e of edges) {
    const faces = [...new Set(g.edges[e]?.faces ?? [])];
    if (faces.length !== 2) continue;
    const [ea, eb] = faces.map((f) => nominalElement(nominal, f));
    const c = ea && eb ? meet(ea, eb) : null;
    if (!c) continue;
    const tol = 1e-6 * g.diagonal;
    const kindOf = (f: number) => nominal.surfaceKind(f);
    const same = out.find((o) => Math.hypot(...sub(o.nominal.centre, c.centre)) < tol && Math.abs(o.nominal.radius - c.radius) < tol);
    if (same) {
      same.edges.push(e);
      for (const f of faces) {
        const side = same.sides.find((s) => kindOf(s[0]!) === kindOf(f));
        if (side && !side.includes(f)) side.push(f);
        else if (!side) same.sides.push([f]);
      }
    } else out.push({ edges: [e], sides: kindOf(faces[0]!) === kindOf(faces[1]!) ? [faces] : [[faces[0]!], [faces[1]!]], nominal: c });
  }
  return out;
}

/**
 * A size on the features named (see the module comment), or null when it is not one of these (the
 * caller's plane-to-plane rules apply). `nominalValue` picks the worst of several features.
 */
export function featureSize(kind: string, faces: number[], edges: number[], nominal: NominalAccess, actualOn: (faces: number[]) => PointSet, nominalValue: number | null, minSamples: number): SizeReading | null {
  const used = { corners: 0 };
  const r = sizeOf(kind, faces, edges, nominal, actualOn, nominalValue, minSamples, used);
  if (!r || !('actual' in r) || used.corners === 0) return r;
  return { ...r, method: `${r.method}; cylinders and cones fitted through the scan triangles' ${used.corners} corners under their samples (not the chords between them)` };
}

function sizeOf(kind: string, faces: number[], edges: number[], nominal: NominalAccess, actualOn: (faces: number[]) => PointSet, nominalValue: number | null, minSamples: number, used: { corners: number }): SizeReading | null {
  const worstOf = (values: { value: number; what: string }[], n: number, how: string): SizeReading => {
    const w = nominalValue === null ? values[0]! : values.reduce((a, b) => (Math.abs(b.value - nominalValue) > Math.abs(a.value - nominalValue) ? b : a));
    const list = values.length > 1 ? `; ${values.length} features: ${values.map((v) => `${v.what} ${r6(v.value)}`).join(', ')}; reported: the farthest from nominal, ${w.what}` : '';
    return { actual: w.value, method: `${how}${list}`, samples: n };
  };
  const circles = edges.length ? circleGroups(nominal, edges) : [];
  if (circles.length) {
    const read: { value: number; what: string }[] = [];
    let n = 0;
    const plane = kind === 'distance' ? planeOf(nominal, faces, actualOn, minSamples, used) : null;
    if (kind === 'distance' && (!plane || 'reason' in plane)) return { reason: plane?.reason ?? `a distance to circular edges needs a plane among its faces; these are ${faces.map((f) => nominal.surfaceKind(f)).join(', ') || 'none'}`, samples: 0 };
    for (const c of circles) {
      const sets = c.sides.map((s) => actualOn(s));
      n += sets.reduce((s, p) => s + p.count, 0);
      if (sets.some((p) => p.count < minSamples)) return { reason: `the circle of edge[${c.edges[0]}] needs ${minSamples} scan samples on each face it joins (${c.sides.map((s, i) => `${ids(s)}: ${sets[i]!.count}`).join('; ')})`, samples: n };
      const [a, b] = fitSides(nominal, c.sides, sets, used);
      const circle = a && b ? meet(a, b) : null;
      if (!circle) return { reason: `no ${c.sides.map((s) => nominal.surfaceKind(s[0]!)).join(' and ')} fit the scan samples of ${c.sides.map(ids).join(' and ')}${c.sides.some((s) => nominal.surfaceKind(s[0]!) === 'cone') ? CONE_REFUSED : ''}`, samples: n };
      const what = `circle of edge[${c.edges.join('], edge[')}]`;
      if (kind === 'diameter' || kind === 'radius') read.push({ value: kind === 'diameter' ? 2 * circle.radius : circle.radius, what });
      else if (kind === 'distance' && plane && !('reason' in plane)) read.push({ value: Math.abs(dot(sub(circle.centre, plane.origin), plane.normal)), what });
      else return null;
    }
    // Samples of every face read once (the plane is shared by every circle of a pattern).
    n = actualOn([...new Set([...circles.flatMap((c) => c.sides.flat()), ...(kind === 'distance' ? faces : [])])]).count;
    const how =
      kind === 'distance'
        ? `distance from the least-squares plane of ${ids(faces)} to the centre of the circular edge, the circle where the fitted faces it joins meet (${circles[0]!.sides.map((s) => nominal.surfaceKind(s[0]!)).join(' and ')})`
        : `${kind} of the circular edge, the circle where the fitted faces it joins meet (${circles[0]!.sides.map((s) => nominal.surfaceKind(s[0]!)).join(' and ')})`;
    return worstOf(read, n, how);
  }
  const kinds = new Set(faces.map((f) => nominal.surfaceKind(f)));
  if (kind === 'angle' && kinds.size === 1 && kinds.has('cone')) {
    const read: { value: number; what: string }[] = [];
    let n = 0;
    for (const group of coaxialGroups(nominal, faces)) {
      const p = actualOn(group);
      n += p.count;
      if (p.count < minSamples) return { reason: `the cone ${ids(group)} has ${p.count} scan samples (at least ${minSamples} needed)`, samples: n };
      const c = fitted(nominal, group, p, used);
      if (!c || c.kind !== 'cone') return { reason: `no cone fits the scan samples of ${ids(group)}${CONE_REFUSED}`, samples: n };
      read.push({ value: (2 * c.halfAngle * 180) / Math.PI, what: ids(group) });
    }
    return worstOf(read, n, "the cone's apex angle (twice the least-squares cone's half-angle, degrees): an angular size of the cone");
  }
  if (kind === 'distance' || kind === 'thickness') {
    const axes = [...kinds].every((k) => k === 'cylinder' || k === 'plane') && kinds.has('cylinder') ? coaxialGroups(nominal, faces.filter((f) => nominal.surfaceKind(f) === 'cylinder')) : null;
    if (!axes) return null;
    const planes = faces.filter((f) => nominal.surfaceKind(f) === 'plane');
    const fit = (group: number[]) => {
      const p = actualOn(group);
      return { p, e: p.count >= minSamples ? fitted(nominal, group, p, used) : null };
    };
    if (axes.length === 2 && planes.length === 0) {
      const [a, b] = axes.map(fit);
      const n = a!.p.count + b!.p.count;
      if (!a!.e || !b!.e || a!.e.kind !== 'cylinder' || b!.e.kind !== 'cylinder') return { reason: `each bore needs ${minSamples} scan samples and a cylinder fit (${a!.p.count}, ${b!.p.count})`, samples: n };
      const ea = a!.e, eb = b!.e;
      const d = (radial(eb.mid, ea.origin, ea.axis) + radial(ea.mid, eb.origin, eb.axis)) / 2;
      const axisText = `the least-squares axes of ${ids(axes[0]!)} and ${ids(axes[1]!)} (each axis' middle from the other axis, averaged)`;
      const reach = radiiReach(nominal, axes[0]![0]!, axes[1]![0]!, nominalValue);
      if (reach === 0) return { actual: d, method: `distance between ${axisText}`, samples: n };
      // A slot's length over its round ends, or the wall between two holes: the nominal says which.
      const what = reach > 0 ? 'over the two cylinders, their axes\' distance plus both least-squares radii' : 'between the two cylinders, their axes\' distance less both least-squares radii';
      return { actual: d + reach * (ea.radius + eb.radius), method: `distance ${what} (the nominal is that, not the distance between the axes): ${axisText}`, samples: n };
    }
    if (axes.length === 1 && planes.length > 0 && !planeGroups(nominal, planes)) {
      const a = fit(axes[0]!), pl = planeOf(nominal, planes, actualOn, minSamples, used);
      if (!pl || 'reason' in pl) return { reason: pl?.reason ?? 'no plane', samples: a.p.count };
      if (!a.e || a.e.kind !== 'cylinder') return { reason: `the bore ${ids(axes[0]!)} needs ${minSamples} scan samples and a cylinder fit (${a.p.count})`, samples: a.p.count };
      return { actual: Math.abs(dot(sub(a.e.mid, pl.origin), pl.normal)), method: `distance from the least-squares plane of ${ids(planes)} to the least-squares axis of ${ids(axes[0]!)} at its middle`, samples: a.p.count + pl.count };
    }
  }
  return null;
}

/**
 * Which distance two cylinders' nominal value is: +1 over both (axis distance plus both radii: a
 * slot's length over its round ends, NIST FTC 9's 38.1 over ends 28.575 apart), -1 between them
 * (less both radii: the wall between two holes), 0 between their axes (the default, and whenever
 * the nominal is none of the three).
 */
function radiiReach(nominal: NominalAccess, fa: number, fb: number, nominalValue: number | null): -1 | 0 | 1 {
  const a = nominalElement(nominal, fa), b = nominalElement(nominal, fb);
  if (nominalValue === null || !a || !b || a.kind !== 'cylinder' || b.kind !== 'cylinder') return 0;
  const axes = radial(b.origin, a.origin, a.axis), radii = a.radius + b.radius;
  const near = (v: number) => Math.abs(v - nominalValue) <= Math.max(1e-4, 1e-6 * Math.abs(nominalValue));
  if (near(axes)) return 0;
  if (near(axes + radii)) return 1;
  if (near(axes - radii)) return -1;
  return 0;
}

function planeOf(nominal: NominalAccess, faces: number[], actualOn: (faces: number[]) => PointSet, minSamples: number, used: { corners: number }): { origin: Vec3; normal: Vec3; count: number } | { reason: string } | null {
  const planes = faces.filter((f) => nominal.surfaceKind(f) === 'plane');
  if (planes.length === 0) return null;
  if (planeGroups(nominal, planes)) return { reason: `${ids(planes)} are not on one plane` };
  const p = actualOn(planes);
  if (p.count < minSamples) return { reason: `${p.count} scan samples on ${ids(planes)} (at least ${minSamples} needed)` };
  const e = fitted(nominal, planes, p, used);
  return e && e.kind === 'plane' ? { origin: e.origin, normal: e.normal, count: p.count } : { reason: `no plane fits the samples of ${ids(planes)}` };
}
