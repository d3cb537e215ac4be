import { pairUnit } from '../scene/pairUnit';
import { z } from 'zod';
import type { SignMode } from '../mesh/signedDeviation';
import { histogramPng, type BucketSigns, type HistogramBucket } from '../render/histogramChart';
import { cloudComparison, cloudDiagonal, cloudToSurface } from '../deviation/cloud';
import { defineTool, type ToolContext } from './defineTool';
import { directedCoverage } from '../deviation/coverage';
import { MAX_DEVIATION_SAMPLES, type SurfaceMode } from '../deviation/defaults';
import { directedDeviation } from '../deviation/directed';
import { maxDistanceSchema, signModeSchema, surfaceSchema } from '../deviation/schemas';
import { comparedSurfaces, solidsOnlyWarning } from '../deviation/surfaces';
import { bodyIdSchema, overwriteSchema } from './schemas';
import { percentile } from '../deviation/statistics';
import { MOSTLY_AMBIGUOUS, thinWallWarning } from '../deviation/record';
import { warning, type ToolWarning } from '../warnings';

/** The origin's bucket count: every bucket is reported, empty ones too. */
export const HISTOGRAM_BUCKETS = 40;
/** The origin's sample count (the spec gives none); can be changed with maxSamples. */
export const HISTOGRAM_DEFAULT_SAMPLES = 50000;
/** When every signed sample has (about) one value, the range is widened by this much each side. */
const DEGENERATE_SPAN = 1e-9;
const DEGENERATE_PAD = 0.5;

const schema = z.strictObject({
  fromBodyId: bodyIdSchema.describe('Candidate body'),
  referenceBodyId: bodyIdSchema.describe('Reference body'),
  deflection: z.number().positive().finite().optional().describe('Mesh linear deflection for BREP bodies. Default 0.5% of the from-body bounding-box diagonal'),
  tolerance: z.number().min(0).finite().optional().describe('When set, withinTolerance (share of samples within this distance of the nearest reference surface) is included'),
  signMode: signModeSchema,
  outputPath: z.string().min(1).optional().describe('Path to write a histogram PNG (800 x 480); omit for numbers only'),
  maxSamples: z.int().min(1).max(MAX_DEVIATION_SAMPLES).default(HISTOGRAM_DEFAULT_SAMPLES).describe('Max candidate surface samples, stride-subsampled. Default 50000'),
  overwrite: overwriteSchema,
  surface: surfaceSchema,
  maxDistance: maxDistanceSchema,
});

export interface HistogramResult {
  mean: number | null;
  std: number | null;
  median: number | null;
  p95: number;
  signedMin: number | null;
  signedMax: number | null;
  maxAbs: number;
  withinTolerance?: number;
  buckets: HistogramBucket[];
  samples: number;
  signedSamples: number;
  ambiguousSamples: number;
  ambiguousFraction: number;
  /** Samples without a counterpart on the reference (docs/deviation.md, "No data"): in no figure; `samples` counts the others. */
  noDataSamples: number;
  /** The maximum search distance applied. */
  maxDistance: number;
  signMode: SignMode;
  /** What BREP bodies were measured as (exact faces or tessellations). */
  surface: SurfaceMode;
  deflection: number;
  /** Present when a PNG was written. */
  imagePath?: string;
  warnings: ToolWarning[];
}

