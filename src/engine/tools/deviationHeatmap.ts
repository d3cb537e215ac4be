import { z } from 'zod';
import { BrepscopeError } from '../errors';
import { requireKernel } from '../kernel';
import { createExactDeviation, ExactReference } from '../exact/ExactReference';
import type { OC } from '../kernel';
import { createSignedDeviation, signedDeviation, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import { colourRange, defaultTolerance } from '../render/heatColors';
import { pairKey } from '../scene/Scene';
import { displayDeflection, getTessellation } from '../scene/tessellation';
import { defineTool, type ToolContext } from './defineTool';
import { deviationHistogram, type HistogramResult } from './deviationHistogram';
import { defaultDeflection, deviationTarget, meshPseudoNormals, measuredSurface, Pacer, signModeSchema, surfaceOf, surfaceSchema, type MeasuredSurface, type SurfaceMode } from './deviationSupport';
import { kernelFor } from './kernelFor';
import { cloudComparison, cloudToSurface, type CloudComparison } from './cloudDeviation';
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
  surface: surfaceSchema,
});

export interface HeatmapData {
  /**
   * One signed deviation per vertex of the from-body's display mesh (display_mesh: same vertex
   * order), in model units, positive = proud; NaN where the sign is ambiguous or the vertex is
   * used by no triangle.
   */
  values: Float32Array<ArrayBuffer>;
  /** Symmetric range [-m, m], m = largest |value|; null when no vertex has a sign. */
  range: [number, number] | null;
  vertexCount: number;
  signedVertices: number;
  ambiguousVertices: number;
  signMode: SignMode;
  /** exact: a BREP reference's exact faces; tessellated: its tessellation at deflection. */
  surface: SurfaceMode;
  deflection: number;
}

export interface HeatmapResult extends HeatmapData {
  /** Half-width of the colour range: the 99th percentile of |value| (render/heatColors.ts, colourRange); 0 when nothing is signed. */
  colourRange: number;
  /** The tolerance band: the argument, else defaultTolerance(colourRange). */
  tolerance: number;
  /** deviation_histogram at `tolerance`, when `statistics` was asked for. */
  statistics?: HistogramResult;
}

export const deviationHeatmap = defineTool({
  name: 'deviation_heatmap',
  description:
    "Per-vertex signed deviation of the from-body's display mesh against a reference (the app's heat-map colours, NaN = ambiguous), with the colour range (99th percentile of |d|), a default tolerance band and, on request, deviation_histogram's statistics at that tolerance. Viewer data: a Float32Array of one value per display vertex.",
  category: 'display',
  schema,
  async run(args, ctx): Promise<HeatmapResult> {
    const data = await heatmapData(ctx, args.fromBodyId, args.toBodyId, args.signMode, args.deflection, args.surface);
    const m = colourRange(data.values, data.range ? data.range[1] : 0);
    const tolerance = args.tolerance ?? defaultTolerance(m);
    const result: HeatmapResult = { ...data, colourRange: m, tolerance };
    if (args.statistics) {
      const histogramArgs = deviationHistogram.schema.parse({ fromBodyId: args.fromBodyId, referenceBodyId: args.toBodyId, signMode: args.signMode, deflection: data.deflection, tolerance, surface: args.surface });
      result.statistics = await deviationHistogram.run(histogramArgs, ctx);
    }
    return result;
  },
  transferables: (result) => [result.values.buffer],
});

interface PerVertex {
  values: Float32Array<ArrayBuffer>;
  signedVertices: number;
  ambiguousVertices: number;
  maxAbs: number;
}

/**
 * Per-vertex signed deviation of fromBodyId's display mesh from toBodyId, for the viewer to colour
 * (docs/deviation.md, "Heat-map data"). A vertex's normal is the angle-weighted normal of the
 * welded display mesh, so the copies of a vertex on a BREP face boundary get one value. Computed
 * once per pair and settings and kept on the from-body; every call gets its own copy of the values.
 */
