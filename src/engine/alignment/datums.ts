import { BrepscopeError } from '../errors';
import type { ExactGeometry } from '../exact/geometry';
import { fitCylinder } from '../math/fitCylinder';
import { apply, invert, rotate, type Rigid } from '../math/rigid';
import { symmetricEigen3 } from '../math/symmetricEigen';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import { createFoot, type NearestFoot } from './icp';

/** A datum of a 3-2-1 alignment: a face of the fixed body and what it stands for. */
export interface DatumSpec {
  /** face[N] of the fixed body. */
  face: string;
  /** plane (a planar face), axis (a cylindrical face's axis) or point (a sphere's centre, or where a cylinder's axis meets the primary plane). Default: from the face's surface. */
  kind?: 'plane' | 'axis' | 'point' | undefined;
}

/** What one constraint (a datum, or a face of a local best fit) left after the alignment. */
export interface ConstraintResidual {
  role: 'primary' | 'secondary' | 'tertiary' | 'face';
  face: string;
  kind: 'plane' | 'axis' | 'point' | 'surface';
  /** Samples of the moving body attributed to the face. */
  points: number;
  /** RMS of those samples about the feature fitted to them (its form), model units; null for a local best fit's face. */
  form: number | null;
  /** Angle between the fitted feature (moved by the alignment) and the nominal one, degrees (plane normals, axis directions); null for a point. */
  angleDegrees: number | null;
  /**
   * Where the fitted feature stands off the nominal one after the alignment: a plane, its signed
   * distance along the nominal outward normal at the nominal face's centroid; an axis, the distance
   * from the nominal axis point to the fitted axis; a point, the distance between the points.
   */
  distance: number | null;
  /** RMS and mean of the samples' signed distances to the nominal face after the alignment. */
  rms: number | null;
  meanSigned: number | null;
}

/** Samples farther than this share of the diagonal from a datum face at the starting pose are not its. */
const DATUM_REACH = 0.02;
/** Robust refits: samples beyond this many (normal-equivalent) median absolute residuals of the fitted feature go. */
const OUTLIER_MADS = 3;

/** Checks face[N] ids against the fixed body's faces (SELECTION_NOT_FOUND beyond them). */
export function parseFaceIds(ids: string[] | undefined, arg: string, faceCount: number | null): number[] {
  if (!ids || ids.length === 0) throw new BrepscopeError('INVALID_ARGUMENT', `align_bodies: ${arg} must name at least one face of the fixed body as face[N]`);
  return ids.map((id) => {
    const m = /^face\[(\d+)\]$/.exec(id.trim());
    if (!m) throw new BrepscopeError('INVALID_ARGUMENT', `align_bodies: ${arg}: '${id}' is not a face id; expected face[N]`);
    const n = Number(m[1]);
    if (faceCount !== null && n >= faceCount) throw new BrepscopeError('SELECTION_NOT_FOUND', `align_bodies: ${arg}: the fixed body has ${faceCount} faces (face[0] to face[${faceCount - 1}]); '${id}' is not one`);
    return n;
  });
}

type Feature = { kind: 'plane'; normal: Vec3; point: Vec3 } | { kind: 'axis'; direction: Vec3; point: Vec3 } | { kind: 'point'; point: Vec3 };

const ROLES = ['primary', 'secondary', 'tertiary'] as const;

/**
 * A 3-2-1 (datum) alignment from a starting pose (where the samples correspond to the fixed body's
 * faces): for each datum face, the samples whose nearest point at the start lies inside it are
 * fitted (plane, cylinder axis, or point), the same construction is made from the nominal faces,
 * and the motion maps the fitted datum reference frame onto the nominal one, constrained in order:
 * the primary plane fixes three freedoms (its normal and its offset), the secondary two (the spin
 * about the primary normal and one position), the tertiary the last. Two passes: the samples are
 * attributed again from the first datum pose.
 */
