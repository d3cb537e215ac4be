import { BrepscopeError } from '../errors';
import { buildOpenBoundary, type OpenBoundary } from '../mesh/openBoundary';
import { buildPseudoNormals, type PseudoNormals } from '../mesh/pseudoNormals';
import { sampleSurface, type SurfaceSamples } from '../mesh/sampleSurface';
import { deviationReferenceOf, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import { buildBvh, type TriangleBvh } from '../mesh/TriangleBvh';
import type { TriMesh } from '../mesh/TriMesh';
import type { OC } from '../kernel';
import type { ToolContext } from './defineTool';
import {
  boundaryTested,
  deviationSamples,
  directedDeviation,
  keepSurfaceSamples,
  keptDeviation,
  measureDirected,
  Pacer,
  type DirectedDeviation,
  type MeasuredSurface,
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
  /** The mesh's samples, as surfaceSamples computes them (EMPTY_MESH rejects). */
  samples: Promise<SurfaceSamples>;
  /** The caller's samples measured against the mesh (once). */
  measure(samples: SurfaceSamples): Promise<DirectedDeviation>;
  /** Drops the job (the caller failed or computes it itself). */
  abandon(): void;
}

/** What a host can run off the calling thread. */
export interface MeshWorkers {
  /** Rejects on any failure: the tool then computes the job itself, errors included. */
  deviationDirections(job: DirectionsJob, ctx: Pick<ToolContext, 'signal' | 'progress'>): Promise<Directions>;
  /** Starts the mesh side of a job now; its promises reject on any failure, as above. */
  meshSide?(job: MeshSideJob, ctx: Pick<ToolContext, 'signal'>): MeshSide;
}

/**
 * Both directions between two surfaces: from the bodies' caches when there, else on the host's
 * mesh workers as far as they can measure them, else here (directedDeviation). The workers know
 * triangles only: two surfaces measured as triangles (STL bodies in either surface mode, BREP
 * tessellations in tessellated mode) go there whole; a BREP body in exact mode against a mesh
 * sends the mesh's side (meshAgainstExact). What the workers return is kept in the caches as if
 * computed here, so a histogram or heat map on the same bodies reuses it. A worker failure other
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
  // The workers run the no-data rule's open-boundary test themselves (boundaryPart), on the
  // pseudo-normals they build: this thread builds nothing for them.
  if (workers && !keptForward.peek() && !keptBackward.peek()) {
    try {
      if (fromTriangles && toTriangles) {
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
      if (workers.meshSide && fromTriangles !== toTriangles) {
        const [mesh, exact] = fromTriangles ? [from, to] : [to, from];
        const d = await meshAgainstExact(ctx, workers.meshSide.bind(workers), oc, mesh, exact, maxSamples, mode, surface, fromTriangles ? 'toToFrom' : 'fromToTo');
        return fromTriangles ? { forward: d.exact, backward: d.mesh } : { forward: d.mesh, backward: d.exact };
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
 * A mesh against a BREP body's exact faces, split by where each part can run: the workers build
 * the mesh's BVH, pseudo-normals and samples and measure the BREP body's exact samples against the
 * mesh (`mesh`: the direction with the mesh as reference); here, meanwhile, the exact geometry,
 * the BREP body's samples and its exact reference are built, and the mesh's samples (from the
 * workers) are measured against the exact faces (`exact`). Both are kept in the caches, with the
 * mesh's samples, as directedDeviation keeps them. Any failure rejects after abandoning the
 * workers' job; the caller then computes whatever is not kept yet.
 */
async function meshAgainstExact(
  ctx: ToolContext,
  meshSide: NonNullable<MeshWorkers['meshSide']>,
  oc: OC | undefined,
  mesh: MeasuredSurface,
  exact: MeasuredSurface,
  maxSamples: number,
  mode: SignMode,
  surface: SurfaceMode,
  exactLabel: string,
): Promise<{ mesh: DirectedDeviation; exact: DirectedDeviation }> {
  const meshLabel = exactLabel === 'fromToTo' ? 'toToFrom' : 'fromToTo';
  const side = meshSide({ mesh: mesh.mesh, bodyId: mesh.body.bodyId, maxSamples, signMode: mode, label: meshLabel, boundary: boundaryTested(mesh) }, ctx);
  // Either promise may reject while this thread is busy: never unhandled.
  side.samples.catch(() => undefined);
  try {
    const againstMesh = side.measure(deviationSamples(oc, exact, maxSamples, surface));
    againstMesh.catch(() => undefined);
    keepSurfaceSamples(mesh, maxSamples, await side.samples);
    const onExact = await directedDeviation(ctx, oc, mesh, maxSamples, exact, mode, surface, exactLabel);
    const onMesh = keptDeviation(ctx, exact, maxSamples, mesh, mode, surface).keep(await againstMesh);
    return { mesh: onMesh, exact: onExact };
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

/** The open boundary a reference's samples are tested against, as referenceBoundary gives it for a mesh body: null when the mesh is closed. */
export function boundaryPart(pseudoNormals: PseudoNormals): OpenBoundary | null {
  const boundary = buildOpenBoundary(pseudoNormals);
  return boundary.open ? boundary : null;
}

/** One direction, on whatever thread calls it (cancellation and progress are the host's). */
export function measurePart(samples: SurfaceSamples, reference: DeviationReference, signMode: SignMode, label: string, boundary: OpenBoundary | null): Promise<DirectedDeviation> {
  return measureDirected(samples, reference, signMode, new Pacer({}), label, boundary);
}
