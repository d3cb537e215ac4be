import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { z } from 'zod';
import packageJson from '../../../package.json' with { type: 'json' };
import { memoryFiles } from '../files';
import type { Body } from '../scene/Body';
import { placementSummary } from '../scene/describeBody';
import { pairUnit } from '../scene/pairUnit';
import { computeMetrics, type MetricsResult } from './computeMetrics';
import { crossSectionCompare, type CrossSectionResult } from './crossSectionCompare';
import { defineTool, type ToolContext } from './defineTool';
import { evaluateGdt } from './evaluateGdt';
import { heatmapField } from './deviationHeatmap';
import { deviationHistogram, type HistogramResult } from './deviationHistogram';
import { DEFAULT_AUTO_LABELS, labelSelectionSchema } from './deviationLabels';
import { MAX_DEVIATION_SAMPLES } from '../deviation/defaults';
import { signModeSchema, surfaceSchema } from '../deviation/schemas';
import { measureDeviation, type DeviationResult } from './measureDeviation';
import { reportHtml, type ReportData } from '../report/reportHtml';
import type { Characteristic } from '../gdt/evaluate';
import type { CalloutLabel } from '../render/callouts';
import { bodyIdSchema, overwriteSchema, vec3Schema } from './schemas';
import { heatmapPictures, sizeSchema, viewsSchema } from './signedDeviationHeatmap';

export const DEFAULT_REPORT_VIEWS = ['iso', 'front', 'top'] as const;
const DEFAULT_MAX_SAMPLES = 20000;

export const DEFAULT_PASS_SHARE = 0.99;

const titleText = z.string().max(200).optional();

const schema = z
  .strictObject({
  fromBodyId: bodyIdSchema.optional().describe('Candidate body (e.g. the scan or the part as made). Give fromBodyId and referenceBodyId, or actualBodyId and nominalBodyId'),
  referenceBodyId: bodyIdSchema.optional().describe('Reference body (e.g. the CAD model)'),
  actualBodyId: bodyIdSchema.optional().describe('Inspection roles: the actual (scan, cloud, part as made). The report colours it and every signed figure reads actual minus nominal (+ material outside the nominal)'),
  nominalBodyId: bodyIdSchema.optional().describe('Inspection roles: the nominal (the CAD model)'),
  titleBlock: z
    .strictObject({ part: titleText, revision: titleText, serial: titleText, operator: titleText, date: titleText })
    .default({})
    .describe('The title block: part, revision, serial, operator, date (default the day the report is made)'),
  maxDistance: z.number().positive().finite().optional().describe('Search distance beyond which a sample has no counterpart (no data), as measure_deviation. Default its default'),
  outputPath: z.string().min(1).describe('Path of the HTML file to write (one self-contained file: images inline, no network)'),
  overwrite: overwriteSchema,
  tolerance: z
    .number()
    .min(0)
    .finite()
    .optional()
    .describe('Tolerance (model units): the share of samples within it per direction, PASS/FAIL, the heat map\'s neutral band and the labels\' verdicts. Omit for a report without a verdict (the heat map then uses its default band)'),
  passShare: z
    .number()
    .gt(0)
    .max(1)
    .default(DEFAULT_PASS_SHARE)
    .describe(`The verdict rule: PASS when at least this share of the candidate's samples lies within the tolerance of the reference. Default ${DEFAULT_PASS_SHARE} (99 %)`),
  deflection: z.number().positive().finite().optional().describe('Deflection of BREP bodies; default 0.5% of the from-body bounding-box diagonal, as measure_deviation'),
  maxSamples: z.int().min(1).max(MAX_DEVIATION_SAMPLES).default(DEFAULT_MAX_SAMPLES).describe(`Surface samples per direction for the statistics and the histogram, as measure_deviation's maxSamples. Default ${DEFAULT_MAX_SAMPLES}`),
  signMode: signModeSchema,
  surface: surfaceSchema,
  views: viewsSchema(DEFAULT_REPORT_VIEWS),
  size: sizeSchema,
  labels: z
    .union([labelSelectionSchema, z.literal(false)])
    .default({ count: DEFAULT_AUTO_LABELS })
    .describe(`Deviation labels on the heat maps and in their table: {points} or {count, minDistance} as deviation_labels, or false for none. Default the ${DEFAULT_AUTO_LABELS} most deviating local extrema`),
  sections: z
    .strictObject({
      axis: vec3Schema.refine((v) => Math.hypot(v[0], v[1], v[2]) > 0, 'axis must not be the zero vector'),
      stations: z.int().min(1).max(50).default(6),
      through: vec3Schema.optional(),
    })
    .optional()
    .describe('Sections along an axis (cross_section_compare): overlay images and the station table. Default none'),
  title: z.string().max(200).optional().describe('Report title. Default "Inspection report: <part or candidate> against <reference>"'),
  characteristics: z
    .union([z.literal(true), z.array(z.string().min(1)).min(1)])
    .optional()
    .describe("GD&T characteristics (evaluate_gdt of the candidate against the reference's STEP PMI) as a table: true for every one, or their ids (tolerance[N], dimension[N]). Default none"),
})
  .refine((a) => (a.fromBodyId !== undefined && a.referenceBodyId !== undefined) !== (a.actualBodyId !== undefined && a.nominalBodyId !== undefined) && (a.fromBodyId === undefined) === (a.referenceBodyId === undefined) && (a.actualBodyId === undefined) === (a.nominalBodyId === undefined), {
    message: 'give either fromBodyId and referenceBodyId, or actualBodyId and nominalBodyId',
  });

