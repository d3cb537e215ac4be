import { surfaceBody } from '../scene/pointsBody';
import { z } from 'zod';
import { BrepscopeError, checkCancelled } from '../errors';
import { requireKernel, withKernel, type OC } from '../kernel';
import { boxDiagonal, dot, type Box3, type Vec3 } from '../math/vec3';
import { meshBox } from '../mesh/meshProperties';
import { allCurves, areaCentroid, describeSection, insideLoop, lengthCentroid, type SectionProfile } from '../mesh/profile2d';
import {
  bestFitResidual,
  ENVELOPE_BINS,
  PROFILE_SAMPLES,
  profileDistances,
  radialEnvelope,
  resample,
  SegmentGrid,
  segmentsOf,
  SHAPE_SAMPLES,
} from '../mesh/profileCompare';
import { chainPolylines, chainSegments, type SectionCurves } from '../mesh/sliceChain';
import { meshExtent, planeFrame, sliceMesh, type PlaneFrame } from '../mesh/sliceMesh';
import { renderSectionOverlay, whiskerMagnification } from '../render/sectionOverlay';
import { colorRange, colorSpan, defaultTolerance } from '../render/heatColors';
import { pairUnit } from '../scene/pairUnit';
import type { Body, SurfaceBody } from '../scene/Body';
import { sectionBrep } from '../scene/sectionBrep';
import { onMeasuredShape } from '../scene/solidsBeside';
import { defineTool, type ToolContext } from './defineTool';
import type { SurfaceMode } from '../deviation/defaults';
import { bodyExtent as deviationBodyExtent } from '../deviation/samples';
import { surfaceSchema } from '../deviation/schemas';
import { measuredTessellation, surfaceOf } from '../deviation/surfaces';
import { kernelFor } from '../context';
import { bodyIdSchema, overwriteSchema, vec3Schema } from './schemas';
import { gapChecker, referenceProbe, type GapTally, type SurfaceProbe } from '../deviation/sectionProbe';
import { warning, type ToolWarning } from '../warnings';

/** Default deflection: 0.5 % of the from-body's bounding-box diagonal (spec; shared with measure_deviation). */
export const SECTION_DEFLECTION_RATIO = 0.005;
/** Both ends of the overlap are inset by this share of its length before stations are spread (origin rule). */
export const STATION_INSET = 0.02;
/**
 * BREP section curves are discretized this much finer than the deflection: a curve costs little to
 * sample (the kernel's section itself dominates), and chords with the sag of the deflection would
 * pull signedMean in by about 2/3 of it (0.08 on a 0.2 offset at the default on a 245-diagonal part).
 */
export const BREP_CURVE_REFINEMENT = 0.001;
/** Section endpoints closer than this share of the larger body diagonal are welded. */
export const WELD_RATIO = 1e-6;
export const MAX_STATIONS = 1000;

const TOOL = 'cross_section_compare';

const schema = z.strictObject({
  fromBodyId: bodyIdSchema.describe('Candidate body (e.g. a reconstruction)'),
  referenceBodyId: bodyIdSchema.describe('Reference body (e.g. the scan); may be an open or thin-walled shell'),
  axis: vec3Schema
    .refine((v) => Math.hypot(v[0], v[1], v[2]) > 1e-12, 'axis must be a non-zero vector')
    .describe('Section sweep axis; cut planes are perpendicular to it (normalized here)'),
  stations: z.number().int().min(1).max(MAX_STATIONS).default(12).describe('Evenly spaced cut planes across the shared overlap (2 % inset at both ends). Default 12'),
  through: vec3Schema.optional().describe('Point the axis passes through; its trace in each plane is the station centre. Default: from-body bounding-box centre'),
  deflection: z.number().positive().optional().describe('Linear deflection for discretizing sections and extents. Default 0.5 % of the from-body bounding-box diagonal'),
  outerEnvelope: z
    .boolean()
    .default(true)
    .describe('true: compare the outer boundaries per angular direction around the station centre (inner returns ignored); false: raw point-to-main-profile distance'),
  outputDir: z.string().min(1).optional().describe('Directory for per-station overlay PNGs; omit for numbers only'),
  imagePrefix: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'imagePrefix may hold letters, digits, dot, underscore and hyphen only')
    .default('section')
    .describe('File name prefix of station PNGs (<prefix>_NN.png). Default section'),
  overwrite: overwriteSchema,
  surface: surfaceSchema,
  tolerance: z
    .number()
    .min(0)
    .finite()
    .optional()
    .describe("Tolerance band of the images' deviation whiskers (grey within it, heat-map colours beyond). Default the heat map's default band (about a tenth of the colour range)"),
  whiskerScale: z
    .number()
    .positive()
    .finite()
    .optional()
    .describe('Magnification of the deviation whiskers drawn on the reference outline in the images. Default a round factor that draws the larger of the tolerance and the 95th percentile of |deviation| about 8 % of a profile\'s size'),
});

