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
 * of the whole reference. "Open" means open after welding by exact coordinates, and, for coverage
 * (weldTolerant), also after the tolerance weld of TolerantWeld.
 */
export class OpenBoundary {
  /** Per welded vertex: 0 not asked yet, 1 ends an open edge, 2 does not. */
  private readonly vertexState: Uint8Array;
  /** The tolerance weld (coverage only), built when the first exactly-open feature is asked about; null: open means open after the exact weld. */
  private tolerant: TolerantWeld | null | undefined;

  constructor(
    readonly pseudoNormals: PseudoNormals,
    /** Weld within WELD_SHARE of the median edge length before calling an edge open (coverage of scans; the mesh keeps its triangles). */
    private readonly weldTolerant = false,
  ) {
    this.vertexState = new Uint8Array(pseudoNormals.vertexCount);
    if (!weldTolerant) this.tolerant = null;
  }

  /** Whether the edge from corner k of triangle t to corner k + 1 is open: one half-edge uses it, and it joins two distinct vertices. */
  edgeOpen(t: number, k: number): boolean {
    const tv = this.pseudoNormals.triangleVertices;
    const a = tv[3 * t + k]!, b = tv[3 * t + ((k + 1) % 3)]!;
    // A collapsed triangle's "edge" from a vertex to itself bounds nothing.
    if (!(a !== b && this.pseudoNormals.edgeUses(a, b) === 1)) return false;
    const weld = this.tolerantWeld();
    return weld === null || weld.edgeOpen(a, b);
  }

  /** Whether welded vertex w ends an open edge. */
  vertexOpen(w: number): boolean {
    let state = this.vertexState[w]!;
    if (state === 0) {
      let open = this.pseudoNormals.endsOpenEdge(w);
      if (open) {
        const weld = this.tolerantWeld();
        if (weld) open = weld.endsOpenEdge(w);
      }
      this.vertexState[w] = state = open ? 1 : 2;
    }
    return state === 1;
  }

  private tolerantWeld(): TolerantWeld | null {
    if (this.tolerant === undefined) this.tolerant = new TolerantWeld(this.pseudoNormals);
    return this.tolerant;
  }
}

/** The tolerance of the coverage weld, as a share of the mesh's median edge length. */
export const WELD_SHARE = 0.3;

/**
 * The exactly welded vertices of a mesh welded again within a tolerance (WELD_SHARE x the median
 * edge length, and x the shortest edge at either vertex), for the open-boundary test only: a triangle soup whose corners do not coincide
 * (an exporter writing each triangle on its own, noise added per corner) covers its surface without
 * holes, and its triangle edges are not the rim of missing data. In vertex order, each vertex joins
 * the first earlier representative within the tolerance (grid cells of the tolerance's size), so
 * the weld is deterministic and never chains.
 */
class TolerantWeld {
  /** Tolerant id per exactly welded vertex. */
  private readonly ids: Uint32Array;
  private readonly start: Uint32Array;
  private readonly triangles: Uint32Array;
  private readonly tv: Uint32Array;

  constructor(pn: PseudoNormals) {
    const W = pn.vertexCount;
    const etv = pn.triangleVertices;
    const pos = pn.positions, idx = pn.indices;
    // A position per exactly welded vertex (its first corner's).
    const xyz = new Float64Array(3 * W).fill(NaN);
    for (let h = 0; h < etv.length; h++) {
      const w = etv[h]!;
      if (xyz[3 * w] === xyz[3 * w]) continue;
      const o = 3 * idx[h]!;
      xyz[3 * w] = pos[o]!;
      xyz[3 * w + 1] = pos[o + 1]!;
      xyz[3 * w + 2] = pos[o + 2]!;
    }
    const tol = WELD_SHARE * medianEdge(etv, xyz);
    this.ids = weldWithin(xyz, W, tol, shortestEdges(etv, xyz, W));
    const tv = new Uint32Array(etv.length);
    for (let h = 0; h < etv.length; h++) tv[h] = this.ids[etv[h]!]!;
    this.tv = tv;
    let count = 0;
    for (let w = 0; w < W; w++) count = Math.max(count, this.ids[w]! + 1);
    const start = new Uint32Array(count + 1);
    for (let h = 0; h < tv.length; h++) start[tv[h]! + 1]!++;
    for (let w = 0; w < count; w++) start[w + 1]! += start[w]!;
    const fill = start.slice(0, count);
    const triangles = new Uint32Array(tv.length);
    for (let h = 0; h < tv.length; h++) triangles[fill[tv[h]!]!++] = (h / 3) | 0;
    this.start = start;
    this.triangles = triangles;
  }

  /** Whether the edge between exactly welded vertices a and b is open after this weld (one half-edge; collapsed edges are not). */
  edgeOpen(a: number, b: number): boolean {
    const A = this.ids[a]!, B = this.ids[b]!;
    return A !== B && this.uses(A, B) === 1;
  }

