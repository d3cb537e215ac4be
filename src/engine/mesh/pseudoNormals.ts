import { hypot3 } from '../math/hypot3';
import { weldVertexIds } from './weld';
import { Feature } from './closestPointOnTriangle';
import type { MeshHit } from './closestPoint';
import type { Positions, TriMesh } from './TriMesh';

/**
 * Angle-weighted pseudo-normals (Baerentzen & Aanaes, "Signed distance computation using the angle
 * weighted pseudonormal", IEEE TVCG 2005). For a closed, consistently wound 2-manifold, the sign of
 * (p - c) . n, with c the nearest point and n the pseudo-normal of the feature c lies on (face
 * normal, edge normal = sum of the two face normals, vertex normal = sum of incident face normals
 * weighted by their corner angles), is the correct inside/outside sign even where plain face normals
 * disagree (a point diagonal from a cube corner).
 *
 * Corners are welded by exact coordinates first: BREP tessellations repeat vertices on face
 * boundaries, and a vertex that is not shared would give each face its own "vertex normal". A mesh
 * marked distinctPositions (an STL, welded when parsed) skips that step.
 *
 * Computed per feature when asked, not for the whole mesh: a deviation asks for the features its
 * samples land on (a few ten thousand of a million-triangle reference's), and building every
 * normal and an edge map up front cost more than the queries themselves. What makes a feature's
 * normal cheap to find is a list of the triangles at each welded vertex (built on first need).
 * Each normal is the sum the whole-mesh loop computes, in the same order (incident triangles by
 * ascending index, corners a, b, c), so the answer is the same to the last bit whichever way it
 * was computed (pseudoNormals.lazy.test.ts). Tools that want every vertex's normal (a heat map of
 * a display mesh) read the whole arrays, built once.
 */
/** The vertex-normal memo's first size (slots; it doubles when half full). */
const MEMO_START = 1024;

export class PseudoNormals {
  /** Per triangle: welded vertex id of corners a, b, c (the mesh's own indices when its positions are distinct). */
  readonly triangleVertices: Uint32Array;
  /** Number of welded vertices. */
  readonly vertexCount: number;
  readonly positions: Positions;
  readonly indices: Uint32Array;
  /** Triangles at each welded vertex: cornerTriangles[cornerStart[w] .. cornerStart[w + 1]), ascending, once per corner. */
  private cornerStart: Uint32Array | undefined;
  private cornerTriangles: Uint32Array | undefined;
  /**
   * Vertex normals computed so far: a tie band asks for a vertex once per triangle around it, and
   * a later query for the same ones again. A deviation asks for a few thousand of a scan's
   * millions, so they are kept in a small table (vertex -> its normal, open addressing) that grows
   * with use, not in an array over every vertex (12.5 bytes a triangle); the whole-mesh getter
   * builds that array (`all`). Face normals are not kept either (25 bytes a triangle): one is a
   * cross product of the stored corners, computed again each time it is asked for, to the same bits.
   */
  private memoKeys = new Int32Array(MEMO_START).fill(-1);
  private memoNormals = new Float64Array(3 * MEMO_START);
  private memoCount = 0;
  /** Every vertex normal (computeAll), once a tool asked for them all. */
  private all: Float64Array | undefined;

  constructor(mesh: TriMesh) {
    const idx = mesh.indices;
    this.positions = mesh.positions;
    this.indices = idx;
    if (mesh.distinctPositions) {
      // Welding would map every vertex to itself.
      this.triangleVertices = idx;
      this.vertexCount = mesh.positions.length / 3;
    } else {
      const weld = weldVertexIds(mesh.positions);
      const tv = new Uint32Array(idx.length);
      for (let i = 0; i < idx.length; i++) tv[i] = weld.ids[idx[i]!]!;
      this.triangleVertices = tv;
      this.vertexCount = weld.count;
    }
  }

  /** Unit normal of triangle t into out[o..o+2]; zero for a zero-area triangle. */
  faceNormal(t: number, out: Float64Array, o = 0): Float64Array {
    const len = this.frame(t);
    let nx = 0, ny = 0, nz = 0;
    if (len > 0) {
      nx = frame[0]! / len;
      ny = frame[1]! / len;
      nz = frame[2]! / len;
    }
    out[o] = nx;
    out[o + 1] = ny;
    out[o + 2] = nz;
    return out;
  }