/** One station of the result (spec: cross-section station record). */
export interface SectionStation {
  station: number;
  axisCoord: number;
  offset: number;
  signedMean: number | null;
  rms: number | null;
  maxAbs: number | null;
  centroidOffset: number | null;
  areaRatio: number | null;
  shapeL2: number | null;
  fromContours: number;
  referenceContours: number;
  fromOpenPaths: number;
  referenceOpenPaths: number;
  openProfile: boolean;
  registrationSmell: boolean;
  imagePath: string | null;
}

export interface CrossSectionResult {
  overlap: [number, number];
  /** exact: a BREP body's extent along the axis (the overlap) is its exact faces'; tessellated: its tessellation's at deflection. Sections of a BREP body are the kernel's exact sections either way. */
  surface: SurfaceMode;
  referenceMode: 'envelope' | 'profile';
  meanSignedAcrossSections: number | null;
  maxAbsSignedSection: number | null;
  worstStation: number | null;
  worstAxisCoord: number | null;
  warnings: ToolWarning[];
  sections: SectionStation[];
  /** The images' deviation whiskers: their magnification, tolerance band and unit; null without outputDir. */
  whiskers: { scale: number; tolerance: number; unit: string } | null;
}

/** What a station's image needs, kept until every station is measured (the whiskers share one magnification). */
interface PendingImage {
  record: SectionStation;
  from: SectionProfile;
  ref: SectionProfile;
  centre: [number, number];
  whiskers: Float64Array;
}

