import { z } from 'zod';
import type { ToolWarning } from '../warnings';
import type { SignMode } from '../mesh/signedDeviation';
import { cloudComparison, cloudDiagonal, cloudExtent, cloudToSurface, defaultSearchDistance, surfaceToCloud, type CloudComparison } from '../deviation/cloud';
import { defineTool, type ToolContext } from './defineTool';
import { bothDirections } from '../deviation/directions';
import { directedCoverage, type Coverage } from '../deviation/coverage';
import { DEFAULT_DEVIATION_SAMPLES, MAX_DEVIATION_SAMPLES, type SurfaceMode } from '../deviation/defaults';
import type { DirectedDeviation } from '../deviation/measure';
import { Pacer } from '../deviation/pacer';
import { directedRecord, mostlyAmbiguousWarning, thinWallWarning, type DirectedRecord } from '../deviation/record';
import { bodyExtent } from '../deviation/samples';
import { maxDistanceSchema, signModeSchema, surfaceSchema } from '../deviation/schemas';
import { comparedSurfaces, solidsOnlyWarning } from '../deviation/surfaces';
import { meshBoxOf } from '../deviation/queries';
import { boxDiagonal } from '../math/vec3';
import { unitMismatchWarning, type Fit } from '../scene/unitMismatch';
import { bodyIdSchema, vec3Schema } from './schemas';

/**
 * The most section stations: each is a record in the result, and the result crosses a thread and
 * becomes JSON whole, so 10^8 of them took an MCP server's process past its heap and killed it.
 */
export const MAX_SECTIONS = 10_000;

const schema = z
  .strictObject({
    fromBodyId: bodyIdSchema.describe('Source body (e.g. the reconstruction)'),
    toBodyId: bodyIdSchema.describe('Reference body (e.g. the input mesh); may equal fromBodyId (deviation 0)'),
    deflection: z.number().positive().finite().optional().describe('Mesh linear deflection for BREP bodies; smaller is finer. Default 0.5% of the from-body bounding-box diagonal'),
    maxSamples: z.int().min(1).max(MAX_DEVIATION_SAMPLES).default(DEFAULT_DEVIATION_SAMPLES).describe('Max surface samples per direction, stride-subsampled'),
    sectionAxis: vec3Schema
      .refine((v) => Math.hypot(v[0], v[1], v[2]) > 0, 'sectionAxis must not be the zero vector')
      .optional()
      .describe('Axis along which forward samples are binned'),
    sections: z.int().min(2).max(MAX_SECTIONS).optional().describe(`Number of bins (integer >= 2, at most ${MAX_SECTIONS}); requires sectionAxis`),
    signMode: signModeSchema,
    surface: surfaceSchema,
    maxDistance: maxDistanceSchema,
  })
  .refine((a) => a.sections === undefined || a.sectionAxis !== undefined, { path: ['sections'], message: 'sections requires sectionAxis' });

export interface SectionStation {
  offset: number;
  signedMean: number | null;
  rms: number | null;
  samples: number;
}

export interface DeviationResult {
  fromToTo: DirectedRecord;
  toToFrom: DirectedRecord;
  symmetricHausdorff: number;
  signMode: SignMode;
  /** What BREP bodies were measured as: their exact faces, or their tessellations (STL bodies are measured as they are either way). */
  surface: SurfaceMode;
  /** The deflection BREP bodies were tessellated at (model units): the measured surface in tessellated mode, the candidate search in exact mode. */
  deflection: number;
  /**
   * A point cloud as fromBodyId: the search distance of toToFrom (the part against the cloud); a
   * part sample with no cloud point within it is no data (toToFrom.noDataSamples).
   */
  maxDistance?: number;
  sections?: SectionStation[];
  /** Present when there is something to say (a thin-walled reference: record.ts, thinWallWarning). */
  warnings?: ToolWarning[];
}

type DeviationArgs = z.output<typeof schema>;

export const measureDeviation = defineTool({
  name: 'measure_deviation',
  description:
    "Signed surface deviation between two bodies in both directions: magnitudes (max, rms, mean, p95, worst point) to the nearest reference surface and signed figures (positive = proud, outside the reference; negative = shy) by signMode, symmetric Hausdorff distance, and optional stations along an axis. A BREP body is measured on its exact faces by default (surface: tessellated measures its tessellation at deflection, as the spec describes); an STL as it is.",
  category: 'scene',
  schema,
  async run(args, ctx): Promise<DeviationResult> {
    const cloud = await cloudComparison(ctx, ctx.scene.get(args.fromBodyId), args.toBodyId, args.deflection, 'measure_deviation', 'toBodyId');
    if (cloud) return cloudDeviation(ctx, cloud, args);
    const { oc, from, reference, deflection, diagonal, surface, fromSurface, refSurface: toSurface } = await comparedSurfaces(ctx, args.fromBodyId, args.toBodyId, args.deflection, args.surface);
    const { forward, backward } = await bothDirections(ctx, oc, fromSurface, toSurface, args.maxSamples, args.signMode, surface);
    const forwardCoverage = directedCoverage(forward, args.maxDistance, diagonal, `fromToTo (${args.fromBodyId} against ${args.toBodyId})`);
    const backwardCoverage = directedCoverage(backward, args.maxDistance, diagonal, `toToFrom (${args.toBodyId} against ${args.fromBodyId})`);
    const fromToTo = directedRecord(forward, forwardCoverage);
    const toToFrom = directedRecord(backward, backwardCoverage);
    const result: DeviationResult = {
      fromToTo,
      toToFrom,
      symmetricHausdorff: Math.max(fromToTo.max, toToFrom.max),
      signMode: args.signMode,
      surface,
      deflection,
    };
    const warnings = [
      solidsOnlyWarning(oc, from),
      from === reference ? null : solidsOnlyWarning(oc, reference),
      thinWallWarning(forward, forwardCoverage, `${args.fromBodyId} against ${args.toBodyId} (fromToTo)`),
      thinWallWarning(backward, backwardCoverage, `${args.toBodyId} against ${args.fromBodyId} (toToFrom)`),
      unitMismatchWarning({ body: from, diagonal }, { body: reference, diagonal: boxDiagonal(meshBoxOf(toSurface)) }, fitOf(fromToTo)),
      mostlyAmbiguousWarning(fromToTo, `fromToTo (${args.fromBodyId} against ${args.toBodyId})`),
      mostlyAmbiguousWarning(toToFrom, `toToFrom (${args.toBodyId} against ${args.fromBodyId})`),
    ].filter((w) => w !== null);
    if (warnings.length) result.warnings = warnings;
    if (args.sectionAxis && args.sections !== undefined) {
      const a = args.sectionAxis;
      const len = Math.hypot(a[0], a[1], a[2]);
      const axis = [a[0] / len, a[1] / len, a[2] / len] as const;
      result.sections = sectionStations(forward, forwardCoverage, bodyExtent(oc, fromSurface, axis, surface), axis, args.sections);
    }
    return result;
  },
});

