import type { OpenBoundary } from '../mesh/openBoundary';
import type { PseudoNormals } from '../mesh/pseudoNormals';
import { sampleSurface, type SurfaceSamples } from '../mesh/sampleSurface';
import type { DeviationReference, SignMode } from '../mesh/signedDeviation';
import type { TriMesh } from '../mesh/TriMesh';
import { measureDirected, type DirectedDeviation } from './measure';
import { nonEmptySamples } from './nonEmptySamples';
import { Pacer } from './pacer';

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
