import type { ExactReference } from '../exact/ExactReference';
import type { Box3 } from '../math/vec3';
import { meshBox } from '../mesh/meshProperties';
import type { OpenBoundary } from '../mesh/openBoundary';
import type { PseudoNormals } from '../mesh/pseudoNormals';
import type { SurfaceSamples } from '../mesh/sampleSurface';
import type { DeviationReference } from '../mesh/signedDeviation';
import type { TriangleBvh } from '../mesh/TriangleBvh';
import type { FastWinding } from '../mesh/windingNumber';
import type { TriMesh } from '../mesh/TriMesh';
import type { SurfaceBody } from '../scene/Body';

/**
 * A body's triangles as a deviation tool measures them (see surfaceMesh), named so that the query
 * structures built on them are cached on the body: `key` says which triangles (an STL's own, or a
 * tessellation at one deflection).
 */
export interface MeasuredSurface {
  body: SurfaceBody;
  mesh: TriMesh;
  key: string;
}

interface MeshQueries {
  box?: Box3;
  bvh?: TriangleBvh;
  pseudoNormals?: PseudoNormals;
  reference?: DeviationReference;
  winding?: FastWinding;
  boundary?: OpenBoundary;
  samples: Map<number, SurfaceSamples>;
  /** A BREP tessellation's exact reference and exact-surface samples (the tessellation is per body and deflection). */
  exact?: ExactReference;
  exactSamples?: Map<number, SurfaceSamples>;
}

/**
 * Query structures of a measured surface, built on first use and kept in its body's cache, so they
 * live exactly as long as the body does and a second tool call on the same bodies (histogram,
 * heat map) skips the build.
 */
export function queriesOf(s: MeasuredSurface): MeshQueries {
  return s.body.cache.get(`queries:${s.key}`, () => ({ samples: new Map() }));
}

export function meshBoxOf(s: MeasuredSurface): Box3 {
  const q = queriesOf(s);
  q.box ??= meshBox(s.mesh);
  return q.box;
}
