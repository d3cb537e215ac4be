import { describe, expect, it } from 'vitest';
import { buildEdgeMap } from './edgeMap';
import { seededRandom, uvSphere } from './generators';
import { meshTopology } from './meshTopology';

/** Independent reference: a Map from "lo,hi" to the half-edges that use it. */
function referenceEdges(corners: Uint32Array) {
  const edges = new Map<string, { halfEdges: number[]; uses: number; forward: number }>();
  for (let h = 0; h < corners.length; h++) {
    const t = h - (h % 3);
    const u = corners[h]!, w = corners[t + ((h % 3) + 1) % 3]!;
    const key = `${Math.min(u, w)},${Math.max(u, w)}`;
    const e = edges.get(key) ?? { halfEdges: [], uses: 0, forward: 0 };
    edges.set(key, e);
    e.halfEdges.push(h);
    const [a, b, c] = [corners[t]!, corners[t + 1]!, corners[t + 2]!];
    if (a === b || b === c || c === a) continue;
    e.uses++;
    if (u < w) e.forward++;
  }
  return edges;
}

/** A mesh with shared, repeated (collapsed), non-manifold and reversed triangles. */
function messyCorners(vertices: number, triangles: number, seed: number): Uint32Array {
  const rnd = seededRandom(seed);
  const corners = new Uint32Array(3 * triangles);
  for (let t = 0; t < triangles; t++) {
    for (let k = 0; k < 3; k++) corners[3 * t + k] = Math.floor(rnd() * vertices);
    if (t > 0 && rnd() < 0.3) {
      // Share an edge with the previous triangle, in either direction.
      const flip = rnd() < 0.5;
      corners[3 * t] = corners[3 * t - (flip ? 2 : 3)]!;
      corners[3 * t + 1] = corners[3 * t - (flip ? 3 : 2)]!;
    }
    if (rnd() < 0.05) corners[3 * t + 1] = corners[3 * t]!; // collapsed
  }
  return corners;
}

describe('buildEdgeMap', () => {
  it('numbers every undirected edge once and counts uses like a map of vertex pairs', () => {
    for (const [V, T, seed] of [
      [5, 40, 1],
      [60, 300, 2],
      [2000, 3000, 3],
    ] as const) {
      const corners = messyCorners(V, T, seed);
      const map = buildEdgeMap(corners, V);
      const ref = referenceEdges(corners);
      expect(map.count).toBe(ref.size);
      for (const [key, e] of ref) {
        const id = map.triangleEdges[e.halfEdges[0]!]!;
        for (const h of e.halfEdges) expect(map.triangleEdges[h]).toBe(id);
        expect(map.uses[id]).toBe(e.uses);
        expect(map.corners[id]).toBe(e.halfEdges.length);
        expect(map.forward[id]).toBe(e.forward);
        const [lo, hi] = key.split(',').map(Number);
        expect(map.loop[id]).toBe(lo === hi ? 1 : 0);
      }
    }
  });

  it('handles a vertex shared by thousands of edges (a pole) and rejects bad input', () => {
    const sphere = uvSphere(1, 4000, 3);
    const map = buildEdgeMap(sphere.indices, sphere.positions.length / 3);
    // 2 poles + 2 rings of 4000: edges = V + F - 2 (Euler) = 8002 + 16000 - 2.
    expect(map.count).toBe(8002 + 16000 - 2);
    expect(Array.from(map.uses).every((u) => u === 2)).toBe(true);
    expect(() => buildEdgeMap(new Uint32Array([0, 1]), 3)).toThrow(/multiple of 3/);
    expect(() => buildEdgeMap(new Uint32Array([0, 1, 3]), 3)).toThrow(/out of range/);
  });
});

describe('meshTopology on the edge map', () => {
  it('counts edges, boundary, non-manifold and inconsistent edges as the reference map does', () => {
    const corners = messyCorners(300, 2000, 4);
    const positions = new Float64Array(3 * 300).map((_, i) => (i * 7919) % 101);
    const topo = meshTopology({ positions, indices: corners });
    const ref = referenceEdges(corners);
    let edges = 0, boundary = 0, nonManifold = 0, inconsistent = 0;
    for (const [key, e] of ref) {
      const [lo, hi] = key.split(',').map(Number);
      if (lo === hi) continue;
      edges++;
      if (e.uses === 1) boundary++;
      else if (e.uses > 2) nonManifold++;
      else if (e.uses === 2 && e.forward !== 1) inconsistent++;
    }
    expect(topo).toMatchObject({ edges, boundaryEdges: boundary, nonManifoldEdges: nonManifold, inconsistentEdges: inconsistent });
  });
});
