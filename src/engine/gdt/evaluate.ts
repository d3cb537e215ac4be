import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import { select, type PointSet } from './bodySamples';
import { frameMap, type DatumFeature, type Frame } from './datumFrame';
import { apply, type Rigid } from '../math/rigid';
import { extentCorners, floatFeatures, floatZone, freeMotions, type FeatureProbe, type Freedom } from './floatingZone';
import { samplesByFace, simulateDatums, type DatumSpec, type EvaluationOptions, type FramesOf } from './datumSimulation';
import type { FaceSplit } from './faceSplit';
import { facesInward, featureKind, indicesOn, nominalAxis, openArc, planeGroups, sizeFeatures, widthFeature, widthFeatures, type NominalAccess } from './nominalFaces';
import { coaxiality, runout, type Reading } from './revolution';
import { counterboredGroups, counterboredParts, type CounterboredParts } from './counterbore';
import { ENDS_ACROSS_METHOD, endsAcrossOffset, LENGTH_METHOD, lengthOffset, OPEN_ARC, slotCentres, slotEndsOrientation, slotGroups, slotParts, slotProbes, type SlotParts } from './slotPosition';
import { areaWindows, type AreaUnit } from './perArea';
import { floatPoint, pointProbe, sphereCentres } from './spherePosition';
import { symmetry } from './symmetry';
import { cornerFit } from './vertexQuadrature';
import { onConstruction, onSolidFaces } from './supplementalFaces';
import { blendRadius } from './blendRadius';
import { blendSection } from './tangentArc';
import { featureSize } from './featureSizes';
import { fitCylinder, fitPlane, fitSphere, radial, type CylinderFit } from './leastSquares';
import { cylinderRadiusError, distinctPoints, expanded, jackknifeError, planeDistanceError, replicateMinSamples, sphereRadiusError } from './readingUncertainty';
import { cylindricityZone, flatnessZone, roundnessZone } from './minimumZone';
import { calloutLines, evaluateStraightness } from './straightness';

/** One characteristic to evaluate: a geometric tolerance or a size, on faces of the nominal. */
export interface CharacteristicSpec {
  id: string;
  kind: string;
  faces: number[];
  /** Geometric tolerance zone size; null for a size. */
  tolerance: number | null;
  zone: 'width' | 'diameter' | 'sphericalDiameter';
  modifiers: string[];
  datums: string[];
  /** Sizes: nominal value and deviations. */
  nominal: number | null;
  upper: number | null;
  lower: number | null;
  /** The size of the same feature (for a maximum or least material bonus), when the drawing gives one. */
  size: { nominal: number; upper: number; lower: number } | null;
  /** A composite frame's segment: the lower one's datums orient its zone and do not locate it. */
  composite?: 'upper' | 'lower';
  /** A zone per unit length (mm) or per unit area (read_pmi's perLength, perArea). */
  perLength?: number | null;
  perArea?: AreaUnit | null;
  /**
   * Edges the PMI names besides faces: a straightness's line edges (NIST CTC 5: their faces and
   * direction are read, straightness.ts), a size's circular edges (a hole's, a countersink's rim:
   * featureSizes.ts).
   */
  edges?: number[];
  direction?: Vec3 | null;
  lineReason?: string;
}

export interface Characteristic {
  id: string;
  kind: string;
  /** Geometric tolerances: 0 (the perfect form, orientation or location); sizes: the nominal size. */
  nominal: number | null;
  actual: number | null;
  /** Zone size allowed (with any material bonus added); sizes carry upper and lower instead. */
  tolerance: number | null;
  upper: number | null;
  lower: number | null;
  /** Material condition bonus added to the tolerance (MMC / LMC), 0 when none applies. */
  bonus: number;
  /** null when it could not be evaluated; `reason` says why. */
  pass: boolean | null;
  reason?: string;
  faces: string[];
  samples: number;
  datums: string[];
  method: string;
  /** A point on its nominal faces (the face node nearest their nodes' centroid) where a picture can label it; null without faces. */
  anchor: [number, number, number] | null;
  /** A composite frame's segment (read_pmi's `composite`). */
  composite?: 'upper' | 'lower';
  /**
   * The reading's expanded uncertainty (k = 2) from its least-squares fit, where one is estimated
   * (sizes of cylinders, spheres and between two planes: readingUncertainty.ts). A lower bound: the
   * scanner's own systematic errors are not in it.
   */
  uncertainty?: number;
  /** The reading lies within its uncertainty of a limit: the verdict is the reading's, not proven by the scan. */
  withinUncertainty?: true;
}

export type { DatumSpec, EvaluationOptions } from './datumSimulation';
export type { NominalAccess } from './nominalFaces';

export interface DatumReport {
  label: string;
  faces: string[];
  samples: number;
  /** The datum feature simulated on the scan (plane: tangent at the high points, axis: least squares). */
  feature: DatumFeature | null;
  reason?: string;
  /** A datum from targets: how they were read when not as the file names them. */
  note?: string;
}

const faceIds = (faces: number[]) => faces.map((f) => `face[${f}]`);
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const at = (p: ArrayLike<number>, i: number): Vec3 => [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];

const FORM = new Set(['flatness', 'straightness', 'roundness', 'cylindricity']);
const ORIENTATION = new Set(['perpendicularity', 'parallelism', 'angularity']);
/** Runout, coaxiality, concentricity, symmetry: read about a datum axis or plane only. */
const DATUM_ONLY = new Set(['circularRunout', 'totalRunout', 'coaxiality', 'concentricity', 'symmetry']);
const SIZES = new Set(['diameter', 'radius', 'sphericalDiameter', 'sphericalRadius', 'distance', 'thickness', 'angle']);

/**
 * Evaluates each characteristic on the scan samples of its faces (split: faceSplit.ts), in the datum
 * reference frame its datums build. The rules are in docs/gdt.md ("Evaluation rules").
 */
export function evaluateCharacteristics(
  nominal: NominalAccess,
  samples: PointSet,
  split: FaceSplit,
  specs: CharacteristicSpec[],
  datumSpecs: DatumSpec[],
  options: EvaluationOptions,
): { characteristics: Characteristic[]; datums: DatumReport[] } {
  const actualOn = onSolidFaces(nominal.supplemental ?? null, nominal.ref, samplesByFace(samples, split, options.densify), options.densify);
  const { datums, frames } = simulateDatums(nominal, actualOn, datumSpecs, options);

  const characteristics = specs.map((s) => (s.kind === 'straightness' ? calloutLines(nominal, s) : s)).map((spec) => ({ ...onConstruction(nominal, spec.faces, evaluatePattern(spec, nominal, actualOn, frames, options)), anchor: anchorOf(nominal, spec.faces) }));
  const datumReports: DatumReport[] = [...datums.values()].map((d) => ({
    label: d.spec.label,
    faces: faceIds(d.spec.faces),
    samples: d.samples,
    feature: d.actual,
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.note ? { note: d.note } : {}),
  }));
  return { characteristics, datums: datumReports };
}

