import type { OC } from '../kernel';
import type { SignMode } from '../mesh/signedDeviation';
import type { OpenBoundary } from '../mesh/openBoundary';
import { pairKey } from '../scene/Scene';
import type { ToolContext } from '../context';
import type { SurfaceMode } from './defaults';
import { measureDirected, type DirectedDeviation } from './measure';
import { Pacer } from './pacer';
import { deviationSamples } from './samples';
import { deviationTarget, meshOpenBoundary } from './structures';
import type { MeasuredSurface } from './surfaces';

/**
 * The per-sample deviation of `from`'s samples against `reference`: computed once per pair of
 * surfaces, sample count, sign mode and surface mode, and kept on the from-body (dropped when
 * either body goes), so measure_deviation, deviation_histogram and a later tolerance change share
 * one computation.
 */
export async function directedDeviation(
  ctx: Pick<ToolContext, 'signal' | 'progress' | 'trace'>,
  oc: OC | undefined,
  from: MeasuredSurface,
  maxSamples: number,
  reference: MeasuredSurface,
  mode: SignMode,
  surface: SurfaceMode,
  label: string,
  pacer: Pacer = new Pacer(ctx),
): Promise<DirectedDeviation> {
  const kept = keptDeviation(ctx, from, maxSamples, reference, mode, surface);
  const cached = kept.peek();
  if (cached) return cached;
  const samples = deviationSamples(oc, from, maxSamples, surface);
  const ref = deviationTarget(oc, reference, surface);
  return kept.keep(await measureDirected(samples, ref, mode, pacer, label, referenceBoundary(reference)));
}

/**
 * Where directedDeviation keeps a direction (on the from-body, dropped when either body goes), for
 * a caller that computes it elsewhere (the host's worker threads): `keep` stores it and traces it
 * as computed.
 */
export function keptDeviation(ctx: Pick<ToolContext, 'trace'>, from: MeasuredSurface, maxSamples: number, reference: MeasuredSurface, mode: SignMode, surface: SurfaceMode) {
  const key = pairKey(reference.body, `deviation:${from.key}>${reference.key}:${maxSamples}:${mode}:${surface}`);
  return {
    peek: (): DirectedDeviation | undefined => from.body.cache.peek<DirectedDeviation>(key),
    keep: (d: DirectedDeviation): DirectedDeviation => {
      ctx.trace?.({ kind: 'deviation', what: `${from.body.bodyId}>${reference.body.bodyId}:${key}` });
      return from.body.cache.set(key, d);
    },
  };
}

/**
 * The open boundary the no-data rule tests against: a mesh body's (a scan stops where the scanner
 * did not see). A BREP reference is a CAD model: its exact faces decide distance in exact mode, and
 * its free edges (a sheet model's) are its design, not missing data; maxDistance still applies.
 */
export function referenceBoundary(reference: MeasuredSurface): OpenBoundary | null {
  if (!boundaryTested(reference)) return null;
  return meshOpenBoundary(reference);
}

/** Whether a surface, as the reference, applies the open-boundary test (referenceBoundary; the mesh threads ask this too). */
export function boundaryTested(reference: MeasuredSurface): boolean {
  return reference.body.kind === 'mesh';
}
