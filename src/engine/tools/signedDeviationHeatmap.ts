import { pairUnit } from '../scene/pairUnit';
import { z } from 'zod';
import { BrepscopeError } from '../errors';
import type { SignMode } from '../mesh/signedDeviation';
import type { CalloutLabel, CalloutStatus } from '../render/callouts';
import { VIEW_NAMES, viewBasis, type View } from '../render/camera';
import { formatValue } from '../render/format';
import { colorRange, colorSpan, defaultTolerance } from '../render/heatColors';
import { DEFAULT_IMAGE_HEIGHT, DEFAULT_IMAGE_WIDTH, MAX_IMAGE_SIZE, MIN_IMAGE_SIZE, renderHeatmapPng, type HeatmapImageInfo } from '../render/heatmapImage';
import { defineTool, type ToolContext } from './defineTool';
import { heatmapField, type HeatmapField } from './deviationHeatmap';
import { computeLabels, labelDecimals, labelSelectionSchema, labelText, type DeviationLabel, type LabelSelection } from './deviationLabels';
import type { SurfaceMode } from '../deviation/defaults';
import { signModeSchema, surfaceSchema } from '../deviation/schemas';
import { bodyIdSchema, overwriteSchema, vec3Schema } from './schemas';

const finiteVec3 = vec3Schema.refine((v) => v.every(Number.isFinite), 'must have finite coordinates');

/** A named view, or a look direction (eye into the scene) with an optional up vector and a name for its file. */
export const viewSchema = z.union([
  z.enum(VIEW_NAMES),
  z
    .strictObject({
      direction: finiteVec3.describe('Look direction, from the eye into the scene'),
      up: finiteVec3.optional().describe('World vector to point up on the image; default +Z (+Y or -Y looking straight down or up)'),
      name: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,40}$/, 'a view name may hold letters, digits, underscore and hyphen only')
        .optional()
        .describe('Name of the view in file names and captions; default view<N>'),
    })
    .superRefine((v, ctx) => {
      try {
        viewBasis(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message.replace(/^render: /, '') });
      }
    }),
]);
export type ViewArg = z.output<typeof viewSchema>;

/** The file and caption name of each view: its own name, or view<N> for the N-th unnamed direction. */
export function viewNames(views: readonly ViewArg[]): string[] {
  let custom = 0;
  return views.map((v) => (typeof v === 'string' ? v : (v.name ?? `view${++custom}`)));
}

/** 1 to 12 views with distinct names, `defaults` when none are given. */
export function viewsSchema(defaults: readonly ViewArg[]) {
  return z
    .array(viewSchema)
    .min(1)
    .max(12)
    .refine((views) => new Set(viewNames(views)).size === views.length, 'each view must appear once (give directions distinct names)')
    .default([...defaults])
    .describe(`Views to render: ${VIEW_NAMES.join(', ')}, or {direction, up?, name?}. Default ${JSON.stringify(defaults)}`);
}

const sizeValue = z.int().min(MIN_IMAGE_SIZE).max(MAX_IMAGE_SIZE);
export const sizeSchema = z
  .union([sizeValue, z.tuple([sizeValue, sizeValue])])
  .default([DEFAULT_IMAGE_WIDTH, DEFAULT_IMAGE_HEIGHT])
  .describe(`Image size in pixels: [width, height], or one number for the width with a 4:3 height; each ${MIN_IMAGE_SIZE} to ${MAX_IMAGE_SIZE}. Default [${DEFAULT_IMAGE_WIDTH}, ${DEFAULT_IMAGE_HEIGHT}]`);

const schema = z.strictObject({
  fromBodyId: bodyIdSchema.describe('Candidate body: the one coloured (its display mesh, as in the app)'),
  referenceBodyId: bodyIdSchema.describe('Reference body'),
  outputPath: z.string().min(1).describe('PNG path. With several views each gets its own file: <name>-<view>.png beside it'),
  overwrite: overwriteSchema,
  views: viewsSchema(['iso']),
  size: sizeSchema,
  deflection: z.number().positive().finite().optional().describe('Deflection of BREP bodies; default 0.5% of the from-body bounding-box diagonal, as measure_deviation'),
  bands: z
    .int()
    .min(2)
    .max(101)
    .optional()
    .describe('Discrete colour bands across the legend, the tolerance band counting as one (11: five steps each side of it; an even count gets one more). Default: continuous colours, as the app'),
  clamp: z.number().positive().finite().optional().describe("Half-width of the colour range [-clamp, clamp]; colours saturate beyond it. Default: the app's rule, the 99th percentile of |deviation|, widened to twice the tolerance when that is larger"),
  tolerance: z.number().min(0).finite().optional().describe('Half-width of the neutral band. Default: a round number near a tenth of the colour range (the app\'s)'),
  labels: labelSelectionSchema.optional().describe('Numbered callouts: {points} to label given points, or {count, minDistance} for the most deviating local extrema (deviation_labels). Default none'),
  signMode: signModeSchema,
  surface: surfaceSchema,
});

