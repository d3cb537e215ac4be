import { z } from 'zod';
import { BrepscopeError } from '../errors';
import { createExactDeviation, createExactHit, ExactReference } from '../exact/ExactReference';
import { requireKernel } from '../kernel';
import { boxDiagonal, type Vec3 } from '../math/vec3';
import { closestPoint, createHit } from '../mesh/closestPoint';
import { createSignedDeviation, signedDeviation, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import { colorRange, defaultTolerance } from '../render/heatColors';
import { decimalsFor, formatSigned } from '../render/format';
import type { BrepBody } from '../scene/Body';
import { defineTool, type ToolContext } from './defineTool';
import { heatmapField, type HeatmapField } from './deviationHeatmap';
import type { SurfaceMode } from '../deviation/defaults';
import type { DeviationTarget } from '../deviation/measure';
import { meshBoxOf } from '../deviation/queries';
import { signModeSchema, surfaceSchema } from '../deviation/schemas';
import { deviationTarget, exactReference, meshBvh, meshPseudoNormals } from '../deviation/structures';
import { measuredSurface } from '../deviation/surfaces';
import { bodyIdSchema, vec3Schema } from './schemas';
import { MAX_PLACEMENT_OFFSET } from './setPlacement';

export const MAX_LABEL_POINTS = 100;
export const MAX_AUTO_LABELS = 50;
export const DEFAULT_AUTO_LABELS = 8;
/** Automatic labels stand at least this share of the candidate's bounding-box diagonal apart by default. */
export const DEFAULT_SPACING_RATIO = 0.1;

/** Which points get labels: given points, or the `count` most deviating local extrema at least `minDistance` apart. */
export const labelSelectionShape = {
  points: z
    // A point past the placements' range (2^29) is no point near a part; far enough (1e154) its squared
    // distance overflows and no surface is found, which was reported as a body without one (EMPTY_MESH).
    .array(vec3Schema.refine((p) => p.every((c) => Math.abs(c) <= MAX_PLACEMENT_OFFSET), `a point must have finite coordinates within ±${MAX_PLACEMENT_OFFSET} model units`))
    .min(1)
    .max(MAX_LABEL_POINTS)
    .optional()
    .describe(`Points to label (model units, at most ${MAX_LABEL_POINTS}); each is moved to the nearest point of the candidate's surface. Omit for automatic labels`),
  count: z
    .int()
    .min(1)
    .max(MAX_AUTO_LABELS)
    .default(DEFAULT_AUTO_LABELS)
    .describe(`Automatic labels (no points): how many of the most deviating local extrema of the heat map to label. Default ${DEFAULT_AUTO_LABELS}`),
  minDistance: z
    .number()
    .positive()
    .finite()
    .optional()
    .describe('Automatic labels: the least distance between two labelled points (model units). Default 10% of the candidate\'s bounding-box diagonal'),
};

export const labelSelectionSchema = z.strictObject(labelSelectionShape);
export type LabelSelection = z.output<typeof labelSelectionSchema>;

const schema = z.strictObject({
  fromBodyId: bodyIdSchema.describe('Candidate body: the labels stand on its surface'),
  referenceBodyId: bodyIdSchema.describe('Reference body'),
  ...labelSelectionShape,
  tolerance: z.number().min(0).finite().optional().describe('Pass when |deviation| <= tolerance. Default: the heat map\'s default band (a round number near a tenth of its colour range)'),
  deflection: z.number().positive().finite().optional().describe('Deflection of BREP bodies; default 0.5% of the from-body bounding-box diagonal, as measure_deviation'),
  signMode: signModeSchema,
  surface: surfaceSchema,
});

export interface DeviationLabel {
  /** 1-based, in the order of the points given, or most deviating first. */
  number: number;
  /** The labelled point, on the candidate's surface. */
  point: Vec3;
  /** The candidate's unit outward normal there (the sample normal the sign rule uses). */
  normal: Vec3;
  /** The reference point the deviation is measured to: the one the sign came from, or the nearest when the sign is ambiguous; null against an empty reference. */
  referencePoint: Vec3 | null;
  /** Signed deviation (+ proud, outside the reference; - shy); null when the sign is ambiguous. */
  signed: number | null;
  /** Unsigned distance to the nearest reference surface (not moved by signMode). */
  distance: number;
  /** |signed| <= tolerance, or distance <= tolerance when the sign is ambiguous. */
  pass: boolean;
  /** Points mode: the point asked for, and how far it was from the candidate's surface. */
  requested?: Vec3;
  offset?: number;
}

export interface DeviationLabelsResult {
  mode: 'points' | 'auto';
  labels: DeviationLabel[];
  tolerance: number;
  /** Automatic mode: the spacing used. */
  minDistance?: number;
  /** Automatic mode: local extrema of the heat map found before the spacing rule (with a sign). */
  extrema?: number;
  signMode: SignMode;
  surface: SurfaceMode;
  deflection: number;
}

export const deviationLabels = defineTool({
  name: 'deviation_labels',
  description:
    "Deviation labels (callouts): for given points, or automatically for the N most deviating local extrema of the heat map spread apart by a minimum distance, the point on the candidate, the reference point it is measured to, the signed deviation (+ proud, - shy; the heat map's computation: exact surfaces by default), the unsigned distance and pass/fail against the tolerance.",
  category: 'scene',
  schema,
  async run(args, ctx): Promise<DeviationLabelsResult> {
    return computeLabels(ctx, args);
  },
});

interface LabelInput extends Partial<Omit<LabelSelection, 'count'>> {
  fromBodyId: string;
  referenceBodyId: string;
  count?: number | undefined;
  tolerance?: number | undefined;
  deflection?: number | undefined;
  signMode: SignMode;
  surface: SurfaceMode;
}

/** deviation_labels for other tools (the heat-map picture, the report), with the heat-map field they already hold. */
export async function computeLabels(ctx: ToolContext, args: LabelInput, known?: HeatmapField): Promise<DeviationLabelsResult> {
  const field = known ?? (await heatmapField(ctx, args.fromBodyId, args.referenceBodyId, args.signMode, args.deflection, args.surface));
  const { oc, data } = field;
  const deflection = data.deflection;
  const tolerance = args.tolerance ?? defaultTolerance(colorRange(data.values, data.range ? data.range[1] : 0));
  const reference = deviationTarget(oc, measuredSurface(oc, ctx.scene.get(args.referenceBodyId), deflection), args.surface);
  const measure = labelMeasure(reference, args.signMode, tolerance);
  const common = { tolerance, signMode: args.signMode, surface: args.surface, deflection };

  if (args.points) {
    const project = candidateProjector(ctx, field, args.fromBodyId, args.surface);
    const labels = args.points.map((requested, i) => {
      const foot = project(requested);
      return { ...measure(i + 1, foot.point, foot.normal), requested: [...requested] as Vec3, offset: foot.offset };
    });
    return { mode: 'points', labels, ...common };
  }

  const display = field.display;
  const minDistance = args.minDistance ?? DEFAULT_SPACING_RATIO * boxDiagonal(meshBoxOf(display));
  const pn = meshPseudoNormals(display);
  const { picks, extrema } = spreadExtrema(data.values, display.mesh.indices, pn.triangleVertices, pn.vertexNormals.length / 3, display.mesh.positions, args.count ?? DEFAULT_AUTO_LABELS, minDistance);
  const pos = display.mesh.positions;
  const vn = pn.vertexNormals;
  const labels = picks.map(({ vertex, weld }, i) => {
    const len = Math.hypot(vn[3 * weld]!, vn[3 * weld + 1]!, vn[3 * weld + 2]!);
    const s = len > 0 ? 1 / len : 0;
    // The heat map's own sample: the display vertex with its welded angle-weighted normal.
    return measure(i + 1, [pos[3 * vertex]!, pos[3 * vertex + 1]!, pos[3 * vertex + 2]!], [vn[3 * weld]! * s, vn[3 * weld + 1]! * s, vn[3 * weld + 2]! * s]);
  });
  return { mode: 'auto', labels, minDistance, extrema, ...common };
}

/** Measures one labelled point with its normal against the reference: the heat map's rule. */
function labelMeasure(reference: DeviationTarget, mode: SignMode, tolerance: number): (n: number, point: Vec3, normal: Vec3) => DeviationLabel {
  const exact = reference instanceof ExactReference ? reference : null;
  const x = createExactDeviation();
  const r = createSignedDeviation();
  return (number, point, normal) => {
    let signedValue: number, distance: number;
    let ref: Vec3 | null;
    if (exact) {
      exact.signed(point[0], point[1], point[2], normal[0], normal[1], normal[2], mode, x);
      signedValue = x.signed;
      distance = x.distance;
      const hit = x.ambiguous || x.winner.face < 0 ? x.nearest : x.winner;
      ref = hit.face < 0 ? null : [hit.x, hit.y, hit.z];
    } else {
      signedDeviation(reference as DeviationReference, point[0], point[1], point[2], normal[0], normal[1], normal[2], mode, r);
      signedValue = r.signed;
      distance = r.distance;
      const hit = r.ambiguous || r.winner.triangle < 0 ? r.nearest : r.winner;
      ref = hit.triangle < 0 ? null : [hit.x, hit.y, hit.z];
    }
    const signed = signedValue === signedValue ? signedValue : null;
    const pass = (signed === null ? distance : Math.abs(signed)) <= tolerance;
    return { number, point, normal, referencePoint: ref, signed, distance, pass };
  };
}

/**
 * The nearest point of the candidate's measured surface to a given point, with the outward normal
 * there: a BREP candidate's exact faces in exact mode, otherwise its triangles (pseudo-normal of the
 * feature the foot lies on).
 */
function candidateProjector(ctx: ToolContext, field: HeatmapField, fromBodyId: string, surface: SurfaceMode): (p: readonly number[]) => { point: Vec3; normal: Vec3; offset: number } {
  const from = ctx.scene.get(fromBodyId);
  const oc = field.oc;
  if (from.kind === 'brep' && surface === 'exact') {
    const exact = exactReference(requireKernel(oc, 'deviation labels'), from as BrepBody, field.data.deflection);
    const hit = createExactHit();
    return (p) => {
      exact.nearest(p[0]!, p[1]!, p[2]!, hit);
      if (hit.face < 0) throw new BrepscopeError('EMPTY_MESH', `body '${fromBodyId}' has no surface to put a label on`);
      return { point: [hit.x, hit.y, hit.z], normal: [hit.nx, hit.ny, hit.nz], offset: hit.distance };
    };
  }
  const s = measuredSurface(oc, from, field.data.deflection);
  const bvh = meshBvh(s);
  const pn = meshPseudoNormals(s);
  const hit = createHit();
  const n = new Float64Array(3);
  return (p) => {
    closestPoint(bvh, p[0]!, p[1]!, p[2]!, hit);
    if (hit.triangle < 0) throw new BrepscopeError('EMPTY_MESH', `body '${fromBodyId}' has no surface to put a label on`);
    pn.featureNormal(hit.triangle, hit.feature, n);
    const len = Math.hypot(n[0]!, n[1]!, n[2]!);
    const s = len > 0 ? 1 / len : 0;
    return { point: [hit.x, hit.y, hit.z], normal: [n[0]! * s, n[1]! * s, n[2]! * s], offset: hit.distance };
  };
}

/**
 * The `count` most deviating local extrema of a per-vertex field, at least `minDistance` apart.
 * A local extremum is a welded vertex whose |value| no neighbour (sharing a triangle) exceeds (ties
 * go to the lower id), so a peak's slope never gets a label of its own; then, most deviating first,
 * an extremum is taken unless it lies within minDistance of one already taken. Ambiguous vertices
 * (NaN) take no part. Deterministic: ties in |value| are broken by vertex id.
 */
export function spreadExtrema(
  values: ArrayLike<number>,
  indices: ArrayLike<number>,
  triangleVertices: ArrayLike<number>,
  weldCount: number,
  positions: ArrayLike<number>,
  count: number,
  minDistance: number,
): { picks: { vertex: number; weld: number }[]; extrema: number } {
  // Welded vertex -> one display vertex standing for it (its value and position).
  const rep = new Int32Array(weldCount).fill(-1);
  for (let i = 0; i < indices.length; i++) {
    const w = triangleVertices[i]!;
    if (rep[w]! < 0) rep[w] = indices[i]!;
  }
  const mag = new Float64Array(weldCount).fill(NaN);
  for (let w = 0; w < weldCount; w++) if (rep[w]! >= 0) mag[w] = Math.abs(values[rep[w]!]!);
  const beaten = new Uint8Array(weldCount);
  const beats = (a: number, b: number) => mag[a]! > mag[b]! || (mag[a] === mag[b] && a < b);
  for (let t = 0; t + 2 < triangleVertices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = triangleVertices[t + k]!, b = triangleVertices[t + ((k + 1) % 3)]!;
      if (a === b || mag[a] !== mag[a] || mag[b] !== mag[b]) continue;
      if (beats(a, b)) beaten[b] = 1;
      else beaten[a] = 1;
    }
  }
  const candidates: number[] = [];
  for (let w = 0; w < weldCount; w++) if (!beaten[w] && mag[w] === mag[w]) candidates.push(w);
  candidates.sort((a, b) => (beats(a, b) ? -1 : 1));
  const picks: { vertex: number; weld: number }[] = [];
  const d2 = minDistance * minDistance;
  for (const w of candidates) {
    if (picks.length >= count) break;
    const v = rep[w]!;
    const x = positions[3 * v]!, y = positions[3 * v + 1]!, z = positions[3 * v + 2]!;
    let free = true;
    for (const p of picks) {
      const dx = positions[3 * p.vertex]! - x, dy = positions[3 * p.vertex + 1]! - y, dz = positions[3 * p.vertex + 2]! - z;
      if (dx * dx + dy * dy + dz * dz < d2) {
        free = false;
        break;
      }
    }
    if (free) picks.push({ vertex: v, weld: w });
  }
  return { picks, extrema: candidates.length };
}

/** A label's callout text: the signed value (or the distance, when the sign is ambiguous) and the verdict. */
export function labelText(label: DeviationLabel, decimals: number): string {
  const value = label.signed === null ? `\u00b1${label.distance.toFixed(decimals)} (sign ?)` : formatSigned(label.signed, decimals);
  return `${value}\n${label.pass ? 'PASS' : 'FAIL'}`;
}

/** Decimals for label texts: three significant digits of the tolerance or the range, whichever is finer. */
export function labelDecimals(range: number, tolerance: number): number {
  return Math.max(decimalsFor(range), tolerance > 0 ? decimalsFor(tolerance) : 0);
}
