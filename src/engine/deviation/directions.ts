import { BrepscopeError } from '../errors';
import type { OC } from '../kernel';
import { adoptNormalBounds } from '../mesh/closestPoint';
import type { SignMode } from '../mesh/signedDeviation';
import type { ToolContext } from '../context';
import type { SurfaceMode } from './defaults';
import { boundaryTested, directedDeviation, keptDeviation, referenceBoundary } from './directed';
import { measureClaimed, type DirectedDeviation } from './measure';
import type { Directions, MeshWorkers } from './meshWorkers';
import { Pacer } from './pacer';
import { deviationSamples, keepSurfaceSamples } from './samples';
import { deviationReference, keepMeshBvh } from './structures';
import type { MeasuredSurface } from './surfaces';

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