export interface HeatmapImage {
  /** The view's name: a named view, or the direction's name (view<N> by default). */
  view: string;
  path: string;
  width: number;
  height: number;
  /** Each label's fate in this view. */
  labels: { number: number; status: CalloutStatus }[];
}

export interface SignedHeatmapResult {
  /** The first image's path (the only one with one view). */
  outputPath: string;
  images: HeatmapImage[];
  width: number;
  height: number;
  /** Colour bands across the legend, or null for continuous colours. */
  bands: number | null;
  /** Half-width of the colour range used: the argument, else the 99th percentile of |deviation|. */
  clamp: number;
  tolerance: number;
  triangles: number;
  /** Display-mesh vertices coloured, those with a sign and those without (grey). */
  vertices: number;
  signedVertices: number;
  ambiguousVertices: number;
  ambiguousFraction: number;
  /** Over signed vertices; null when none has a sign. */
  signedMin: number | null;
  signedMax: number | null;
  signedMean: number | null;
  signMode: SignMode;
  surface: SurfaceMode;
  deflection: number;
  labels?: DeviationLabel[];
  mimeType: 'image/png';
}

export const signedDeviationHeatmap = defineTool({
  name: 'signed_deviation_heatmap',
  description:
    "PNG pictures of the candidate coloured by signed deviation against the reference (the app's heat map: same values, colour map, range rule and tolerance band; exact surfaces by default), from named views or given directions, with a legend, and numbered deviation labels on request. Software-rendered, the same in every host.",
  category: 'scene',
  schema,
  async run(args, ctx): Promise<SignedHeatmapResult> {
    const pictures = await heatmapPictures(ctx, args);
    const images: HeatmapImage[] = [];
    for (const picture of pictures.images) {
      const path = pictures.images.length === 1 ? args.outputPath : viewPath(args.outputPath, picture.view);
      await ctx.files.write(path, picture.png);
      images.push({ view: picture.view, path, width: picture.width, height: picture.height, labels: picture.labels });
    }
    return { outputPath: images[0]!.path, images, ...pictures.summary, mimeType: 'image/png' };
  },
});

export interface HeatmapPicturesInput {
  fromBodyId: string;
  referenceBodyId: string;
  views: readonly ViewArg[];
  size: number | readonly [number, number];
  deflection?: number | undefined;
  bands?: number | undefined;
  clamp?: number | undefined;
  tolerance?: number | undefined;
  labels?: LabelSelection | undefined;
  /** More callouts (the report's characteristics), given the number after the deviation labels' last. */
  callouts?: ((first: number) => CalloutLabel[]) | undefined;
  signMode: SignMode;
  surface: SurfaceMode;
}

export interface HeatmapPicture {
  view: string;
  png: Uint8Array;
  width: number;
  height: number;
  labels: { number: number; status: CalloutStatus }[];
  /** Where things are in the picture (camera, legend bar, label anchors): for tests and the report. */
  info: HeatmapImageInfo;
}

