import { createExactHit, FootKind } from '../exact/ExactReference';
import { requireKernel, type OC } from '../kernel';
import { hasEdgeLongerThan, meshArea, refineToEdgeLength } from '../mesh/refineMesh';
import type { TriMesh } from '../mesh/TriMesh';
import { exactReference } from './structures';
import type { MeasuredSurface } from './surfaces';

/**
 * Samples the refinement is sized for, at most: with a larger maxSamples the heat map stops at this
 * density, so a million-sample statistics run does not make the
 * viewer draw millions of triangles.
 */
export const HEATMAP_REFINE_SAMPLE_CAP = 50_000;

/** Vertices the refinement may add, as a multiple of the samples it is sized for (a guard against needle triangles). */
const VERTEX_BUDGET_PER_SAMPLE = 8;

/**
 * The edge length the heat-map mesh is refined to: L = 2 s, with s = sqrt(area / n) the spacing of
 * the statistics' n = min(maxSamples, HEATMAP_REFINE_SAMPLE_CAP) samples over the area. A mesh whose
 * edges are all at most L has a vertex within L / sqrt(3) = 1.15 s of every point, so a no-data
 * patch wide enough to hold a disc of that radius (the area of about four samples of the
 * statistics) holds a vertex coloured "no data": the heat map shows where the figures leave data
 * out (docs/deviation.md, "Heat-map mesh"). Halving edges overshoots (an edge ends between L / 2 and
 * L), so L = s would cost about four times the vertices for a rule no user could tell apart.
 */
export function heatmapEdgeLength(area: number, maxSamples: number): number {
  return 2 * Math.sqrt(area / Math.max(1, Math.min(maxSamples, HEATMAP_REFINE_SAMPLE_CAP)));
}

/**
 * The from-body's display surface refined for the heat map (refineToEdgeLength to heatmapEdgeLength;
 * display_mesh's vertices first, in their order). On a BREP body each new vertex is moved onto its
 * face's exact surface (the nearest point of the body, kept when it is on the vertex's own face or
 * its boundary, or on another face within four display deflections: a smooth neighbour), so a midpoint on a curved face is not measured at its chord's sag. Each triangle
 * keeps in `faceIds` what a pick on it names: its BREP face, or a mesh body's own triangle it was cut
 * from. A surface whose edges are already short enough (a dense scan) is returned as it is. Cached
 * on the body.
 */
export function heatmapSurface(oc: OC | undefined, base: MeasuredSurface, measuredDeflection: number, maxSamples: number): MeasuredSurface {
  const body = base.body;
  const n = Math.max(1, Math.min(maxSamples, HEATMAP_REFINE_SAMPLE_CAP));
  return body.cache.get(`heatmapSurface:${base.key}:${n}`, () => {
    const maxEdge = heatmapEdgeLength(meshArea(base.mesh), n);
    // A dense scan's edges are all short already: no copy of its million triangles to find that out.
    if (!hasEdgeLongerThan(base.mesh, maxEdge)) return base;
    const inputVertices = base.mesh.positions.length / 3;
    const refined = refineToEdgeLength(base.mesh, maxEdge, inputVertices + VERTEX_BUDGET_PER_SAMPLE * n);
    if (refined.positions.length / 3 === inputVertices) return base;
    // Per triangle, what a pick on it names: a BREP body's face[N], a mesh body's own triangle (its face[N]).
    const baseFaces = (base.mesh as { faceIds?: Uint32Array }).faceIds;
    const faceIds = baseFaces ? refined.parent.map((t) => baseFaces[t]!) : refined.parent;
    const mesh: TriMesh & { faceIds: Uint32Array } = { positions: refined.positions, indices: refined.indices, faceIds };
    if (body.kind === 'brep') {
      // BRepMesh overshoots the deflection it is given (docs/deviation.md): four times it bounds a chord's sag.
      const sag = 4 * ((base.mesh as { deflection?: number }).deflection ?? 0);
      snapToFaces(exactReference(requireKernel(oc, 'heat map'), body, measuredDeflection), refined.positions, refined.indices, faceIds, inputVertices, maxEdge, sag);
    }
    return { body, mesh, key: `${base.key}~heatmap${n}` };
  });
}

/** Moves the refinement's vertices (from `first` on) onto the exact faces of the body (see heatmapSurface). */
function snapToFaces(exact: ReturnType<typeof exactReference>, positions: Float64Array, indices: Uint32Array, faceIds: Uint32Array, first: number, maxEdge: number, sag: number): void {
  const faceOf = new Int32Array(positions.length / 3 - first).fill(-1);
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i]!;
    if (v >= first) faceOf[v - first] = faceIds[(i / 3) | 0]!;
  }
  const hit = createExactHit();
  for (let k = 0; k < faceOf.length; k++) {
    if (faceOf[k]! < 0) continue;
    const o = 3 * (first + k);
    exact.nearest(positions[o]!, positions[o + 1]!, positions[o + 2]!, hit);
    // The own face (or its boundary) at any distance up to a triangle; another face only within the
    // chord error (the smooth neighbour of a face boundary, e.g. a fillet): farther, it is another
    // wall (a thin one) and the chord's point stays.
    const own = hit.kind !== FootKind.face || hit.face === faceOf[k];
    if (!(hit.distance <= (own ? maxEdge : sag))) continue;
    positions[o] = hit.x;
    positions[o + 1] = hit.y;
    positions[o + 2] = hit.z;
  }
}
