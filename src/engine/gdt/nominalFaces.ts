import { createExactHit, type ExactReference } from '../exact/ExactReference';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import type { PointSet } from './bodySamples';
import { fitPlane, radial } from './leastSquares';
import type { Supplemental } from './supplementalFaces';

/** The nominal as the evaluation reads it: its exact faces, their nodes and surface kinds. */
export interface NominalAccess {
  ref: ExactReference;
  /** Points on the nominal's exact faces (tessellation nodes), with normals. */
  nodes(faces: number[]): PointSet;
  /** Surface kind of face[N] (plane, cylinder, cone, sphere, torus, ...). */
  surfaceKind(face: number): string;
  /** Construction faces beside the solid the PMI may name, read on the solid faces under them (supplementalFaces.ts). */
  supplemental?: Supplemental | null;
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** The faces' surface kind, or the kinds joined with + when they differ. */
export function featureKind(nominal: NominalAccess, faces: number[]): string {
  const kinds = new Set(faces.map((f) => nominal.surfaceKind(f)));
  return kinds.size === 1 ? [...kinds][0]! : [...kinds].join('+');
}

/** Planar faces in two groups: those on the first face's plane, and the rest (null when all are on one plane or one is not planar). */
export function planeGroups(nominal: NominalAccess, faces: number[]): [number[], number[]] | null {
  const normals = faces.map((f) => fitPlane(nominal.nodes([f]).points)?.normal ?? null);
  if (normals.some((x) => !x)) return null;
  const first = normals[0]!;
  const ga: number[] = [], gb: number[] = [];
  faces.forEach((f, i) => (Math.abs(dot(normals[i]!, first)) > 1 - 1e-6 && onSamePlane(nominal, faces[0]!, f) ? ga : gb).push(f));
  return gb.length ? [ga, gb] : null;
}

function onSamePlane(nominal: NominalAccess, a: number, b: number): boolean {
  if (a === b) return true;
  const pa = fitPlane(nominal.nodes([a]).points)!, pb = fitPlane(nominal.nodes([b]).points)!;
  return Math.abs(dot(sub(pb.origin, pa.origin), pa.normal)) < 1e-6 * (1 + Math.hypot(...pa.origin));
}

/** A width feature (slot, tab): the faces on two parallel planes. */
export function widthFeature(nominal: NominalAccess, faces: number[]): [number[], number[]] | null {
  if (featureKind(nominal, faces) !== 'plane') return null;
  const groups = planeGroups(nominal, faces);
  if (!groups) return null;
  const na = fitPlane(nominal.nodes(groups[0]).points), nb = fitPlane(nominal.nodes(groups[1]).points);
  return na && nb && Math.abs(dot(na.normal, nb.normal)) > 1 - 1e-9 ? groups : null;
}

/** The faces split into cylinders and planes; null when any is neither (slots, counterbored holes). */
export function cylindersAndPlanes(nominal: NominalAccess, faces: number[]): { cylinders: number[]; planes: number[] } | null {
  const cylinders = faces.filter((f) => nominal.surfaceKind(f) === 'cylinder');
  const planes = faces.filter((f) => nominal.surfaceKind(f) === 'plane');
  return cylinders.length + planes.length === faces.length ? { cylinders, planes } : null;
}

/** Face[f]'s cylinder radius (NaN when it is no cylinder). */
export function cylinderRadius(nominal: NominalAccess, f: number): number {
  const s = nominal.ref.geometry.faces[f]?.surface;
  return s?.kind === 'cylinder' ? s.radius : NaN;
}

/**
 * Whether the part's outward normals at the faces' nodes point back against `away` (a direction
 * from the feature's axis or centre): a hole or a socket, with the material outside it.
 */
export function facesInward(nominal: NominalAccess, nodes: PointSet, away: (p: Vec3) => Vec3): boolean {
  const hit = createExactHit();
  let s = 0;
  for (let i = 0; i < nodes.count; i += Math.max(1, Math.floor(nodes.count / 50))) {
    const p: Vec3 = [nodes.points[3 * i]!, nodes.points[3 * i + 1]!, nodes.points[3 * i + 2]!];
    nominal.ref.nearest(p[0], p[1], p[2], hit);
    const d = away(p);
    s += hit.nx * d[0] + hit.ny * d[1] + hit.nz * d[2];
  }
  return s < 0;
}

/** Indices of samples (of a set already restricted to a characteristic's faces) whose nearest nominal face is in `faces`. */
export function indicesOn(pts: PointSet, nominal: NominalAccess, faces: number[]): number[] {
  const want = new Set(faces.flatMap((f) => [f, ...(nominal.supplemental?.under(f) ?? [])]));
  const hit = createExactHit();
  const out: number[] = [];
  for (let i = 0; i < pts.count; i++) {
    nominal.ref.nearest(pts.points[3 * i]!, pts.points[3 * i + 1]!, pts.points[3 * i + 2]!, hit);
    if (want.has(hit.face)) out.push(i);
  }
  return out;
}

/**
 * Cylindrical or spherical faces grouped into features of size: one axis line and radius per
 * cylinder (NIST's holes come as two half-cylinder faces), one centre and radius per sphere. Null
 * unless every face is a cylinder, or every face a sphere.
 */
export function sizeFeatures(nominal: NominalAccess, faces: number[]): number[][] | null {
  const groups: { faces: number[]; o: Vec3; z: Vec3; r: number }[] = [];
  let kind: string | null = null;
  for (const f of faces) {
    const s = nominal.ref.geometry.faces[f]?.surface;
    if (!s || (s.kind !== 'cylinder' && s.kind !== 'sphere') || (kind !== null && s.kind !== kind)) return null;
    kind = s.kind;
    const o: Vec3 = [s.frame[0]!, s.frame[1]!, s.frame[2]!], z = normalize([s.frame[9]!, s.frame[10]!, s.frame[11]!]);
    const tol = 1e-6 * (1 + s.radius + Math.hypot(...o));
    const same = (q: (typeof groups)[number]) =>
      Math.abs(q.r - s.radius) < tol && (s.kind === 'sphere' ? Math.hypot(...sub(o, q.o)) < tol : Math.abs(Math.abs(dot(q.z, z)) - 1) < 1e-9 && radial(o, q.o, q.z) < tol);
    const g = groups.find(same);
    if (g) g.faces.push(f);
    else groups.push({ faces: [f], o, z, r: s.radius });
  }
  return groups.map((g) => g.faces);
}

/**
 * Planar faces grouped into width features (a pattern of slots or tabs side by side): the faces on
 * one plane together, the planes (all parallel, an even number, four or more) paired in order along
 * their normal, each feature's two sides neighbours, every pair facing alike (a slot's sides face
 * each other, a tab's apart). Null otherwise; two planes are one width feature (widthFeature).
 */
export function widthFeatures(nominal: NominalAccess, faces: number[]): number[][] | null {
  if (featureKind(nominal, faces) !== 'plane') return null;
  const planes: { faces: number[]; normal: Vec3; origin: Vec3 }[] = [];
  for (const f of faces) {
    const p = fitPlane(nominal.nodes([f]).points);
    if (!p) return null;
    const same = (q: (typeof planes)[number]) => Math.abs(dot(q.normal, p.normal)) > 1 - 1e-6 && Math.abs(dot(sub(p.origin, q.origin), q.normal)) < 1e-6 * (1 + Math.hypot(...q.origin));
    const g = planes.find(same);
    if (g) g.faces.push(f);
    else planes.push({ faces: [f], normal: p.normal, origin: p.origin });
  }
  if (planes.length < 4 || planes.length % 2 !== 0) return null;
  const n = planes[0]!.normal;
  if (planes.some((q) => Math.abs(dot(q.normal, n)) < 1 - 1e-9)) return null;
  planes.sort((a, b) => dot(a.origin, n) - dot(b.origin, n));
  // Which way along n each plane's faces look (outward: the surface's Su x Sv, turned for a
  // reversed face): +1 or -1, alternating the same way in every pair.
  const facing = planes.map((q) => {
    const face = nominal.ref.geometry.faces[q.faces[0]!];
    if (face?.surface.kind !== 'plane') return 0;
    const fr = face.surface.frame;
    const out = cross([fr[3]!, fr[4]!, fr[5]!], [fr[6]!, fr[7]!, fr[8]!]);
    return (face.reversed ? -1 : 1) * Math.sign(dot(out, n));
  });
  for (let k = 0; k < planes.length; k += 2) {
    if (facing[k] === 0 || facing[k] !== facing[0] || facing[k + 1] !== -facing[0]!) return null;
  }
  return Array.from({ length: planes.length / 2 }, (_, k) => [...planes[2 * k]!.faces, ...planes[2 * k + 1]!.faces]);
}

/**
 * The largest angle (radians) around a cylinder's axis that its faces leave open: about 0 for a
 * hole or a shaft (however many faces it is split in), pi for a half cylinder (an elongated hole's
 * round end). Read from the nominal's nodes and its faces' edge polylines (dense along the circles);
 * null unless every face is a cylinder on the first one's axis line.
 */
export function openArc(nominal: NominalAccess, faces: number[]): number | null {
  return arcOpening(nominal, faces)?.gap ?? null;
}

/** The largest opening around a cylinder's axis (openArc) and the unit direction across the axis to its middle: where a slot's round end opens toward its other end. */
export function arcOpening(nominal: NominalAccess, faces: number[]): { gap: number; toward: Vec3 } | null {
  const first = nominal.ref.geometry.faces[faces[0] ?? -1]?.surface;
  if (!first || first.kind !== 'cylinder') return null;
  const fr = first.frame;
  const o: Vec3 = [fr[0]!, fr[1]!, fr[2]!], x: Vec3 = normalize([fr[3]!, fr[4]!, fr[5]!]), z: Vec3 = normalize([fr[9]!, fr[10]!, fr[11]!]);
  const y = cross(z, x);
  const angles: number[] = [];
  const add = (p: ArrayLike<number>, i: number) => {
    const d = sub([p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!], o);
    angles.push(Math.atan2(dot(d, y), dot(d, x)));
  };
  for (const f of faces) {
    const face = nominal.ref.geometry.faces[f];
    if (!face || face.surface.kind !== 'cylinder') return null;
    for (const e of face.edges) {
      const pts = nominal.ref.geometry.edges[e]?.points;
      if (pts) for (let i = 0; i < pts.length / 3; i++) add(pts, i);
    }
  }
  const nodes = nominal.nodes(faces);
  for (let i = 0; i < nodes.count; i++) add(nodes.points, i);
  if (angles.length < 2) return null;
  const { gap, before } = largestGap(angles);
  const mid = before + gap / 2;
  const c = Math.cos(mid), s = Math.sin(mid);
  return { gap, toward: [c * x[0] + s * y[0], c * x[1] + s * y[1], c * x[2] + s * y[2]] };
}

/**
 * The largest gap between angles (radians, sorted in place) round the circle: its size, the angle
 * before it and the one after it (the first, when the gap wraps past pi).
 */
export function largestGap(angles: number[]): { gap: number; before: number; after: number } {
  angles.sort((a, b) => a - b);
  let gap = angles[0]! + 2 * Math.PI - angles[angles.length - 1]!, before = angles[angles.length - 1]!, after = angles[0]!;
  for (let i = 1; i < angles.length; i++) {
    const g = angles[i]! - angles[i - 1]!;
    if (g > gap) [gap, before, after] = [g, angles[i - 1]!, angles[i]!];
  }
  return { gap, before, after };
}

/** A face's surface frame from its exact geometry: origin and unit z (a cylinder's or cone's axis), or null. */
export function surfaceAxis(nominal: NominalAccess, f: number): { o: Vec3; z: Vec3 } | null {
  const s = nominal.ref.geometry.faces[f]?.surface;
  if (!s || !('frame' in s)) return null;
  const F = s.frame;
  return { o: [F[0]!, F[1]!, F[2]!], z: normalize([F[9]!, F[10]!, F[11]!]) };
}

/**
 * The nominal's axis under `faces` (their first cylinder or cone): a start for fitting the scan's
 * element, whose samples alone may not show it (fitCylinder). Undefined when none is one.
 */
export function nominalAxis(nominal: NominalAccess, faces: readonly number[]): Vec3 | undefined {
  for (const f of faces) {
    const kind = nominal.surfaceKind(f);
    if (kind === 'cylinder' || kind === 'cone') return surfaceAxis(nominal, f)?.z;
  }
  return undefined;
}

/** Cylinder or cone faces grouped by axis line. */
export function coaxialGroups(nominal: NominalAccess, faces: number[]): number[][] {
  const groups: { faces: number[]; o: Vec3; z: Vec3 }[] = [];
  const tol = 1e-6 * nominal.ref.geometry.diagonal;
  for (const f of faces) {
    const fr = surfaceAxis(nominal, f);
    if (!fr) continue;
    const g = groups.find((q) => Math.abs(Math.abs(dot(q.z, fr.z)) - 1) < 1e-9 && radial(fr.o, q.o, q.z) < tol);
    if (g) g.faces.push(f);
    else groups.push({ faces: [f], o: fr.o, z: fr.z });
  }
  return groups.map((g) => g.faces);
}