export const crossSectionCompare = defineTool({
  name: TOOL,
  description:
    'Slices the candidate and the reference with planes perpendicular to axis at evenly spaced stations across the overlap of their extents and compares the 2D profiles: signed radial offset of the outer envelope (+ = candidate outside the reference), area ratio, centroid offset and a best-fit shape residual per station, with optional overlay PNGs. Handles open scan skins (open arcs) and thin-walled references.',
  category: 'scene',
  schema,
  async run(args, ctx): Promise<CrossSectionResult> {
    const from = surfaceBody(ctx.scene.get(args.fromBodyId), TOOL, 'a surface to cut into profiles');
    const reference = surfaceBody(ctx.scene.get(args.referenceBodyId), TOOL, 'a surface to cut into profiles');
    const oc = await kernelFor(ctx, [from, reference]);
    const len = Math.hypot(...args.axis);
    const axis: Vec3 = [args.axis[0] / len, args.axis[1] / len, args.axis[2] / len];
    const frame = planeFrame(axis);

    const fromBox = bodyBox(oc, from);
    const refBox = bodyBox(oc, reference);
    const fromDiagonal = boxDiagonal(fromBox);
    if (!(fromDiagonal > 0)) throw new BrepscopeError('EMPTY_MESH', `cross_section_compare: body '${from.bodyId}' has no extent to slice`);
    if (!(boxDiagonal(refBox) > 0)) throw new BrepscopeError('EMPTY_MESH', `cross_section_compare: body '${reference.bodyId}' has no extent to slice`);
    const deflection = args.deflection ?? SECTION_DEFLECTION_RATIO * fromDiagonal;
    const through: Vec3 = args.through ?? [0, 1, 2].map((k) => (fromBox.min[k]! + fromBox.max[k]!) / 2) as Vec3;
    const weld = WELD_RATIO * Math.max(fromDiagonal, boxDiagonal(refBox));

    const fromExtent = bodyExtent(oc, from, axis, deflection, args.surface);
    const refExtent = bodyExtent(oc, reference, axis, deflection, args.surface);
    const lo = Math.max(fromExtent[0], refExtent[0]);
    const hi = Math.min(fromExtent[1], refExtent[1]);
    if (!(hi - lo > 1e-9 * Math.max(fromDiagonal, 1))) {
      throw new BrepscopeError(
        'INVALID_ARGUMENT',
        `cross_section_compare: the bodies do not overlap along the axis (from '${from.bodyId}' spans [${fmt(fromExtent[0])}, ${fmt(fromExtent[1])}], reference '${reference.bodyId}' spans [${fmt(refExtent[0])}, ${fmt(refExtent[1])}] in axis coordinates)`,
        { fromExtent, referenceExtent: refExtent },
      );
    }
    const levels = stationLevels(lo, hi, args.stations);

    checkCancelled(ctx, TOOL);
    const warnings: ToolWarning[] = [];
    const fromSections = sectionCurves(oc, from, frame, levels, deflection, weld, warnings);
    checkCancelled(ctx, TOOL);
    const refSections = sectionCurves(oc, reference, frame, levels, deflection, weld, warnings);

    const axisCentre: [number, number] = [dot(through, frame.u), dot(through, frame.v)];
    const mode = args.outerEnvelope ? 'envelope' : 'profile';
    // Envelope gaps are checked against the reference in 3D (docs/cross-sections.md); profile mode is the spec's raw distance.
    const probe = mode === 'envelope' ? referenceProbe(oc, reference, deflection) : null;
    const slack = weld + 2 * deflection * BREP_CURVE_REFINEMENT + (probe?.surfaceError ?? 0);
    const outOfPlane: string[] = [];
    const noData: string[] = [];
    const smells: number[] = [];
    const uncut: number[] = [];
    const incomparable: number[] = [];
    const openStations: number[] = [];
    const recentred: number[] = [];
    const sections: SectionStation[] = [];
    const pending: PendingImage[] = [];
    const digits = Math.max(2, String(levels.length - 1).length);
    for (let k = 0; k < levels.length; k++) {
      checkCancelled(ctx, TOOL);
      ctx.progress?.(k / levels.length, `station ${k + 1} of ${levels.length}`);
      const fromProfile = describeSection(fromSections[k]!);
      const refProfile = describeSection(refSections[k]!);
      const centre = stationCentre(axisCentre, fromProfile, refProfile);
      if (centre.moved) recentred.push(k);
      const tally: GapTally = { outOfPlane: 0, noData: 0 };
      const check = probe ? { probe, frame, slack, tally } : null;
      const { record, whiskers } = compareStation(k, levels[k]!, lo, fromProfile, refProfile, centre.xy, mode, check);
      if (tally.outOfPlane) outOfPlane.push(`${k} (${tally.outOfPlane})`);
      if (tally.noData) noData.push(`${k} (${tally.noData})`);
      if (record.registrationSmell) smells.push(k);
      else if (!fromProfile.main) uncut.push(k);
      else if (record.signedMean === null) incomparable.push(k);
      if (record.openProfile) openStations.push(k);
      if (args.outputDir !== undefined) pending.push({ record, from: fromProfile, ref: refProfile, centre: centre.xy, whiskers });
      sections.push(record);
    }
    let whiskers: CrossSectionResult['whiskers'] = null;
    if (args.outputDir !== undefined) {
      whiskers = await writeImages(ctx, pending, {
        dir: args.outputDir,
        prefix: args.imagePrefix,
        digits,
        stations: levels.length,
        overlapLength: hi - lo,
        mode,
        unit: pairUnit(from, reference).length,
        tolerance: args.tolerance,
        scale: args.whiskerScale,
        referenceLabel: `reference: ${reference.bodyId}`,
        candidateLabel: `candidate: ${from.bodyId}`,
        note: `seen from +axis [${axis.map(fmtDir).join(', ')}]; u = [${frame.u.map(fmtDir).join(', ')}], v = [${frame.v.map(fmtDir).join(', ')}]`,
      });
    }
    ctx.progress?.(1);

    const list = (ks: number[]) => ks.join(', ');
    if (smells.length) {
      const which = smells.map((k) => `${k} (${sections[k]!.fromContours + sections[k]!.fromOpenPaths > 0 ? 'candidate' : 'reference'} only)`).join(', ');
      warnings.push(warning('ONE_BODY_CUT', `registration smell: stations ${which} cut only one body; mis-registration or differing extents`));
    }
    if (uncut.length) warnings.push(warning('STATION_UNCUT', `stations ${list(uncut)} cut neither body (a gap in both along the axis)`));
    if (incomparable.length) warnings.push(warning('NO_COMPARABLE_PROFILE', `stations ${list(incomparable)} have no comparable profile (no common ${mode === 'envelope' ? 'angular direction' : 'reference profile'})`));
    if (openStations.length) warnings.push(warning('OPEN_PROFILE', `open profiles at stations ${list(openStations)}: areaRatio is null there and signs of an open reference are taken relative to the station centre`));
    if (outOfPlane.length) {
      warnings.push(
        warning('OUT_OF_PLANE', `stations ${outOfPlane.join(', ')}: in that many directions the gap in the plane was larger than the candidate's 3D distance from the reference (a face nearly parallel or oblique to the plane, or no counterpart in the plane); the 3D distance was used there`),
      );
    }
    if (noData.length) {
      warnings.push(warning('NO_DATA', `stations ${noData.join(', ')}: in that many directions the candidate lies beyond the reference's open boundary (its nearest reference point is on the rim and it leans off the rim's normal: the deviation tools' no-data rule); left out as no data`));
    }
    if (recentred.length) {
      warnings.push(warning('STATION_RECENTRED', `the axis line misses the profile at stations ${list(recentred)}: the station centre was moved to the profile's area centroid`));
    }

    const measured = sections.filter((s) => s.signedMean !== null);
    let worst: SectionStation | null = null;
    for (const s of measured) if (!worst || Math.abs(s.signedMean!) > Math.abs(worst.signedMean!)) worst = s;
    return {
      overlap: [lo, hi],
      surface: args.surface,
      referenceMode: mode,
      meanSignedAcrossSections: measured.length ? measured.reduce((a, s) => a + s.signedMean!, 0) / measured.length : null,
      maxAbsSignedSection: worst ? Math.abs(worst.signedMean!) : null,
      worstStation: worst ? worst.station : null,
      worstAxisCoord: worst ? worst.axisCoord : null,
      warnings,
      sections,
      whiskers,
    };
  },
});

