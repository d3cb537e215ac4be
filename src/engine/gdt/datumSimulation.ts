import { createExactHit } from '../exact/ExactReference';
import { dot, normalize, type Vec3 } from '../math/vec3';
import { select, type PointSet } from './bodySamples';
import { buildFrame, type DatumFeature, type Frame } from './datumFrame';
import type { FaceSplit } from './faceSplit';
import { fitCoaxial, fitCylinder, fitPlane, fitSphere, radial } from './leastSquares';
import { establishTargets, type DatumTarget, type Fixed, type Resolve } from './datumTargets';
import { flatnessZone } from './minimumZone';
import { featureKind, indicesOn, sizeFeatures, widthFeature, type NominalAccess } from './nominalFaces';
import { patternDatum, type Axis } from './patternDatum';

export interface DatumSpec {
  label: string;
  faces: number[];
  /** A datum the drawing defines by datum targets (read_pmi), in words: "3 datum targets (A1, A2, A3: points)". */
  targets?: string;
  /** Those targets with their places and sizes: the datum is simulated from them when it has no faces (datumTargets.ts). */
  targetShapes?: DatumTarget[];
}

export interface EvaluationOptions {
  minSamples: number;
  /** More scan samples for a face set that has few (scanDensify.ts): given its faces and the samples it has, the samples to use. */
  densify?: (faces: number[], have: PointSet) => PointSet;
}

export interface SimulatedDatum {
  spec: DatumSpec;
  nominal: DatumFeature | null;
  actual: DatumFeature | null;
  samples: number;
  points?: PointSet;
  /** A centre plane (of a width feature): not re-simulated as a tangent plane. */
  derived?: boolean;
  /** A pattern of holes as a datum: the second axis that clocks the frame about the pattern's centre (patternDatum.ts). */
  clock?: { nominal: DatumFeature; actual: DatumFeature };
  reason?: string;
  /** A datum from targets: its feature on the nominal and the scan as its place in a frame constrains it. */
  resolve?: Resolve;
  /** How its targets were read, when not as the file names them. */
  note?: string;
}

/** Datum reference frames by their labels in precedence order: nominal and actual (and the nominal datum features), or why there is none. */
export type FramesOf = (labels: string[]) => { nominal: Frame; actual: Frame; features: DatumFeature[] } | string;

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const reject = (v: Vec3, u: Vec3): Vec3 => sub(v, scale(u, dot(v, u)));
const at = (p: ArrayLike<number>, i: number): Vec3 => [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];

/** The scan's samples on some nominal faces. */
export function samplesByFace(samples: PointSet, split: FaceSplit, densify?: EvaluationOptions['densify']): (faces: number[]) => PointSet {
  const byFace = new Map<number, number[]>();
  for (let i = 0; i < samples.count; i++) {
    const f = split.face[i]!;
    if (f < 0) continue;
    let list = byFace.get(f);
    if (!list) byFace.set(f, (list = []));
    list.push(i);
  }
  const on = (faces: number[]) => select(samples, faces.flatMap((f) => byFace.get(f) ?? []));
  return densify ? (faces) => densify(faces, on(faces)) : on;
}

/**
 * The datum features on the nominal (its exact nodes) and simulated on the scan, and the frames they
 * build. Shared by the evaluation, evaluate_gdt's datum alignment and align_bodies' method datums.
 * A label `A-B` is the common datum of A and B (ASME Y14.5 4.12, ISO 5459): coaxial cylinders fitted
 * together (one axis, a radius each), or coplanar planes simulated as one.
 */