export const deviationHistogram = defineTool({
  name: 'deviation_histogram',
  description:
    'Histogram of the signed deviation of a candidate from a reference (40 buckets over the signed range of sign-reliable samples), with mean, std, median, signed extremes, p95 and max of the unsigned distance, optional share within a tolerance, and optionally a PNG chart.',
  category: 'scene',
  schema,
  async run(args, ctx): Promise<HistogramResult> {
    const cloud = await cloudComparison(ctx, ctx.scene.get(args.fromBodyId), args.referenceBodyId, args.deflection, 'deviation_histogram', 'referenceBodyId');
    const { from, reference, deflection, surface, d, diagonal, solidsOnly } = cloud
      ? { ...cloud, surface: args.surface, d: await cloudToSurface(ctx, cloud, args.maxSamples, args.signMode, args.surface, 'histogram'), diagonal: cloudDiagonal(cloud.from), solidsOnly: [solidsOnlyWarning(cloud.oc, cloud.reference)].filter((w) => w !== null) }
      : await surfaceHistogramData(ctx, args.fromBodyId, args.referenceBodyId, args.deflection, args.surface, args.maxSamples, args.signMode);
    const coverage = directedCoverage(d, args.maxDistance, diagonal, `${args.fromBodyId} against ${args.referenceBodyId}`);
    const { noData, noDataSamples, maxDistance } = coverage;
    const distance = d.distance.filter((_, i) => !noData[i]);
    const n = distance.length;
    const unsigned = Float64Array.from(distance).sort();
    const signed = d.signed.filter((s, i) => s === s && !noData[i]).sort();
    const m = signed.length;
    const warnings: ToolWarning[] = [...solidsOnly];
    const result: HistogramResult = {
      mean: null,
      std: null,
      median: null,
      p95: percentile(unsigned, 0.95),
      signedMin: null,
      signedMax: null,
      maxAbs: unsigned[n - 1]!,
      buckets: [],
      samples: n,
      signedSamples: m,
      ambiguousSamples: n - m,
      ambiguousFraction: (n - m) / n,
      noDataSamples,
      maxDistance,
      signMode: args.signMode,
      surface,
      deflection,
      warnings,
    };
    const thin = thinWallWarning(d, coverage, `${args.fromBodyId} against ${args.referenceBodyId}`);
    if (thin) warnings.push(thin);
    if (m > 0 && (n - m) / n > MOSTLY_AMBIGUOUS) {
      warnings.push(warning('SIGNS_MOSTLY_AMBIGUOUS', `${args.fromBodyId} against ${args.referenceBodyId}: ${n - m} of ${n} samples (${((100 * (n - m)) / n).toFixed(0)}%) have no trustworthy sign, their normals facing away from the reference's surfaces near them; one of the bodies is probably inside out (its triangles wound the other way round). The histogram rests on the other ${m} and does not describe the surface`));
    }
    if (args.tolerance !== undefined) {
      const tol = args.tolerance;
      let within = 0;
      for (let i = 0; i < n; i++) if (distance[i]! <= tol) within++;
      result.withinTolerance = within / n;
    }
    if (m === 0) {
      warnings.push(warning('NO_SIGNED_SAMPLES', 'no sample had a trustworthy sign: signed statistics are null and the buckets empty' + (args.outputPath ? '; no PNG was written' : '') + (result.ambiguousFraction > 0.9 ? '; the reference winding is probably inverted relative to the candidate' : '')));
      return result;
    }
    let sum = 0;
    for (let i = 0; i < m; i++) sum += signed[i]!;
    const mean = sum / m;
    let ss = 0;
    for (let i = 0; i < m; i++) ss += (signed[i]! - mean) ** 2;
    result.mean = mean;
    result.std = Math.sqrt(ss / m);
    result.median = signed[Math.round((m - 1) / 2)]!;
    result.signedMin = signed[0]!;
    result.signedMax = signed[m - 1]!;
    const { buckets, signs } = bucketize(signed);
    result.buckets = buckets;
    if (args.outputPath) {
      const png = await histogramPng({
        buckets,
        signs,
        mean,
        std: result.std,
        p95: result.p95,
        tolerance: args.tolerance,
        units: pairUnit(from, reference).length,
        subtitle: `${from.bodyId} vs ${reference.bodyId}: ${m} of ${n} samples signed (${args.signMode})${noDataSamples ? `, ${noDataSamples} no data` : ''}, ${HISTOGRAM_BUCKETS} buckets`,
      });
      await ctx.files.write(args.outputPath, png);
      result.imagePath = args.outputPath;
    }
    return result;
  },
});

async function surfaceHistogramData(ctx: ToolContext, fromId: string, refId: string, deflectionArg: number | undefined, surfaceArg: SurfaceMode, maxSamples: number, signMode: SignMode) {
  const { from, reference, oc, deflection, diagonal, surface, fromSurface, refSurface } = await comparedSurfaces(ctx, fromId, refId, deflectionArg, surfaceArg);
  const solidsOnly = [solidsOnlyWarning(oc, from), from === reference ? null : solidsOnlyWarning(oc, reference)].filter((w) => w !== null);
  return { from, reference, deflection, surface, diagonal, solidsOnly, d: await directedDeviation(ctx, oc, fromSurface, maxSamples, refSurface, signMode, surface, 'histogram') };
}

/** HISTOGRAM_BUCKETS equal buckets over [min, max] of the sorted values; the last bucket is closed. */
function bucketize(sorted: Float64Array): { buckets: HistogramBucket[]; signs: BucketSigns[] } {
  let lo = sorted[0]!, hi = sorted[sorted.length - 1]!;
  if (hi - lo < DEGENERATE_SPAN) {
    lo -= DEGENERATE_PAD;
    hi += DEGENERATE_PAD;
  }
  const width = (hi - lo) / HISTOGRAM_BUCKETS;
  const signs = Array.from({ length: HISTOGRAM_BUCKETS }, () => ({ shy: 0, zero: 0, proud: 0 }));
  for (const v of sorted) {
    const s = signs[Math.min(HISTOGRAM_BUCKETS - 1, Math.max(0, Math.floor((v - lo) / width)))]!;
    if (v < 0) s.shy++;
    else if (v > 0) s.proud++;
    else s.zero++;
  }
  const buckets = signs.map((s, i) => ({ lo: lo + i * width, hi: i === HISTOGRAM_BUCKETS - 1 ? hi : lo + (i + 1) * width, count: s.shy + s.zero + s.proud }));
  return { buckets, signs };
}
