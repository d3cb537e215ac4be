import { BrepscopeError } from '../errors';
import type { OpenBoundary } from '../mesh/openBoundary';
import type { PseudoNormals } from '../mesh/pseudoNormals';
import { sampleSurface, type SurfaceSamples } from '../mesh/sampleSurface';
import type { DeviationReference, SignMode } from '../mesh/signedDeviation';
import type { TriangleBvh } from '../mesh/TriangleBvh';
import { adoptNormalBounds } from '../mesh/closestPoint';
import type { TriMesh } from '../mesh/TriMesh';
import type { OC } from '../kernel';
import type { ToolContext } from './defineTool';
import {
  boundaryTested,
  deviationSamples,
  directedDeviation,
  keepSurfaceSamples,
  keptDeviation,
  deviationReference,
  keepMeshBvh,
  measureClaimed,
  measureDirected,
  nonEmptySamples,
  referenceBoundary,
  Pacer,
  type DirectedDeviation,
  type MeasuredSurface,
  type SharedOutput,
  type SurfaceMode,
} from './deviationSupport';

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
  /** Whether `from` / `to`, as the reference, applies the no-data rule's open-boundary test (a mesh body does; a BREP tessellation does not: referenceBoundary). */
  fromBoundary: boolean;
  toBoundary: boolean;
}

export interface Directions {
  /** from's samples against to. */
  forward: DirectedDeviation;
  /** to's samples against from. */
  backward: DirectedDeviation;
}

/**
 * The mesh side of a deviation between a mesh and a surface only the calling thread can measure
 * against (a BREP body's exact faces): the host builds the mesh's structures and samples elsewhere,
 * hands back the samples, and measures the caller's samples against the mesh.
 */
export interface MeshSideJob {
  mesh: TriMesh;
  bodyId: string;
  maxSamples: number;
  signMode: SignMode;
  /** The label of the direction measured against the mesh. */
  label: string;
  /** Whether the mesh, as the reference, applies the open-boundary test (see DirectionsJob). */
  boundary: boolean;
}

export interface MeshSide {
  /** The mesh's samples, as surfaceSamples computes them (EMPTY_MESH rejects); absent when the host leaves sampling to the caller. */
  samples?: Promise<SurfaceSamples>;
  /** The caller's samples measured against the mesh (once). */
  measure(samples: SurfaceSamples): Promise<DirectedDeviation>;
  /**
   * When the host shares that direction: resolves, once the mesh's BVH is built, with the tree and
   * the shared output the caller may claim samples from (measureClaimed) after its own work, so both
   * threads finish it; undefined when the host measures it alone. measure() resolves when the host's
   * part is done: read the arrays after the caller's own part, and copy them.
   */
  shared?: Promise<SharedDirection | undefined>;
  /** Drops the job (the caller failed or computes it itself). */
  abandon(): void;
}

export interface SharedDirection {
  /** The mesh's BVH, in shared memory. */
  bvh: TriangleBvh;
  /** Its normal bounds (robust mode), in shared memory; null in nearest mode. */
  normalBounds: Int8Array | null;
  output: SharedOutput;
}

/**
 * What a host can run off the calling thread. A host with threads for both directions offers
 * deviationDirections; one with a single thread offers meshSide only, and the calling thread does
 * the other side itself.
 */
export interface MeshWorkers {
  /** Rejects on any failure: the tool then computes the job itself, errors included. */
  deviationDirections?(job: DirectionsJob, ctx: Pick<ToolContext, 'signal' | 'progress'>): Promise<Directions>;
  /** Starts the mesh side of a job now; its promises reject on any failure, as above. */
  meshSide?(job: MeshSideJob, ctx: Pick<ToolContext, 'signal'>): MeshSide;
}