/** The nominal faces' node nearest the centroid of their nodes: on the surface, near its middle. */
function anchorOf(nominal: NominalAccess, faces: number[]): [number, number, number] | null {
  if (faces.length === 0) return null;
  const nodes = nominal.nodes(faces);
  if (nodes.count === 0) return null;
  const c: Vec3 = [0, 0, 0];
  for (let i = 0; i < nodes.count; i++) for (let k = 0; k < 3; k++) c[k] = c[k]! + nodes.points[3 * i + k]! / nodes.count;
  let best = 0, bestD = Infinity;
  for (let i = 0; i < nodes.count; i++) {
    const d = Math.hypot(nodes.points[3 * i]! - c[0], nodes.points[3 * i + 1]! - c[1], nodes.points[3 * i + 2]! - c[2]);
    if (d < bestD) [best, bestD] = [i, d];
  }
  return [nodes.points[3 * best]!, nodes.points[3 * best + 1]!, nodes.points[3 * best + 2]!];
}

function result(spec: CharacteristicSpec, samples: number, method: string, extra: Partial<Characteristic>): Characteristic {
  const isSize = SIZES.has(spec.kind);
  return {
    id: spec.id,
    kind: spec.kind,
    nominal: isSize ? spec.nominal : 0,
    actual: null,
    tolerance: isSize ? null : spec.tolerance,
    upper: isSize ? spec.upper : null,
    lower: isSize ? spec.lower : null,
    bonus: 0,
    pass: null,
    faces: faceIds(spec.faces),
    samples,
    datums: spec.datums,
    method,
    anchor: null,
    ...(spec.composite ? { composite: spec.composite } : {}),
    ...extra,
  };
}

/**
 * A reading's verdict. `uncertainty` (expanded, readingUncertainty.ts), where the fit gives one, goes
 * with it, and a size read within it of a limit is marked `withinUncertainty`: the verdict stands
 * (simple acceptance, as inspection reports compare by default), but the scan cannot prove it either way.
 */
function verdict(spec: CharacteristicSpec, samples: number, method: string, actual: number, bonus = 0, uncertainty?: number): Characteristic {
  if (SIZES.has(spec.kind)) {
    const limits = spec.nominal !== null && spec.upper !== null && spec.lower !== null ? [spec.nominal + spec.lower, spec.nominal + spec.upper] : null;
    const ok = limits ? actual <= limits[1]! + 1e-12 && actual >= limits[0]! - 1e-12 : null;
    const near = limits && uncertainty !== undefined ? Math.min(...limits.map((l) => Math.abs(actual - l))) <= uncertainty + 1e-12 : false;
    return result(spec, samples, method, { actual, pass: ok, ...(uncertainty !== undefined ? { uncertainty } : {}), ...(near ? { withinUncertainty: true } : {}), ...(ok === null ? { reason: 'the size has no limits to check against' } : {}) });
  }
  const allowed = spec.tolerance === null ? null : spec.tolerance + bonus;
  return result(spec, samples, method, { actual, tolerance: allowed, bonus, pass: allowed === null ? null : actual <= allowed + 1e-12, ...(allowed === null ? { reason: 'the tolerance has no value' } : {}) });
}

/**
 * A callout on several features (a pattern of holes: "3X", NIST FTC 6's position of three holes,
 * each split in two half-cylinder faces) is evaluated feature by feature: the faces grouped into
 * features (cylinders on one axis line with one radius, spheres on one centre, pairs of parallel
 * planes side by side: slots or tabs), each feature's verdict on its own samples,
 * the pattern passing when every feature does; the worst feature is reported. Read as one feature,
 * three holes made one "cylinder" through them (a 290 mm diameter for a 14 mm hole).
 */