export function datumAlignment(
  points: Float64Array,
  start: Rigid,
  nearest: NearestFoot,
  geometry: ExactGeometry,
  datums: (DatumSpec & { index: number })[],
  diagonal: number,
): { motion: Rigid; residuals: ConstraintResidual[] } {
  const nominal = datums.map((d, k) => nominalFeature(geometry, d, k));
  let pose = start;
  let fitted: { feature: Feature; form: number; points: number; samples: Vec3[] }[] = [];
  for (let pass = 0; pass < 2; pass++) {
    const groups = attribute(points, pose, nearest, datums.map((d) => d.index), DATUM_REACH * diagonal);
    fitted = datums.map((d, k) => {
      const own = groups[k]!;
      const feature = fitFeature(own.points, own.normals, nominal[k]!, pose, d);
      return { ...feature, points: own.points.length, samples: own.points };
    });
    pose = frameMotion(
      fitted.map((f) => f.feature),
      nominal,
    );
  }
  const residuals = datums.map((d, k): ConstraintResidual => {
    const f = fitted[k]!, n = nominal[k]!;
    const moved = moveFeature(f.feature, pose);
    const stats = signedStats(f.samples, pose, nearest, d.index);
    return { role: ROLES[k]!, face: `face[${d.index}]`, kind: n.kind, points: f.points, form: f.form, ...offsetOf(moved, n, geometry, d.index), ...stats };
  });
  return { motion: pose, residuals };
}

/** The nominal datum: the face's plane, axis or point (from its exact surface). */
function nominalFeature(geometry: ExactGeometry, d: DatumSpec & { index: number }, k: number): Feature {
  const face = geometry.faces[d.index]!;
  const s = face.surface;
  const F = 'frame' in s ? s.frame : null;
  const o: Vec3 | null = F ? [F[0]!, F[1]!, F[2]!] : null;
  const z: Vec3 | null = F ? [F[9]!, F[10]!, F[11]!] : null;
  const want = d.kind ?? (s.kind === 'plane' ? 'plane' : s.kind === 'cylinder' ? 'axis' : s.kind === 'sphere' ? 'point' : null);
  const bad = (what: string) =>
    new BrepscopeError('INVALID_ARGUMENT', `align_bodies: the ${ROLES[k]} datum face[${d.index}] is a ${s.kind} face: ${what}`, { face: `face[${d.index}]`, surface: s.kind });
  if (k === 0 && want !== 'plane') throw bad('the primary datum must be a planar face');
  if (want === 'plane') {
    if (s.kind !== 'plane') throw bad('a plane datum must be a planar face');
    const n = normalize(cross([F![3]!, F![4]!, F![5]!], [F![6]!, F![7]!, F![8]!]));
    return { kind: 'plane', normal: face.reversed ? [-n[0], -n[1], -n[2]] : n, point: o! };
  }
  if (want === 'axis') {
    if (s.kind !== 'cylinder') throw bad('an axis datum must be a cylindrical face');
    return { kind: 'axis', direction: normalize(z!), point: o! };
  }
  if (want === 'point') {
    if (s.kind === 'sphere') return { kind: 'point', point: o! };
    if (s.kind === 'cylinder') return { kind: 'axis', direction: normalize(z!), point: o! };
    throw bad('a point datum must be a spherical face (its centre) or a cylindrical one (where its axis meets the primary plane)');
  }
  throw bad('a datum must be a plane, a cylinder or a sphere');
}