interface ImageSettings {
  dir: string;
  prefix: string;
  digits: number;
  stations: number;
  overlapLength: number;
  mode: 'envelope' | 'profile';
  unit: string;
  tolerance: number | undefined;
  scale: number | undefined;
  referenceLabel: string;
  candidateLabel: string;
  note: string;
}

/**
 * One overlay PNG per station, all with one whisker magnification and colour scale (the stations
 * compare at a glance): the colour range is the heat map's rule over every station's deviations.
 */
async function writeImages(ctx: ToolContext, pending: PendingImage[], o: ImageSettings): Promise<{ scale: number; tolerance: number; unit: string }> {
  let count = 0;
  for (const p of pending) count += p.whiskers.length / 5;
  const all = new Float64Array(count);
  let n = 0;
  for (const p of pending) for (let i = 4; i < p.whiskers.length; i += 5) all[n++] = p.whiskers[i]!;
  const m = colorRange(all);
  const tolerance = o.tolerance ?? defaultTolerance(m);
  const span = colorSpan(m, tolerance);
  const sizes = pending.map((p) => profileSize(p.ref)).filter((x) => x > 0).sort((a, b) => a - b);
  const scale = o.scale ?? whiskerMagnification(sizes.length ? sizes[Math.floor(sizes.length / 2)]! : 0, all, tolerance);
  const u = o.unit;
  for (const p of pending) {
    const r = p.record;
    const k = r.station;
    const path = `${trimSlash(o.dir)}/${o.prefix}_${String(k).padStart(o.digits, '0')}.png`;
    const png = await renderSectionOverlay({
      title: `Station ${k} (${k + 1} of ${o.stations}) \u00b7 axis ${fmt(r.axisCoord)} ${u} (offset ${fmt(r.offset)} in [0, ${fmt(o.overlapLength)}])`,
      lines: [...figureLines(r, o.mode, p.from, p.ref, u), whiskerLine(scale, tolerance, u, o.tolerance === undefined)],
      reference: allCurves(p.ref),
      candidate: allCurves(p.from),
      referenceLabel: o.referenceLabel,
      candidateLabel: o.candidateLabel,
      centre: p.centre,
      note: o.note,
      unit: u,
      whiskers: { data: p.whiskers, magnification: scale, tolerance, span },
    });
    await ctx.files.write(path, png);
    r.imagePath = path;
  }
  return { scale, tolerance, unit: u };
}

