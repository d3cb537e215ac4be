import { Feature } from './closestPointOnTriangle';
import type { MeshHit } from './closestPoint';
import { pseudoNormalAt, type PseudoNormals } from './pseudoNormals';

/**
 * The open boundary of a mesh: its edges used by one triangle only (the rim of a hole in a scan, the
 * edge of a patch the scanner did not see, the free edges of an open surface model), and the welded
 * vertices on them. A nearest point found on the boundary means the query point lies beyond what
 * the mesh covers: it has no measured counterpart there (docs/deviation.md, "No data").
 */
export interface OpenBoundary {
  /** Per edge id (pseudo-normals' numbering): 1 when one triangle uses the edge. */
  edgeOpen: Uint8Array;
  /** Per welded vertex: 1 when it ends an open edge. */
  vertexOpen: Uint8Array;
  /** Whether the mesh has any open edge (a closed mesh answers every query with false at once). */
  open: boolean;
}

/**
 * Built from the pseudo-normals' welded edge ids, so "open" means open after welding by exact
 * coordinates. An edge is open when one half-edge uses it (edgeCorners) and it joins two distinct
 * vertices; a closed mesh costs one pass over its edges.
 */
export function buildOpenBoundary(pn: PseudoNormals): OpenBoundary {
  const uses = pn.edgeCorners;
  const edgeOpen = new Uint8Array(uses.length);
  const vertexOpen = new Uint8Array(pn.vertexNormals.length / 3);
  if (uses.indexOf(1) < 0) return { edgeOpen, vertexOpen, open: false };
  const te = pn.triangleEdges;
  const tv = pn.triangleVertices;
  let open = false;
  for (let t = 0; t < te.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const e = te[t + k]!;
      const a = tv[t + k]!, b = tv[t + ((k + 1) % 3)]!;
      // A collapsed triangle's "edge" from a vertex to itself bounds nothing.
      if (uses[e] !== 1 || a === b) continue;
      edgeOpen[e] = 1;
      vertexOpen[a] = 1;
      vertexOpen[b] = 1;
      open = true;
    }
  }
  return { edgeOpen, vertexOpen, open };
}

/** Whether the nearest point `hit` lies on the mesh's open boundary (an open edge, or a vertex ending one). */
export function onOpenBoundary(boundary: OpenBoundary, pn: PseudoNormals, hit: MeshHit): boolean {
  if (!boundary.open || hit.triangle < 0) return false;
  const t = hit.triangle;
  switch (hit.feature) {
    case Feature.face:
      return false;
    case Feature.edgeAB:
    case Feature.edgeBC:
    case Feature.edgeCA:
      return boundary.edgeOpen[pn.triangleEdges[3 * t + hit.feature - Feature.edgeAB]!] === 1;
    default:
      return boundary.vertexOpen[pn.triangleVertices[3 * t + hit.feature - Feature.vertexA]!] === 1;
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
export function beyondOpenBoundary(boundary: OpenBoundary, pn: PseudoNormals, hit: MeshHit, px: number, py: number, pz: number): boolean {
  if (!onOpenBoundary(boundary, pn, hit)) return false;
  const dx = px - hit.x, dy = py - hit.y, dz = pz - hit.z;
  const d2 = dx * dx + dy * dy + dz * dz;
  if (!(d2 > 0)) return false;
  pseudoNormalAt(pn, hit.triangle, hit.feature, lean);
  const n2 = lean[0]! * lean[0]! + lean[1]! * lean[1]! + lean[2]! * lean[2]!;
  // A feature without a normal (its triangles cancel) has no "square on": the point is beyond.
  if (!(n2 > 0)) return true;
  const along = dx * lean[0]! + dy * lean[1]! + dz * lean[2]!;
  const tangential2 = d2 - (along * along) / n2;
  return tangential2 > BEYOND_LEAN * BEYOND_LEAN * d2;
}

const lean = new Float64Array(3);