/** The samples whose nearest fixed point, at `pose`, lies inside each datum face (not on its edges), within `reach`. */
function attribute(points: Float64Array, pose: Rigid, nearest: NearestFoot, faces: number[], reach: number): { points: Vec3[]; normals: Vec3[] }[] {
  const groups = faces.map(() => ({ points: [] as Vec3[], normals: [] as Vec3[] }));
  const back = invert(pose);
  const foot = createFoot();
  for (let i = 0; i < points.length; i += 3) {
    const p: Vec3 = [points[i]!, points[i + 1]!, points[i + 2]!];
    const [x, y, z] = apply(pose, p[0], p[1], p[2]);
    if (!nearest(x, y, z, foot) || !foot.interior) continue;
    const k = faces.indexOf(foot.face);
    if (k < 0 || Math.hypot(x - foot.x, y - foot.y, z - foot.z) > reach) continue;
    groups[k]!.points.push(p);
    // The nominal normal there, in the moving body's coordinates: a cylinder fit's start.
    groups[k]!.normals.push(rotate(back, foot.nx, foot.ny, foot.nz));
  }
  return groups;
}

/** The feature fitted to a datum's samples (moving body's coordinates), oriented like the nominal one seen from `pose`; robust (OUTLIER_MADS). */
function fitFeature(points: Vec3[], normals: Vec3[], nominal: Feature, pose: Rigid, d: DatumSpec & { index: number }): { feature: Feature; form: number } {
  const need = nominal.kind === 'plane' ? 3 : 6;
  if (points.length < need) {
    throw new BrepscopeError('NO_COVERAGE', `align_bodies: the datum face[${d.index}] holds ${points.length} samples of the moving body at the starting pose; fitting a ${nominal.kind} takes ${need} at least (is the face scanned?)`, { face: `face[${d.index}]` });
  }
  const back = invert(pose);
  let kept = points.map((_, i) => i);
  let result: { feature: Feature; form: number; residual: (p: Vec3) => number } | null = null;
  for (let pass = 0; pass < 6; pass++) {
    const pts = kept.map((i) => points[i]!);
    if (nominal.kind === 'plane') {
      const { normal, point, rms } = fitPlane(pts);
      const expected = rotate(back, ...nominal.normal);
      const n: Vec3 = dot(normal, expected) < 0 ? [-normal[0], -normal[1], -normal[2]] : normal;
      result = { feature: { kind: 'plane', normal: n, point }, form: rms, residual: (p) => dot(sub(p, point), n) };
    } else {
      const c = fitCylinder(pts, kept.map((i) => normals[i]!));
      if (!c) throw new BrepscopeError('NO_COVERAGE', `align_bodies: the samples of datum face[${d.index}] do not make a cylinder (too few, or all on a line)`, { face: `face[${d.index}]` });
      const expected = rotate(back, ...(nominal.kind === 'axis' ? nominal.direction : ([0, 0, 1] as Vec3)));
      const dir: Vec3 = dot(c.axis, expected) < 0 ? [-c.axis[0], -c.axis[1], -c.axis[2]] : c.axis;
      result = {
        feature: { kind: 'axis', direction: dir, point: c.origin },
        form: c.rms,
        residual: (p) => {
          const w = sub(p, c.origin);
          const along = dot(w, dir);
          return Math.hypot(w[0] - along * dir[0], w[1] - along * dir[1], w[2] - along * dir[2]) - c.radius;
        },
      };
    }
    // The median absolute residual, not the RMS: samples of a neighbouring face near the edge
    // (a tilted face's strip inside the part) are few but far, and would hold the RMS up.
    const abs = kept.map((i) => Math.abs(result!.residual(points[i]!))).sort((a, b) => a - b);
    const limit = OUTLIER_MADS * 1.4826 * abs[abs.length >> 1]!;
    const next = kept.filter((i) => Math.abs(result!.residual(points[i]!)) <= limit);
    if (next.length === kept.length || next.length < need) break;
    kept = next;
  }
  return { feature: result!.feature, form: result!.form };
}

/** Least-squares plane: the centroid and the covariance's least eigenvector. */
export function fitPlane(points: Vec3[]): { normal: Vec3; point: Vec3; rms: number } {
  const c: Vec3 = [0, 0, 0];
  for (const p of points) for (let i = 0; i < 3; i++) c[i] = c[i]! + p[i]! / points.length;
  const m = new Array<number>(9).fill(0);
  for (const p of points) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j] = m[3 * i + j]! + (p[i]! - c[i]!) * (p[j]! - c[j]!);
  const { values, vectors } = symmetricEigen3(m);
  const normal = normalize(vectors[0]);
  return { normal, point: c, rms: Math.sqrt(Math.max(0, values[0]) / points.length) };
}