function whiskerLine(scale: number, tolerance: number, unit: string, defaultBand: boolean): string {
  return `whiskers on the reference: deviation \u00d7 ${fmt(scale)} \u00b7 grey within \u00b1${fig(tolerance)} ${unit}${defaultBand ? ' (default band)' : ''} \u00b7 red proud, blue shy`;
}

/** The larger side of a profile's box (its main profile's when it has one). */
function profileSize(p: SectionProfile): number {
  const lines = p.main ? [p.main] : allCurves(p);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const l of lines) {
    for (let i = 0; i + 1 < l.points.length; i += 2) {
      minX = Math.min(minX, l.points[i]!);
      maxX = Math.max(maxX, l.points[i]!);
      minY = Math.min(minY, l.points[i + 1]!);
      maxY = Math.max(maxY, l.points[i + 1]!);
    }
  }
  return Number.isFinite(minX) ? Math.max(maxX - minX, maxY - minY) : 0;
}

/** Station levels: the overlap inset by 2 % at both ends, then evenly spaced with both ends included; one station sits in the middle. */
export function stationLevels(lo: number, hi: number, stations: number): number[] {
  if (stations === 1) return [(lo + hi) / 2];
  const inset = STATION_INSET * (hi - lo);
  const a = lo + inset, b = hi - inset;
  return Array.from({ length: stations }, (_, k) => (k === stations - 1 ? b : a + ((b - a) * k) / (stations - 1)));
}

function compareStation(
  k: number,
  level: number,
  lo: number,
  from: SectionProfile,
  ref: SectionProfile,
  centre: [number, number],
  mode: 'envelope' | 'profile',
  check: { probe: SurfaceProbe; frame: PlaneFrame; slack: number; tally: GapTally } | null,
): { record: SectionStation; whiskers: Float64Array } {
  const record: SectionStation = {
    station: k,
    axisCoord: level,
    offset: level - lo,
    signedMean: null,
    rms: null,
    maxAbs: null,
    centroidOffset: null,
    areaRatio: null,
    shapeL2: null,
    fromContours: from.curves.loops.length,
    referenceContours: ref.curves.loops.length,
    fromOpenPaths: from.curves.paths.length,
    referenceOpenPaths: ref.curves.paths.length,
    openProfile: from.open || ref.open,
    registrationSmell: (from.main === null) !== (ref.main === null),
    imagePath: null,
  };
  if (!from.main || !ref.main) return { record, whiskers: new Float64Array(0) };

  const gap = check ? gapChecker(check.probe, check.frame, level, check.slack, check.tally) : null;
  const whiskers: number[] = [];
  const d = mode === 'envelope' ? envelopeDifferences(from, ref, centre, gap, whiskers) : profileDifferences(from, ref, centre, whiskers);
  if (d.length) {
    let sum = 0, sq = 0, max = 0;
    for (const x of d) {
      sum += x;
      sq += x * x;
      max = Math.max(max, Math.abs(x));
    }
    record.signedMean = sum / d.length;
    record.rms = Math.sqrt(sq / d.length);
    record.maxAbs = max;
  }

  const bothClosed = !from.open && !ref.open;
  if (bothClosed) {
    const refArea = ref.area[ref.curves.loops.indexOf(ref.main)]!;
    const fromArea = from.area[from.curves.loops.indexOf(from.main)]!;
    if (refArea > 0) record.areaRatio = fromArea / refArea;
  }
  const cf = bothClosed ? areaCentroid(from.main) : lengthCentroid([from.main]);
  const cr = bothClosed ? areaCentroid(ref.main) : lengthCentroid([ref.main]);
  if (cf && cr) record.centroidOffset = Math.hypot(cf[0] - cr[0], cf[1] - cr[1]);

  // shapeL2: the reference's main profile fitted rigidly onto the candidate's; the RMS residual.
  const refPoints = resample([ref.main], SHAPE_SAMPLES);
  const grid = new SegmentGrid(segmentsOf([from.main]));
  const start = bothClosed && cf && cr ? [cf[0] - cr[0], cf[1] - cr[1]] : [0, 0];
  const fit = bestFitResidual(refPoints, grid, start[0]!, start[1]!);
  if (Number.isFinite(fit.rms)) record.shapeL2 = fit.rms;
  return { record, whiskers: Float64Array.from(whiskers) };
}