function evaluatePattern(spec: CharacteristicSpec, nominal: NominalAccess, actualOn: (faces: number[]) => PointSet, frames: FramesOf, options: EvaluationOptions): Characteristic {
  if (SIZES.has(spec.kind)) {
    // Sizes between bores, from a plane to an axis or a circular edge, of edges, a cone's angle.
    const read = (on: (faces: number[]) => PointSet, minSamples = options.minSamples) => featureSize(spec.kind, spec.faces, spec.edges ?? [], nominal, on, spec.nominal, minSamples);
    const r = read(actualOn);
    const faces = [...faceIds(spec.faces), ...(spec.edges ?? []).map((e) => `edge[${e}]`)];
    if (r && 'reason' in r) return result(spec, r.samples, 'none', { reason: r.reason, faces });
    if (r) {
      const se = jackknifeError((on) => { const x = read(on, replicateMinSamples(options.minSamples)); return x && 'actual' in x ? x.actual : null; }, actualOn);
      return { ...verdict(spec, r.samples, r.method, r.actual, 0, expanded(se)), faces };
    }
  }
  if ((spec.kind === 'diameter' || spec.kind === 'radius') && spec.faces.length && spec.faces.every((f) => ['cylinder', 'sphere', 'torus'].includes(nominal.surfaceKind(f))) && (featureKind(nominal, spec.faces) !== 'cylinder' || spec.faces.every((f) => blendSection(nominal, f)))) {
    // Blends: a fillet's torus, a chain of cylinders, tori and spheres, cylindrical fillets (short
    // arcs tangent to their neighbours), each face on its own samples (blendRadius.ts).
    const half = spec.kind === 'diameter' ? 0.5 : 1;
    const read = (on: (faces: number[]) => PointSet, minSamples = options.minSamples) => blendRadius(nominal, spec.faces, (f) => on([f]), spec.nominal === null ? null : spec.nominal * half, minSamples);
    const b = read(actualOn);
    if ('reason' in b) return result(spec, b.samples, 'none', { reason: b.reason });
    const se = jackknifeError((on) => { const x = read(on, replicateMinSamples(options.minSamples)); return 'radius' in x ? x.radius / half : null; }, actualOn);
    return verdict(spec, b.samples, b.method, b.radius / half, 0, expanded(se));
  }
  // Elongated holes and counterbored holes are grouped whole for a position or an orientation (a
  // slot's two ends are one feature, not two arcs; a hole and its counterbore one member).
  const located = spec.kind === 'position' || ORIENTATION.has(spec.kind);
  const features = PATTERN_KINDS.has(spec.kind) ? ((located ? slotGroups(nominal, spec.faces) : null) ?? sizeFeatures(nominal, spec.faces) ?? widthFeatures(nominal, spec.faces) ?? (located ? counterboredGroups(nominal, spec.faces) : null)) : null;
  const margin = (c: Characteristic): number => {
    if (c.actual === null) return -Infinity;
    if (SIZES.has(spec.kind)) return c.nominal === null || c.upper === null || c.lower === null ? -Infinity : Math.max(c.actual - c.nominal - c.upper, c.nominal + c.lower - c.actual);
    return c.tolerance === null ? -Infinity : c.actual - c.tolerance;
  };
  const groups = !features || features.length < 2 ? [spec.faces] : features;
  const probes: PositionProbe[] = [];
  let each = groups.map((faces) => evaluateOne({ ...spec, faces }, nominal, actualOn(faces), frames, options, probes));
  let floated = '';
  // A position whose datums leave the features free somewhere floats there, every feature together
  // (a simultaneous requirement: a composite position's lower segment, a pattern to A alone, a slot
  // to A alone): axes and width features' centre planes alike.
  if (spec.kind === 'position' && probes.length === groups.length && each.every((c) => c.actual !== null)) {
    const f = frames(spec.datums);
    const free = typeof f === 'string' ? null : freedom(spec, f.nominal);
    const motion = free ? floatFeatures(probes, free) : null;
    if (motion && free) {
      let again = probes.map((p) => p.reread(motion));
      const alone = probes.length === 1 ? probes[0]!.floatAlone?.(free) : undefined;
      if (alone && margin(alone) < margin(again[0]!)) again = [alone];
      const worstOf = (cs: Characteristic[]) => Math.max(...cs.map(margin));
      if (worstOf(again) < worstOf(each)) {
        floated = `; the ${groups.length > 1 ? `pattern's ${groups.length} ${derived(probes, true)} floated together` : `${derived(probes, false)} floated`} in what the datums leave free (${describeFreedom(free)}) to their least largest distance: the worst ${round4(Math.max(...each.map((c) => c.actual!)))} as placed`;
        each = again;
      }
    }
  }
  if (spec.composite === 'lower') floated += `; ${COMPOSITE_LOWER}`;
  if (groups.length === 1) return { ...each[0]!, method: each[0]!.method + floated };
  const failed = each.filter((c) => c.pass === false), open = each.filter((c) => c.pass === null);
  // A failing feature decides the pattern; otherwise one that could not be read leaves it open.
  const pool = failed.length ? failed : open.length ? open : each;
  const worst = pool.reduce((a, b) => (margin(b) > margin(a) ? b : a));
  const pass = failed.length ? false : open.length ? null : true;
  const list = groups.map((g) => `[${faceIds(g).join(', ')}]`).join(' ');
  // Not proven: a FAIL whose every failing feature, a PASS whose any feature, reads within its uncertainty of a limit.
  const near = pass === false ? failed.every((c) => c.withinUncertainty) : pass === true ? each.some((c) => c.withinUncertainty) : false;
  const nearOnes = near && pass === true ? each.filter((c) => c.withinUncertainty && c !== worst) : [];
  const nearText = nearOnes.length ? `; within its uncertainty of a limit: ${nearOnes.map((c) => `${c.faces.join(', ')} ${round4(c.actual!)}${c.uncertainty === undefined ? '' : ` ±${round4(c.uncertainty)}`}`).join(', ')}` : '';
  const method = `pattern of ${groups.length} features ${list}, each evaluated on its own; reported: the worst, ${worst.faces.join(', ')}: ${worst.method}${floated}${nearText}`;
  const { withinUncertainty: _worstNear, ...reported } = worst;
  return {
    ...reported,
    ...(near ? { withinUncertainty: true as const } : {}),
    pass,
    faces: faceIds(spec.faces),
    samples: each.reduce((s, c) => s + c.samples, 0),
    method,
    ...(pass === null ? { reason: `${open.length} of ${groups.length} features not evaluated (${worst.faces.join(', ')}: ${worst.reason ?? ''})` } : {}),
  };
}

/**
 * What the datums leave a zone free to do. A composite frame's lower segment (ASME Y14.5-2018
 * 10.5.1, 11.6: the feature-relating zone) takes only orientation from its datums: every
 * translation is free, so a pattern or a profile shifted along A still passes a tight lower
 * segment to A when its shape and orientation are right.
 */
const COMPOSITE_LOWER = 'the lower segment of a composite frame: its datums orient the zone, they do not locate it';

function freedom(spec: CharacteristicSpec, frame: Frame): Freedom {
  return freeMotions(spec.composite === 'lower' ? { ...frame, located: [] } : frame);
}

/** Kinds read on one feature of size at a time (not runout, profile or a datum-axis reading). */
const PATTERN_KINDS = new Set(['position', 'perpendicularity', 'parallelism', 'angularity', 'cylindricity', 'roundness', 'diameter', 'radius', 'sphericalDiameter', 'sphericalRadius']);

/** A feature's position as evaluateOne read it: its derived axis or centre plane, and the same reading with it moved (floated). */
type PositionProbe = FeatureProbe & {
  reread(motion: Rigid): Characteristic;
  /** The feature floated on its own, exactly, where the minimax's directions leave slack (a sphere's centre). */
  floatAlone?(free: Freedom): Characteristic;
};

/** What the probes float: axes, centre planes, or both in one pattern. */
function derived(probes: PositionProbe[], plural: boolean): string {
  if (probes.some((p) => 'parts' in p)) return plural ? 'features (their axes and centre planes together)' : "feature's axes or centre planes";
  const planes = probes.filter((p) => 'corners' in p).length;
  if (planes === 0) return plural ? 'axes' : 'axis';
  if (planes === probes.length) return plural ? 'centre planes' : 'centre plane';
  return 'axes and centre planes';
}

