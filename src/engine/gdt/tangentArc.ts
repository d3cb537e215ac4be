import { createExactHit } from '../exact/ExactReference';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import type { PointSet } from './bodySamples';
import { largestGap, type NominalAccess } from './nominalFaces';
import { solveLinear } from '../math/solveLinear';

/**
 * A blend's radius as ASME Y14.5 defines its zone: arcs tangent to the adjacent surfaces. A fillet
 * covers a short arc (a quarter circle of 0.4 mm on NIST FTC 7): a free fit of its centre and radius
 * trades one for the other, and a scan's noise of 0.01 mm read a 0.43 fillet anywhere from 0.36 to
 * 26. Held tangent to the nominal's adjacent faces, the arc has one free parameter, its radius: the
 * centre slides along the bisector of the arc's end normals, c(r) = c0 + (r0 - r) w with
 * w = (n1 + n2) / (1 + n1 . n2), so the arc stays tangent to the lines through its nominal ends.
 * Read in the blend's section: across a cylinder's axis, or in a torus' (rho, h) tube plane. A
 * rolling ball's corner (a sphere tangent to three walls, where three fillets meet) is held the
 * same way in space: its centre slides by (r0 - r) w with n_i . w = 1 for the walls' normals at
 * the ball's contact points, the corners of its patch.
 */
export interface BlendSection {
  kind: 'cylinder' | 'torus' | 'sphere';
  origin: Vec3;
  axis: Vec3;
  e1: Vec3;
  e2: Vec3;
  /** A torus' major radius (the tube centre's distance from the axis); 0 for a cylinder. */
  major: number;
  /** The nominal radius: a cylinder's, a torus' minor. */
  radius: number;
  /** Where the centre moves per unit of radius lost (section coordinates; the third 0 but for a sphere). */
  w: [number, number, number];
  /** The nominal arc's angle (radians); a sphere's: the largest angle between its contact points. */
  arc: number;
}

/** Arcs wider than this are not blends to hold tangent (a slot's half-round end is read free). */
export const MAX_BLEND_ARC = (150 * Math.PI) / 180;

/** A point's coordinates in the section, relative to the nominal arc's centre. */
export function sectionPoint(s: BlendSection, x: number, y: number, z: number): [number, number, number] {
  const d: Vec3 = [x - s.origin[0], y - s.origin[1], z - s.origin[2]];
  if (s.kind === 'sphere') return d;
  if (s.kind === 'cylinder') return [dot(d, s.e1), dot(d, s.e2), 0];
  const h = dot(d, s.axis);
  const rho = Math.hypot(d[0] - h * s.axis[0], d[1] - h * s.axis[1], d[2] - h * s.axis[2]);
  return [rho - s.major, h, 0];
}

/**
 * The section of a cylindrical or toroidal blend face, its arc read from the nominal's nodes and
 * edge polylines (the largest angular gap is the open side); null for other faces, a torus read by
 * its major radius, an arc of MAX_BLEND_ARC or more, or one whose neighbours are not tangent to it
 * (the model holds the arc tangent to them).
 */
export function blendSection(nominal: NominalAccess, face: number): BlendSection | null {
  const f = nominal.ref.geometry.faces[face];
  const s = f?.surface;
  if (f && s?.kind === 'sphere') return ballCorner(nominal, face);
  if (!f || !s || (s.kind !== 'cylinder' && s.kind !== 'torus')) return null;
  const fr = s.frame;
  const origin: Vec3 = [fr[0]!, fr[1]!, fr[2]!], axis = normalize([fr[9]!, fr[10]!, fr[11]!]);
  const e1 = normalize(cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])), e2 = cross(axis, e1);
  const section: BlendSection = s.kind === 'cylinder'
    ? { kind: 'cylinder', origin, axis, e1, e2, major: 0, radius: s.radius, w: [0, 0, 0], arc: 0 }
    : { kind: 'torus', origin, axis, e1, e2, major: s.major, radius: s.minor, w: [0, 0, 0], arc: 0 };
  const angles: number[] = [], along: number[] = [];
  const add = (p: ArrayLike<number>, i: number) => {
    const x = p[3 * i]!, y = p[3 * i + 1]!, z = p[3 * i + 2]!;
    const [u, v] = sectionPoint(section, x, y, z);
    angles.push(Math.atan2(v, u));
    along.push(alongOf(section, x, y, z));
  };
  for (const e of f.edges) {
    const pts = nominal.ref.geometry.edges[e]?.points;
    if (pts) for (let i = 0; i < pts.length / 3; i++) add(pts, i);
  }
  const nodes = nominal.nodes([face]);
  for (let i = 0; i < nodes.count; i++) add(nodes.points, i);
  if (angles.length < 3) return null;
  // The open side: the arc runs from the angle after the largest gap round to the one before it.
  const { gap, before: end, after: start } = largestGap(angles);
  const arc = 2 * Math.PI - gap;
  if (!(arc > 0) || arc >= MAX_BLEND_ARC) return null;
  const n1 = [Math.cos(start), Math.sin(start)], n2 = [Math.cos(end), Math.sin(end)];
  const k = 1 + n1[0]! * n2[0]! + n1[1]! * n2[1]!;
  section.w = [(n1[0]! + n2[0]!) / k, (n1[1]! + n2[1]!) / k, 0];
  section.arc = arc;
  return tangentAtEnds(nominal, section, along, start, end) ? section : null;
}