export interface InspectionReportResult {
  outputPath: string;
  bytes: number;
  /** Null without a tolerance. */
  verdict: 'PASS' | 'FAIL' | null;
  tolerance: number | null;
  passShare: number;
  withinTolerance: { fromToTo: number; toToFrom: number } | null;
  views: string[];
  labels: number;
  sections: number | null;
  /** Counts of the characteristics table (null: none asked); notProven: PASS or FAIL read within the reading's uncertainty of a limit. */
  characteristics: { pass: number; fail: number; notEvaluated: number; notProven: number } | null;
  sha256: { from: string | null; reference: string | null };
  version: string;
  generatedAt: string;
}

export const inspectionReport = defineTool({
  name: 'inspection_report',
  description:
    'Writes one self-contained HTML inspection report (images inline, no network, prints to PDF from a browser): the bodies with SHA-256 of their files, the settings, both directions\' deviation statistics (measure_deviation\'s) with the share within tolerance and PASS/FAIL, heat-map views with deviation labels, the histogram, optional sections, and each body\'s metrics. Every number is the result of the tool it names, run with the same settings.',
  category: 'scene',
  schema,
  async run(args, ctx): Promise<InspectionReportResult> {
    const data = await reportData(ctx, args);
    const html = new TextEncoder().encode(reportHtml(data));
    await ctx.files.write(args.outputPath, html);
    const within = data.histograms.fromToTo.withinTolerance;
    return {
      outputPath: args.outputPath,
      bytes: html.length,
      verdict: data.verdict,
      tolerance: data.settings.tolerance,
      passShare: args.passShare,
      withinTolerance: within === undefined ? null : { fromToTo: within, toToFrom: data.histograms.toToFrom.withinTolerance! },
      views: data.heatmap.images.map((i) => i.view),
      labels: data.labels.length,
      sections: data.sections ? data.sections.sections.length : null,
      characteristics: data.characteristics
        ? {
            pass: data.characteristics.characteristics.filter((c) => c.pass === true).length,
            fail: data.characteristics.characteristics.filter((c) => c.pass === false).length,
            notEvaluated: data.characteristics.characteristics.filter((c) => c.pass === null).length,
            notProven: data.characteristics.characteristics.filter((c) => c.withinUncertainty).length,
          }
        : null,
      sha256: { from: data.bodies[0]!.sha256, reference: data.bodies[1]!.sha256 },
      version: data.version,
      generatedAt: data.generatedAt,
    };
  },
});

type Args = z.output<typeof schema>;