function evaluateOne(
  spec: CharacteristicSpec,
  nominal: NominalAccess,
  pts: PointSet,
  frames: FramesOf,
  options: EvaluationOptions,
  probes?: PositionProbe[],
): Characteristic {
  const n = pts.count;
  const none = (method: string, reason: string) => result(spec, n, method, { reason });
  if (spec.faces.length === 0) return none('none', spec.lineReason ?? 'the characteristic names no faces of the nominal');
  const kind = featureKind(nominal, spec.faces);
  const planar = kind === 'plane', round = kind === 'cylinder' || kind === 'cone';
  const areaKind = planar && (spec.kind === 'flatness' || ORIENTATION.has(spec.kind));
  if ((spec.perArea && !areaKind) || (spec.perLength != null && spec.kind !== 'straightness')) return none('none', `a ${spec.kind} zone per unit ${spec.perArea ? 'area' : 'length'} is not evaluated${spec.perArea ? ' (read per unit area: flatness and orientations of planar faces)' : ''} (docs/gdt.md, "Not supported")`);
  if (n < options.minSamples) return none('none', `${n} scan samples on its faces (at least ${options.minSamples} needed)`);
  if (spec.perArea) return perUnitArea(spec, nominal, pts, frames, options);

  if (FORM.has(spec.kind)) {
    if (spec.kind === 'flatness') {
      if (!planar) return none('none', `flatness needs planar faces, these are ${kind}`);
      const z = flatnessZone(pts.points);
      return z ? verdict(spec, n, 'minimum zone: the narrowest pair of parallel planes (sequential LP)', z.width) : none('none', 'the samples span no plane');
    }
    if (spec.kind === 'cylindricity') {
      if (kind !== 'cylinder') return none('none', `cylindricity needs a cylindrical face, these are ${kind}`);
      const z = cylindricityZone(pts.points, pts.normals, nominalAxis(nominal, spec.faces));
      return z ? verdict(spec, n, 'minimum zone: the narrowest pair of coaxial cylinders (linearised LP, re-linearised to convergence)', z.width) : none('none', 'no cylinder fits the samples');
    }
    if (spec.kind === 'roundness') {
      if (!round && kind !== 'sphere') return none('none', `roundness needs a surface of revolution, these are ${kind}`);
      const r = roundnessBySections(pts, options.minSamples, nominalAxis(nominal, spec.faces));
      return r === null ? none('none', 'too few samples in any cross-section') : verdict(spec, n, 'minimum zone per cross-section across the least-squares axis (limacon LP), largest of the sections', r);
    }
    if (spec.kind === 'straightness') {
      const r = evaluateStraightness(nominal, pts, { faces: spec.faces, zone: spec.zone, perLength: spec.perLength ?? null, direction: spec.direction ?? null, minSamples: options.minSamples });
      return 'reason' in r ? none('none', r.reason) : verdict(spec, n, r.method, r.actual);
    }
    return none('none', `${spec.kind} is not evaluated yet (docs/gdt.md, "Not supported")`);
  }

  if (SIZES.has(spec.kind)) return evaluateSize(spec, nominal, pts, kind);

  const needsFrame = ORIENTATION.has(spec.kind) || DATUM_ONLY.has(spec.kind) || spec.kind === 'position' || spec.kind === 'surfaceProfile' || spec.kind === 'lineProfile';
  if (!needsFrame) return none('none', `${spec.kind} is not evaluated yet (docs/gdt.md, "Not supported")`);
  if ((ORIENTATION.has(spec.kind) || DATUM_ONLY.has(spec.kind)) && spec.datums.length === 0) return none('none', `${spec.kind} needs a datum`);
  const f = frames(spec.datums);
  if (typeof f === 'string') return none('none', f);
  const map = frameMap(f.actual, f.nominal);
  const mapped = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) mapped.set(map(at(pts.points, i)), 3 * i);

  if (DATUM_ONLY.has(spec.kind)) {
    let r: Reading;
    if (spec.kind === 'circularRunout' || spec.kind === 'totalRunout') {
      r = planar || kind === 'cylinder' || kind === 'cone' || kind === 'sphere' || kind === 'torus' ? runout(spec.kind, nominal, mapped, n, planar, f.nominal, f.features, options.minSamples) : { reason: `runout needs a surface of revolution or a face across the axis, these are ${kind}` };
    } else if (spec.kind === 'symmetry') {
      const width = widthFeature(nominal, spec.faces);
      r = width ? symmetry(nominal, pts, mapped, width, f.features) : { reason: 'symmetry needs a width feature: faces on two parallel planes (a slot or a tab)' };
    } else {
      r = round || kind === 'sphere' ? coaxiality(spec.kind, mapped, n, f.nominal, f.features, options.minSamples) : { reason: `${spec.kind} needs a surface of revolution, these are ${kind}` };
    }
    return 'reason' in r ? none('none', r.reason) : verdict(spec, n, r.method, r.actual);
  }

  if (spec.kind === 'surfaceProfile' || spec.kind === 'lineProfile') {
    const free = freedom(spec, f.nominal);
    const zone = floatZone(nominal.ref, mapped, n, free);
    const floats = free.translations.length + free.rotations.length > 0;
    const method = [
      `twice the largest distance from the nominal faces, in the datum frame ${spec.datums.join('|') || '(none)'}`,
      !floats
        ? ''
        : zone.movable
          ? `the zone floated in what the datums leave free (${describeFreedom(free)}) to its narrowest: ${round4(2 * zone.placed)} as placed, moved ${round4(zone.shift)} and turned ${round4(zone.turnDegrees)} degrees`
          : `the datums leave ${describeFreedom(free)} free, none of which moves these faces across themselves: read as placed`,
      spec.kind === 'lineProfile' ? 'line profile read as the surface profile of its faces' : '',
      spec.composite === 'lower' ? COMPOSITE_LOWER : '',
    ];
    return verdict(spec, n, method.filter(Boolean).join('; '), 2 * zone.floated);
  }

  const nodes = nominal.nodes(spec.faces);
  if (planar && spec.kind === 'position') {
    const width = widthFeature(nominal, spec.faces);
    if (width) return widthPosition(spec, nominal, pts, mapped, width, probes);
  }
  if (planar && ORIENTATION.has(spec.kind)) {
    // A width feature (a slot, a tab: FTC 6's 12 in block to A) is oriented by its centre plane; its two
    // sides read as one face gave their separation (85 mm on a perfect scan).
    const width = widthFeature(nominal, spec.faces);
    if (width) return widthOrientation(spec, nominal, pts, mapped, width, f.nominal.clocked ? null : f.nominal.axes[2]);
  }
  if (planar) {
    const nf = fitPlane(nodes.points);
    if (!nf) return none('none', 'the nominal faces span no plane');
    const nn = nf.normal;
    let lo = Infinity, hi = -Infinity, far = 0;
    for (let i = 0; i < n; i++) {
      const s = dot(sub(at(mapped, i), nf.origin), nn);
      lo = Math.min(lo, s);
      hi = Math.max(hi, s);
      far = Math.max(far, Math.abs(s));
    }
    if (spec.kind === 'position') return verdict(spec, n, `twice the largest distance from the true-position plane, in the datum frame ${spec.datums.join('|') || '(none)'}`, 2 * far);
    if (!f.nominal.clocked) {
      // The datums leave the rotation about the primary's direction free: so is the zone.
      const z = f.nominal.axes[2];
      const width = (phi: number) => extentAlong(mapped, n, rotateAbout(nn, z, phi));
      const phi = goldenMinimum(width, -0.1, 0.1);
      return verdict(spec, n, `width of the samples across the face's basic orientation, turned about datum ${spec.datums[0]} to its narrowest (the datums leave that rotation free)`, width(phi));
    }
    return verdict(spec, n, `width of the samples across the basic orientation of the face (its nominal normal) in the datum frame ${spec.datums.join('|')}`, hi - lo);
  }
  if ((spec.kind === 'position' || ORIENTATION.has(spec.kind)) && /cylinder/.test(kind)) {
    const slot = slotParts(nominal, spec.faces);
    if (slot) return slotReading(spec, nominal, pts, mapped, slot, options, f.nominal.clocked ? null : f.nominal.axes[2], probes);
    const bored = counterboredParts(nominal, spec.faces);
    if (bored) return counterboredReading(spec, nominal, pts, frames, options, bored, probes);
  }
  if (round) {
    // A part of a cylinder (an elongated hole's round end: NIST FTC 10's slot) is no feature of size:
    // its least-squares axis is the arc's, not the feature's centre, and an arc's centre trades with
    // its radius: a scan's chord sag, which a whole hole's axis does not feel, moves it (FTC 10's slot
    // ends read 0.0072 on a tessellation of 0.036 deflection, 0.0002 sampled on the exact faces, for
    // a true 0). Not evaluated, said so.
    const open = kind === 'cylinder' ? openArc(nominal, spec.faces) : null;
    if (open !== null && open > OPEN_ARC) return none('none', `${faceIds(spec.faces).join(', ')} cover ${Math.round(360 - (open * 180) / Math.PI)} degrees of a cylinder, not a whole hole or shaft (an elongated hole's or a slot's round end?): the ${spec.kind} of an arc's axis is not its feature's (an elongated hole's is read by its centre planes when both its round ends are named together, with or without its flats) (docs/gdt.md, "Not supported")`);
    const nc = fitCylinder(nodes.points, nodes.normals);
    const ac = fitCylinder(pts.points, pts.normals, nc?.axis);
    if (!nc || !ac) return none('none', 'no cylinder fits the nominal or the scan samples');
    const [e1, e2] = axisEnds(ac, pts);
    const m1 = map(e1), m2 = map(e2);
    if (ORIENTATION.has(spec.kind)) {
      // The derived axis from end to end, measured across the basic direction (the nominal axis).
      const d = sub(m2, m1);
      const across = (basic: Vec3) => Math.hypot(...sub(d, scale(basic, dot(d, basic))));
      const bonus = materialBonus(spec, ac, nominal, nodes, nc);
      if (!f.nominal.clocked) {
        // The datums leave the rotation about the primary's direction free (parallelism of an axis
        // to A alone): so is the zone, as for a planar feature; an axis along it does not turn.
        const z = f.nominal.axes[2];
        const turned = (phi: number) => across(rotateAbout(nc.axis, z, phi));
        // Never worse than as placed (an axis along z: every turn reads the same).
        return verdict(spec, n, `the least-squares axis between the ends of the samples, across the basic direction turned about datum ${spec.datums[0]} to its narrowest (the datums leave that rotation free): ${round4(across(nc.axis))} as placed`, Math.min(across(nc.axis), turned(goldenMinimum(turned, -0.1, 0.1))), bonus);
      }
      return verdict(spec, n, `the least-squares axis between the ends of the samples, across the basic direction, in the datum frame ${spec.datums.join('|')}`, across(nc.axis), bonus);
    }
    // Position: twice the larger distance of the axis ends from the true-position axis.
    const bonus = materialBonus(spec, ac, nominal, nodes, nc);
    const read = (e1: Vec3, e2: Vec3) =>
      verdict(spec, n, `twice the largest distance of the least-squares axis (at the ends of the samples) from the true position, in the datum frame ${spec.datums.join('|') || '(none)'}`, 2 * Math.max(radial(e1, nc.origin, nc.axis), radial(e2, nc.origin, nc.axis)), bonus);
    probes?.push({ ends: [m1, m2], origin: nc.origin, axis: nc.axis, reread: (motion) => read(apply(motion, ...m1), apply(motion, ...m2)) });
    return read(m1, m2);
  }
  if (spec.kind === 'position' && kind === 'sphere') {
    const c = sphereCentres(nominal, spec.faces, pts);
    if ('reason' in c) return none('none', c.reason);
    const m = map(c.actual);
    const bonus = sizeBonus(spec, c.actualDiameter, () => c.internal);
    const read = (centre: Vec3) => verdict(spec, n, `twice the distance of the least-squares sphere's centre${c.corners ? ` (fitted through the scan triangles' ${c.corners} corners under the samples)` : ''} from the true position (a spherical zone), in the datum frame ${spec.datums.join('|') || '(none)'}`, 2 * Math.hypot(...sub(centre, c.nominal)), bonus);
    probes?.push({ ...pointProbe(m, c.nominal), reread: (motion) => read(apply(motion, ...m)), floatAlone: (free) => read(floatPoint(m, c.nominal, free)) });
    return read(m);
  }
  if (/plane/.test(kind) && /cylinder/.test(kind) && (spec.kind === 'position' || ORIENTATION.has(spec.kind))) {
    return none('none', `${spec.kind} of planar and cylindrical faces together that make neither an elongated hole or slot (two flats and two round ends) nor a counterbored hole (bores on one axis and their floors) is not evaluated (docs/gdt.md, "Not supported")`);
  }
  return none('none', `${spec.kind} on ${kind} faces is not evaluated yet (docs/gdt.md, "Not supported")`);
}

/**
 * A flatness or an orientation per unit area: read on every window of the unit's shape on the face
 * (perArea.ts), each as the whole face is read; the worst window decides.
 */
function perUnitArea(spec: CharacteristicSpec, nominal: NominalAccess, pts: PointSet, frames: FramesOf, options: EvaluationOptions): Characteristic {
  const unit = spec.perArea!;
  const plane = fitPlane(nominal.nodes(spec.faces).points);
  const windows = plane ? areaWindows(pts, plane.normal, unit, options.minSamples) : { reason: 'the nominal faces span no plane' };
  if ('reason' in windows) return result(spec, pts.count, 'none', { reason: windows.reason });
  const read = windows.map((w) => ({ w, c: evaluateOne({ ...spec, perArea: null }, nominal, select(pts, w.members), frames, options) }));
  const done = read.filter((r) => r.c.actual !== null);
  if (done.length === 0) return { ...read[0]!.c, samples: pts.count };
  const worst = done.reduce((a, b) => (b.c.actual! > a.c.actual! ? b : a));
  const sides = [unit.size, unit.second].filter((x): x is number => x !== null).map(round4).join(' x ');
  const open = read.length - done.length;
  return {
    ...worst.c,
    samples: pts.count,
    method: `per unit area (${unit.shape} ${sides}): the worst of ${done.length} areas placed over the face${open ? ` (${open} more not read)` : ''}, centred at (${worst.w.centre.map(round4).join(', ')}) with ${worst.w.members.length} samples: ${worst.c.method}`,
  };
}

/**
 * An elongated hole or a slot (slotPosition.ts), by its two centre planes, the worse deciding: across
 * the width the flats' centre plane (a width feature), or with the flats not named the ends' centres;
 * along the length the plane midway between the round ends. A position's planes float together in
 * what the datums leave free (one probe of both); an orientation reads each plane's extent across
 * its basic normal.
 */
function slotReading(spec: CharacteristicSpec, nominal: NominalAccess, pts: PointSet, mapped: Float64Array, slot: SlotParts, options: EvaluationOptions, free: Vec3 | null, probes?: PositionProbe[]): Characteristic {
  const n = pts.count;
  const frame = `in the datum frame ${spec.datums.join('|') || '(none)'}`;
  // The width feature is the flats: their samples alone span its centre plane (the ends' would
  // stretch it past them, and a turn's reading with it).
  const onFlats = ([ga, gb]: [number[], number[]]): [PointSet, Float64Array] => {
    const keep = indicesOn(pts, nominal, [...ga, ...gb]);
    const m = new Float64Array(3 * keep.length);
    keep.forEach((i, j) => m.set(mapped.subarray(3 * i, 3 * i + 3), 3 * j));
    return [select(pts, keep), m];
  };
  if (ORIENTATION.has(spec.kind)) {
    const ends = slotEndsOrientation(nominal, pts, mapped, slot, options.minSamples);
    if ('reason' in ends) return result(spec, n, 'none', { reason: ends.reason });
    const width = slot.flats ? widthOrientation(spec, nominal, ...onFlats(slot.flats), slot.flats, free) : null;
    if (width && width.actual === null) return width;
    const across = width ? width.actual! : ends.across;
    const how = width ? width.method : "the flats not named: the plane through the round ends' axes (each a line of the nominal radius fitted to its samples), its extent across the basic orientation";
    const method = `elongated hole or slot: the worse of its two centre planes' orientations, ${frame}; width: ${round4(across)} (${how}); length: the plane midway between the round ends' axes (each a line of the nominal radius fitted to its samples), its extent across the basic orientation as placed: ${round4(ends.length)}`;
    return verdict(spec, n, method, Math.max(across, ends.length));
  }
  const c = slotCentres(nominal, pts, mapped, slot, options.minSamples);
  if ('reason' in c) return result(spec, n, 'none', { reason: c.reason });
  const flats: PositionProbe[] = [];
  const width = slot.flats ? widthPosition(spec, nominal, ...onFlats(slot.flats), slot.flats, flats) : null;
  if (width && width.actual === null) return width;
  const read = (motion?: Rigid) => {
    const across = width ? (motion ? flats[0]!.reread(motion).actual! : width.actual!) : endsAcrossOffset(c, motion);
    const length = lengthOffset(c, motion);
    return verdict(spec, n, `elongated hole or slot: the worse of its two centre planes' positions, ${frame}; width: ${round4(across)} (${width ? width.method : ENDS_ACROSS_METHOD}); ${LENGTH_METHOD}: ${round4(length)}`, Math.max(across, length));
  };
  const sp = slotProbes(c);
  probes?.push({ parts: [width ? flats[0]! : sp.across, sp.length], reread: read });
  return read();
}

/**
 * A counterbored hole (counterbore.ts): each bore read as a hole on its own samples (its axis's
 * position or orientation), the worse deciding; a material condition's bonus taken by the bore whose
 * size the callout carries. The bores float together (one probe of both).
 */
function counterboredReading(spec: CharacteristicSpec, nominal: NominalAccess, pts: PointSet, frames: FramesOf, options: EvaluationOptions, parts: CounterboredParts, probes?: PositionProbe[]): Characteristic {
  const sized = (faces: number[]) => {
    const s = nominal.ref.geometry.faces[faces[0]!]?.surface;
    return !spec.size || (s?.kind === 'cylinder' && Math.abs(2 * s.radius - spec.size.nominal) < 1e-3 * (1 + spec.size.nominal));
  };
  const own: PositionProbe[][] = [];
  const bores = parts.bores.map((faces) => {
    const sub: PositionProbe[] = [];
    own.push(sub);
    return evaluateOne({ ...spec, faces, modifiers: sized(faces) ? spec.modifiers : [] }, nominal, select(pts, indicesOn(pts, nominal, faces)), frames, options, sub);
  });
  const diameters = parts.bores.map((faces) => { const s = nominal.ref.geometry.faces[faces[0]!]?.surface; return s?.kind === 'cylinder' ? round4(2 * s.radius) : NaN; });
  const floors = parts.floors.length ? `; ${faceIds(parts.floors).join(', ')} (its floor: a depth, not located) left out` : '';
  const worse = (cs: Characteristic[]) => {
    const open = cs.find((c) => c.pass === null);
    const worst = open ?? cs.reduce((a, b) => ((b.actual ?? 0) - (b.tolerance ?? 0) > (a.actual ?? 0) - (a.tolerance ?? 0) ? b : a));
    const list = cs.map((c, k) => `bore ${diameters[k]}: ${c.actual === null ? 'not evaluated' : round4(c.actual)}`).join(', ');
    return { ...worst, faces: faceIds(spec.faces), samples: pts.count, method: `counterbored hole: the worse of its ${cs.length} bores (${list})${floors}; the worse: ${worst.method}` };
  };
  if (own.every((p) => p.length === 1)) probes?.push({ parts: own.map((p) => p[0]!), reread: (m) => worse(own.map((p) => p[0]!.reread(m))) });
  return worse(bores);
}

function extentAlong(p: Float64Array, n: number, d: Vec3): number {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = p[3 * i]! * d[0] + p[3 * i + 1]! * d[1] + p[3 * i + 2]! * d[2];
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  return hi - lo;
}

/** v turned by phi about the unit axis k (Rodrigues). */
function rotateAbout(v: Vec3, k: Vec3, phi: number): Vec3 {
  const c = Math.cos(phi), s = Math.sin(phi), kv = cross(k, v), d = dot(k, v);
  return [0, 1, 2].map((i) => v[i]! * c + kv[i]! * s + k[i]! * d * (1 - c)) as Vec3;
}

/** Golden-section search for the minimum of a unimodal function on [a, b] (to 1e-13 of the bracket). */
function goldenMinimum(f: (x: number) => number, a: number, b: number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let x1 = b - g * (b - a), x2 = a + g * (b - a), f1 = f(x1), f2 = f(x2);
  while (b - a > 1e-13 * (1 + Math.abs(a) + Math.abs(b))) {
    if (f1 <= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - g * (b - a);
      f1 = f(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + g * (b - a);
      f2 = f(x2);
    }
  }
  return f1 <= f2 ? x1 : x2;
}

/**
 * Position of a width feature: its centre plane (midway between the two sides' least-squares planes,
 * in the datum frame) against the nominal centre plane: twice the largest distance between them over
 * the samples' extent.
 */
function widthPosition(spec: CharacteristicSpec, nominal: NominalAccess, pts: PointSet, mapped: Float64Array, [ga, gb]: [number[], number[]], probes?: PositionProbe[]): Characteristic {
  const n = pts.count;
  const mappedSet: PointSet = { points: mapped, normals: undefined, count: n };
  const ia = indicesOn(pts, nominal, ga), ib = indicesOn(pts, nominal, gb);
  const a = select(mappedSet, ia), b = select(mappedSet, ib);
  const pa = fitPlane(a.points), pb = fitPlane(b.points);
  const nomA = fitPlane(nominal.nodes(ga).points), nomB = fitPlane(nominal.nodes(gb).points);
  if (a.count < 3 || b.count < 3 || !pa || !pb || !nomA || !nomB) return result(spec, n, 'none', { reason: sidesReason(ga, a.count, gb, b.count) });
  const nn = nomA.normal;
  // The sides are parallel: the midpoint of their centroids lies on the centre plane.
  const nomMid = scale(add(nomA.origin, nomB.origin), 0.5);
  const nb = dot(pb.normal, pa.normal) < 0 ? scale(pb.normal, -1) : pb.normal;
  const midNormal = normalize(add(pa.normal, nb));
  const midPoint = scale(add(pa.origin, pb.origin), 0.5);
  // The samples' feet on the actual centre plane: their distance from the nominal centre plane is
  // linear over it, largest at a corner of their extent, which stands for them all (and floats).
  const feet = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const p = at(mapped, i);
    feet.set(sub(p, scale(midNormal, dot(sub(p, midPoint), midNormal))), 3 * i);
  }
  const corners = extentCorners(feet, n, midNormal);
  const read = (cs: Vec3[]) =>
    verdict(spec, n, `width feature: twice the largest distance of the centre plane (midway between the sides' least-squares planes) from the true position, in the datum frame ${spec.datums.join('|') || '(none)'}`, 2 * Math.max(...cs.map((q) => Math.abs(dot(sub(q, nomMid), nn)))));
  probes?.push({ corners, origin: nomMid, normal: nn, reread: (motion) => read(corners.map((q) => apply(motion, ...q))) });
  return read(corners);
}

/**
 * Orientation of a width feature: the samples carried onto the actual centre plane (midway between the
 * sides' least-squares planes, in the datum frame), their extent across the basic normal; turned
 * about `free` (the primary's direction, when the datums leave that rotation free) to its narrowest.
 */
/** Why two planar sides (a width's, a distance's) were not read: their samples, side by side (a line-of-sight scan may see one side barely or not at all). */
function sidesReason(ga: number[], na: number, gb: number[], nb: number): string {
  return `each side needs samples spanning a plane (${faceIds(ga).join(', ')}: ${na} samples; ${faceIds(gb).join(', ')}: ${nb})`;
}

function widthOrientation(spec: CharacteristicSpec, nominal: NominalAccess, pts: PointSet, mapped: Float64Array, [ga, gb]: [number[], number[]], free: Vec3 | null): Characteristic {
  const n = pts.count;
  const mappedSet: PointSet = { points: mapped, normals: undefined, count: n };
  const a = select(mappedSet, indicesOn(pts, nominal, ga)), b = select(mappedSet, indicesOn(pts, nominal, gb));
  const pa = fitPlane(a.points), pb = fitPlane(b.points), nomA = fitPlane(nominal.nodes(ga).points);
  if (a.count < 3 || b.count < 3 || !pa || !pb || !nomA) return result(spec, n, 'none', { reason: sidesReason(ga, a.count, gb, b.count) });
  const nb = dot(pb.normal, pa.normal) < 0 ? scale(pb.normal, -1) : pb.normal;
  const midNormal = normalize(add(pa.normal, nb));
  const midPoint = scale(add(pa.origin, pb.origin), 0.5);
  const nn = nomA.normal;
  // Each sample carried across to the centre plane along the basic normal: its median point stays
  // at the sample's place along the feature (a foot along the tilted normal would widen the extent).
  const across = dot(nn, midNormal);
  const feet = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const p = at(mapped, i);
    feet.set(add(p, scale(nn, dot(sub(midPoint, p), midNormal) / across)), 3 * i);
  }
  if (free) {
    const width = (phi: number) => extentAlong(feet, n, rotateAbout(nn, free, phi));
    return verdict(spec, n, `width feature: extent of its centre plane (midway between the sides' least-squares planes) across the basic orientation, turned about datum ${spec.datums[0]} to its narrowest`, width(goldenMinimum(width, -0.1, 0.1)));
  }
  return verdict(spec, n, `width feature: extent of its centre plane (midway between the sides' least-squares planes) across the basic orientation in the datum frame ${spec.datums.join('|')}`, extentAlong(feet, n, nn));
}

