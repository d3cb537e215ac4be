import { BrepscopeError } from '../errors';
import type { ExactGeometry } from '../exact/geometry';
import { applyToPoints, compose, type Rigid } from '../math/rigid';
import { dot, type Vec3 } from '../math/vec3';
import { select, type PointSet } from '../gdt/bodySamples';
import { buildFrame, type DatumFeature } from '../gdt/datumFrame';
import { alignToDatums, frameRigid } from '../gdt/datumAlignment';
import { nominalFeature, samplesByFace } from '../gdt/datumSimulation';
import { featureKind, type NominalAccess } from '../gdt/nominalFaces';
import type { FaceSplit } from '../gdt/faceSplit';
import type { Densifier } from '../gdt/scanDensify';
import { fitCylinder, fitPlane, fitSphere, radial } from '../gdt/leastSquares';

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

/** Robust refits of a 3-2-1's least-squares features: samples beyond this many (normal-equivalent) median absolute residuals go. */
const OUTLIER_MADS = 3;
/** A datum with fewer samples on its face cannot be simulated (evaluate_gdt's default minSamples: the same datums). */
const MIN_SAMPLES = 12;

const ROLES = ['primary', 'secondary', 'tertiary'] as const;

/** The fixed body as the gdt domain reads it: its exact faces and nodes, and the face split evaluate_gdt uses. */
export interface DatumContext {
  nominal: NominalAccess;
  split: (set: PointSet) => FaceSplit;
  geometry: ExactGeometry;
  /** The fixed body's diagonal (bodyDiagonal): convergence of the datum rounds. */
  diagonal: number;
  /**
   * More samples for a datum face that has few, drawn from the moving body placed by a motion (as
   * evaluate_gdt draws them, gdt/scanDensify.ts): a small bore as datum B got a dozen of 20,000.
   */
  densifyAt?: (placed: Rigid) => Densifier;
}

/**
 * A datum alignment from a starting pose (where the samples correspond to the fixed body's faces),
 * on the datum features of src/engine/gdt (one fitting and frame code for both tools):
 *
 * - `datums` (ASME Y14.5 / ISO 5459, the same datums evaluate_gdt builds on the same faces): a plane
 *   is the tangent plane at the high points in the minimum-zone orientation, a secondary or tertiary
 *   plane constrained perpendicular to the earlier datums; an axis the least-squares cylinder's; the
 *   scan moved until its datum reference frame lies on the nominal's (gdt/datumAlignment.ts).
 * - `3-2-1` (a CMM's level, rotate, origin): each face's samples fitted by least squares (robust:
 *   refits without samples beyond 3 median absolute residuals), the planes not constrained to each
 *   other, so the origin is where the fitted faces meet; two passes, the samples split again at the
 *   first pose.
 *
 * Both split the samples by the fixed body's faces as evaluate_gdt does (faceSplitter).
 */