/** Runs the tools the report shows, with the report's settings, on scratch files in memory. */
async function reportData(ctx: ToolContext, given: Args): Promise<ReportData> {
  const roles = given.actualBodyId !== undefined;
  // Under roles the actual is the candidate: measured against the nominal, its signs are actual minus nominal as they come.
  const args = { ...given, fromBodyId: (given.actualBodyId ?? given.fromBodyId)!, referenceBodyId: (given.nominalBodyId ?? given.referenceBodyId)! };
  const scratch = memoryFiles();
  const inner: ToolContext = { ...ctx, files: scratch };
  const common = { deflection: args.deflection, signMode: args.signMode, surface: args.surface, maxDistance: args.maxDistance };
  const pair = { fromBodyId: args.fromBodyId, referenceBodyId: args.referenceBodyId };
  const run = <S extends z.ZodType, R>(tool: { schema: S; run(a: z.output<S>, c: ToolContext): Promise<R> }, a: unknown): Promise<R> => tool.run(tool.schema.parse(a), inner);

  const deviation: DeviationResult = await run(measureDeviation, { fromBodyId: args.fromBodyId, toBodyId: args.referenceBodyId, maxSamples: args.maxSamples, ...common });
  const histogramPath = 'histogram.png';
  const tolerance = args.tolerance;
  const forward: HistogramResult = await run(deviationHistogram, { ...pair, maxSamples: args.maxSamples, tolerance, outputPath: histogramPath, ...common });
  const backward: HistogramResult = await run(deviationHistogram, { fromBodyId: args.referenceBodyId, referenceBodyId: args.fromBodyId, maxSamples: args.maxSamples, tolerance, ...common });
  const histogramPng = forward.imagePath ? await scratch.read(histogramPath) : null;

  // Characteristics first: the heat maps label each at its faces (its id and verdict).
  const calloutNumbers: Record<string, number> = {};
  const characteristics: ReportData['characteristics'] = args.characteristics
    ? await run(evaluateGdt, { actualBodyId: args.fromBodyId, nominalBodyId: args.referenceBodyId, ...(args.characteristics === true ? {} : { characteristics: args.characteristics }) })
    : null;

  // The colours of the maps: never narrower than the tolerance band (colorSpan, the app's rule).
  // At the user's search distance, as the screen's heat map, so the pictures' no data and worst vertex are the figures'
  // (the default one from deviation_labels' samples, as the labels).
  const field = await heatmapField(ctx, args.fromBodyId, args.referenceBodyId, args.signMode, args.deflection, args.surface, { maxDistance: args.maxDistance });
  const heatmap = await heatmapPictures(
    ctx,
    {
      ...pair,
      views: args.views,
      size: args.size,
      deflection: args.deflection,
      tolerance,
      labels: args.labels === false ? undefined : args.labels,
      signMode: args.signMode,
      surface: args.surface,
      callouts: characteristics
        ? (first) => {
            const callouts = characteristicCallouts(characteristics.characteristics, first);
            for (const c of callouts) calloutNumbers[c.text.split('\n')[0]!] = c.number;
            return callouts;
          }
        : undefined,
    },
    field,
  );

  let sections: CrossSectionResult | null = null;
  const sectionImages: (Uint8Array | null)[] = [];
  if (args.sections) {
    sections = await run(crossSectionCompare, { ...pair, ...args.sections, deflection: args.deflection, surface: args.surface, outputDir: 'sections', ...(tolerance !== undefined ? { tolerance } : {}) });
    for (const s of sections.sections) sectionImages.push(s.imagePath ? await scratch.read(s.imagePath) : null);
  }


  const bodies = [ctx.scene.get(args.fromBodyId), ctx.scene.get(args.referenceBodyId)];
  const metrics: MetricsResult[] = [];
  for (const b of bodies) metrics.push(await run(computeMetrics, { bodyId: b.bodyId }));

  const within = forward.withinTolerance;
  const verdict = within === undefined ? null : within >= args.passShare ? 'PASS' : 'FAIL';
  const generatedAt = new Date().toISOString();
  const { part, ...titleRest } = args.titleBlock;
  const unit = pairUnit(bodies[0]!, bodies[1]!);
  return {
    title: args.title ?? `Inspection report: ${part ?? bodies[0]!.name} against ${bodies[1]!.name}`,
    roles,
    titleBlock: { ...(part !== undefined ? { part } : {}), ...titleRest, date: args.titleBlock.date ?? generatedAt.slice(0, 10) },
    unit,
    version: packageJson.version,
    generatedAt,
    verdict,
    bodies: [bodyFacts(bodies[0]!, 'candidate', await fileDigest(ctx, bodies[0]!), unit.length), bodyFacts(bodies[1]!, 'reference', await fileDigest(ctx, bodies[1]!), unit.length)],
    settings: {
      signMode: args.signMode,
      surface: args.surface,
      deflection: deviation.deflection,
      maxSamples: args.maxSamples,
      tolerance: tolerance ?? null,
      passShare: args.passShare,
      maxDistance: forward.maxDistance,
      colorRange: heatmap.summary.clamp,
      colorBand: heatmap.summary.tolerance,
    },
    deviation,
    histograms: { fromToTo: forward, toToFrom: backward },
    worstVertex: field.data.worstVertex,
    histogramPng,
    heatmap: { summary: heatmap.summary, images: heatmap.images.map((i) => ({ view: i.view, png: i.png, width: i.width, height: i.height, labels: i.labels })) },
    labels: heatmap.summary.labels ?? [],
    sections,
    sectionImages,
    characteristics: characteristics && { ...characteristics, callouts: calloutNumbers },
    metrics,
  };
}