/** The axis points at the lowest and highest projection of the samples on it. */
function axisEnds(c: CylinderFit, pts: PointSet): [Vec3, Vec3] {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < pts.count; i++) {
    const h = dot(sub(at(pts.points, i), c.origin), c.axis);
    lo = Math.min(lo, h);
    hi = Math.max(hi, h);
  }
  return [add(c.origin, scale(c.axis, lo)), add(c.origin, scale(c.axis, hi))];
}

/**
 * The bonus a material condition modifier grants (ASME Y14.5 5.8 / ISO 2692): at MMC, how far the
 * actual size has departed from the maximum material size (a hole larger than its smallest limit, a
 * shaft smaller than its largest); at LMC the same from the least material size. 0 without a size.
 */
function materialBonus(spec: CharacteristicSpec, actual: CylinderFit, nominal: NominalAccess, nodes: PointSet, nc: CylinderFit): number {
  return sizeBonus(spec, 2 * actual.radius, () => isInternal(nominal, nodes, nc));
}

/** The bonus a feature of `size` earns at MMC or LMC (ASME Y14.5-2018 7.3): its departure from the material condition's size. */
function sizeBonus(spec: CharacteristicSpec, size: number, internal: () => boolean): number {
  const mmc = spec.modifiers.includes('maximumMaterial'), lmc = spec.modifiers.includes('leastMaterial');
  if ((!mmc && !lmc) || !spec.size) return 0;
  const hole = internal();
  const lowLimit = spec.size.nominal + spec.size.lower, highLimit = spec.size.nominal + spec.size.upper;
  const materialSize = mmc ? (hole ? lowLimit : highLimit) : hole ? highLimit : lowLimit;
  const bonus = mmc ? (hole ? size - materialSize : materialSize - size) : hole ? materialSize - size : size - materialSize;
  return Math.max(0, bonus);
}