/**
 * Envelope mode: per angular bin around the centre where both bodies have a boundary, the radial
 * gap between the candidate's and the reference's outermost crossings, projected on the
 * reference's normal there (a flat side offset by t gives t at every angle, not t / cos), then
 * checked in 3D at the candidate's crossing (`gap`: the in-plane gap, the 3D distance, or no data).
 * Each difference also goes into `whiskers` at the reference's crossing with its outward normal.
 */
function envelopeDifferences(
  from: SectionProfile,
  ref: SectionProfile,
  [cx, cy]: [number, number],
  gap: ((x: number, y: number, inPlane: number) => number | null) | null,
  whiskers: number[],
): number[] {
  const a = radialEnvelope(segmentsOf(allCurves(from)), cx, cy, ENVELOPE_BINS);
  const b = radialEnvelope(segmentsOf(allCurves(ref)), cx, cy, ENVELOPE_BINS);
  const d: number[] = [];
  const step = (2 * Math.PI) / ENVELOPE_BINS;
  for (let k = 0; k < ENVELOPE_BINS; k++) {
    const ra = a.radius[k]!, rb = b.radius[k]!;
    if (Number.isNaN(ra) || Number.isNaN(rb)) continue;
    const inPlane = (ra - rb) * b.cosine[k]!;
    const theta = (k + 0.5) * step;
    const c = Math.cos(theta), s = Math.sin(theta);
    const value = gap ? gap(cx + ra * c, cy + ra * s, inPlane) : inPlane;
    if (value === null) continue;
    d.push(value);
    whiskers.push(cx + rb * c, cy + rb * s, b.normalX[k]!, b.normalY[k]!, value);
  }
  return d;
}

/**
 * Profile mode: every candidate curve sampled evenly by arc length, signed distance to the reference's
 * main profile; each also a whisker at its nearest reference point, along the line to the sample
 * (outward when the sample is outside).
 */
function profileDifferences(from: SectionProfile, ref: SectionProfile, [cx, cy]: [number, number], whiskers: number[]): number[] {
  const main = ref.main!;
  const samples = resample(allCurves(from), PROFILE_SAMPLES);
  const grid = new SegmentGrid(segmentsOf([main]));
  const nearest = new Float64Array(samples.length);
  const all = profileDistances(samples, main, grid, cx, cy, nearest);
  const d: number[] = [];
  for (let i = 0; i < all.length; i++) {
    const v = all[i]!;
    if (Number.isNaN(v)) continue;
    d.push(v);
    const bx = nearest[2 * i]!, by = nearest[2 * i + 1]!;
    const ex = samples[2 * i]! - bx, ey = samples[2 * i + 1]! - by;
    const len = Math.hypot(ex, ey);
    const sign = v < 0 ? -1 : 1;
    if (len > 0) whiskers.push(bx, by, (sign * ex) / len, (sign * ey) / len, v);
  }
  return d;
}

/**
 * The station centre: where the axis line pierces the plane, unless that point lies outside the
 * candidate's main closed loop (or the reference's, when the candidate has none); then the loop's
 * area centroid, so the angular envelope is taken from inside the profile.
 */
function stationCentre(axisCentre: [number, number], from: SectionProfile, ref: SectionProfile): { xy: [number, number]; moved: boolean } {
  const loop = from.main && !from.open ? from.main : ref.main && !ref.open ? ref.main : null;
  if (!loop || insideLoop(loop, axisCentre[0], axisCentre[1])) return { xy: axisCentre, moved: false };
  return { xy: areaCentroid(loop), moved: true };
}