/** Verdict colours of the callouts' strips (the app's table: green PASS, red FAIL, grey not evaluated). */
const VERDICT_STRIP = { pass: '#1a9850', fail: '#d7301f', none: '#9e9e9e' };

/**
 * One callout per characteristic with an anchor on its faces, numbered from `first` (after the
 * deviation labels): its id and verdict, the strip in the verdict's colour.
 */
export function characteristicCallouts(rows: readonly Characteristic[], first: number): CalloutLabel[] {
  return rows
    .filter((c) => c.anchor !== null)
    .map((c, i) => ({
      number: first + i,
      point: c.anchor!,
      text: `${c.id}\n${c.pass === null ? 'not evaluated' : c.pass ? 'PASS' : 'FAIL'}${c.withinUncertainty ? ' (not proven)' : ''}`,
      strip: c.pass === null ? VERDICT_STRIP.none : c.pass ? VERDICT_STRIP.pass : VERDICT_STRIP.fail,
    }));
}

interface FileDigest {
  sha256: string | null;
  fileBytes: number | null;
}

/**
 * The body's file's SHA-256 and size: from the bytes the body keeps, else from the file read again
 * by its path (streamed where the host streams; a mesh body in Node keeps no bytes). The hash is
 * null when the file is gone or its size is not the one read (it changed since).
 */
async function fileDigest(ctx: ToolContext, body: Body): Promise<FileDigest> {
  const origin = body.origin;
  if (!origin) return { sha256: null, fileBytes: null };
  if (origin.bytes) return { sha256: bytesToHex(sha256(origin.bytes)), fileBytes: origin.bytes.length };
  const hash = sha256.create();
  let size = 0;
  try {
    if (ctx.files.stream) {
      const file = await ctx.files.stream(origin.path);
      for await (const piece of file.pieces) {
        hash.update(piece);
        size += piece.byteLength;
      }
    } else {
      const bytes = await ctx.files.read(origin.path);
      hash.update(bytes);
      size = bytes.byteLength;
    }
  } catch {
    return { sha256: null, fileBytes: origin.fileBytes };
  }
  return { sha256: size === origin.fileBytes ? bytesToHex(hash.digest()) : null, fileBytes: origin.fileBytes };
}

function bodyFacts(body: Body, role: 'candidate' | 'reference', digest: FileDigest, reportLength: string): ReportData['bodies'][number] {
  const file = body.origin?.path ?? body.source ?? null;
  return {
    role,
    bodyId: body.bodyId,
    name: body.name,
    file: file ? (file.split(/[\\/]/).pop() ?? file) : null,
    format: body.origin?.format ?? body.sourceFormat,
    sha256: digest.sha256,
    fileBytes: digest.fileBytes,
    kind: body.kind,
    lengthUnit: body.lengthUnit ? body.lengthUnit.unit : null,
    placement: placementText(body, reportLength),
  };
}

/** The unit of the report's lengths (issue 29.4): pairUnit, shared with cross_section_compare's images. */
export const reportUnit = pairUnit;

/**
 * The body's placement in words: the motion, and what set it (an alignment with its RMS before and
 * after). A body without a unit of its own moves in the report's unit: a unitless scan read in its
 * nominal's mm said "moved 1.772 (model units)" under "lengths in mm".
 */
export function placementText(body: Body, reportLength: string): string | null {
  const p = placementSummary(body);
  if (!p) return null;
  const motion = `rotated ${p.rotationAngleDegrees.toPrecision(4)}\u00b0, moved ${Math.hypot(...p.translation).toPrecision(4)} (${body.lengthUnit ? body.lengthUnit.unit : reportLength})`;
  const by = p.setBy;
  return by.tool === 'align_bodies'
    ? `aligned to ${by.fixedBodyId} (align_bodies ${by.method ?? by.mode}, RMS ${by.rmsBefore.toPrecision(4)} \u2192 ${by.rmsAfter.toPrecision(4)}${by.converged ? '' : ', not converged'}): ${motion}`
    : `placed by set_placement: ${motion}`;
}
