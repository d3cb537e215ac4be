import { Feature } from './closestPointOnTriangle';
import type { MeshHit } from './closestPoint';
import type { PseudoNormals } from './pseudoNormals';

/**
 * The open boundary of a mesh: its edges used by one triangle only (the rim of a hole in a scan, the
 * edge of a patch the scanner did not see, the free edges of an open surface model), and the welded
 * vertices on them. A nearest point found on the boundary means the query point lies beyond what
 * the mesh covers: it has no measured counterpart there (docs/deviation.md, "No data").
 *
 * Answered per feature when a query lands on one (from the pseudo-normals' welded vertices and
 * their triangle lists), so a deviation pays for the edges its samples meet, not for an edge map
 * of the whole reference. "Open" means open after welding by exact coordinates.
 */
export class OpenBoundary {
  /** Per welded vertex: 0 not asked yet, 1 ends an open edge, 2 does not. */
  private readonly vertexState: Uint8Array;

  constructor(readonly pseudoNormals: PseudoNormals) {
    this.vertexState = new Uint8Array(pseudoNormals.vertexCount);
  }

  /** Whether the edge from corner k of triangle t to corner k + 1 is open: one half-edge uses it, and it joins two distinct vertices. */
  edgeOpen(t: number, k: number): boolean {
    const tv = this.pseudoNormals.triangleVertices;
    const a = tv[3 * t + k]!, b = tv[3 * t + ((k + 1) % 3)]!;
    // A collapsed triangle's "edge" from a vertex to itself bounds nothing.
    return a !== b && this.pseudoNormals.edgeUses(a, b) === 1;
  }

  /** Whether welded vertex w ends an open edge. */
  vertexOpen(w: number): boolean {
    let state = this.vertexState[w]!;
    if (state === 0) this.vertexState[w] = state = this.pseudoNormals.endsOpenEdge(w) ? 1 : 2;
    return state === 1;
  }
}

export function buildOpenBoundary(pn: PseudoNormals): OpenBoundary {
  return new OpenBoundary(pn);
}

/** Whether the nearest point `hit` lies on the mesh's open boundary (an open edge, or a vertex ending one). */
export function onOpenBoundary(boundary: OpenBoundary, hit: MeshHit): boolean {
  if (hit.triangle < 0) return false;
  const t = hit.triangle;
  switch (hit.feature) {
    case Feature.face:
      return false;
    case Feature.edgeAB:
    case Feature.edgeBC:
    case Feature.edgeCA:
      return boundary.edgeOpen(t, hit.feature - Feature.edgeAB);
    default:
      return boundary.vertexOpen(boundary.pseudoNormals.triangleVertices[3 * t + hit.feature - Feature.vertexA]!);
  }
}

/**
 * How far off the surface normal (p - c) may lean, as a share of |p - c|, before a point whose
 * nearest point c is on the open boundary counts as beyond it: sin of about 6 degrees. A point
 * square on to the rim (the rim of a thin open wall level with the point, a CAD edge under the
 * scan's unwelded patch edge) leans by rounding only; a point over a hole in the scan leans by its
 * distance from the rim against its gap, which passes the limit 1 % of a gap inside the hole.
 */
export const BEYOND_LEAN = 0.1;

/**
 * Whether the point p lies beyond the mesh's open boundary: its nearest point `hit` is on the
 * boundary (onOpenBoundary) and p - c leans off the feature's pseudo-normal by more than
 * BEYOND_LEAN. Such a point has no measured counterpart on the mesh (docs/deviation.md, "No data").
 */
export function beyondOpenBoundary(boundary: OpenBoundary, hit: MeshHit, px: number, py: number, pz: number): boolean {
  if (!onOpenBoundary(boundary, hit)) return false;
  const dx = px - hit.x, dy = py - hit.y, dz = pz - hit.z;
  const d2 = dx * dx + dy * dy + dz * dz;
  if (!(d2 > 0)) return false;
  boundary.pseudoNormals.featureNormal(hit.triangle, hit.feature, lean);
  const n2 = lean[0]! * lean[0]! + lean[1]! * lean[1]! + lean[2]! * lean[2]!;
  // A feature without a normal (its triangles cancel) has no "square on": the point is beyond.
  if (!(n2 > 0)) return true;
  const along = dx * lean[0]! + dy * lean[1]! + dz * lean[2]!;
  const tangential2 = d2 - (along * along) / n2;
  return tangential2 > BEYOND_LEAN * BEYOND_LEAN * d2;
}

const lean = new Float64Array(3);
