import { BrepscopeError } from '../errors';
import { buildPseudoNormals, type PseudoNormals } from '../mesh/pseudoNormals';
import { sampleSurface, type SurfaceSamples } from '../mesh/sampleSurface';
import type { DeviationReference, SignMode } from '../mesh/signedDeviation';
import { buildBvh, type TriangleBvh } from '../mesh/TriangleBvh';
import type { TriMesh } from '../mesh/TriMesh';
import type { ToolContext } from './defineTool';
import { deviationReference, measureDirected, Pacer, surfaceSamples, type DirectedDeviation } from './deviationSupport';

/**
 * The two directions of a deviation between two surfaces, as one job a host may run elsewhere:
 * the serial runner below is the reference, and a host may supply another (Node: a pair of
 * worker threads, src/node/meshWorkers.ts) through ToolContext.meshWorkers. A runner must return
 * exactly what the serial one returns, bit for bit.
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

export type DirectionsRunner = (job: DirectionsJob, ctx: Pick<ToolContext, 'signal' | 'progress'>) => Promise<Directions>;

/** What a host can run off the calling thread. */
export interface MeshWorkers {
  deviationDirections: DirectionsRunner;
}

/** Both directions on the calling thread, with the query structures cached per mesh (deviationSupport). */
export const serialDirections: DirectionsRunner = async (job, ctx) => {
  const fromSamples = surfaceSamples(job.from, job.maxSamples, job.fromBodyId);
  const toSamples = surfaceSamples(job.to, job.maxSamples, job.toBodyId);
  const pacer = new Pacer(ctx);
  const forward = await measureDirected(fromSamples, deviationReference(job.to), job.signMode, pacer, 'fromToTo');
  const backward = await measureDirected(toSamples, deviationReference(job.from), job.signMode, pacer, 'toToFrom');
  return { forward, backward };
};

// The parts a runner elsewhere computes, each from the same functions the serial path's caches call.

export function meshBvhPart(mesh: TriMesh): TriangleBvh {
  return buildBvh(mesh);
}

export function pseudoNormalsPart(mesh: TriMesh): PseudoNormals {
  return buildPseudoNormals(mesh);
}

/** As deviationSupport.surfaceSamples: EMPTY_MESH for a surface of zero area. */
export function samplesPart(mesh: TriMesh, pseudoNormals: PseudoNormals, maxSamples: number, bodyId: string): SurfaceSamples {
  const s = sampleSurface(mesh, maxSamples, pseudoNormals);
  if (s.count === 0) throw new BrepscopeError('EMPTY_MESH', `body '${bodyId}' has a surface of zero area: there is nothing to sample`);
  return s;
}

/** As deviationSupport.deviationReference, from parts built apart. */
export function referencePart(bvh: TriangleBvh, pseudoNormals: PseudoNormals): DeviationReference {
  let diagonal = 0;
  if (bvh.nodeCount > 0) {
    const b = bvh.nodeBounds;
    diagonal = Math.hypot(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
  }
  return { bvh, pseudoNormals, diagonal };
}

/** One direction, on whatever thread calls it (no cancellation or progress: the host handles those). */
export function measurePart(samples: SurfaceSamples, reference: DeviationReference, signMode: SignMode, label: string): Promise<DirectedDeviation> {
  return measureDirected(samples, reference, signMode, new Pacer({}), label);
}