export function datumAlignment(
  points: Float64Array,
  start: Rigid,
  context: DatumContext,
  datums: (DatumSpec & { index: number })[],
  method: '3-2-1' | 'datums',
): { motion: Rigid; residuals: ConstraintResidual[] } {
  datums.forEach((d, k) => checkKind(context.geometry, d, k));
  const { nominal, split } = context;
  const count = points.length / 3;
  const at = (m: Rigid): PointSet => ({ points: applyToPoints(m, points), normals: undefined, count });
  const faces = datums.map((d) => [d.index]);
  const nominals = faces.map((f) => nominalFeature(nominal, f, featureKind(nominal, f)));
  nominals.forEach((n, k) => {
    if (!n) throw new BrepscopeError('INVALID_ARGUMENT', `align_bodies: the ${ROLES[k]} datum face[${datums[k]!.index}]: its nodes fit no ${featureKind(nominal, faces[k]!)}`, { face: `face[${datums[k]!.index}]` });
  });
  checkIndependent(nominals as DatumFeature[], datums);
  let pose = start;
  if (method === 'datums') {
    const specs = datums.map((d, k) => ({ label: ROLES[k]!, faces: [d.index] }));
    const densifyAt = context.densifyAt;
    const options = { minSamples: MIN_SAMPLES, ...(densifyAt ? { densifyAt: (m: Rigid) => densifyAt(compose(m, start)) } : {}) };
    const aligned = alignToDatums(nominal, at(start), split, specs, specs.map((s) => s.label), options, 1e-9 * context.diagonal);
    if (!aligned.ok) throw new BrepscopeError('NO_COVERAGE', `align_bodies: ${aligned.reason.replace(/^datum (primary|secondary|tertiary)/, 'the $1 datum')} (is the face scanned?)`);
    pose = compose(aligned.motion, start);
  } else {
    for (let pass = 0; pass < 2; pass++) {
      const set = at(pose);
      const on = samplesByFace(set, split(set));
      const fitted = datums.map((d, k) => robustFit(on(faces[k]!), nominals[k]!, d).feature);
      const nominalFrame = buildFrame(nominals as DatumFeature[]);
      pose = compose(frameRigid(buildFrame(fitted, nominalFrame), nominalFrame), pose);
    }
  }
  // What each datum face's samples say at the final pose: their least-squares feature against the nominal one.
  const set = at(pose);
  const faceSplit = split(set);
  const on = samplesByFace(set, faceSplit, method === 'datums' ? context.densifyAt?.(pose) : undefined);
  const residuals = datums.map((d, k): ConstraintResidual => {
    const own = on(faces[k]!);
    const { feature, form } = robustFit(own, nominals[k]!, d);
    const deviations: number[] = [];
    for (let i = 0; i < faceSplit.face.length; i++) if (faceSplit.face[i] === d.index) deviations.push(faceSplit.deviation[i]!);
    const rms = deviations.length ? Math.sqrt(deviations.reduce((s, v) => s + v * v, 0) / deviations.length) : null;
    const meanSigned = deviations.length ? deviations.reduce((s, v) => s + v, 0) / deviations.length : null;
    return { role: ROLES[k]!, face: `face[${d.index}]`, kind: nominals[k]!.kind, points: own.count, form, ...offsetOf(feature, nominals[k]!, context.geometry, d.index), rms, meanSigned };
  });
  return { motion: pose, residuals };
}

/** The face's surface must suit the datum's kind (the primary a plane); INVALID_ARGUMENT otherwise. */
function checkKind(geometry: ExactGeometry, d: DatumSpec & { index: number }, k: number): void {
  const s = geometry.faces[d.index]!.surface.kind;
  const want = d.kind ?? (s === 'plane' ? 'plane' : s === 'cylinder' ? 'axis' : s === 'sphere' ? 'point' : null);
  const bad = (what: string) => new BrepscopeError('INVALID_ARGUMENT', `align_bodies: the ${ROLES[k]} datum face[${d.index}] is a ${s} face: ${what}`, { face: `face[${d.index}]`, surface: s });
  if (k === 0 && want !== 'plane') throw bad('the primary datum must be a planar face');
  if (want === 'plane' && s !== 'plane') throw bad('a plane datum must be a planar face');
  if (want === 'axis' && s !== 'cylinder') throw bad('an axis datum must be a cylindrical face');
  if (want === 'point' && s !== 'sphere' && s !== 'cylinder') throw bad('a point datum must be a spherical face (its centre) or a cylindrical one (where its axis meets the primary plane)');
  if (want === null) throw bad('a datum must be a plane, a cylinder or a sphere');
}

/** Each plane after the primary must fix something the earlier datums leave free (not parallel to them). */
function checkIndependent(nominals: DatumFeature[], datums: (DatumSpec & { index: number })[]): void {
  const normals: Vec3[] = [];
  nominals.forEach((n, k) => {
    if (n.kind !== 'plane') return;
    let rest = n.normal;
    for (const m of normals) rest = sub(rest, scale(m, dot(rest, m)));
    const left = Math.hypot(...rest);
    if (k > 0 && left < 1e-6) {
      throw new BrepscopeError('INVALID_ARGUMENT', `align_bodies: the ${ROLES[k]} datum face[${datums[k]!.index}] is parallel to an earlier datum plane: it fixes nothing more; choose a secondary and a tertiary that cross the primary and each other`, { face: `face[${datums[k]!.index}]` });
    }
    normals.push(scale(rest, 1 / left));
  });
}

