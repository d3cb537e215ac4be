import { ExactReference } from '../exact/ExactReference';
import { keptFaces, type ExactGeometry } from '../exact/geometry';
import { requireKernel, type OC } from '../kernel';
import { buildOpenBoundary, type OpenBoundary } from '../mesh/openBoundary';
import { buildPseudoNormals, type PseudoNormals } from '../mesh/pseudoNormals';
import { deviationReferenceOf, REACH_FACTOR, REACH_FLOOR, TIE_FACTOR, TIE_SLACK, type DeviationReference } from '../mesh/signedDeviation';
import { buildBvhParallel, type SubtreeThreads } from '../mesh/parallelBvh';
import { buildBvh, type TriangleBvh } from '../mesh/TriangleBvh';
import type { FaceTessellation } from '../mesh/TriMesh';
import { buildFastWinding, type FastWinding } from '../mesh/windingNumber';
import type { BrepBody } from '../scene/Body';
import { solidsBesideOf } from '../scene/solidsBeside';
import { extractExactGeometry, type KernelFaceSurfaces } from '../scene/exactGeometry';
import type { SurfaceMode } from './defaults';
import type { DeviationTarget } from './measure';
import { queriesOf } from './queries';
import { measuredSurface, type MeasuredSurface } from './surfaces';

export function meshBvh(s: MeasuredSurface): TriangleBvh {
  const q = queriesOf(s);
  q.bvh ??= buildBvh(s.mesh);
  return q.bvh;
}

/**
 * From this many triangles a tool that builds one tree and then waits for it builds it over the
 * idle mesh threads: measured on the whole `measure_distance` call in the CLI (docs/scaling.md,
 * "Where it is used"): the build 23 % faster at 1M triangles (999,600), 38 % at 2M, none at 0.5M.
 */
export const THREADED_BVH_MIN_TRIANGLES = 900_000;

/**
 * meshBvh, built over the host's mesh threads and this one where the host has them and the mesh is
 * large enough to gain (THREADED_BVH_MIN_TRIANGLES): the same tree either way (parallelBvh.ts).
 */
export async function meshBvhOver(s: MeasuredSurface, threads: SubtreeThreads | undefined): Promise<TriangleBvh> {
  const q = queriesOf(s);
  if (!q.bvh) {
    const big = s.mesh.indices.length / 3 >= THREADED_BVH_MIN_TRIANGLES;
    const bvh = await buildBvhParallel(s.mesh, big ? threads : undefined);
    q.bvh ??= bvh;
  }
  return q.bvh;
}

/** Keeps a BVH of the surface's mesh built elsewhere (a mesh worker's, in shared memory), as meshBvh would build it. */
export function keepMeshBvh(s: MeasuredSurface, bvh: TriangleBvh): void {
  queriesOf(s).bvh ??= bvh;
}

/** Angle-weighted pseudo-normals (and the welded vertex ids they carry), shared with the reference. */
export function meshPseudoNormals(s: MeasuredSurface): PseudoNormals {
  const q = queriesOf(s);
  q.pseudoNormals ??= buildPseudoNormals(s.mesh);
  return q.pseudoNormals;
}

/** The surface prepared as a deviation reference (BVH, pseudo-normals, diagonal). */
export function deviationReference(s: MeasuredSurface): DeviationReference {
  const q = queriesOf(s);
  q.reference ??= deviationReferenceOf(meshBvh(s), meshPseudoNormals(s));
  return q.reference;
}

/** The surface's open boundary (edges used by one triangle), for the no-data rule. */
export function meshOpenBoundary(s: MeasuredSurface): OpenBoundary {
  const q = queriesOf(s);
  q.boundary ??= buildOpenBoundary(meshPseudoNormals(s), true);
  return q.boundary;
}

export function fastWinding(s: MeasuredSurface): FastWinding {
  const q = queriesOf(s);
  q.winding ??= buildFastWinding(meshBvh(s));
  return q.winding;
}

/**
 * A BREP body's exact geometry as plain data (src/engine/exact), read once per body and kept in
 * its cache. Faces whose surface has no JS form keep kernel adaptors, freed with the entry.
 */
interface BodyGeometry {
  geometry: ExactGeometry;
  kernelSurfaces: KernelFaceSurfaces | null;
  dispose(): void;
}

export function exactGeometryOf(oc: OC, body: BrepBody): BodyGeometry {
  return body.cache.get('exactGeometry', () => {
    const { geometry, kernelSurfaces } = extractExactGeometry(oc, body.shape);
    return { geometry, kernelSurfaces, dispose: () => kernelSurfaces?.delete() };
  });
}

/** A BREP body's exact deviation reference at a deflection (its tessellation finds candidate faces). */
export function exactReference(oc: OC, body: BrepBody, deflection: number): ExactReference {
  const s = measuredSurface(oc, body, deflection);
  const q = queriesOf(s);
  if (!q.exact) {
    const { geometry, kernelSurfaces } = exactGeometryOf(oc, body);
    const beside = solidsBesideOf(oc, body);
    q.exact = new ExactReference({
      geometry: beside ? keptFaces(geometry, beside.solidFace) : geometry,
      mesh: s.mesh as FaceTessellation,
      bvh: meshBvh(s),
      pseudoNormals: meshPseudoNormals(s),
      rules: { tieFactor: TIE_FACTOR, tieSlack: TIE_SLACK, reachFactor: REACH_FACTOR, reachFloor: REACH_FLOOR },
      kernel: kernelSurfaces ?? undefined,
    });
  }
  return q.exact;
}

/** A BREP body's exact reference in exact mode, else its surface as a mesh reference. */
export function exactOrNull(oc: OC | undefined, s: MeasuredSurface, surface: SurfaceMode): ExactReference | null {
  if (s.body.kind !== 'brep' || surface !== 'exact') return null;
  return exactReference(requireKernel(oc, 'deviation'), s.body, (s.mesh as FaceTessellation).deflection);
}

/** The reference of one direction: a BREP body's exact faces in exact mode, otherwise its mesh. */
export function deviationTarget(oc: OC | undefined, s: MeasuredSurface, surface: SurfaceMode): DeviationTarget {
  return exactOrNull(oc, s, surface) ?? deviationReference(s);
}