export function simulateDatums(
  nominal: NominalAccess,
  actualOn: (faces: number[]) => PointSet,
  datumSpecs: DatumSpec[],
  options: EvaluationOptions,
): { datums: Map<string, SimulatedDatum>; frames: FramesOf } {
  const datums = new Map<string, SimulatedDatum>();
  for (const d of datumSpecs) {
    if (d.faces.length === 0 && d.targetShapes?.length) {
      const t = establishTargets(nominal, actualOn, d.label, d.targetShapes);
      datums.set(d.label, { spec: { label: d.label, faces: [] }, ...t });
    } else datums.set(d.label, establish(nominal, actualOn, d.label, [d.faces], options, d.targets));
  }

  /** A datum by label: defined, or the common datum of defined ones (A-B), established once. */
  const datumOf = (l: string): SimulatedDatum | string => {
    const known = datums.get(l);
    if (known) return known;
    const parts = l.split('-').map((p) => p.trim());
    if (parts.length < 2 || parts.some((p) => !datums.has(p))) return `datum ${l} is not defined (no datum feature with that label)`;
    const byTargets = parts.filter((p) => datumSpecs.some((d) => d.label === p && d.faces.length === 0 && d.targetShapes?.length));
    if (byTargets.length) return `common datum ${l}: ${byTargets.join(', ')} ${byTargets.length > 1 ? 'are' : 'is'} defined by datum targets; a common datum of target datums is not simulated`;
    const common = establish(nominal, actualOn, l, parts.map((p) => datums.get(p)!.spec.faces), options);
    datums.set(l, common);
    return common;
  };

  const frames: FramesOf = (labels) => {
    const nom: DatumFeature[] = [], act: DatumFeature[] = [];
    let z: Vec3 | null = null, x: Vec3 | null = null;
    // The nominal's own: a datum from targets is made on the nominal as on the scan.
    const fixedNom: Fixed = { z: null, x: null };
    const fix = (f: Fixed, a: DatumFeature) => {
      if (!f.z) f.z = a.kind === 'plane' ? a.normal : a.kind === 'axis' ? a.direction : null;
      else if (!f.x && a.kind === 'plane') f.x = normalize(reject(a.normal, f.z));
    };
    for (const l of labels) {
      const d = datumOf(l);
      if (typeof d === 'string') return d;
      if (d.resolve && !d.reason) {
        const r = d.resolve({ ...fixedNom }, { z, x });
        if (typeof r === 'string') return r;
        nom.push(r.nominal);
        act.push(r.actual);
        fix(fixedNom, r.nominal);
        const f: Fixed = { z, x };
        fix(f, r.actual);
        ({ z, x } = f);
        continue;
      }
      if (!d.nominal || !d.actual) return d.reason ?? `datum ${l} could not be established`;
      if (d.clock && onEarlierAxis(d.nominal, nom)) {
        // A pattern centred on an earlier datum axis (NIST FTC 9's E, two holes either side of D)
        // only clocks: its centre adds nothing, and on the scan it lies a hair off that axis, where
        // it would clock the frame toward the scan's noise (positions to A|D|E read 26 mm).
        nom.push(d.clock.nominal);
        act.push(orientLike(d.clock.actual, d.clock.nominal));
        continue;
      }
      nom.push(d.nominal);
      fix(fixedNom, d.nominal);
      let a = orientLike(d.actual, d.nominal);
      // A secondary or tertiary plane is simulated with the orientation the earlier datums leave it
      // (perpendicular to them), touching its own high points (ASME Y14.5 4.11); a centre plane
      // turns about its own point.
      if (a.kind === 'plane' && d.points && z) {
        let c = reject(a.normal, z);
        if (x) c = reject(c, x);
        if (Math.hypot(...c) > 1e-9) a = d.derived ? { kind: 'plane', normal: normalize(c), point: a.point } : tangentPlane(d.points, normalize(c));
      }
      if (!z) z = a.kind === 'plane' ? a.normal : a.kind === 'axis' ? a.direction : null;
      else if (!x && a.kind === 'plane') x = normalize(reject(a.normal, z));
      act.push(a);
      if (d.clock) {
        nom.push(d.clock.nominal);
        act.push(orientLike(d.clock.actual, d.clock.nominal));
      }
    }
    // The actual frame's free axes follow the nominal's (buildFrame's fallback): from the world's,
    // a datum plane across x turned by noise took an arbitrary x (NIST CTC 5's C: 35 mm readings).
    const nominalFrame = buildFrame(nom);
    return { nominal: nominalFrame, actual: buildFrame(act, nominalFrame), features: nom };
  };
  return { datums, frames };
}

/**
 * Whether an axis lies on an axis among the earlier datum features. Nominal axes are fitted to the
 * tessellation's nodes: FTC 9's D and E's centre are 4.5e-5 mm and 5e-5 radians apart, enough to
 * clock a frame toward that noise, so "on" is within 1e-4 of the size (0.01 mm at 100 mm).
 */
function onEarlierAxis(f: DatumFeature, earlier: readonly DatumFeature[]): boolean {
  if (f.kind !== 'axis') return false;
  const tol = 1e-4 * (1 + Math.hypot(...f.point));
  return earlier.some((e) => e.kind === 'axis' && Math.abs(dot(e.direction, f.direction)) > 1 - 1e-6 && radial(f.point, e.point, e.direction) < tol);
}

