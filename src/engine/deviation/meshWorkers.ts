import type { CallControl } from '../callControl';
import type { SubtreeThreads } from '../mesh/parallelBvh';
import type { SurfaceSamples } from '../mesh/sampleSurface';
import type { SignMode } from '../mesh/signedDeviation';
import type { TriangleBvh } from '../mesh/TriangleBvh';
import type { TriMesh } from '../mesh/TriMesh';
import type { DirectedDeviation, SharedOutput } from './measure';

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
  deviationDirections?(job: DirectionsJob, ctx: CallControl): Promise<Directions>;
  /** Starts the mesh side of a job now; its promises reject on any failure, as above. */
  meshSide?(job: MeshSideJob, ctx: Pick<CallControl, 'signal'>): MeshSide;
  /** The threads as builders of one big BVH's parts while no job runs on them (mesh/parallelBvh.ts); absent without shared memory. */
  readonly subtreeThreads?: SubtreeThreads | undefined;
}