async function heatmapData(ctx: ToolContext, fromBodyId: string, toBodyId: string, signMode: SignMode, deflectionArg: number | undefined, surface: SurfaceMode): Promise<HeatmapData> {
  const from = ctx.scene.get(fromBodyId);
  const cloud = await cloudComparison(ctx, from, toBodyId, deflectionArg, 'deviation_heatmap', 'toBodyId');
  if (cloud) return cloudHeatmapData(ctx, cloud, signMode, surface);
  if (from.kind === 'points') throw new Error('deviation_heatmap: a cloud is measured by cloudHeatmapData');
  const to = referenceBody(ctx.scene.get(toBodyId), 'deviation_heatmap', 'toBodyId');
  const oc = await kernelFor(ctx, [from, to]);
  const deflection = deflectionArg ?? defaultDeflection(oc, from);
  const display = from.kind === 'mesh' ? surfaceOf(from) : surfaceOf(from, getTessellation(requireKernel(oc, 'heat map'), from, displayDeflection(requireKernel(oc, 'heat map'), from)));
  if (display.mesh.indices.length === 0) throw new BrepscopeError('EMPTY_MESH', `body '${fromBodyId}' has no triangles to colour`);
  const reference = measuredSurface(oc, to, deflection);
  const key = pairKey(to, `heatmap:${display.key}>${reference.key}:${signMode}:${surface}`);
  let perVertex = from.cache.peek<PerVertex>(key);
  if (!perVertex) {
    ctx.trace?.({ kind: 'deviation', what: `${fromBodyId}>${toBodyId}:${key}` });
    perVertex = from.cache.set(key, await computePerVertex(ctx, oc, display, reference, signMode, surface));
  }
  const { values, signedVertices, ambiguousVertices, maxAbs } = perVertex;
  return {
    values: values.slice(),
    range: signedVertices > 0 ? [-maxAbs, maxAbs] : null,
    vertexCount: values.length,
    signedVertices,
    ambiguousVertices,
    signMode,
    surface,
    deflection,
  };
}

/**
 * A point cloud's heat map: one signed deviation per drawn point (display_mesh's points, every
 * displayStride-th of the cloud), measured as measure_deviation measures the cloud's points.
 */
async function cloudHeatmapData(ctx: ToolContext, c: CloudComparison, signMode: SignMode, surface: SurfaceMode): Promise<HeatmapData> {
  const d = await cloudToSurface(ctx, c, DISPLAY_POINT_LIMIT, signMode, surface, 'heat map');
  const values = Float32Array.from(d.signed);
  let m = 0, signedVertices = 0;
  for (const x of values) {
    if (x !== x) continue;
    signedVertices++;
    if (Math.abs(x) > m) m = Math.abs(x);
  }
  return {
    values,
    range: signedVertices > 0 ? [-m, m] : null,
    vertexCount: values.length,
    signedVertices,
    ambiguousVertices: values.length - signedVertices,
    signMode,
    surface,
    deflection: c.deflection,
  };
}

async function computePerVertex(ctx: ToolContext, oc: OC | undefined, display: MeasuredSurface, reference: MeasuredSurface, signMode: SignMode, surface: SurfaceMode): Promise<PerVertex> {
  const ref = deviationTarget(oc, reference, surface);
  const exact = ref instanceof ExactReference ? ref : null;
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
    if (exact) perWeld[w] = exact.signed(pos[3 * v]!, pos[3 * v + 1]!, pos[3 * v + 2]!, vn[3 * w]! * s, vn[3 * w + 1]! * s, vn[3 * w + 2]! * s, signMode, x).signed;
    else perWeld[w] = signedDeviation(ref as DeviationReference, pos[3 * v]!, pos[3 * v + 1]!, pos[3 * v + 2]!, vn[3 * w]! * s, vn[3 * w + 1]! * s, vn[3 * w + 2]! * s, signMode, r).signed;
  }

  const V = pos.length / 3;
  const values = new Float32Array(V).fill(NaN);
  for (let i = 0; i < idx.length; i++) values[idx[i]!] = perWeld[pn.triangleVertices[i]!]!;
  let m = 0, signedVertices = 0, used = 0;
  const isUsed = new Uint8Array(V);
  for (let i = 0; i < idx.length; i++) isUsed[idx[i]!] = 1;
  for (let v = 0; v < V; v++) {
    if (!isUsed[v]) continue;
    used++;
    const x = values[v]!;
    if (x === x) {
      signedVertices++;
      if (Math.abs(x) > m) m = Math.abs(x);
    }
  }
  return { values, signedVertices, ambiguousVertices: used - signedVertices, maxAbs: m };
}