interface Frame {
  /** Columns x, y, z. */
  axes: [Vec3, Vec3, Vec3];
  origin: Vec3;
}

/**
 * The datum reference frame of three features, constrained in order: z the primary plane's
 * normal; x the secondary plane's normal (or axis) projected onto the primary plane, or, for a
 * secondary axis across the primary plane, toward the tertiary; the origin on the primary plane,
 * then on the secondary (plane, or axis), then on the tertiary.
 */
function datumFrame(features: Feature[]): Frame {
  const [p, s, t] = features as [Extract<Feature, { kind: 'plane' }>, Feature | undefined, Feature | undefined];
  const z = p.normal;
  const onPrimary = (point: Vec3, dir: Vec3): Vec3 => {
    const along = dot(sub(p.point, point), z) / dot(dir, z);
    return add(point, scale(dir, along));
  };
  const project = (v: Vec3): Vec3 | null => {
    const w = sub(v, scale(z, dot(v, z)));
    const n = Math.hypot(...w);
    return n > 1e-9 ? scale(w, 1 / n) : null;
  };
  const fallbackX = (): Vec3 => project([1, 0, 0]) ?? project([0, 1, 0])!;
  // Origin constraints: rows n . o = d.
  const rows: { n: Vec3; d: number }[] = [{ n: z, d: dot(z, p.point) }];
  let x: Vec3 | null = null;
  let origin: Vec3 | null = null;
  if (s?.kind === 'plane') {
    x = project(s.normal);
    rows.push({ n: s.normal, d: dot(s.normal, s.point) });
  } else if (s?.kind === 'axis' && Math.abs(dot(s.direction, z)) > Math.SQRT1_2) {
    origin = onPrimary(s.point, s.direction);
  } else if (s?.kind === 'axis') {
    x = project(s.direction);
    const y = cross(z, x!);
    rows.push({ n: y, d: dot(y, s.point) });
  } else if (s?.kind === 'point') {
    origin = onPrimary(s.point, z);
  }
  if (!x) {
    // The secondary fixed a point on the primary plane: the tertiary gives the direction.
    const toward = t ? (t.kind === 'plane' ? project(t.normal) : project(sub(t.kind === 'axis' ? onPrimary(t.point, t.direction) : t.point, origin ?? p.point))) : null;
    x = toward ?? fallbackX();
  } else if (!origin && t) {
    if (t.kind === 'plane') rows.push({ n: t.normal, d: dot(t.normal, t.point) });
    else {
      const q = t.kind === 'axis' ? onPrimary(t.point, t.direction) : t.point;
      rows.push({ n: x, d: dot(x, q) });
    }
  }
  const y = cross(z, x);
  if (!origin) origin = solveOrigin(rows, x, y, p.point);
  return { axes: [x, y, z], origin };
}

/** The point meeting the constraint rows; directions they leave free keep `fallback`'s coordinate. */
function solveOrigin(rows: { n: Vec3; d: number }[], x: Vec3, y: Vec3, fallback: Vec3): Vec3 {
  const all = [...rows];
  for (const free of [x, y]) {
    if (all.length >= 3) break;
    all.push({ n: free, d: dot(free, fallback) });
  }
  const [a, b, c] = all as [{ n: Vec3; d: number }, { n: Vec3; d: number }, { n: Vec3; d: number }];
  const det = dot(a.n, cross(b.n, c.n));
  if (Math.abs(det) < 1e-9) throw new BrepscopeError('INVALID_ARGUMENT', 'align_bodies: the datums do not fix a point (two datum planes are parallel): choose a secondary and a tertiary that cross the primary and each other');
  const v = add(add(scale(cross(b.n, c.n), a.d), scale(cross(c.n, a.n), b.d)), scale(cross(a.n, b.n), c.d));
  return scale(v, 1 / det);
}

