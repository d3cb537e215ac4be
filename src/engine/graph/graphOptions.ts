import type { EdgeClass } from './topologyGraph';

// The graph commands' option values and defaults, in a module that imports nothing at run time: a
// host's main thread shows them in help texts without loading the engine (src/engine/hostFacts.ts).

/** graph-ml: face UV grid density (N x N per face) and samples per edge curve. */
export const DEFAULT_UV_SAMPLES = 16;
export const DEFAULT_EDGE_SAMPLES = 32;
/**
 * Their limits: the result is one JSON value holding N x N grid points (position, normal, curvatures)
 * per face and the edge samples per edge, so N = 10^15 failed as a RangeError (INTERNAL_ERROR) and
 * N = 5000 (25 million points per face) ran into the deadline.
 */
export const MAX_UV_SAMPLES = 128;
export const MAX_EDGE_SAMPLES = 1024;

export const SELECT_QUERIES = ['face-neighbors', 'edge-faces', 'vertex-edges', 'face-adjacency', 'edges-class'] as const;
export const EDGE_CLASSES: readonly EdgeClass[] = ['boundary', 'non-manifold', 'seam', 'degenerate'];

/**
 * BRepAlgoAPI_Check's self-intersection test costs seconds to a minute (13.6 s on the 71-face bottle,
 * 7 s on the 53-face crank arm here): in `auto` mode it, and the interference check between solids
 * that goes with it, runs only up to this many faces.
 */
export const SELF_INTERSECTION_AUTO_FACE_LIMIT = 24;