/** The pictures in memory (the report embeds them; the tool writes them) and the figures they show. */
export async function heatmapPictures(
  ctx: ToolContext,
  args: HeatmapPicturesInput,
  known?: HeatmapField,
): Promise<{ images: HeatmapPicture[]; summary: Omit<SignedHeatmapResult, 'outputPath' | 'images' | 'mimeType'> }> {
  const field = known ?? (await heatmapField(ctx, args.fromBodyId, args.referenceBodyId, args.signMode, args.deflection, args.surface));
  const { data, display } = field;
  const values = data.values;
  const m = args.clamp ?? colorRange(values, data.range ? data.range[1] : 0);
  const tolerance = args.tolerance ?? defaultTolerance(m);
  // Never narrower than the tolerance band (the app's rule, colorSpan): a wide tolerance keeps its colours.
  const range = args.clamp ?? colorSpan(m, tolerance);
  const steps = args.bands === undefined ? undefined : tolerance > 0 ? Math.max(1, Math.ceil((args.bands - 1) / 2)) : Math.ceil(args.bands / 2);
  const bands = steps === undefined ? null : tolerance > 0 ? 2 * steps + 1 : 2 * steps;

  const labels = args.labels ? (await computeLabels(ctx, { ...args.labels, fromBodyId: args.fromBodyId, referenceBodyId: args.referenceBodyId, tolerance, signMode: args.signMode, surface: args.surface }, field)).labels : undefined;
  const decimals = labelDecimals(range, tolerance);
  const callouts: CalloutLabel[] = (labels ?? []).map((l) => ({ number: l.number, point: l.point, text: labelText(l, decimals), ...(l.signed === null ? {} : { value: l.signed }) }));
  if (args.callouts) callouts.push(...args.callouts(Math.max(0, ...callouts.map((c) => c.number)) + 1));

  const [width, height] = typeof args.size === 'number' ? [args.size, Math.max(MIN_IMAGE_SIZE, Math.round((args.size * 3) / 4))] : args.size;
  const from = ctx.scene.get(args.fromBodyId), reference = ctx.scene.get(args.referenceBodyId);
  const caption = [
    `${describe(from)} against ${describe(reference)}`,
    `sign ${args.signMode} \u00b7 ${args.surface === 'exact' ? 'exact surfaces' : 'tessellated surfaces'} \u00b7 deflection ${formatValue(data.deflection)} \u00b7 tolerance \u00b1${formatValue(tolerance)} \u00b7 ${data.signedVertices} of ${data.vertexCount} vertices signed${data.noDataVertices ? `, ${data.noDataVertices} no data` : ''}`,
  ];
  const images: HeatmapPicture[] = [];
  const names = viewNames(args.views);
  for (const [i, view] of args.views.entries()) {
    const name = names[i]!;
    const renderView: View = typeof view === 'string' ? view : { direction: view.direction, up: view.up };
    const { png, info } = await render(() =>
      renderHeatmapPng({
        mesh: display.mesh,
        values,
        // No-data vertices (no scan counterpart) in their own colour, as in the app.
        noData: data.noData,
        view: renderView,
        width,
        height,
        range,
        tolerance,
        steps,
        title: `Signed deviation \u00b7 ${name}`,
        caption,
        labels: callouts,
        // The pair's unit, as the report's text and cross_section_compare's images say it.
        units: pairUnit(from, reference).length,
      }),
    );
    images.push({ view: name, png, width: info.width, height: info.height, labels: info.labels.map((l) => ({ number: l.number, status: l.status })), info });
  }

  let n = 0, sum = 0, min = Infinity, max = -Infinity;
  const used = usedVertices(display.mesh.indices, values.length);
  for (let v = 0; v < values.length; v++) {
    const x = values[v]!;
    if (!used[v] || x !== x) continue;
    n++;
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const vertices = data.signedVertices + data.ambiguousVertices;
  return {
    images,
    summary: {
      width,
      height,
      bands,
      clamp: range,
      tolerance,
      triangles: display.mesh.indices.length / 3,
      vertices,
      signedVertices: data.signedVertices,
      ambiguousVertices: data.ambiguousVertices,
      ambiguousFraction: vertices ? data.ambiguousVertices / vertices : 0,
      signedMin: n ? min : null,
      signedMax: n ? max : null,
      signedMean: n ? sum / n : null,
      signMode: args.signMode,
      surface: args.surface,
      deflection: data.deflection,
      ...(labels ? { labels } : {}),
    },
  };
}

function usedVertices(indices: ArrayLike<number>, count: number): Uint8Array {
  const used = new Uint8Array(count);
  for (let i = 0; i < indices.length; i++) used[indices[i]!] = 1;
  return used;
}

function describe(body: { bodyId: string; origin?: { path: string } | undefined; source?: string | undefined }): string {
  const file = body.origin?.path ?? body.source;
  const name = file ? file.split(/[\\/]/).pop() : undefined;
  return name && name !== body.bodyId ? `${body.bodyId} (${name})` : body.bodyId;
}

/** outputPath with the view's name before the extension: heat.png -> heat-front.png. */
export function viewPath(outputPath: string, view: string): string {
  const slash = Math.max(outputPath.lastIndexOf('/'), outputPath.lastIndexOf('\\'));
  const dot = outputPath.lastIndexOf('.');
  return dot > slash + 1 ? `${outputPath.slice(0, dot)}-${view}${outputPath.slice(dot)}` : `${outputPath}-${view}.png`;
}

/** The render layer throws plain errors prefixed "render:" for what the arguments asked; they become INVALID_ARGUMENT. */
async function render<T>(draw: () => Promise<T>): Promise<T> {
  try {
    return await draw();
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('render: ')) throw new BrepscopeError('INVALID_ARGUMENT', `signed_deviation_heatmap: ${e.message.slice(8)}`);
    throw e;
  }
}
