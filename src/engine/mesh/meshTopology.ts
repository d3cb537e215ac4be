import { buildEdgeMap } from './edgeMap';
import type { Positions, TriMesh } from './TriMesh';

/** Facet-shell topology of a triangle mesh, as the spec counts it for an STL body. */
export interface MeshTopology {
  triangles: number;
  /** Distinct corner points used by triangles. */
  vertices: number;
  /** Distinct undirected edges (a collapsed triangle's segment included). */
  edges: number;
  /** Edges used by exactly one triangle (open boundary); collapsed triangles use no edge. */
  boundaryEdges: number;
  /** Edges used by more than two triangles. */
  nonManifoldEdges: number;
  /** Two-triangle edges traversed in the same direction by both (inconsistent winding). */
  inconsistentEdges: number;
  /** Triangles with repeated corners or zero area. */
  degenerateTriangles: number;
  /** Closed, two-manifold and consistently wound, with at least one triangle that is not collapsed. */
  watertight: boolean;
}

/**
 * Edge statistics from the mesh's edge map (edgeMap.ts). A collapsed triangle (two equal corners)
 * is a segment: counted once as degenerate, its edge is an edge of the mesh but not a use of it
 * (else a closed mesh's edge would read as non-manifold).
 */
export function meshTopology(mesh: TriMesh): MeshTopology {
  const idx = mesh.indices;
  const p = mesh.positions;
  const V = p.length / 3;
  const T = idx.length / 3;
  const map = buildEdgeMap(idx, V);
  let edges = 0, boundary = 0, nonManifold = 0, inconsistent = 0;
  for (let e = 0; e < map.count; e++) {
    if (map.loop[e]) continue;
    const uses = map.uses[e]!;
    edges++;
    if (uses === 0) continue; // a collapsed triangle's segment only
    if (uses === 1) boundary++;
    else if (uses > 2) nonManifold++;
    else if (map.forward[e] !== 1) inconsistent++;
  }
  let degenerate = 0, collapsed = 0;
  const used = new Uint8Array(V);
  for (let t = 0; t < T; t++) {
    const a = idx[t * 3]!, b = idx[t * 3 + 1]!, c = idx[t * 3 + 2]!;
    used[a] = used[b] = used[c] = 1;
    if (a === b || b === c || c === a) collapsed++;
    if (a === b || b === c || c === a || zeroArea(p, a, b, c)) degenerate++;
  }
  let vertices = 0;
  for (let v = 0; v < V; v++) vertices += used[v]!;
  return {
    triangles: T,
    vertices,
    edges,
    boundaryEdges: boundary,
    nonManifoldEdges: nonManifold,
    inconsistentEdges: inconsistent,
    degenerateTriangles: degenerate,
    // Collapsed triangles use no edge: a mesh of nothing else has no boundary, yet bounds nothing.
    watertight: T > collapsed && boundary === 0 && nonManifold === 0 && inconsistent === 0,
  };
}

/** Whether the cross product of the edges from a is exactly zero (the test Math.hypot(cross) === 0 made, without its cost). */
function zeroArea(p: Positions, a: number, b: number, c: number): boolean {
  const ux = p[b * 3]! - p[a * 3]!, uy = p[b * 3 + 1]! - p[a * 3 + 1]!, uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
  const wx = p[c * 3]! - p[a * 3]!, wy = p[c * 3 + 1]! - p[a * 3 + 1]!, wz = p[c * 3 + 2]! - p[a * 3 + 2]!;
  return uy * wz - uz * wy === 0 && uz * wx - ux * wz === 0 && ux * wy - uy * wx === 0;
}