  /** Welded vertex w's angle-weighted sum of incident unit face normals, into out[0..2]. */
  vertexNormal(w: number, out: Float64Array): Float64Array {
    const all = this.all;
    if (all) {
      out[0] = all[3 * w]!;
      out[1] = all[3 * w + 1]!;
      out[2] = all[3 * w + 2]!;
      return out;
    }
    let slot = this.memoSlot(w);
    if (this.memoKeys[slot] !== w) {
      const start = this.cornerStarts(), triangles = this.cornerTriangles!;
      const tv = this.triangleVertices;
      let sx = 0, sy = 0, sz = 0;
      let previous = -1;
      for (let i = start[w]!; i < start[w + 1]!; i++) {
        const t = triangles[i]!;
        if (t === previous) continue;
        previous = t;
        const len = this.frame(t);
        if (!(len > 0)) continue;
        const nx = frame[0]! / len, ny = frame[1]! / len, nz = frame[2]! / len;
        for (let k = 0; k < 3; k++) {
          if (tv[3 * t + k] !== w) continue;
          const angle = k === 0 ? Math.atan2(len, frame[3]!) : this.cornerAngleAt(t, k as 1 | 2);
          sx = sx + angle * nx;
          sy = sy + angle * ny;
          sz = sz + angle * nz;
        }
      }
      if (2 * (this.memoCount + 1) > this.memoKeys.length) {
        this.growMemo();
        slot = this.memoSlot(w);
      }
      this.memoKeys[slot] = w;
      this.memoNormals[3 * slot] = sx;
      this.memoNormals[3 * slot + 1] = sy;
      this.memoNormals[3 * slot + 2] = sz;
      this.memoCount++;
    }
    const memo = this.memoNormals;
    out[0] = memo[3 * slot]!;
    out[1] = memo[3 * slot + 1]!;
    out[2] = memo[3 * slot + 2]!;
    return out;
  }

  /** Where vertex w's normal is in the memo, or the empty slot it would take. */
  private memoSlot(w: number): number {
    const keys = this.memoKeys;
    const mask = keys.length - 1;
    let slot = Math.imul(w, 0x9e3779b1) >>> 0 & mask;
    while (keys[slot] !== -1 && keys[slot] !== w) slot = (slot + 1) & mask;
    return slot;
  }

  private growMemo(): void {
    const keys = this.memoKeys, normals = this.memoNormals;
    this.memoKeys = new Int32Array(2 * keys.length).fill(-1);
    this.memoNormals = new Float64Array(6 * keys.length);
    for (let s = 0; s < keys.length; s++) {
      const w = keys[s]!;
      if (w < 0) continue;
      const to = this.memoSlot(w);
      this.memoKeys[to] = w;
      this.memoNormals[3 * to] = normals[3 * s]!;
      this.memoNormals[3 * to + 1] = normals[3 * s + 1]!;
      this.memoNormals[3 * to + 2] = normals[3 * s + 2]!;
    }
  }

  /** Sum of the unit normals of the triangles using the edge from corner k of triangle t to corner k + 1 (not normalised), into out[0..2]. */
  edgeNormal(t: number, k: number, out: Float64Array): Float64Array {
    const tv = this.triangleVertices;
    this.edgeWalk(tv[3 * t + k]!, tv[3 * t + ((k + 1) % 3)]!, out);
    return out;
  }

  /** Half-edges (of every triangle, collapsed ones included) using the edge between welded vertices a and b, saturated at 255. */
  edgeUses(a: number, b: number): number {
    const uses = this.edgeWalk(a, b);
    return uses < 255 ? uses : 255;
  }

  /**
   * The half-edges using the edge between welded vertices a and b, counted; with `out`, the sum of
   * their triangles' unit normals into it (each triangle's in ascending order, once per half-edge).
   */
  private edgeWalk(a: number, b: number, out?: Float64Array): number {
    const start = this.cornerStarts(), triangles = this.cornerTriangles!;
    const tv = this.triangleVertices;
    // Both ends see the same triangles in the same order: walk the shorter list.
    const v = start[a + 1]! - start[a]! <= start[b + 1]! - start[b]! ? a : b;
    let uses = 0;
    let sx = 0, sy = 0, sz = 0;
    let previous = -1;
    for (let i = start[v]!; i < start[v + 1]!; i++) {
      const u = triangles[i]!;
      if (u === previous) continue;
      previous = u;
      for (let j = 0; j < 3; j++) {
        const p = tv[3 * u + j]!, q = tv[3 * u + ((j + 1) % 3)]!;
        if (!((p === a && q === b) || (p === b && q === a))) continue;
        uses++;
        if (!out) continue;
        this.faceNormal(u, edgeScratch);
        sx = sx + edgeScratch[0]!;
        sy = sy + edgeScratch[1]!;
        sz = sz + edgeScratch[2]!;
      }
    }
    if (out) {
      out[0] = sx;
      out[1] = sy;
      out[2] = sz;
    }
    return uses;
  }