/** The motion that puts the fitted datum reference frame onto the nominal one. */
function frameMotion(fitted: Feature[], nominal: Feature[]): Rigid {
  const f = datumFrame(fitted), n = datumFrame(nominal);
  // R = N F^T (columns are the frames' axes).
  const r = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[3 * i + j] = r[3 * i + j]! + n.axes[k]![i]! * f.axes[k]![j]!;
  const ro = [0, 1, 2].map((i) => r[3 * i]! * f.origin[0] + r[3 * i + 1]! * f.origin[1] + r[3 * i + 2]! * f.origin[2]);
  return { r, t: [n.origin[0] - ro[0]!, n.origin[1] - ro[1]!, n.origin[2] - ro[2]!] };
}

function moveFeature(f: Feature, m: Rigid): Feature {
  const point = apply(m, ...f.point);
  if (f.kind === 'plane') return { kind: 'plane', normal: rotate(m, ...f.normal), point };
  if (f.kind === 'axis') return { kind: 'axis', direction: rotate(m, ...f.direction), point };
  return { kind: 'point', point };
}

/** Angle and offset of a moved fitted feature from the nominal one (ConstraintResidual.distance). */
function offsetOf(moved: Feature, nominal: Feature, geometry: ExactGeometry, face: number): { angleDegrees: number | null; distance: number | null } {
  const deg = (a: Vec3, b: Vec3) => (Math.acos(Math.min(1, Math.abs(dot(a, b)))) * 180) / Math.PI;
  if (moved.kind === 'plane' && nominal.kind === 'plane') {
    const at = faceCentroid(geometry, face) ?? nominal.point;
    // Along the nominal normal from the nominal face's centroid to the moved plane.
    const t = dot(sub(moved.point, at), moved.normal) / dot(nominal.normal, moved.normal);
    return { angleDegrees: deg(moved.normal, nominal.normal), distance: t };
  }
  if (moved.kind === 'axis' && nominal.kind === 'axis') {
    const w = sub(nominal.point, moved.point);
    const along = dot(w, moved.direction);
    return { angleDegrees: deg(moved.direction, nominal.direction), distance: Math.hypot(...sub(w, scale(moved.direction, along))) };
  }
  return { angleDegrees: null, distance: Math.hypot(...sub(moved.point, nominal.point)) };
}

/** A planar face's reference point: the mean of its vertices (a polygon's, on its plane); null for a face without vertices. */
function faceCentroid(geometry: ExactGeometry, face: number): Vec3 | null {
  const f = geometry.faces[face]!;
  const verts = new Set<number>();
  for (const e of f.edges) {
    const edge = geometry.edges[e]!;
    if (edge.v0 >= 0) verts.add(edge.v0);
    if (edge.v1 >= 0) verts.add(edge.v1);
  }
  if (verts.size === 0) return null;
  const c: Vec3 = [0, 0, 0];
  for (const v of verts) for (let i = 0; i < 3; i++) c[i] = c[i]! + geometry.vertices[3 * v + i]! / verts.size;
  return c;
}

/** The samples' signed distances to the nominal face after the motion (those still nearest to it). */
function signedStats(samples: Vec3[], m: Rigid, nearest: NearestFoot, face: number): { rms: number | null; meanSigned: number | null } {
  const foot = createFoot();
  let n = 0, s = 0, s2 = 0;
  for (const p of samples) {
    const [x, y, z] = apply(m, ...p);
    if (!nearest(x, y, z, foot) || foot.face !== face) continue;
    const d = (x - foot.x) * foot.nx + (y - foot.y) * foot.ny + (z - foot.z) * foot.nz;
    n++;
    s += d;
    s2 += d * d;
  }
  return n ? { rms: Math.sqrt(s2 / n), meanSigned: s / n } : { rms: null, meanSigned: null };
}

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