/** One datum feature from its faces (one group, or a group per datum of a common datum), on the nominal and on the scan. */
function establish(nominal: NominalAccess, actualOn: (faces: number[]) => PointSet, label: string, parts: number[][], options: EvaluationOptions, targets?: string): SimulatedDatum {
  const faces = parts.flat();
  const spec = { label, faces };
  if (faces.length === 0) {
    // Datum targets (NIST CTC 2's A, B, C) would be simulated by contacts at points, lines or areas
    // placed on the part; their places are not read. "Has no faces" alone left the user guessing.
    const reason = targets
      ? `datum ${label} is defined by ${targets}, and datum targets are not supported (their contact points, lines or areas are not simulated); give datum ${label} as faces with the datums argument`
      : `datum ${label} has no faces`;
    return { spec, nominal: null, actual: null, samples: 0, reason };
  }
  const pts = actualOn(faces);
  const fail = (reason: string, nom: DatumFeature | null = null): SimulatedDatum => ({ spec, nominal: nom, actual: null, samples: pts.count, reason });
  const kinds = parts.map((p) => featureKind(nominal, p));
  // A pattern of holes as one datum (FTC 6's F: four holes) sets the frame by the features' axes
  // at their basic places, not by one cylinder fitted through them all.
  const pattern = parts.length === 1 ? sizeFeatures(nominal, faces) : null;
  if (pattern && pattern.length > 1) {
    if (pattern.some((g) => featureKind(nominal, g) !== 'cylinder')) return fail(`datum ${label} is a pattern of ${pattern.length} features that are not all cylinders; a pattern datum of holes or pins is supported`);
    return establishPattern(nominal, actualOn, spec, pattern, options);
  }
  const width = parts.length === 1 ? widthFeature(nominal, faces) : null;
  let nom: DatumFeature | null;
  if (width) nom = centrePlane(nominal.nodes(width[0]), nominal.nodes(width[1]));
  else if (parts.length === 1) nom = nominalFeature(nominal, faces, kinds[0]!);
  else if (kinds.every((k) => k === 'cylinder' || k === 'cone')) {
    // Parallel but not coaxial bores (FTC 8's H-J: two holes 42 mm apart) are a pattern, not a
    // common axis: one cylinder fitted through both read a perfect scan's profile as 14.9 mm.
    const axes = parts.map((p, i) => nominalFeature(nominal, p, kinds[i]!));
    const [a0] = axes;
    const apart = axes.some((a) => !a || a.kind !== 'axis' || !a0 || a0.kind !== 'axis' || Math.abs(Math.abs(dot(a.direction, a0.direction)) - 1) > 1e-6 || radial(a.point, a0.point, a0.direction) > 1e-6 * (1 + Math.hypot(...a0.point)));
    if (apart) return establishPattern(nominal, actualOn, spec, parts, options);
    const c = fitCoaxial(parts.map((p) => nominal.nodes(p)));
    nom = c && { kind: 'axis', direction: c.axis, point: c.origin };
  } else if (kinds.every((k) => k === 'plane')) nom = nominalFeature(nominal, faces, 'plane');
  else return fail(`common datum ${label}: its datums are ${kinds.join(', ')}; a common datum of coaxial cylinders or of coplanar planes is supported`);
  if (!nom) return fail(`datum ${label}: its faces (${kinds.join(', ')}) are not a plane, a width (two parallel planes), a cylinder or a sphere`);
  if (pts.count < options.minSamples) return fail(`datum ${label}: ${pts.count} scan samples on its faces (at least ${options.minSamples} needed)`, nom);

  let actual: DatumFeature | null;
  if (width) {
    const a = select(pts, indicesOn(pts, nominal, width[0])), b = select(pts, indicesOn(pts, nominal, width[1]));
    if (a.count < options.minSamples || b.count < options.minSamples) return fail(`datum ${label}: each side of the width needs ${options.minSamples} scan samples (${a.count} and ${b.count})`, nom);
    actual = centrePlane(a, b);
  } else if (parts.length > 1 && nom.kind === 'axis') {
    const sets = parts.map((p) => actualOn(p));
    if (sets.some((s) => s.count < options.minSamples)) return fail(`common datum ${label}: each of its datums needs ${options.minSamples} scan samples (${sets.map((s) => s.count).join(', ')})`, nom);
    const c = fitCoaxial(sets, nom.direction);
    actual = c && { kind: 'axis', direction: c.axis, point: c.origin };
  } else actual = simulateDatum(pts, nom);
  return { spec, nominal: nom, actual, samples: pts.count, points: pts, ...(width ? { derived: true } : {}) };
}

/**
 * A datum on a pattern of holes or pins (one label on several, FTC 6's F; or a common datum of
 * parallel bores apart, FTC 8's H-J): each feature's axis fitted on its own samples, the frame set
 * by all of them together (patternDatum.ts).
 */
