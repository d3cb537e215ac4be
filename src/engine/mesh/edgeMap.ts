/**
 * The undirected edges of a triangle mesh, numbered without a hash table or per-edge objects:
 * half-edges are bucketed by their lower vertex (a counting sort), and within one vertex's bucket
 * the upper vertices are told apart by a stamp per vertex. Every step is a pass over flat arrays;
 * memory is a few words per half-edge, and a vertex with thousands of edges (a pole) costs no more
 * per edge than any other.
 */
export interface EdgeMap {
  /** Per triangle corner k (3 t + k): the edge from corner k to corner k + 1 (ab, bc, ca). */
  triangleEdges: Uint32Array;
  /** Number of distinct undirected edges, including loops (an edge from a vertex to itself). */
  count: number;
  /**
   * Per edge: half-edges of proper triangles (three distinct corner vertices) using it, saturated
   * at 255. A collapsed triangle is a segment: its edge exists (it has an id) but is not used.
   */
  uses: Uint8Array;
  /** Per edge: half-edges of every triangle using it, collapsed ones included, saturated at 255. */
  corners: Uint8Array;
  /** Per edge: those half-edges running from its lower to its higher vertex, saturated at 255. */
  forward: Uint8Array;
  /** Per edge: 1 when both ends are the same vertex (a repeated corner), else 0. */
  loop: Uint8Array;
}

/** Edges of the triangles whose corners are cornerVertex[3 t + k], vertices 0..vertexCount-1. */
export function buildEdgeMap(cornerVertex: Uint32Array, vertexCount: number): EdgeMap {
  const n = cornerVertex.length;
  if (n % 3 !== 0) throw new Error('edgeMap: corner count must be a multiple of 3.');
  const V = vertexCount;
  // Bucket offsets by lower vertex.
  const start = new Uint32Array(V + 1);
  for (let h = 0; h < n; h++) {
    const u = cornerVertex[h]!, w = cornerVertex[next(h)]!;
    if (u >= V || w >= V) throw new Error(`edgeMap: vertex ${Math.max(u, w)} out of range (${V} vertices).`);
    start[(u < w ? u : w) + 1]!++;
  }
  for (let v = 0; v < V; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, V);
  const bucket = new Uint32Array(n);
  for (let h = 0; h < n; h++) {
    const u = cornerVertex[h]!, w = cornerVertex[next(h)]!;
    bucket[fill[u < w ? u : w]!++] = h;
  }

  const triangleEdges = new Uint32Array(n);
  const uses = new Uint8Array(n);
  const corners = new Uint8Array(n);
  const forward = new Uint8Array(n);
  const loop = new Uint8Array(n);
  // stamp[w] = lower vertex + 1 whose bucket last met w; edgeOf[w] = the edge it got there.
  const stamp = new Uint32Array(V);
  const edgeOf = new Uint32Array(V);
  let count = 0;
  for (let lo = 0; lo < V; lo++) {
    for (let i = start[lo]!; i < start[lo + 1]!; i++) {
      const h = bucket[i]!;
      const u = cornerVertex[h]!, w = cornerVertex[next(h)]!;
      const hi = u < w ? w : u;
      let e: number;
      if (stamp[hi] === lo + 1) e = edgeOf[hi]!;
      else {
        e = count++;
        stamp[hi] = lo + 1;
        edgeOf[hi] = e;
        loop[e] = u === w ? 1 : 0;
      }
      triangleEdges[h] = e;
      if (corners[e]! < 255) corners[e]!++;
      if (collapsed(cornerVertex, h)) continue;
      if (uses[e]! < 255) uses[e]!++;
      if (u < w && forward[e]! < 255) forward[e]!++;
    }
  }
  return { triangleEdges, count, uses: uses.subarray(0, count), corners: corners.subarray(0, count), forward: forward.subarray(0, count), loop: loop.subarray(0, count) };
}

/** Whether corner h's triangle has two equal corner vertices. */
function collapsed(cornerVertex: Uint32Array, h: number): boolean {
  const t = h - (h % 3);
  const a = cornerVertex[t]!, b = cornerVertex[t + 1]!, c = cornerVertex[t + 2]!;
  return a === b || b === c || c === a;
}

/** The corner after corner h in its triangle. */
function next(h: number): number {
  return h % 3 === 2 ? h - 2 : h + 1;
}
