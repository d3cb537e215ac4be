import { hypot3 } from '../math/hypot3';
import { weldVertexIds } from './weld';
import { Feature } from './closestPointOnTriangle';
import type { MeshHit } from './closestPoint';
import type { TriMesh } from './TriMesh';

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
export class PseudoNormals {
  /** Per triangle: welded vertex id of corners a, b, c (the mesh's own indices when its positions are distinct). */
  readonly triangleVertices: Uint32Array;
  /** Number of welded vertices. */
  readonly vertexCount: number;
  private readonly positions: Float64Array;
  private readonly indices: Uint32Array;
  /** Triangles at each welded vertex: cornerTriangles[cornerStart[w] .. cornerStart[w + 1]), ascending, once per corner. */
  private cornerStart: Uint32Array | undefined;
  private cornerTriangles: Uint32Array | undefined;
  private wholeFaces: Float64Array | undefined;
  private wholeVertices: Float64Array | undefined;
  /** Vertex normals computed so far (a tie-band check asks for one vertex once per triangle around it), and which are. */
  private knownVertices: Float64Array | undefined;
  private known: Uint8Array | undefined;

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
    if (this.wholeFaces) {
      out[o] = this.wholeFaces[3 * t]!;
      out[o + 1] = this.wholeFaces[3 * t + 1]!;
      out[o + 2] = this.wholeFaces[3 * t + 2]!;
      return out;
    }
    const len = this.frame(t);
    if (len > 0) {
      out[o] = frame[0]! / len;
      out[o + 1] = frame[1]! / len;
      out[o + 2] = frame[2]! / len;
    } else {
      out[o] = out[o + 1] = out[o + 2] = 0;
    }
    return out;
  }

  /** Welded vertex w's angle-weighted sum of incident unit face normals, into out[0..2]. */
  vertexNormal(w: number, out: Float64Array): Float64Array {
    if (this.wholeVertices) {
      out[0] = this.wholeVertices[3 * w]!;
      out[1] = this.wholeVertices[3 * w + 1]!;
      out[2] = this.wholeVertices[3 * w + 2]!;
      return out;
    }
    if (!this.known) {
      this.known = new Uint8Array(this.vertexCount);
      this.knownVertices = new Float64Array(3 * this.vertexCount);
    }
    const memo = this.knownVertices!;
    if (this.known[w] === 1) {
      out[0] = memo[3 * w]!;
      out[1] = memo[3 * w + 1]!;
      out[2] = memo[3 * w + 2]!;
      return out;
    }
    const { start, triangles } = this.corners();
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
    this.known[w] = 1;
    memo[3 * w] = out[0] = sx;
    memo[3 * w + 1] = out[1] = sy;
    memo[3 * w + 2] = out[2] = sz;
    return out;
  }

  /** Sum of the unit normals of the triangles using the edge from corner k of triangle t to corner k + 1 (not normalised), into out[0..2]. */
  edgeNormal(t: number, k: number, out: Float64Array): Float64Array {
    const tv = this.triangleVertices;
    const a = tv[3 * t + k]!, b = tv[3 * t + ((k + 1) % 3)]!;
    const { start, triangles } = this.corners();
    // Both ends see the same triangles in the same order: walk the shorter list.
    const v = start[a + 1]! - start[a]! <= start[b + 1]! - start[b]! ? a : b;
    let sx = 0, sy = 0, sz = 0;
    let previous = -1;
    for (let i = start[v]!; i < start[v + 1]!; i++) {
      const u = triangles[i]!;
      if (u === previous) continue;
      previous = u;
      for (let j = 0; j < 3; j++) {
        const p = tv[3 * u + j]!, q = tv[3 * u + ((j + 1) % 3)]!;
        if (!((p === a && q === b) || (p === b && q === a))) continue;
        this.faceNormal(u, edgeScratch);
        sx = sx + edgeScratch[0]!;
        sy = sy + edgeScratch[1]!;
        sz = sz + edgeScratch[2]!;
      }
    }
    out[0] = sx;
    out[1] = sy;
    out[2] = sz;
    return out;
  }

  /** Half-edges (of every triangle, collapsed ones included) using the edge between welded vertices a and b, saturated at 255. */
  edgeUses(a: number, b: number): number {
    const { start, triangles } = this.corners();
    const tv = this.triangleVertices;
    const v = start[a + 1]! - start[a]! <= start[b + 1]! - start[b]! ? a : b;
    let uses = 0;
    let previous = -1;
    for (let i = start[v]!; i < start[v + 1]!; i++) {
      const u = triangles[i]!;
      if (u === previous) continue;
      previous = u;
      for (let j = 0; j < 3; j++) {
        const p = tv[3 * u + j]!, q = tv[3 * u + ((j + 1) % 3)]!;
        if ((p === a && q === b) || (p === b && q === a)) uses++;
      }
    }
    return uses < 255 ? uses : 255;
  }

  /** Whether welded vertex w ends an edge that one half-edge uses (an open edge joining two distinct vertices). */
  endsOpenEdge(w: number): boolean {
    const { start, triangles } = this.corners();
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

  /** Unit normal per triangle (zero for a zero-area triangle), for tools that read them all. Built once. */
  get faceNormals(): Float64Array {
    if (!this.wholeFaces) this.buildWhole();
    return this.wholeFaces!;
  }

  /** Per welded vertex, the angle-weighted sum of incident unit face normals, for tools that read them all. Built once. */
  get vertexNormals(): Float64Array {
    if (!this.wholeVertices) this.buildWhole();
    return this.wholeVertices!;
  }

  private buildWhole(): void {
    const T = this.indices.length / 3;
    const tv = this.triangleVertices;
    const faceNormals = new Float64Array(3 * T);
    const vertexNormals = new Float64Array(3 * this.vertexCount);
    for (let t = 0; t < T; t++) {
      const len = this.frame(t);
      if (!(len > 0)) continue;
      const angleA = Math.atan2(len, frame[3]!);
      const angleB = this.cornerAngleAt(t, 1);
      const angleC = this.cornerAngleAt(t, 2);
      const nx = frame[0]! / len, ny = frame[1]! / len, nz = frame[2]! / len;
      faceNormals[3 * t] = nx;
      faceNormals[3 * t + 1] = ny;
      faceNormals[3 * t + 2] = nz;
      let w = tv[3 * t]! * 3;
      vertexNormals[w] = vertexNormals[w]! + angleA * nx;
      vertexNormals[w + 1] = vertexNormals[w + 1]! + angleA * ny;
      vertexNormals[w + 2] = vertexNormals[w + 2]! + angleA * nz;
      w = tv[3 * t + 1]! * 3;
      vertexNormals[w] = vertexNormals[w]! + angleB * nx;
      vertexNormals[w + 1] = vertexNormals[w + 1]! + angleB * ny;
      vertexNormals[w + 2] = vertexNormals[w + 2]! + angleB * nz;
      w = tv[3 * t + 2]! * 3;
      vertexNormals[w] = vertexNormals[w]! + angleC * nx;
      vertexNormals[w + 1] = vertexNormals[w + 1]! + angleC * ny;
      vertexNormals[w + 2] = vertexNormals[w + 2]! + angleC * nz;
    }
    this.wholeFaces = faceNormals;
    this.wholeVertices = vertexNormals;
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

  private corners(): { start: Uint32Array; triangles: Uint32Array } {
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
    return { start: this.cornerStart, triangles: this.cornerTriangles! };
  }
}

const frame = new Float64Array(4);
const edgeScratch = new Float64Array(3);

export function buildPseudoNormals(mesh: TriMesh): PseudoNormals {
  return new PseudoNormals(mesh);
}

/** Writes the pseudo-normal of the feature a closest point lies on into out[0..2] (not unit length). */
export function pseudoNormalAt(pn: PseudoNormals, triangle: number, feature: Feature, out: Float64Array): Float64Array {
  return pn.featureNormal(triangle, feature, out);
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
