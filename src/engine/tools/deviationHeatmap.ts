import { z } from 'zod';
import { BrepscopeError } from '../errors';
import { requireKernel } from '../kernel';
import { createExactDeviation, ExactReference } from '../exact/ExactReference';
import type { OC } from '../kernel';
import { createSignedDeviation, signedDeviation, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import { colorRange, defaultTolerance } from '../render/heatColors';
import { pairKey } from '../scene/Scene';
import { displayDeflection, getTessellation, type DisplayMesh } from '../scene/tessellation';
import { heatmapSurface } from '../deviation/heatmapSurface';
import { surfaceBody } from '../scene/pointsBody';
import { defineTool, type ToolContext } from './defineTool';
import { deviationHistogram, type HistogramResult } from './deviationHistogram';
import { coverageOf, directedCoverage } from '../deviation/coverage';
import { DEFAULT_DEVIATION_SAMPLES, DEFLECTION_RATIO, MAX_DEVIATION_SAMPLES, type SurfaceMode } from '../deviation/defaults';
import { directedDeviation, referenceBoundary } from '../deviation/directed';
import { Pacer } from '../deviation/pacer';
import { maxDistanceSchema, signModeSchema, surfaceSchema } from '../deviation/schemas';
import { deviationTarget, meshPseudoNormals } from '../deviation/structures';
import { bodyDiagonal, measuredSurface, surfaceOf, verticesOutsideSolids, type MeasuredSurface } from '../deviation/surfaces';
import { beyondOpenBoundary } from '../mesh/openBoundary';
import { kernelFor } from '../context';
import { cloudComparison, cloudDiagonal, cloudToSurface, type CloudComparison } from '../deviation/cloud';
import { DISPLAY_POINT_LIMIT } from '../points/displayPoints';
import { referenceBody } from '../scene/pointsBody';
import { bodyIdSchema } from './schemas';

const schema = z.strictObject({
  fromBodyId: bodyIdSchema.describe('Body to colour (its display mesh)'),
  toBodyId: bodyIdSchema.describe('Reference body'),
  signMode: signModeSchema,
  deflection: z.number().positive().finite().optional().describe('Deflection of a BREP reference; default 0.5% of the from-body bounding-box diagonal, as measure_deviation'),
  tolerance: z.number().min(0).finite().optional().describe('Tolerance band; default a round number near a tenth of the colour range'),
  statistics: z.boolean().default(false).describe("Also return deviation_histogram's figures at the tolerance (same bodies, deflection, signMode and surface)"),
  maxSamples: z
    .int()
    .min(1)
    .max(MAX_DEVIATION_SAMPLES)
    .default(DEFAULT_DEVIATION_SAMPLES)
    .describe("Samples of the statistics, as measure_deviation's maxSamples (default 20000): with the same settings the statistics are measure_deviation's fromToTo figures, from the same samples"),
  surface: surfaceSchema,
  maxDistance: maxDistanceSchema,
});

export interface HeatmapData {
  /**
   * One signed deviation per vertex of the heat-map mesh (`mesh`: the from-body's display mesh,
   * refined so that a patch the statistics can find has vertices; its first vertices are
   * display_mesh's, in the same order), in model units, positive = proud; NaN where the sign is
   * ambiguous, the vertex has no data (noData) or is used by no triangle. A cloud: one per drawn point.
   */
  values: Float32Array<ArrayBuffer>;
  /**
   * The triangles the values colour (surface bodies; absent for a cloud, whose values are its drawn
   * points): display_mesh's vertices first, then the refinement's (heatmapSurface.ts). The viewer
   * draws the from-body with these triangles while the heat map is shown. Absent when the refinement
   * added nothing (a dense scan): the heat-map mesh is display_mesh itself, already on the page.
   */
  mesh?: DisplayMesh;
  /** How many of the mesh's vertices are display_mesh's (the rest were added by the refinement). */
  displayVertices?: number;
  /** Per display vertex, 1 where it has no counterpart on the reference (the no-data rule of the deviation tools); its value is NaN. */
  noData: Uint8Array<ArrayBuffer>;
  /** Symmetric range [-m, m], m = largest |value|; null when no vertex has a sign. */
  range: [number, number] | null;
  /**
   * The covered vertex (or drawn point) farthest from the reference: its unsigned distance (an
   * ambiguous vertex counts, as in the statistics' max) and where it is, in scene coordinates; null
   * when none is covered. A scan's own points are its vertices: the statistics' area samples lie
   * inside its triangles, where the scanner's noise is averaged, so their max reads under the
   * worst measured point (docs/deviation.md, "Max |d| and the worst point").
   */
  worstVertex: { distance: number; point: [number, number, number] } | null;
  vertexCount: number;
  signedVertices: number;
  /** Vertices with a counterpart but no trustworthy sign. */
  ambiguousVertices: number;
  noDataVertices: number;
  /** The maximum search distance applied: the argument, else the default of the statistics' samples (measure_deviation's fromToTo at the same settings). */
  maxDistance: number;
  signMode: SignMode;
  /** exact: a BREP reference's exact faces; tessellated: its tessellation at deflection. */
  surface: SurfaceMode;
  deflection: number;
}

export interface HeatmapResult extends HeatmapData {
  /** Half-width of the colour range: the 99th percentile of |value| (render/heatColors.ts, colorRange); 0 when nothing is signed. */
  colorRange: number;
  /** The tolerance band: the argument, else defaultTolerance(colorRange). */
  tolerance: number;
  /** deviation_histogram at `tolerance`, when `statistics` was asked for. */
  statistics?: HistogramResult;
  /** The statistics' sample budget (maxSamples): a later deviation_histogram with it reuses the same samples. */
  maxSamples: number;
}

export const deviationHeatmap = defineTool({
  name: 'deviation_heatmap',
  description:
    "Per-vertex signed deviation of the from-body's display mesh against a reference (the app's heat-map colours, NaN = ambiguous), with the colour range (99th percentile of |d|), a default tolerance band and, on request, deviation_histogram's statistics at that tolerance. Viewer data: a Float32Array of one value per display vertex.",
  category: 'display',
  schema,
  async run(args, ctx): Promise<HeatmapResult> {
    const data = await heatmapData(ctx, args);
    const m = colorRange(data.values, data.range ? data.range[1] : 0);
    const tolerance = args.tolerance ?? defaultTolerance(m);
    const result: HeatmapResult = { ...data, colorRange: m, tolerance, maxSamples: args.maxSamples };
    if (args.statistics) {
      const histogramArgs = deviationHistogram.schema.parse({
        fromBodyId: args.fromBodyId,
        referenceBodyId: args.toBodyId,
        signMode: args.signMode,
        deflection: data.deflection,
        tolerance,
        maxSamples: args.maxSamples,
        surface: args.surface,
        maxDistance: data.maxDistance,
      });
      result.statistics = await deviationHistogram.run(histogramArgs, ctx);
    }
    return result;
  },
  transferables: (result) => [
    result.values.buffer,
    result.noData.buffer,
    ...(result.mesh ? [result.mesh.positions.buffer, result.mesh.indices.buffer, ...(result.mesh.faceIds ? [result.mesh.faceIds.buffer] : [])] : []),
  ],
});

interface PerVertex {
  /** Signed value per display vertex (NaN: ambiguous, or used by no triangle). */
  values: Float32Array<ArrayBuffer>;
  /** Unsigned distance per display vertex (NaN when used by no triangle). */
  distance: Float64Array;
  /** 1 where the vertex is beyond an open mesh reference's boundary. */
  beyond: Uint8Array;
  used: Uint8Array;
}

/**
 * Per-vertex signed deviation of fromBodyId's display mesh from toBodyId, for the viewer to colour
 * (docs/deviation.md, "Heat-map data"). A vertex's normal is the angle-weighted normal of the
 * welded display mesh, so the copies of a vertex on a BREP face boundary get one value. Computed
 * once per pair and settings and kept on the from-body; every call gets its own copy of the values.
 */
async function heatmapData(ctx: ToolContext, args: z.infer<typeof schema>): Promise<HeatmapData> {
  const cloud = await cloudComparison(ctx, ctx.scene.get(args.fromBodyId), args.toBodyId, args.deflection, 'deviation_heatmap', 'toBodyId');
  if (cloud) return cloudHeatmapData(ctx, cloud, args.signMode, args.surface, args.maxDistance, args.maxSamples);
  const field = await heatmapField(ctx, args.fromBodyId, args.toBodyId, args.signMode, args.deflection, args.surface, { maxDistance: args.maxDistance, maxSamples: args.maxSamples });
  return field.data;
}

/**
 * The heat map's per-vertex field with what it was computed on: the from-body's display surface
 * (whose vertices the values belong to). signed_deviation_heatmap, deviation_labels and
 * inspection_report read the picture's numbers from here, so they are the app's to the last bit,
 * no-data vertices (NaN, `data.noData`) included.
 */
export interface HeatmapField {
  data: HeatmapData;
  display: MeasuredSurface;
  /** The kernel when a BREP body is involved. */
  oc: OC | undefined;
}

export async function heatmapField(
  ctx: ToolContext,
  fromBodyId: string,
  toBodyId: string,
  signMode: SignMode,
  deflectionArg: number | undefined,
  surface: SurfaceMode,
  coverage: { maxDistance?: number | undefined; maxSamples?: number | undefined } = {},
): Promise<HeatmapField> {
  const args = { maxDistance: coverage.maxDistance, maxSamples: coverage.maxSamples ?? DEFAULT_DEVIATION_SAMPLES, deflection: deflectionArg };
  // Pictures, labels and reports draw the from-body's surface: a cloud has none to draw here (its heat map is the app's points).
  const from = surfaceBody(ctx.scene.get(fromBodyId), 'a heat-map picture', 'a surface to draw');
  const to = referenceBody(ctx.scene.get(toBodyId), 'deviation_heatmap', 'toBodyId');
  const oc = await kernelFor(ctx, [from, to]);
  const diagonal = bodyDiagonal(oc, from);
  const deflection = args.deflection ?? DEFLECTION_RATIO * diagonal;
  const base = from.kind === 'mesh' ? surfaceOf(from) : surfaceOf(from, getTessellation(requireKernel(oc, 'heat map'), from, displayDeflection(requireKernel(oc, 'heat map'), from)));
  if (base.mesh.indices.length === 0) throw new BrepscopeError('EMPTY_MESH', `body '${fromBodyId}' has no triangles to colour`);
  const display = heatmapSurface(oc, base, deflection, args.maxSamples);
  const reference = measuredSurface(oc, to, deflection);
  const key = pairKey(to, `heatmap:${display.key}>${reference.key}:${signMode}:${surface}`);
  let perVertex = from.cache.peek<PerVertex>(key);
  if (!perVertex) {
    ctx.trace?.({ kind: 'deviation', what: `${fromBodyId}>${toBodyId}:${key}` });
    perVertex = from.cache.set(key, await computePerVertex(ctx, oc, display, reference, signMode, surface));
  }
  // The statistics' samples decide the default search distance, so the colours and the figures agree.
  let maxDistance = args.maxDistance;
  if (maxDistance === undefined) {
    const samples = await directedDeviation(ctx, oc, measuredSurface(oc, from, deflection), args.maxSamples, reference, signMode, surface, 'heat map');
    maxDistance = directedCoverage(samples, undefined, diagonal, `${fromBodyId} against ${toBodyId}`).maxDistance;
  }
  const { noData } = coverageOf(perVertex.distance, perVertex.beyond, maxDistance, diagonal);
  const values = perVertex.values.slice();
  // Construction surfaces beside the solids are drawn but not part of the measured nominal.
  const outside = verticesOutsideSolids(oc, from, display.mesh);
  let m = 0, signedVertices = 0, ambiguousVertices = 0, noDataVertices = 0, worst = -1;
  for (let v = 0; v < values.length; v++) {
    if (!perVertex.used[v]) {
      noData[v] = 0;
      continue;
    }
    if (outside?.[v]) {
      values[v] = NaN;
      noData[v] = 1;
      continue;
    }
    if (noData[v]) {
      values[v] = NaN;
      noDataVertices++;
      continue;
    }
    if (perVertex.distance[v]! >= 0 && (worst < 0 || perVertex.distance[v]! > perVertex.distance[worst]!)) worst = v;
    const x = values[v]!;
    if (x === x) {
      signedVertices++;
      if (Math.abs(x) > m) m = Math.abs(x);
    } else ambiguousVertices++;
  }
  const data: HeatmapData = {
    values,
    noData,
    // Refined or not: an unrefined one is display_mesh, drawn already (its viewer buffers not rebuilt).
    ...(display === base ? {} : { mesh: drawnMesh(display) }),
    displayVertices: base.mesh.positions.length / 3,
    range: signedVertices > 0 ? [-m, m] : null,
    worstVertex: worstAt(worst, perVertex.distance, display.mesh.positions),
    vertexCount: values.length,
    signedVertices,
    ambiguousVertices,
    noDataVertices,
    maxDistance,
    signMode,
    surface,
    deflection,
  };
  return { data, display, oc };
}

/** Vertex `v`'s distance and position (xyz triples), or null for v < 0 or a distance that is not a number. */
function worstAt(v: number, distance: ArrayLike<number>, positions: ArrayLike<number>): HeatmapData['worstVertex'] {
  const at = v < 0 ? NaN : distance[v]!;
  if (!(at >= 0)) return null;
  return { distance: at, point: [positions[3 * v]!, positions[3 * v + 1]!, positions[3 * v + 2]!] };
}

/** The heat-map mesh as the viewer draws it (fresh buffers, moved to the page). */
function drawnMesh(display: MeasuredSurface): DisplayMesh {
  const faceIds = (display.mesh as { faceIds?: Uint32Array }).faceIds;
  return {
    positions: Float32Array.from(display.mesh.positions),
    indices: Uint32Array.from(display.mesh.indices),
    ...(faceIds ? { faceIds: Uint32Array.from(faceIds) } : {}),
  };
}

/**
 * A point cloud's heat map: one signed deviation per drawn point (display_mesh's points, every
 * displayStride-th of the cloud), measured as measure_deviation measures the cloud's points.
 */
async function cloudHeatmapData(ctx: ToolContext, c: CloudComparison, signMode: SignMode, surface: SurfaceMode, maxDistanceArg: number | undefined, maxSamples: number): Promise<HeatmapData> {
  const d = await cloudToSurface(ctx, c, DISPLAY_POINT_LIMIT, signMode, surface, 'heat map', undefined, 'display');
  const diagonal = cloudDiagonal(c.from);
  // The statistics' samples decide the default search distance, so the colours and the figures agree.
  const maxDistance = maxDistanceArg ?? directedCoverage(await cloudToSurface(ctx, c, maxSamples, signMode, surface, 'fromToTo'), undefined, diagonal, `${c.from.bodyId} against ${c.reference.bodyId}`).maxDistance;
  const { noData } = coverageOf(d.distance, d.beyond, maxDistance, diagonal);
  const values = Float32Array.from(d.signed);
  let m = 0, signedVertices = 0, noDataVertices = 0, worst = -1;
  for (let v = 0; v < values.length; v++) {
    if (noData[v]) {
      values[v] = NaN;
      noDataVertices++;
      continue;
    }
    if (d.distance[v]! >= 0 && (worst < 0 || d.distance[v]! > d.distance[worst]!)) worst = v;
    const x = values[v]!;
    if (x !== x) continue;
    signedVertices++;
    if (Math.abs(x) > m) m = Math.abs(x);
  }
  return {
    values,
    noData,
    range: signedVertices > 0 ? [-m, m] : null,
    worstVertex: worstAt(worst, d.distance, d.samples.points),
    vertexCount: values.length,
    signedVertices,
    ambiguousVertices: values.length - signedVertices - noDataVertices,
    noDataVertices,
    maxDistance,
    signMode,
    surface,
    deflection: c.deflection,
  };
}

async function computePerVertex(ctx: ToolContext, oc: OC | undefined, display: MeasuredSurface, reference: MeasuredSurface, signMode: SignMode, surface: SurfaceMode): Promise<PerVertex> {
  const ref = deviationTarget(oc, reference, surface);
  const exact = ref instanceof ExactReference ? ref : null;
  const boundary = exact ? null : referenceBoundary(reference);
  const pn = meshPseudoNormals(display);
  const W = pn.vertexNormals.length / 3;

  // Welded vertex -> one display vertex that stands for it.
  const idx = display.mesh.indices;
  const rep = new Int32Array(W).fill(-1);
  for (let i = 0; i < idx.length; i++) {
    const w = pn.triangleVertices[i]!;
    if (rep[w]! < 0) rep[w] = idx[i]!;
  }
  const perWeld = new Float64Array(W).fill(NaN);
  const distWeld = new Float64Array(W).fill(NaN);
  const beyondWeld = new Uint8Array(W);
  const pos = display.mesh.positions;
  const vn = pn.vertexNormals;
  const r = createSignedDeviation();
  const x = createExactDeviation();
  const pacer = new Pacer(ctx);
  for (let w = 0; w < W; w++) {
    if ((w & 4095) === 0) await pacer.tick(w, W, 'heat map');
    const v = rep[w]!;
    if (v < 0) continue;
    const len = Math.hypot(vn[3 * w]!, vn[3 * w + 1]!, vn[3 * w + 2]!);
    const s = len > 0 ? 1 / len : 0;
    const px = pos[3 * v]!, py = pos[3 * v + 1]!, pz = pos[3 * v + 2]!;
    if (exact) {
      exact.signed(px, py, pz, vn[3 * w]! * s, vn[3 * w + 1]! * s, vn[3 * w + 2]! * s, signMode, x);
      perWeld[w] = x.signed;
      distWeld[w] = x.distance;
    } else {
      signedDeviation(ref as DeviationReference, px, py, pz, vn[3 * w]! * s, vn[3 * w + 1]! * s, vn[3 * w + 2]! * s, signMode, r);
      perWeld[w] = r.signed;
      distWeld[w] = r.distance;
      if (boundary && beyondOpenBoundary(boundary, r.nearest, px, py, pz)) beyondWeld[w] = 1;
    }
  }

  const V = pos.length / 3;
  const values = new Float32Array(V).fill(NaN);
  const distance = new Float64Array(V).fill(NaN);
  const beyond = new Uint8Array(V);
  const used = new Uint8Array(V);
  for (let i = 0; i < idx.length; i++) {
    const v = idx[i]!, w = pn.triangleVertices[i]!;
    values[v] = perWeld[w]!;
    distance[v] = distWeld[w]!;
    beyond[v] = beyondWeld[w]!;
    used[v] = 1;
  }
  return { values, distance, beyond, used };
}