  /**
   * Whether the welded mesh is closed and consistently wound: around every vertex w, each edge
   * w -> n of its (non-degenerate) triangles is used once, and so is its twin n -> w. Then the
   * nearest feature's side classifies a point exactly. One walk over the corner lists, in memory
   * order (a hash of the half-edges was several times slower on a million triangles).
   */
  isClosed(): boolean {
    const start = this.cornerStarts(), triangles = this.cornerTriangles!;
    const tv = this.triangleVertices;
    if (tv.length === 0) return false;
    let out = new Int32Array(64), back = new Int32Array(64);
    for (let w = 0; w < this.vertexCount; w++) {
      const first = start[w]!, end = start[w + 1]!;
      if (end - first > out.length) {
        out = new Int32Array(2 * (end - first));
        back = new Int32Array(2 * (end - first));
      }
      let m = 0;
      let previous = -1;
      for (let i = first; i < end; i++) {
        const u = triangles[i]!;
        if (u === previous) continue;
        previous = u;
        const a = tv[3 * u]!, b = tv[3 * u + 1]!, c = tv[3 * u + 2]!;
        if (a === b || b === c || c === a) continue;
        out[m] = a === w ? b : b === w ? c : a;
        back[m++] = a === w ? c : b === w ? a : b;
      }
      // Every w -> n once and every n -> w once: the two lists are the same set without repeats.
      for (let i = 0; i < m; i++) {
        const n = out[i]!;
        let inOut = 0, inBack = 0;
        for (let j = 0; j < m; j++) {
          if (out[j] === n) inOut++;
          if (back[j] === n) inBack++;
        }
        if (inOut !== 1 || inBack !== 1) return false;
      }
    }
    return true;
  }

  /** Whether welded vertex w ends an edge that one half-edge uses (an open edge joining two distinct vertices). */
  endsOpenEdge(w: number): boolean {
    const start = this.cornerStarts(), triangles = this.cornerTriangles!;
    const tv = this.triangleVertices;
    let previous = -1;
    for (let i = start[w]!; i < start[w + 1]!; i++) {
      const u = triangles[i]!;
      if (u === previous) continue;
      previous = u;
      for (let j = 0; j < 3; j++) {
        const p = tv[3 * u + j]!, q = tv[3 * u + ((j + 1) % 3)]!;
        if (p !== q && (p === w || q === w) && this.edgeUses(p, q) === 1) return true;
      }
    }
    return false;
  }

  /** The pseudo-normal of the feature of triangle t a closest point lies on, into out[0..2] (not unit length). */
  featureNormal(t: number, feature: Feature, out: Float64Array): Float64Array {
    switch (feature) {
      case Feature.face:
        return this.faceNormal(t, out);
      case Feature.edgeAB:
      case Feature.edgeBC:
      case Feature.edgeCA:
        return this.edgeNormal(t, feature - Feature.edgeAB, out);
      default:
        return this.vertexNormal(this.triangleVertices[3 * t + feature - Feature.vertexA]!, out);
    }
  }

  /** Unit normal per triangle (zero for a zero-area triangle), for tools that read them all: a new array each time. */
  get faceNormals(): Float64Array {
    const T = this.indices.length / 3;
    const faces = new Float64Array(3 * T);
    for (let t = 0; t < T; t++) this.faceNormal(t, faces, 3 * t);
    return faces;
  }

  /**
   * The typed arrays held now (the corner lists once built; triangleVertices may be the mesh's own
   * indices), for memory accounting (meshMemory.ts).
   */
  heldArrays(): ArrayBufferView[] {
    const lists = this.cornerStart && this.cornerTriangles ? [this.cornerStart, this.cornerTriangles] : [];
    return [this.triangleVertices, this.memoKeys, this.memoNormals, ...(this.all ? [this.all] : []), ...lists];
  }

  /** Per welded vertex, the angle-weighted sum of incident unit face normals, for tools that read them all. Built once. */
  get vertexNormals(): Float64Array {
    return this.computeAll();
  }

