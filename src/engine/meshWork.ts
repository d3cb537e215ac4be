/**
 * The engine's second door, for the Node host's mesh worker threads (src/node/meshWorker.ts): the
 * parts of a deviation they compute, and nothing else of the engine. A thread that loaded the
 * index would pay for the whole tool registry's start-up; this loads the mesh code and what the
 * deviation loop needs. No kernel, ever.
 */
export { boundaryPart, measureClaimedPart, measurePart, meshBvhPart, normalBoundsPart, pseudoNormalsPart, referencePart, samplesPart } from './tools/deviationDirections';
export type { SharedOutput } from './tools/deviationSupport';
export { toErrorPayload } from './errors';
export type { ErrorPayload } from './errors';
export type { DirectedDeviation } from './tools/deviationSupport';
export type { OpenBoundary } from './mesh/openBoundary';
export type { PseudoNormals } from './mesh/pseudoNormals';
export type { SurfaceSamples } from './mesh/sampleSurface';
export type { SignMode } from './mesh/signedDeviation';
export type { TriangleBvh } from './mesh/TriangleBvh';
export type { TriMesh } from './mesh/TriMesh';
