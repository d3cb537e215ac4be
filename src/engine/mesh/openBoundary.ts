import { Feature } from './closestPointOnTriangle';
import type { MeshHit } from './closestPoint';
import type { PseudoNormals } from './pseudoNormals';

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

/** Built from the pseudo-normals' welded edge ids, so "open" means open after welding by exact coordinates. */
export function buildOpenBoundary(pn: PseudoNormals): OpenBoundary {
  const te = pn.triangleEdges;
  const tv = pn.triangleVertices;
  let edges = 0;
  for (let i = 0; i < te.length; i++) if (te[i]! + 1 > edges) edges = te[i]! + 1;
  const uses = new Uint32Array(edges);
  for (let i = 0; i < te.length; i++) uses[te[i]!]!++;
  const edgeOpen = new Uint8Array(edges);
  let vertices = 0;
  for (let i = 0; i < tv.length; i++) if (tv[i]! + 1 > vertices) vertices = tv[i]! + 1;
  const vertexOpen = new Uint8Array(vertices);
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