/** Where a point lies along the blend: its height on a cylinder's axis, its azimuth round a torus'. */
function alongOf(s: BlendSection, x: number, y: number, z: number): number {
  const d: Vec3 = [x - s.origin[0], y - s.origin[1], z - s.origin[2]];
  return s.kind === 'cylinder' ? dot(d, s.axis) : Math.atan2(dot(d, s.e2), dot(d, s.e1));
}

/** A kink beyond this share of the probe's step is not a tangent join (about 6 degrees). */
const TANGENT_SLOPE = 0.1;

/**
 * Whether the nominal continues tangentially past both ends of the arc: a point a fifth of the
 * radius beyond each end, along the arc's tangent there, lies on the nominal (within TANGENT_SLOPE
 * of the step) where the nominal's normal is across that tangent (within TANGENT_SLOPE): a plane
 * wall, or a curved one of twice the radius or more. Probed across the face at the median of its
 * nodes' and edge points' heights along a cylinder (azimuths round a torus): a cylinder's nodes may
 * all lie on its edges, which the nominal's nodes leave out.
 */
function tangentAtEnds(nominal: NominalAccess, s: BlendSection, along: number[], start: number, end: number): boolean {
  const mid = [...along].sort((a, b) => a - b)[along.length >> 1]!;
  // Section coordinates (u, v) to space at that height or azimuth.
  const radialDir: Vec3 = s.kind === 'torus' ? [Math.cos(mid) * s.e1[0] + Math.sin(mid) * s.e2[0], Math.cos(mid) * s.e1[1] + Math.sin(mid) * s.e2[1], Math.cos(mid) * s.e1[2] + Math.sin(mid) * s.e2[2]] : s.e1;
  const toSpace = (u: number, v: number): Vec3 => {
    if (s.kind === 'cylinder') return [0, 1, 2].map((a) => s.origin[a]! + mid * s.axis[a]! + u * s.e1[a]! + v * s.e2[a]!) as Vec3;
    return [0, 1, 2].map((a) => s.origin[a]! + (s.major + u) * radialDir[a]! + v * s.axis[a]!) as Vec3;
  };
  const step = 0.2 * s.radius, hit = createExactHit();
  for (const [angle, away] of [[start, -1], [end, 1]] as const) {
    const c = Math.cos(angle), sn = Math.sin(angle);
    // Along the tangent, away from the arc: the angle decreasing past the start, increasing past the end.
    const u = s.radius * c - away * step * sn, v = s.radius * sn + away * step * c;
    const p = toSpace(u, v), q = toSpace(u - away * sn, v + away * c);
    const t = normalize([q[0] - p[0], q[1] - p[1], q[2] - p[2]]);
    nominal.ref.nearest(p[0], p[1], p[2], hit);
    // On the neighbour, and the neighbour's normal across the tangent there: a circle that goes on
    // (a hole split in thirds) has turned a fifth of a radian by then, a plane not at all.
    if (!(hit.distance <= TANGENT_SLOPE * step) || Math.abs(hit.nx * t[0] + hit.ny * t[1] + hit.nz * t[2]) > TANGENT_SLOPE) return false;
  }
  return true;
}

/** The signed distance from the tangent arc of radius r (outward: away from its centre). */
export function tangentArcResidual(s: BlendSection, r: number): (x: number, y: number, z: number) => number {
  const k = s.radius - r;
  return (x, y, z) => {
    const [u, v, t] = sectionPoint(s, x, y, z);
    return Math.hypot(u - k * s.w[0], v - k * s.w[1], t - k * s.w[2]) - r;
  };
}

/**
 * The least-squares radius of the arc tangent to the nominal's adjacent faces through `pts`
 * (Gauss-Newton on the one parameter, from the nominal): null with fewer than 3 points, or when
 * the points do not fix it (all at the arc's ends, where every tangent arc passes).
 */
