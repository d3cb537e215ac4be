import type { TriMesh } from './TriMesh';

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
  /** Closed, two-manifold and consistently wound. */
  watertight: boolean;
}

/**
 * Edge statistics by sorting one key per half-edge: key = 2 * (lo * V + hi) + (reversed ? 1 : 0).
 * lo * V + hi stays exact in a double up to 2^52, so V up to 2^26 vertices.
 */
export function meshTopology(mesh: TriMesh): MeshTopology {
  const idx = mesh.indices;
  const p = mesh.positions;
  const V = p.length / 3;
  const T = idx.length / 3;
  const keys = new Float64Array(idx.length);
  let k = 0;
  let degenerate = 0;
  const used = new Uint8Array(V);
  // A collapsed triangle (two equal corners) is a segment: counted once as degenerate, its edge is an
  // edge of the mesh but not a use of it (else a closed mesh's edge would read as non-manifold).
  const segments: number[] = [];
  for (let t = 0; t < T; t++) {
    const a = idx[t * 3]!, b = idx[t * 3 + 1]!, c = idx[t * 3 + 2]!;
    used[a] = used[b] = used[c] = 1;
    if (a === b || b === c || c === a) {
      degenerate++;
      const [u, w] = a !== b ? [a, b] : [a, c];
      if (u !== w) segments.push(u < w ? u * V + w : w * V + u);
      continue;
    }
    if (triangleArea2(p, a, b, c) === 0) degenerate++;
    for (const [u, w] of [
      [a, b],
      [b, c],
      [c, a],
    ] as const) {
      if (u === w) continue;
      keys[k++] = u < w ? 2 * (u * V + w) : 2 * (w * V + u) + 1;
    }
  }
  const sorted = keys.subarray(0, k).sort();
  let edges = 0, boundary = 0, nonManifold = 0, inconsistent = 0;
  for (let i = 0; i < sorted.length; ) {
    const edge = Math.floor(sorted[i]! / 2);
    let j = i;
    let forward = 0;
    while (j < sorted.length && Math.floor(sorted[j]! / 2) === edge) {
      if (sorted[j]! % 2 === 0) forward++;
      j++;
    }
    const uses = j - i;
    edges++;
    if (uses === 1) boundary++;
    else if (uses > 2) nonManifold++;
    else if (forward !== 1) inconsistent++;
    i = j;
  }
  for (const edge of new Set(segments)) if (!hasEdge(sorted, edge)) edges++;
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
    watertight: T > 0 && boundary === 0 && nonManifold === 0 && inconsistent === 0,
  };
}

function triangleArea2(p: Float64Array, a: number, b: number, c: number): number {
  const ux = p[b * 3]! - p[a * 3]!, uy = p[b * 3 + 1]! - p[a * 3 + 1]!, uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
  const wx = p[c * 3]! - p[a * 3]!, wy = p[c * 3 + 1]! - p[a * 3 + 1]!, wz = p[c * 3 + 2]! - p[a * 3 + 2]!;
  return Math.hypot(uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx);
}

/** Whether the sorted half-edge keys hold the undirected edge (key / 2 rounded down). */
function hasEdge(sorted: Float64Array, edge: number): boolean {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Math.floor(sorted[mid]! / 2) < edge) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && Math.floor(sorted[lo]! / 2) === edge;
}