/** Each station's curves of one body: an STL sliced on its arrays, a BREP body cut by the kernel. */
function sectionCurves(oc: OC | undefined, body: SurfaceBody, frame: PlaneFrame, levels: number[], deflection: number, weld: number, warnings: ToolWarning[]): SectionCurves[] {
  if (body.kind === 'mesh') return sliceMesh(body.mesh, frame, levels).map((segments) => chainSegments(segments, weld));
  const k = requireKernel(oc, TOOL);
  const sections = onMeasuredShape(k, body, (shape) => sectionBrep(k, shape, frame, levels, deflection * BREP_CURVE_REFINEMENT));
  const failed = sections.flatMap((s, i) => (s.error !== undefined ? [`${i} (${s.error})`] : []));
  if (failed.length) warnings.push(warning('SECTION_FAILED', `the kernel could not section body '${body.bodyId}' at stations ${failed.join(', ')}; treated as not cut`));
  // Edge ends meet within their vertices' tolerances, which in imported parts can be far above the weld.
  return sections.map((s) => chainPolylines(s.pieces, Math.max(weld, 2 * s.vertexTolerance)));
}

/**
 * Lowest and highest p . axis over the body: an STL's vertices; a BREP body's exact faces (exact
 * mode) or its tessellation at the deflection (tessellated mode, whose chords fall short of a
 * curved extreme by up to the chord error).
 */
function bodyExtent(oc: OC | undefined, body: SurfaceBody, axis: Vec3, deflection: number, surface: SurfaceMode): [number, number] {
  if (body.kind === 'mesh') return checkedExtent(body, meshExtent(body.mesh, axis));
  const mesh = measuredTessellation(requireKernel(oc, TOOL), body, deflection);
  return checkedExtent(body, surface === 'exact' && mesh.indices.length > 0 ? deviationBodyExtent(oc, surfaceOf(body, mesh), axis, surface) : meshExtent(mesh, axis));
}

function checkedExtent(body: Body, extent: [number, number]): [number, number] {
  if (!(extent[1] >= extent[0])) throw new BrepscopeError('EMPTY_MESH', `cross_section_compare: body '${body.bodyId}' has no triangles to slice`);
  return extent;
}

/** Axis-aligned box: an STL's vertices, a BREP body's BRepBndLib box without gap (as the spec's deflection default reads it). */
function bodyBox(oc: OC | undefined, body: SurfaceBody): Box3 {
  if (body.kind === 'mesh') return meshBox(body.mesh);
  const k = requireKernel(oc, TOOL);
  return withKernel(k, (own) => {
    const box = own(new k.Bnd_Box_1());
    k.BRepBndLib.Add(body.shape, box, false);
    if (box.IsVoid()) return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] } as Box3;
    box.SetGap(0);
    const min = own(box.CornerMin());
    const max = own(box.CornerMax());
    return { min: [min.X(), min.Y(), min.Z()], max: [max.X(), max.Y(), max.Z()] };
  });
}

function trimSlash(dir: string): string {
  const t = dir.replace(/[\\/]+$/, '');
  return t === '' ? '/' : t;
}

function fmt(x: number): string {
  return Number(x.toPrecision(6)).toString();
}

function fmtDir(x: number): string {
  return Number(x.toFixed(3)).toString();
}

function fig(x: number | null, signed = false): string {
  if (x === null) return 'n/a';
  const s = Number(x.toPrecision(4)).toString();
  return signed && x > 0 ? `+${s}` : s;
}

function figureLines(r: SectionStation, mode: string, from: SectionProfile, ref: SectionProfile, unit: string): string[] {
  const first = `signedMean ${fig(r.signedMean, true)} \u00b7 rms ${fig(r.rms)} \u00b7 maxAbs ${fig(r.maxAbs)} \u00b7 shapeL2 ${fig(r.shapeL2)} \u00b7 centroidOffset ${fig(r.centroidOffset)} (${unit}) \u00b7 areaRatio ${fig(r.areaRatio)}`;
  const count = (p: SectionProfile) => `${p.curves.loops.length} closed, ${p.curves.paths.length} open`;
  let second = `${mode} mode \u00b7 reference ${count(ref)} \u00b7 candidate ${count(from)}`;
  if (r.registrationSmell) second += ` \u00b7 REGISTRATION SMELL: only the ${from.main ? 'candidate' : 'reference'} is cut`;
  else if (r.openProfile) second += ' \u00b7 open profile';
  return [first, second];
}