function establishPattern(nominal: NominalAccess, actualOn: (faces: number[]) => PointSet, spec: DatumSpec, groups: number[][], options: EvaluationOptions): SimulatedDatum {
  const sets = groups.map((g) => actualOn(g));
  const samples = sets.reduce((n, s) => n + s.count, 0);
  const fail = (why: string): SimulatedDatum => ({ spec, nominal: null, actual: null, samples, reason: `datum ${spec.label} (a pattern of ${groups.length} features): ${why}` });
  const nominalAxes: Extract<DatumFeature, { kind: 'axis' }>[] = [];
  for (const g of groups) {
    const f = nominalFeature(nominal, g, 'cylinder');
    if (!f || f.kind !== 'axis') return fail(`no axis fits the nominal faces ${g.map((x) => `face[${x}]`).join(', ')}`);
    nominalAxes.push(f);
  }
  if (sets.some((s) => s.count < options.minSamples)) return fail(`each feature needs ${options.minSamples} scan samples (${sets.map((s) => s.count).join(', ')})`);
  const actualAxes: Axis[] = [];
  for (const [i, s] of sets.entries()) {
    const a = simulateDatum(s, nominalAxes[i]!);
    if (!a || a.kind !== 'axis') return fail(`no axis fits the scan samples of its feature ${i + 1}`);
    actualAxes.push(a);
  }
  const p = patternDatum(nominalAxes, actualAxes);
  if (typeof p === 'string') return fail(p);
  return { spec, nominal: p.nominal, actual: p.actual, clock: p.clock, samples };
}

/** The centre plane of two parallel sides: midway between their least-squares planes (a width datum, simulated by least squares). */
function centrePlane(a: PointSet, b: PointSet): DatumFeature | null {
  const pa = fitPlane(a.points), pb = fitPlane(b.points);
  if (!pa || !pb) return null;
  const nb = dot(pb.normal, pa.normal) < 0 ? scale(pb.normal, -1) : pb.normal;
  return { kind: 'plane', normal: normalize(add(pa.normal, nb)), point: scale(add(pa.origin, pb.origin), 0.5) };
}

/** The nominal datum feature: a plane (outward normal), an axis (direction as fitted), or a sphere's centre. */
export function nominalFeature(nominal: NominalAccess, faces: number[], kind: string): DatumFeature | null {
  const pts = nominal.nodes(faces);
  if (kind === 'plane') {
    const f = fitPlane(pts.points);
    if (!f) return null;
    return { kind: 'plane', normal: outward(nominal, pts, f.normal), point: f.origin };
  }
  if (kind === 'cylinder' || kind === 'cone') {
    const c = fitCylinder(pts.points, pts.normals);
    return c ? { kind: 'axis', direction: c.axis, point: c.origin } : null;
  }
  if (kind === 'sphere') {
    const s = fitSphere(pts.points);
    return s ? { kind: 'point', point: s.center } : null;
  }
  return null;
}

/** The normal's sign that points out of the material (the nominal's exact normal at its points). */
function outward(nominal: NominalAccess, pts: PointSet, n: Vec3): Vec3 {
  const hit = createExactHit();
  let s = 0;
  for (let i = 0; i < pts.count; i += Math.max(1, Math.floor(pts.count / 50))) {
    nominal.ref.nearest(pts.points[3 * i]!, pts.points[3 * i + 1]!, pts.points[3 * i + 2]!, hit);
    s += hit.nx * n[0] + hit.ny * n[1] + hit.nz * n[2];
  }
  return s < 0 ? scale(n, -1) : n;
}

/**
 * The datum feature simulated on the scan. A plane: the minimum-zone orientation, moved out to touch
 * the highest points (the tangent plane, ASME's datum feature simulator for a planar surface); an
 * axis: the least-squares cylinder's; a point: the least-squares sphere's centre.
 */
function simulateDatum(pts: PointSet, nom: DatumFeature): DatumFeature | null {
  if (nom.kind === 'plane') {
    const z = flatnessZone(pts.points);
    if (!z) return null;
    const n = dot(z.normal, nom.normal) < 0 ? scale(z.normal, -1) : z.normal;
    return tangentPlane(pts, n);
  }
  if (nom.kind === 'axis') {
    const c = fitCylinder(pts.points, pts.normals, nom.direction);
    if (!c) return null;
    return { kind: 'axis', direction: dot(c.axis, nom.direction) < 0 ? scale(c.axis, -1) : c.axis, point: c.origin };
  }
  const s = fitSphere(pts.points);
  return s ? { kind: 'point', point: s.center } : null;
}

function tangentPlane(pts: PointSet, n: Vec3): DatumFeature {
  let best = -Infinity, point: Vec3 = [0, 0, 0];
  for (let i = 0; i < pts.count; i++) {
    const p = at(pts.points, i);
    const h = dot(p, n);
    if (h > best) [best, point] = [h, p];
  }
  return { kind: 'plane', normal: n, point };
}

/** The scan's datum feature with the sign of the nominal's (normal outward, axis the same way). */
function orientLike(a: DatumFeature, n: DatumFeature): DatumFeature {
  if (a.kind === 'plane' && n.kind === 'plane') return dot(a.normal, n.normal) < 0 ? { ...a, normal: scale(a.normal, -1) } : a;
  if (a.kind === 'axis' && n.kind === 'axis') return dot(a.direction, n.direction) < 0 ? { ...a, direction: scale(a.direction, -1) } : a;
  return a;
}