/** A hole (material outside the cylinder): the outward normals point toward the axis. */
function isInternal(nominal: NominalAccess, nodes: PointSet, c: CylinderFit): boolean {
  return facesInward(nominal, nodes, (p) => {
    const d = sub(p, c.origin);
    return sub(d, scale(c.axis, dot(d, c.axis)));
  });
}

function evaluateSize(spec: CharacteristicSpec, nominal: NominalAccess, pts: PointSet, kind: string): Characteristic {
  const n = pts.count;
  const none = (reason: string) => result(spec, n, 'none', { reason });
  if (spec.kind === 'diameter' || spec.kind === 'radius') {
    if (kind !== 'cylinder') return none(`a ${spec.kind} needs cylindrical faces, these are ${kind}`);
    const hint = nominalAxis(nominal, spec.faces);
    const area = fitCylinder(pts.points, pts.normals, hint);
    if (!area) return none('no cylinder fits the samples');
    // A mesh scan: the cylinder through its triangles' corners, not their chords (vertexQuadrature.ts).
    const corners = cornerFit(pts, area, (p) => fitCylinder(p.points, p.normals, hint), (f) => (x, y, z) => radial([x, y, z], f.origin, f.axis) - f.radius, area.radius);
    const c = corners?.fit ?? area;
    const how = corners ? `least-squares cylinder of the scan triangles' ${corners.corners} corners under the samples (not the chords between them)` : 'least-squares cylinder';
    const perRadius = spec.kind === 'diameter' ? 2 : 1;
    return verdict(spec, n, how, perRadius * c.radius, 0, expanded(cylinderRadiusError(corners ? distinctPoints(corners.points) : pts.points, c), perRadius));
  }
  if (spec.kind === 'sphericalDiameter' || spec.kind === 'sphericalRadius') {
    if (kind !== 'sphere') return none(`a ${spec.kind} needs spherical faces, these are ${kind}`);
    const area = fitSphere(pts.points);
    if (!area) return none('no sphere fits the samples');
    const corners = cornerFit(pts, area, (p) => fitSphere(p.points), (f) => (x, y, z) => Math.hypot(x - f.center[0], y - f.center[1], z - f.center[2]) - f.radius, area.radius);
    const s = corners?.fit ?? area;
    const how = corners ? `least-squares sphere of the scan triangles' ${corners.corners} corners under the samples (not the chords between them)` : 'least-squares sphere';
    const perRadius = spec.kind === 'sphericalDiameter' ? 2 : 1;
    return verdict(spec, n, how, perRadius * s.radius, 0, expanded(sphereRadiusError(corners ? distinctPoints(corners.points) : pts.points, s), perRadius));
  }
  if (spec.kind === 'distance' || spec.kind === 'thickness' || spec.kind === 'angle') {
    if (kind !== 'plane') return none(`${spec.kind} is evaluated between planar faces, these are ${kind}`);
    // The faces in two groups by their nominal normals (opposite or at an angle).
    const groups = planeGroups(nominal, spec.faces);
    // All on one plane (NIST CTC 4's 25 from a face to a thread's upper plane, a supplemental curve
    // set; FTC 10's 35 before its hole-bottom edges were read): the other end is nothing of the part's.
    if (!groups) return none(`${spec.kind} needs two features; the faces named (${faceIds(spec.faces).join(', ')}) lie on one plane, and the dimension's other end is not a face or a circular edge of the part (read_pmi attaches none: e.g. supplemental geometry such as a thread's cosmetic plane), which a scan cannot measure`);
    const [ga] = groups;
    let [, gb] = groups;
    // A distance is between parallel sides: a face across them that the dimension also names (FTC 8's
    // pocket: two walls and the end between them) is left out, not fitted into one side's plane.
    let across: number[] = [];
    if (spec.kind !== 'angle') {
      const na = fitPlane(nominal.nodes(ga).points)!.normal;
      const parallel = (f: number) => Math.abs(dot(fitPlane(nominal.nodes([f]).points)!.normal, na)) > 1 - 1e-6;
      across = gb.filter((f) => !parallel(f));
      gb = gb.filter(parallel);
      if (gb.length === 0) return none(`${spec.kind} needs two parallel sides; the faces are on planes at an angle`);
    }
    const leftOut = across.length ? `; ${faceIds(across).join(', ')} left out (not parallel to the sides)` : '';
    const a = select(pts, indicesOn(pts, nominal, ga)), b = select(pts, indicesOn(pts, nominal, gb));
    const pa = fitPlane(a.points), pb = fitPlane(b.points);
    if (!pa || !pb) return none(sidesReason(ga, a.count, gb, b.count));
    if (spec.kind === 'angle') {
      const c = Math.min(1, Math.abs(dot(pa.normal, pb.normal)));
      const deg = (Math.acos(c) * 180) / Math.PI;
      const value = spec.nominal !== null && Math.abs(180 - deg - spec.nominal) < Math.abs(deg - spec.nominal) ? 180 - deg : deg;
      return verdict(spec, n, 'angle between the least-squares planes of the two sides (degrees)', value);
    }
    // Distance: mean distance of the second side's samples from the first side's plane.
    let s = 0;
    for (let i = 0; i < b.count; i++) s += dot(sub(at(b.points, i), pa.origin), pa.normal);
    return verdict(spec, n, `mean distance of one side's samples from the other side's least-squares plane${leftOut}`, Math.abs(s / b.count), 0, expanded(planeDistanceError(a.points, pa, b.points)));
  }
  return none(`${spec.kind} is not evaluated yet`);
}

