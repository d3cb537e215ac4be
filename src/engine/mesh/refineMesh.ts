import type { TriMesh } from './TriMesh';

/** The refined triangles: the input's vertices first, in their order, then the new ones. */
export interface RefinedMesh {
  positions: Float64Array;
  indices: Uint32Array;
  /** Per triangle, the input triangle it came from. */
  parent: Uint32Array;
  /** Vertices of the input (the first `inputVertices` of `positions` are the input's, unchanged). */
  inputVertices: number;
}

/** Passes after which refinement stops whatever is left (each pass halves every edge over the limit). */
const MAX_PASSES = 40;

/**
 * Splits triangles until no edge is longer than `maxEdge`: every edge over the limit is cut at its
 * midpoint, once, whichever triangle asks (edges are keyed by their two vertex indices), and each
 * triangle is replaced by 2, 3 or 4 according to how many of its edges were cut, so the result is
 * conforming (no T-junctions) wherever the input was. Copies of a vertex with identical coordinates
 * (a BREP tessellation's per-face copies along a shared edge) get midpoints with identical
 * coordinates, since the rule only reads coordinates. Orientation is kept. Stops early, with what it
 * has, when the vertex count would pass `maxVertices`.
 */
export function refineToEdgeLength(mesh: TriMesh, maxEdge: number, maxVertices: number): RefinedMesh {
  const inputVertices = mesh.positions.length / 3;
  let pos: number[] = Array.from(mesh.positions);
  let idx = Uint32Array.from(mesh.indices);
  let parent = new Uint32Array(idx.length / 3).map((_, t) => t);
  if (!(maxEdge > 0) || !Number.isFinite(maxEdge)) return { positions: Float64Array.from(pos), indices: idx, parent, inputVertices };
  const limit2 = maxEdge * maxEdge;
  const len2 = (a: number, b: number) => {
    const dx = pos[3 * a]! - pos[3 * b]!, dy = pos[3 * a + 1]! - pos[3 * b + 1]!, dz = pos[3 * a + 2]! - pos[3 * b + 2]!;
    return dx * dx + dy * dy + dz * dz;
  };
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const n = pos.length / 3;
    const mid = new Map<number, number>();
    const midpoint = (a: number, b: number): number => {
      if (!(len2(a, b) > limit2)) return -1;
      const key = a < b ? a * n + b : b * n + a;
      let m = mid.get(key);
      if (m === undefined) {
        m = pos.length / 3;
        pos.push((pos[3 * a]! + pos[3 * b]!) / 2, (pos[3 * a + 1]! + pos[3 * b + 1]!) / 2, (pos[3 * a + 2]! + pos[3 * b + 2]!) / 2);
        mid.set(key, m);
      }
      return m;
    };
    const out: number[] = [];
    const outParent: number[] = [];
    for (let t = 0; t < idx.length / 3; t++) {
      const a = idx[3 * t]!, b = idx[3 * t + 1]!, c = idx[3 * t + 2]!;
      const ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      const before = out.length;
      if (ab < 0 && bc < 0 && ca < 0) out.push(a, b, c);
      else if (ab >= 0 && bc >= 0 && ca >= 0) out.push(a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca);
      else if (ab >= 0 && bc < 0 && ca < 0) out.push(a, ab, c, ab, b, c);
      else if (bc >= 0 && ab < 0 && ca < 0) out.push(b, bc, a, bc, c, a);
      else if (ca >= 0 && ab < 0 && bc < 0) out.push(c, ca, b, ca, a, b);
      else if (ca < 0) out.push(ab, b, bc, a, ab, bc, a, bc, c);
      else if (ab < 0) out.push(bc, c, ca, b, bc, ca, b, ca, a);
      else out.push(ca, a, ab, c, ca, ab, c, ab, b);
      for (let k = before; k < out.length; k += 3) outParent.push(parent[t]!);
    }
    if (mid.size === 0) break;
    if (pos.length / 3 > maxVertices) {
      // Over budget: keep the last pass's triangles (the midpoints it made stay unused).
      pos = pos.slice(0, 3 * n);
      break;
    }
    idx = Uint32Array.from(out);
    parent = Uint32Array.from(outParent);
  }
  return { positions: Float64Array.from(pos), indices: idx, parent, inputVertices };
}

/** Whether some triangle edge is longer than `maxEdge` (a dense scan's is not: nothing to refine, nothing to copy). */
export function hasEdgeLongerThan(mesh: TriMesh, maxEdge: number): boolean {
  const p = mesh.positions, idx = mesh.indices;
  const limit2 = maxEdge * maxEdge;
  for (let t = 0; t < idx.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = 3 * idx[t + k]!, b = 3 * idx[t + ((k + 1) % 3)]!;
      const dx = p[a]! - p[b]!, dy = p[a + 1]! - p[b + 1]!, dz = p[a + 2]! - p[b + 2]!;
      if (dx * dx + dy * dy + dz * dz > limit2) return true;
    }
  }
  return false;
}

/** Total area of a mesh's triangles. */
export function meshArea(mesh: TriMesh): number {
  const p = mesh.positions, idx = mesh.indices;
  let area = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t]!, b = 3 * idx[t + 1]!, c = 3 * idx[t + 2]!;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
    area += 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  }
  return area;
}
