import { BrepscopeError } from '../errors';
import { buildPseudoNormals, type PseudoNormals } from '../mesh/pseudoNormals';
import { sampleSurface, type SurfaceSamples } from '../mesh/sampleSurface';
import { deviationReferenceOf, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import { buildBvh, type TriangleBvh } from '../mesh/TriangleBvh';
import type { TriMesh } from '../mesh/TriMesh';
import type { OC } from '../kernel';
import type { ToolContext } from './defineTool';
import { directedDeviation, keptDeviation, measureDirected, Pacer, type DirectedDeviation, type MeasuredSurface, type SurfaceMode } from './deviationSupport';

/**
 * The two directions of a deviation between two meshes, as one job a host may run elsewhere (Node:
 * two worker threads, src/node/meshWorkers.ts), handed to tools through ToolContext.meshWorkers.
 * What it returns must be what the serial path computes, bit for bit.
 */
export interface DirectionsJob {
  from: TriMesh;
  to: TriMesh;
  fromBodyId: string;
  toBodyId: string;
  maxSamples: number;
  signMode: SignMode;
}

export interface Directions {
  /** from's samples against to. */
  forward: DirectedDeviation;
  /** to's samples against from. */
  backward: DirectedDeviation;
}

/** What a host can run off the calling thread. */
export interface MeshWorkers {
  /** Rejects on any failure: the tool then computes the job itself, errors included. */
  deviationDirections(job: DirectionsJob, ctx: Pick<ToolContext, 'signal' | 'progress'>): Promise<Directions>;
}

/**
 * Both directions between two surfaces: from the bodies' caches when there, else from the host's
 * mesh workers when both bodies are meshes (a BREP body is measured here, where its exact faces
 * are), else here (directedDeviation). What the workers return is kept in the caches as if computed
 * here, so a histogram or heat map on the same bodies reuses it. A worker failure other than a
 * cancel falls back to computing here, which gives the serial path's result or error.
 */
export async function bothDirections(
  ctx: ToolContext,
  oc: OC | undefined,
  from: MeasuredSurface,
  to: MeasuredSurface,
  maxSamples: number,
  mode: SignMode,
  surface: SurfaceMode,
): Promise<Directions> {
  const keptForward = keptDeviation(ctx, from, maxSamples, to, mode, surface);
  const keptBackward = keptDeviation(ctx, to, maxSamples, from, mode, surface);
  const workers = ctx.meshWorkers;
  if (workers && from.body.kind === 'mesh' && to.body.kind === 'mesh' && !keptForward.peek() && !keptBackward.peek()) {
    const job = { from: from.mesh, to: to.mesh, fromBodyId: from.body.bodyId, toBodyId: to.body.bodyId, maxSamples, signMode: mode };
    try {
      const d = await workers.deviationDirections(job, ctx);
      return { forward: keptForward.keep(d.forward), backward: keptBackward.keep(d.backward) };
    } catch (e) {
      if (ctx.signal?.aborted || (e instanceof BrepscopeError && e.code === 'CANCELLED')) throw e;
    }
  }
  const pacer = new Pacer(ctx);
  const forward = await directedDeviation(ctx, oc, from, maxSamples, to, mode, surface, 'fromToTo', pacer);
  const backward = await directedDeviation(ctx, oc, to, maxSamples, from, mode, surface, 'toToFrom', pacer);
  return { forward, backward };
}

// The parts a worker computes, each from the same functions the serial path's caches call
// (deviationSupport: meshBvh, meshPseudoNormals, surfaceSamples, deviationReference, directedDeviation).

export function meshBvhPart(mesh: TriMesh): TriangleBvh {
  return buildBvh(mesh);
}

export function pseudoNormalsPart(mesh: TriMesh): PseudoNormals {
  return buildPseudoNormals(mesh);
}

/** As surfaceSamples: EMPTY_MESH for a surface of zero area. */
export function samplesPart(mesh: TriMesh, pseudoNormals: PseudoNormals, maxSamples: number, bodyId: string): SurfaceSamples {
  const s = sampleSurface(mesh, maxSamples, pseudoNormals);
  if (s.count === 0) throw new BrepscopeError('EMPTY_MESH', `body '${bodyId}' has a surface of zero area: there is nothing to sample`);
  return s;
}

export function referencePart(bvh: TriangleBvh, pseudoNormals: PseudoNormals): DeviationReference {
  return deviationReferenceOf(bvh, pseudoNormals);
}

/** One direction, on whatever thread calls it (cancellation and progress are the host's). */
export function measurePart(samples: SurfaceSamples, reference: DeviationReference, signMode: SignMode, label: string): Promise<DirectedDeviation> {
  return measureDirected(samples, reference, signMode, new Pacer({}), label);
}