/**
 * Both directions between two surfaces: from the bodies' caches when there, else on the host's
 * mesh workers as far as they can measure them, else here (directedDeviation). The workers know
 * triangles only: two surfaces measured as triangles (STL bodies in either surface mode, BREP
 * tessellations in tessellated mode) go there whole when the host has threads for both directions;
 * otherwise the larger mesh's side goes (meshSideElsewhere), as a mesh's side does against a BREP
 * body in exact mode. What the workers return is kept in the caches as if computed here, so a histogram or heat map on the same bodies reuses it. A worker failure other
 * than a cancel falls back to computing here, which gives the serial path's result or error.
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
  const fromTriangles = measuredAsTriangles(from, surface), toTriangles = measuredAsTriangles(to, surface);
  // The workers run the no-data rule's open-boundary test themselves (workerCore.ts: boundaryOf), on the
  // pseudo-normals they build: this thread builds nothing for them.
  if (workers && !keptForward.peek() && !keptBackward.peek()) {
    try {
      if (fromTriangles && toTriangles && workers.deviationDirections) {
        const job = {
          from: from.mesh,
          to: to.mesh,
          fromBodyId: from.body.bodyId,
          toBodyId: to.body.bodyId,
          maxSamples,
          signMode: mode,
          fromBoundary: boundaryTested(from),
          toBoundary: boundaryTested(to),
        };
        const d = await workers.deviationDirections(job, ctx);
        return { forward: keptForward.keep(d.forward), backward: keptBackward.keep(d.backward) };
      }
      if (workers.meshSide && (fromTriangles || toTriangles)) {
        // The side sent off: the mesh against exact faces (which cannot move), else the larger mesh (its BVH is the largest cost).
        const fromGoes = fromTriangles && (!toTriangles || from.mesh.indices.length >= to.mesh.indices.length);
        const [mesh, here] = fromGoes ? [from, to] : [to, from];
        const d = await meshSideElsewhere(ctx, workers.meshSide.bind(workers), oc, mesh, here, maxSamples, mode, surface, fromGoes ? 'toToFrom' : 'fromToTo');
        return fromGoes ? { forward: d.here, backward: d.mesh } : { forward: d.mesh, backward: d.here };
      }
    } catch (e) {
      if (ctx.signal?.aborted || (e instanceof BrepscopeError && e.code === 'CANCELLED')) throw e;
    }
  }
  const pacer = new Pacer(ctx);
  const forward = await directedDeviation(ctx, oc, from, maxSamples, to, mode, surface, 'fromToTo', pacer);
  const backward = await directedDeviation(ctx, oc, to, maxSamples, from, mode, surface, 'toToFrom', pacer);
  return { forward, backward };
}

/**
 * One mesh's side on the workers, the rest here: the workers build the mesh's BVH and measure the
 * other surface's samples against the mesh (`mesh`: the direction with the mesh as reference);
 * here, meanwhile, the other surface's samples and reference are built (a BREP body's exact faces,
 * which cannot move, or a smaller mesh), and the mesh's samples are measured against it (`here`).
 * The mesh's samples come from a second worker thread when the host has one, else they are taken
 * here. Both directions are kept in the caches, with the mesh's samples, as directedDeviation keeps
 * them. Any failure rejects after abandoning the workers' job; the caller then computes whatever
 * is not kept yet.
 */
async function meshSideElsewhere(
  ctx: ToolContext,
  meshSide: NonNullable<MeshWorkers['meshSide']>,
  oc: OC | undefined,
  mesh: MeasuredSurface,
  here: MeasuredSurface,
  maxSamples: number,
  mode: SignMode,
  surface: SurfaceMode,
  hereLabel: string,
): Promise<{ mesh: DirectedDeviation; here: DirectedDeviation }> {
  const meshLabel = hereLabel === 'fromToTo' ? 'toToFrom' : 'fromToTo';
  const side = meshSide({ mesh: mesh.mesh, bodyId: mesh.body.bodyId, maxSamples, signMode: mode, label: meshLabel, boundary: boundaryTested(mesh) }, ctx);
  // Either promise may reject while this thread is busy: never unhandled.
  side.samples?.catch(() => undefined);
  side.shared?.catch(() => undefined);
  try {
    const hereSamples = deviationSamples(oc, here, maxSamples, surface);
    const againstMesh = side.measure(hereSamples);
    againstMesh.catch(() => undefined);
    if (side.samples) keepSurfaceSamples(mesh, maxSamples, await side.samples);
    const onHere = await directedDeviation(ctx, oc, mesh, maxSamples, here, mode, surface, hereLabel);
    const shared = await side.shared;
    if (shared) {
      // This thread's own part is done: measure what is left of the other direction beside the worker.
      keepMeshBvh(mesh, shared.bvh);
      if (shared.normalBounds) adoptNormalBounds(shared.bvh, shared.normalBounds);
      await measureClaimed(hereSamples, deviationReference(mesh), mode, referenceBoundary(mesh), shared.output, new Pacer(ctx), meshLabel);
    }
    const measured = await againstMesh;
    // Shared arrays (the host shared the direction, helped here or not) are copied: results are kept and handed on as plain arrays.
    const inShared = typeof SharedArrayBuffer === 'function' && measured.distance.buffer instanceof SharedArrayBuffer;
    const own = inShared ? { ...measured, distance: measured.distance.slice(), signed: measured.signed.slice(), beyond: measured.beyond.slice() } : measured;
    const onMesh = keptDeviation(ctx, here, maxSamples, mesh, mode, surface).keep(own);
    return { mesh: onMesh, here: onHere };
  } catch (e) {
    side.abandon();
    throw e;
  }
}

/**
 * Whether a surface is measured as its triangles alone (samples, distances and signs from the mesh:
 * sampleSurface, signedDeviation), which is all a mesh worker knows. An STL body is its own exact
 * surface, so it is measured this way in both surface modes.
 */
function measuredAsTriangles(s: MeasuredSurface, surface: SurfaceMode): boolean {
  return s.body.kind === 'mesh' || surface === 'tessellated';
}

// The parts of a worker's job that add something to the serial path's functions (the rest it calls
// directly: buildBvh, buildPseudoNormals, deviationReferenceOf, buildOpenBoundary, measureClaimed).

/** As surfaceSamples: EMPTY_MESH for a surface of zero area. */
export function samplesPart(mesh: TriMesh, pseudoNormals: PseudoNormals, maxSamples: number, bodyId: string): SurfaceSamples {
  return nonEmptySamples(sampleSurface(mesh, maxSamples, pseudoNormals), bodyId);
}

/** One direction, on whatever thread calls it (cancellation and progress are the host's). */
export function measurePart(samples: SurfaceSamples, reference: DeviationReference, signMode: SignMode, label: string, boundary: OpenBoundary | null): Promise<DirectedDeviation> {
  return measureDirected(samples, reference, signMode, new Pacer({}), label, boundary);
}