/** The least-squares feature of a datum's samples (gdt/leastSquares), oriented like the nominal one; refitted without outliers (OUTLIER_MADS). */
function robustFit(pts: PointSet, nominal: DatumFeature, d: DatumSpec & { index: number }): { feature: DatumFeature; form: number } {
  const need = nominal.kind === 'plane' ? 3 : nominal.kind === 'axis' ? 6 : 4;
  if (pts.count < need) {
    throw new BrepscopeError('NO_COVERAGE', `align_bodies: the datum face[${d.index}] holds ${pts.count} samples of the moving body at the starting pose; fitting a ${nominal.kind} takes ${need} at least (is the face scanned?)`, { face: `face[${d.index}]` });
  }
  let kept = pts;
  let result: { feature: DatumFeature; residual: (p: Vec3) => number } | null = null;
  for (let pass = 0; pass < 6; pass++) {
    result = fitFeature(kept, nominal);
    if (!result) throw new BrepscopeError('NO_COVERAGE', `align_bodies: the samples of datum face[${d.index}] do not make a ${nominal.kind === 'axis' ? 'cylinder' : nominal.kind} (too few, or degenerate)`, { face: `face[${d.index}]` });
    // The median absolute residual, not the RMS: samples of a neighbouring face near the edge
    // (a tilted face's strip inside the part) are few but far, and would hold the RMS up.
    const r = residualsOf(kept, result.residual);
    const sorted = Float64Array.from(r, Math.abs).sort();
    const limit = OUTLIER_MADS * 1.4826 * sorted[sorted.length >> 1]!;
    const keep: number[] = [];
    r.forEach((v, i) => Math.abs(v) <= limit && keep.push(i));
    if (keep.length === kept.count || keep.length < need) break;
    kept = select(kept, keep);
  }
  const r = residualsOf(kept, result!.residual);
  return { feature: result!.feature, form: Math.sqrt(r.reduce((s, v) => s + v * v, 0) / r.length) };
}

function residualsOf(set: PointSet, residual: (p: Vec3) => number): number[] {
  const out: number[] = [];
  for (let i = 0; i < set.count; i++) out.push(residual([set.points[3 * i]!, set.points[3 * i + 1]!, set.points[3 * i + 2]!]));
  return out;
}

function fitFeature(pts: PointSet, nominal: DatumFeature): { feature: DatumFeature; residual: (p: Vec3) => number } | null {
  const p = pts.points.subarray(0, 3 * pts.count);
  if (nominal.kind === 'plane') {
    const f = fitPlane(p);
    if (!f) return null;
    const n = dot(f.normal, nominal.normal) < 0 ? scale(f.normal, -1) : f.normal;
    return { feature: { kind: 'plane', normal: n, point: f.origin }, residual: (q) => dot(sub(q, f.origin), n) };
  }
  if (nominal.kind === 'axis') {
    const c = fitCylinder(p, undefined, nominal.direction);
    if (!c) return null;
    const dir = dot(c.axis, nominal.direction) < 0 ? scale(c.axis, -1) : c.axis;
    return { feature: { kind: 'axis', direction: dir, point: c.origin }, residual: (q) => radial(q, c.origin, c.axis) - c.radius };
  }
  const s = fitSphere(p);
  return s ? { feature: { kind: 'point', point: s.center }, residual: (q) => Math.hypot(...sub(q, s.center)) - s.radius } : null;
}

/** Angle and offset of a moved fitted feature from the nominal one (ConstraintResidual.distance). */
function offsetOf(moved: DatumFeature, nominal: DatumFeature, geometry: ExactGeometry, face: number): { angleDegrees: number | null; distance: number | null } {
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

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