function unitAxis(a: readonly [number, number, number]): readonly [number, number, number] {
  const len = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / len, a[1] / len, a[2] / len];
}

/** measure_deviation with a point cloud as the from-body (docs/point-clouds.md). */
async function cloudDeviation(ctx: ToolContext, c: CloudComparison, args: DeviationArgs): Promise<DeviationResult> {
  const pacer = new Pacer(ctx);
  const forward = await cloudToSurface(ctx, c, args.maxSamples, args.signMode, args.surface, 'fromToTo', pacer);
  const diagonal = cloudDiagonal(c.from);
  const forwardCoverage = directedCoverage(forward, args.maxDistance, diagonal, `fromToTo (${args.fromBodyId} against ${args.toBodyId})`);
  // The part's samples against the cloud: a sample with no cloud point within the search distance
  // is no data (the no-data rule, with the cloud's own default distance: docs/point-clouds.md).
  const searchDistance = args.maxDistance ?? defaultSearchDistance(c.from, forward);
  const backward = await surfaceToCloud(ctx, c, args.maxSamples, searchDistance, args.surface, 'toToFrom', pacer);
  const fromToTo = directedRecord(forward, forwardCoverage);
  const toToFrom = directedRecord(backward, directedCoverage(backward, searchDistance, diagonal, `toToFrom (${args.toBodyId} against ${args.fromBodyId})`));
  const result: DeviationResult = {
    fromToTo,
    toToFrom,
    symmetricHausdorff: Math.max(fromToTo.max, toToFrom.max),
    signMode: args.signMode,
    surface: args.surface,
    deflection: c.deflection,
  };
  const warnings = [solidsOnlyWarning(c.oc, c.reference), unitMismatchWarning({ body: c.from, diagonal }, { body: c.reference, diagonal: boxDiagonal(meshBoxOf(c.refSurface)) }, fitOf(fromToTo))].filter((w) => w !== null);
  if (warnings.length) result.warnings = warnings;
  if (args.sectionAxis && args.sections !== undefined) {
    const axis = unitAxis(args.sectionAxis);
    result.sections = sectionStations(forward, forwardCoverage, cloudExtent(c.from, axis), axis, args.sections);
  }
  return result;
}

/**
 * Forward samples binned along the unit axis. The span [lo, hi] is the from-body's own extent along
 * the axis (bodyExtent: a BREP body's exact extent in exact mode, else its mesh's vertices), so
 * every sample, ambiguous or not, lies inside it. Only covered samples count (no data is in no figure). Bin = floor((t - lo) / width), clamped;
 * offset = bin centre measured from lo. Only sign-reliable samples enter a station's figures; a
 * station without any has null figures and samples 0 (every requested station is reported).
 */
export function sectionStations(d: DirectedDeviation, coverage: Coverage, [lo, hi]: readonly [number, number], axis: readonly [number, number, number], sections: number): SectionStation[] {
  const [ax, ay, az] = axis;
  const width = (hi - lo) / sections;
  const count = new Uint32Array(sections);
  const sum = new Float64Array(sections);
  const sumSq = new Float64Array(sections);
  const p = d.samples.points;
  for (let i = 0; i < d.signed.length; i++) {
    const s = d.signed[i]!;
    if (s !== s || coverage.noData[i]) continue;
    const t = p[3 * i]! * ax + p[3 * i + 1]! * ay + p[3 * i + 2]! * az;
    const bin = width > 0 ? Math.min(sections - 1, Math.max(0, Math.floor((t - lo) / width))) : 0;
    count[bin]!++;
    sum[bin] = sum[bin]! + s;
    sumSq[bin] = sumSq[bin]! + s * s;
  }
  const stations: SectionStation[] = [];
  for (let b = 0; b < sections; b++) {
    const c = count[b]!;
    stations.push({
      offset: (b + 0.5) * width,
      signedMean: c ? sum[b]! / c : null,
      rms: c ? Math.sqrt(sumSq[b]! / c) : null,
      samples: c,
    });
  }
  return stations;
}

/** How a direction fits: its RMS and the share of its samples with no counterpart. */
function fitOf(r: DirectedRecord): Fit {
  return { rms: r.rms, noDataShare: r.noDataSamples / (r.samples + r.noDataSamples) };
}
