import { BrepscopeError } from '../errors';
import type { OC } from '../kernel';
import { createExactDeviation, ExactReference } from '../exact/ExactReference';
import { createSignedDeviation, signedDeviation, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import type { TriMesh } from '../mesh/TriMesh';
import type { Scene } from '../scene/Scene';
import { displayDeflection, getTessellation } from '../scene/tessellation';
import { defaultDeflection, deviationTarget, meshPseudoNormals, Pacer, surfaceMesh, type SurfaceMode } from './deviationSupport';

export interface HeatmapOptions {
  /** Default robust, as in measure_deviation. */
  signMode?: SignMode | undefined;
  /** Deflection of a BREP reference; default 0.5% of the from-body's box diagonal, as in measure_deviation. */
  deflection?: number | undefined;
  /** exact (default): a BREP reference's exact faces; tessellated: its tessellation at deflection. */
  surface?: SurfaceMode | undefined;
}

export interface HeatmapData {
  /**
   * One signed deviation per vertex of the from-body's display mesh (displayMesh: same vertex
   * order), in model units, positive = proud; NaN where the sign is ambiguous or the vertex is
   * used by no triangle.
   */
  values: Float32Array<ArrayBuffer>;
  /** Symmetric colour range [-m, m], m = largest |value|; null when no vertex has a sign. */
  range: [number, number] | null;
  vertexCount: number;
  signedVertices: number;
  ambiguousVertices: number;
  signMode: SignMode;
  surface: SurfaceMode;
  deflection: number;
}

export interface HeatmapEnvironment {
  scene: Scene;
  kernel: () => Promise<OC>;
  signal?: AbortSignal | undefined;
}

/**
 * Per-vertex signed deviation of fromBodyId's display mesh from toBodyId, for the viewer to colour
 * (docs/deviation.md, "Heat-map data"). A vertex's normal is the angle-weighted normal of the
 * welded display mesh, so the copies of a vertex on a BREP face boundary get one value.
 */
export async function deviationHeatmap(env: HeatmapEnvironment, fromBodyId: string, toBodyId: string, options: HeatmapOptions = {}): Promise<HeatmapData> {
  const signMode = options.signMode ?? 'robust';
  if (signMode !== 'robust' && signMode !== 'nearest') throw new BrepscopeError('INVALID_ARGUMENT', `signMode: expected robust or nearest, got ${String(signMode)}`);
  const surface = options.surface ?? 'exact';
  if (surface !== 'exact' && surface !== 'tessellated') throw new BrepscopeError('INVALID_ARGUMENT', `surface: expected exact or tessellated, got ${String(surface)}`);
  if (options.deflection !== undefined && !(options.deflection > 0 && Number.isFinite(options.deflection))) {
    throw new BrepscopeError('INVALID_ARGUMENT', `deflection: must be a positive number, got ${options.deflection}`);
  }
  const from = env.scene.get(fromBodyId);
  const to = env.scene.get(toBodyId);
  const oc = from.kind === 'brep' || to.kind === 'brep' ? await env.kernel() : undefined;
  const deflection = options.deflection ?? defaultDeflection(oc, from);
  const display: TriMesh = from.kind === 'mesh' ? from.mesh : getTessellation(oc!, from, displayDeflection(oc!, from));
  if (display.indices.length === 0) throw new BrepscopeError('EMPTY_MESH', `body '${fromBodyId}' has no triangles to colour`);
  const ref = deviationTarget(oc, to, surfaceMesh(oc, to, deflection), surface);
  const exact = ref instanceof ExactReference ? ref : null;
  const pn = meshPseudoNormals(display);
  const W = pn.vertexNormals.length / 3;

  // Welded vertex -> one display vertex that stands for it.
  const idx = display.indices;
  const rep = new Int32Array(W).fill(-1);
  for (let i = 0; i < idx.length; i++) {
    const w = pn.triangleVertices[i]!;
    if (rep[w]! < 0) rep[w] = idx[i]!;
  }
  const perWeld = new Float64Array(W).fill(NaN);
  const pos = display.positions;
  const vn = pn.vertexNormals;
  const r = createSignedDeviation();
  const x = createExactDeviation();
  const pacer = new Pacer(env);
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
  return {
    values,
    range: signedVertices > 0 ? [-m, m] : null,
    vertexCount: V,
    signedVertices,
    ambiguousVertices: used - signedVertices,
    signMode,
    surface,
    deflection,
  };
}