/**
 * Roundness as the largest minimum-zone roundness over cross-sections across the least-squares
 * axis: up to 7 sections spread over the samples' height, each 2% of it thick, with at least
 * `minSamples` points; null when none qualifies.
 */
function roundnessBySections(pts: PointSet, minSamples: number, axisHint: Vec3 | undefined): number | null {
  const c = fitCylinder(pts.points, pts.normals, axisHint);
  if (!c) return null;
  const [e1] = frameAbout(c.axis);
  const e2 = cross(c.axis, e1);
  const h = new Float64Array(pts.count);
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < pts.count; i++) {
    h[i] = dot(sub(at(pts.points, i), c.origin), c.axis);
    lo = Math.min(lo, h[i]!);
    hi = Math.max(hi, h[i]!);
  }
  const half = 0.01 * (hi - lo);
  let worst: number | null = null;
  for (let s = 0; s < 7; s++) {
    const mid = lo + ((s + 0.5) * (hi - lo)) / 7;
    const uv: number[] = [];
    for (let i = 0; i < pts.count; i++) {
      if (Math.abs(h[i]! - mid) > half) continue;
      const d = sub(at(pts.points, i), c.origin);
      uv.push(dot(d, e1), dot(d, e2));
    }
    if (uv.length / 2 < Math.max(minSamples, 8)) continue;
    const z = roundnessZone(uv);
    if (z) worst = Math.max(worst ?? 0, z.width);
  }
  return worst;
}

function frameAbout(axis: Vec3): [Vec3] {
  const helper: Vec3 = Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  return [normalize(cross(axis, helper))];
}

const round4 = (x: number) => Number(x.toPrecision(4));

function describeFreedom(free: Freedom): string {
  const t = free.translations.length, r = free.rotations.length;
  return [t ? `${t} translation${t > 1 ? 's' : ''}` : '', r ? `${r} rotation${r > 1 ? 's' : ''}` : ''].filter(Boolean).join(' and ');
}