export function fitTangentArc(s: BlendSection, pts: PointSet): { radius: number; rms: number } | null {
  const n = pts.count;
  if (n < 3) return null;
  const q = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) q.set(sectionPoint(s, pts.points[3 * i]!, pts.points[3 * i + 1]!, pts.points[3 * i + 2]!), 3 * i);
  const [wu, wv, wt] = s.w;
  let r = s.radius, cost = Infinity;
  for (let iter = 0; iter < 50; iter++) {
    const k = s.radius - r;
    let jj = 0, jr = 0, sum = 0;
    for (let i = 0; i < n; i++) {
      const du = q[3 * i]! - k * wu, dv = q[3 * i + 1]! - k * wv, dt = q[3 * i + 2]! - k * wt, d = Math.hypot(du, dv, dt);
      const res = d - r;
      // d(res)/dr: the centre moves by -w as r grows.
      const j = d > 0 ? (du * wu + dv * wv + dt * wt) / d - 1 : -1;
      jj += j * j;
      jr += j * res;
      sum += res * res;
    }
    cost = sum;
    if (!(jj > 1e-12 * n)) return null;
    const step = -jr / jj;
    r = Math.min(Math.max(r + step, 1e-3 * s.radius), 10 * s.radius);
    if (Math.abs(step) < 1e-13 * s.radius) break;
  }
  return Number.isFinite(r) ? { radius: r, rms: Math.sqrt(cost / n) } : null;
}

/**
 * A rolling ball's corner: a sphere face whose patch's corners (the ends of its edges) are where
 * the ball touches its walls. With n_i the unit directions from the centre to those corners, the
 * ball of radius r tangent to the same walls is centred at c0 + (r0 - r) w, n_i . w = 1 (three
 * corners; more must agree). Null unless the corners lie on the sphere, fix w, and the nominal goes
 * on tangentially past each corner away from the patch (the wall: probed as for an arc).
 */
function ballCorner(nominal: NominalAccess, face: number): BlendSection | null {
  const g = nominal.ref.geometry, f = g.faces[face]!, s = f.surface;
  if (s.kind !== 'sphere') return null;
  const c: Vec3 = [s.frame[0]!, s.frame[1]!, s.frame[2]!], r0 = s.radius;
  const dirs: Vec3[] = [];
  for (const e of f.edges) {
    for (const v of [g.edges[e]?.v0 ?? -1, g.edges[e]?.v1 ?? -1]) {
      if (v < 0) continue;
      const d: Vec3 = [g.vertices[3 * v]! - c[0], g.vertices[3 * v + 1]! - c[1], g.vertices[3 * v + 2]! - c[2]];
      const len = Math.hypot(...d);
      if (!(Math.abs(len - r0) <= 1e-6 * r0 + g.tolerance)) return null;
      const n = normalize(d);
      if (!dirs.some((m) => dot(m, n) > 1 - 1e-9)) dirs.push(n);
    }
  }
  if (dirs.length < 3) return null;
  const A = [0, 1, 2].map((a) => [0, 1, 2].map((b) => dirs.reduce((t, n) => t + n[a]! * n[b]!, 0)));
  const w = solveLinear(A, [0, 1, 2].map((a) => dirs.reduce((t, n) => t + n[a]!, 0)));
  if (!w || dirs.some((n) => Math.abs(dot(n, w as Vec3) - 1) > 1e-6)) return null;
  const mid = normalize(dirs.reduce<Vec3>((t, n) => [t[0] + n[0], t[1] + n[1], t[2] + n[2]], [0, 0, 0]));
  const step = 0.2 * r0, hit = createExactHit();
  let arc = 0;
  for (const n of dirs) {
    for (const m of dirs) arc = Math.max(arc, Math.acos(Math.min(1, dot(n, m))));
    // Away from the patch in the wall's plane at the contact point.
    const d: Vec3 = [n[0] - mid[0], n[1] - mid[1], n[2] - mid[2]], h = dot(d, n);
    const away = normalize([d[0] - h * n[0], d[1] - h * n[1], d[2] - h * n[2]]);
    const p: Vec3 = [c[0] + r0 * n[0] + step * away[0], c[1] + r0 * n[1] + step * away[1], c[2] + r0 * n[2] + step * away[2]];
    nominal.ref.nearest(p[0], p[1], p[2], hit);
    if (!(hit.distance <= TANGENT_SLOPE * step) || Math.abs(hit.nx * away[0] + hit.ny * away[1] + hit.nz * away[2]) > TANGENT_SLOPE) return null;
  }
  return { kind: 'sphere', origin: c, axis: [0, 0, 1], e1: [1, 0, 0], e2: [0, 1, 0], major: 0, radius: r0, w: w as [number, number, number], arc };
}