  /**
   * Every vertex normal in one pass over the triangles (the sums in the same order as
   * vertexNormal's, so the same values); the memo is dropped, this answers from then on.
   */
  private computeAll(): Float64Array {
    if (this.all) return this.all;
    const T = this.indices.length / 3;
    const tv = this.triangleVertices;
    const vertices = new Float64Array(3 * this.vertexCount);
    for (let t = 0; t < T; t++) {
      const len = this.frame(t);
      if (!(len > 0)) continue;
      const angleA = Math.atan2(len, frame[3]!);
      const angleB = this.cornerAngleAt(t, 1);
      const angleC = this.cornerAngleAt(t, 2);
      const nx = frame[0]! / len, ny = frame[1]! / len, nz = frame[2]! / len;
      let w = tv[3 * t]! * 3;
      vertices[w] = vertices[w]! + angleA * nx;
      vertices[w + 1] = vertices[w + 1]! + angleA * ny;
      vertices[w + 2] = vertices[w + 2]! + angleA * nz;
      w = tv[3 * t + 1]! * 3;
      vertices[w] = vertices[w]! + angleB * nx;
      vertices[w + 1] = vertices[w + 1]! + angleB * ny;
      vertices[w + 2] = vertices[w + 2]! + angleB * nz;
      w = tv[3 * t + 2]! * 3;
      vertices[w] = vertices[w]! + angleC * nx;
      vertices[w + 1] = vertices[w + 1]! + angleC * ny;
      vertices[w + 2] = vertices[w + 2]! + angleC * nz;
    }
    this.all = vertices;
    this.memoKeys = new Int32Array(0);
    this.memoNormals = new Float64Array(0);
    this.memoCount = 0;
    return vertices;
  }

  /**
   * Triangle t's cross product (b - a) x (c - a) into frame[0..2] and (b - a) . (c - a) into
   * frame[3]; returns the cross product's length.
   */
  private frame(t: number): number {
    const pos = this.positions, idx = this.indices;
    const a = idx[3 * t]! * 3, b = idx[3 * t + 1]! * 3, c = idx[3 * t + 2]! * 3;
    const ax = pos[a]!, ay = pos[a + 1]!, az = pos[a + 2]!;
    const ux = pos[b]! - ax, uy = pos[b + 1]! - ay, uz = pos[b + 2]! - az;
    const vx = pos[c]! - ax, vy = pos[c + 1]! - ay, vz = pos[c + 2]! - az;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    frame[0] = nx;
    frame[1] = ny;
    frame[2] = nz;
    frame[3] = ux * vx + uy * vy + uz * vz;
    return hypot3(nx, ny, nz);
  }

  /** The angle at corner k (1: b, 2: c) of triangle t; corner a's comes with the face normal's cross product (frame). */
  private cornerAngleAt(t: number, k: 1 | 2): number {
    const pos = this.positions, idx = this.indices;
    const a = idx[3 * t]! * 3, b = idx[3 * t + 1]! * 3, c = idx[3 * t + 2]! * 3;
    const o = k === 1 ? b : c, p = k === 1 ? c : a, q = k === 1 ? a : b;
    return cornerAngle(pos[o]!, pos[o + 1]!, pos[o + 2]!, pos[p]!, pos[p + 1]!, pos[p + 2]!, pos[q]!, pos[q + 1]!, pos[q + 2]!);
  }

  /** The offsets of the triangle lists (built with the lists on first need); the lists are cornerTriangles. */
  private cornerStarts(): Uint32Array {
    if (!this.cornerStart) {
      const tv = this.triangleVertices;
      const W = this.vertexCount;
      const start = new Uint32Array(W + 1);
      for (let h = 0; h < tv.length; h++) start[tv[h]! + 1]!++;
      for (let w = 0; w < W; w++) start[w + 1]! += start[w]!;
      const fill = start.slice(0, W);
      const triangles = new Uint32Array(tv.length);
      for (let h = 0; h < tv.length; h++) triangles[fill[tv[h]!]!++] = (h / 3) | 0;
      this.cornerStart = start;
      this.cornerTriangles = triangles;
    }
    return this.cornerStart;
  }
}

const frame = new Float64Array(4);
const edgeScratch = new Float64Array(3);

export function buildPseudoNormals(mesh: TriMesh): PseudoNormals {
  return new PseudoNormals(mesh);
}

const nScratch = new Float64Array(3);

/**
 * The side of the reference surface p is on, as the origin defines it: +1 when (p - c) . n >= 0,
 * else -1, with c the hit's closest point and n the pseudo-normal of its feature. A point on the
 * surface is +1.
 */
export function sideOf(pn: PseudoNormals, hit: MeshHit, px: number, py: number, pz: number): 1 | -1 {
  pn.featureNormal(hit.triangle, hit.feature, nScratch);
  const s = (px - hit.x) * nScratch[0]! + (py - hit.y) * nScratch[1]! + (pz - hit.z) * nScratch[2]!;
  return s >= 0 ? 1 : -1;
}

/** The angle at corner o between its edges to p and q. */
function cornerAngle(ox: number, oy: number, oz: number, px: number, py: number, pz: number, qx: number, qy: number, qz: number): number {
  const ux = px - ox, uy = py - oy, uz = pz - oz;
  const vx = qx - ox, vy = qy - oy, vz = qz - oz;
  // atan2 of |u x v| and u . v keeps accuracy at angles near 0 and pi, where acos does not.
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  return Math.atan2(hypot3(cx, cy, cz), ux * vx + uy * vy + uz * vz);
}