  /** Whether exactly welded vertex w ends an edge open after this weld. */
  endsOpenEdge(w: number): boolean {
    const W = this.ids[w]!;
    const tv = this.tv;
    let previous = -1;
    for (let i = this.start[W]!; i < this.start[W + 1]!; i++) {
      const u = this.triangles[i]!;
      if (u === previous) continue;
      previous = u;
      for (let j = 0; j < 3; j++) {
        const p = tv[3 * u + j]!, q = tv[3 * u + ((j + 1) % 3)]!;
        if (p !== q && (p === W || q === W) && this.uses(p, q) === 1) return true;
      }
    }
    return false;
  }

  /** Half-edges between tolerant vertices A and B. */
  private uses(A: number, B: number): number {
    const start = this.start, tv = this.tv;
    const v = start[A + 1]! - start[A]! <= start[B + 1]! - start[B]! ? A : B;
    let uses = 0;
    let previous = -1;
    for (let i = start[v]!; i < start[v + 1]!; i++) {
      const u = this.triangles[i]!;
      if (u === previous) continue;
      previous = u;
      for (let j = 0; j < 3; j++) {
        const p = tv[3 * u + j]!, q = tv[3 * u + ((j + 1) % 3)]!;
        if ((p === A && q === B) || (p === B && q === A)) uses++;
      }
    }
    return uses;
  }
}

/** Per vertex, its shortest edge (Infinity for a vertex of no edge). */
function shortestEdges(tv: Uint32Array, xyz: Float64Array, W: number): Float64Array {
  const shortest = new Float64Array(W).fill(Infinity);
  for (let h = 0; h < tv.length; h++) {
    const a = tv[h]!, b = tv[h - (h % 3) + ((h + 1) % 3)]!;
    if (a === b) continue;
    const l = Math.hypot(xyz[3 * a]! - xyz[3 * b]!, xyz[3 * a + 1]! - xyz[3 * b + 1]!, xyz[3 * a + 2]! - xyz[3 * b + 2]!);
    if (l < shortest[a]!) shortest[a] = l;
    if (l < shortest[b]!) shortest[b] = l;
  }
  return shortest;
}

/** Median edge length over up to 4096 triangles taken at an even stride (deterministic). */
function medianEdge(tv: Uint32Array, xyz: Float64Array): number {
  const T = tv.length / 3;
  const step = Math.max(1, Math.floor(T / 4096));
  const lengths: number[] = [];
  for (let t = 0; t < T; t += step) {
    for (let k = 0; k < 3; k++) {
      const a = 3 * tv[3 * t + k]!, b = 3 * tv[3 * t + ((k + 1) % 3)]!;
      const l = Math.hypot(xyz[a]! - xyz[b]!, xyz[a + 1]! - xyz[b + 1]!, xyz[a + 2]! - xyz[b + 2]!);
      if (l > 0) lengths.push(l);
    }
  }
  lengths.sort((x, y) => x - y);
  return lengths.length ? lengths[lengths.length >> 1]! : 0;
}

/**
 * Each vertex, in order, takes the id of the first representative within `tol` (and within
 * WELD_SHARE of either one's shortest edge, so that fine triangles beside coarse ones never weld
 * across: a hole's rim stays open) in its own or a neighbouring grid cell (cells of size tol: the 2 x 2 x 2 block on the side of the vertex's
 * half-cell holds every point within tol), else becomes a representative with a new id.
 */
function weldWithin(xyz: Float64Array, W: number, tol: number, shortest: Float64Array): Uint32Array {
  const ids = new Uint32Array(W);
  if (!(tol > 0)) {
    for (let w = 0; w < W; w++) ids[w] = w;
    return ids;
  }
  const heads = new Map<string, number>();
  const next = new Int32Array(W).fill(-1);
  const tol2 = tol * tol;
  let count = 0;
  for (let w = 0; w < W; w++) {
    const x = xyz[3 * w]!, y = xyz[3 * w + 1]!, z = xyz[3 * w + 2]!;
    const fx = x / tol, fy = y / tol, fz = z / tol;
    const cx = Math.floor(fx), cy = Math.floor(fy), cz = Math.floor(fz);
    const sx = fx - cx < 0.5 ? -1 : 1, sy = fy - cy < 0.5 ? -1 : 1, sz = fz - cz < 0.5 ? -1 : 1;
    let found = -1;
    for (let c = 0; c < 8 && found < 0; c++) {
      let r = heads.get(`${cx + (c & 1 ? sx : 0)},${cy + (c & 2 ? sy : 0)},${cz + (c & 4 ? sz : 0)}`) ?? -1;
      for (; r >= 0; r = next[r]!) {
        const dx = xyz[3 * r]! - x, dy = xyz[3 * r + 1]! - y, dz = xyz[3 * r + 2]! - z;
        const local = WELD_SHARE * Math.min(shortest[w]!, shortest[r]!);
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 <= tol2 && d2 <= local * local) {
          found = r;
          break;
        }
      }
    }
    if (found >= 0) {
      ids[w] = ids[found]!;
      continue;
    }
    ids[w] = count++;
    const key = `${cx},${cy},${cz}`;
    next[w] = heads.get(key) ?? -1;
    heads.set(key, w);
  }
  return ids;
}

export function buildOpenBoundary(pn: PseudoNormals, weldTolerant = false): OpenBoundary {
  return new OpenBoundary(pn, weldTolerant);
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
