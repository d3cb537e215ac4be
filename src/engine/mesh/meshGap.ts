import { closestPointOnTriangle } from './closestPointOnTriangle';
import { NODE_STRIDE as LAYOUT_STRIDE } from './bvhLayout';
import { nearestFirst, type BvhQuery } from './bvhTraversal';
import type { SlotCorners, TriangleBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';
// Local copies: where modules run as CommonJS (tsx: tests, bench) an imported constant is a getter
// call on every read, 6 % of a BVH build's profile in its hot loops.
const NODE_STRIDE = LAYOUT_STRIDE;

/** The smallest distance between two triangle sets and a pair of points that gives it. */
export interface TriangleSetGap {
  distance: number;
  /** On `mesh` (the first set). */
  pointOnA: [number, number, number];
  /** On the BVH's triangles (the second set). */
  pointOnB: [number, number, number];
}

const tri = new Float64Array(9);
const foot = new Float64Array(4);
const seg = new Float64Array(6);

/**
 * Minimum distance between the triangles of `mesh` and those under `bvh`, exact: two triangles are
 * as close as the nearest of their corner-to-triangle and edge-to-edge distances, or 0 where an
 * edge of one crosses the other. Each triangle of `mesh` searches the tree nearer boxes first and
 * cuts every box no closer than the best so far. This is what BRepExtrema gives for two facet
 * shells, without the kernel: two meshes never need it. `tick` is called every 1024 triangles.
 */
export async function triangleSetGap(mesh: TriMesh, bvh: TriangleBvh, tick: (done: number, total: number) => Promise<void>): Promise<TriangleSetGap> {
  const p = mesh.positions, idx = mesh.indices;
  const corners = bvh.slotCorners, bounds = bvh.nodeBounds;
  const best: TriangleSetGap = { distance: Infinity, pointOnA: [NaN, NaN, NaN], pointOnB: [NaN, NaN, NaN] };
  let bestSq = Infinity;
  const box = new Float64Array(6);
  const query: BvhQuery = {
    bound: Infinity,
    nodeScore(node) {
      const o = NODE_STRIDE * node;
      let d = 0;
      for (let k = 0; k < 3; k++) {
        const below = bounds[o + k]! - box[3 + k]!;
        const above = box[k]! - bounds[o + 3 + k]!;
        if (below > 0) d += below * below;
        else if (above > 0) d += above * above;
      }
      return d;
    },
    leaf(first, count) {
      for (let s = first; s < first + count; s++) {
        // The two triangles' boxes first: a far pair costs a dozen comparisons, not fifteen distances.
        if (boxGapSq(box, corners, 9 * s) >= bestSq) continue;
        const d = trianglePairSq(tri, corners, 9 * s, bestSq);
        if (d < bestSq) {
          bestSq = d;
          query.bound = d;
          best.pointOnA = [seg[0]!, seg[1]!, seg[2]!];
          best.pointOnB = [seg[3]!, seg[4]!, seg[5]!];
          if (d === 0) return true;
        }
      }
      return false;
    },
  };
  const triangles = idx.length / 3;
  for (let t = 0; t < triangles; t++) {
    if ((t & 1023) === 0) await tick(t, triangles);
    for (let k = 0; k < 3; k++) {
      const v = idx[3 * t + k]!;
      tri[3 * k] = p[3 * v]!;
      tri[3 * k + 1] = p[3 * v + 1]!;
      tri[3 * k + 2] = p[3 * v + 2]!;
    }
    for (let k = 0; k < 3; k++) {
      box[k] = Math.min(tri[k]!, tri[3 + k]!, tri[6 + k]!);
      box[3 + k] = Math.max(tri[k]!, tri[3 + k]!, tri[6 + k]!);
    }
    if (nearestFirst(bvh, query)) break;
  }
  best.distance = Math.sqrt(bestSq);
  return best;
}

/** Squared distance between `box` (min xyz, max xyz) and the box of the triangle at `o` in `c`. */
function boxGapSq(box: SlotCorners, c: SlotCorners, o: number): number {
  let d = 0;
  for (let k = 0; k < 3; k++) {
    const lo = Math.min(c[o + k]!, c[o + 3 + k]!, c[o + 6 + k]!);
    const hi = Math.max(c[o + k]!, c[o + 3 + k]!, c[o + 6 + k]!);
    const below = lo - box[3 + k]!;
    const above = box[k]! - hi;
    if (below > 0) d += below * below;
    else if (above > 0) d += above * above;
  }
  return d;
}

/**
 * Squared distance between triangle `a` (at 0) and triangle `b` (at ob), when below `limit`; the
 * pair of points is left in `seg` (on a, then on b). Otherwise returns Infinity.
 */
function trianglePairSq(a: SlotCorners, b: SlotCorners, ob: number, limit: number): number {
  let best = limit;
  for (let k = 0; k < 3; k++) {
    // A corner of a against b, and a corner of b against a.
    let d = closestPointOnTriangle(b, ob, a[3 * k]!, a[3 * k + 1]!, a[3 * k + 2]!, foot);
    if (d < best) best = keep(d, a[3 * k]!, a[3 * k + 1]!, a[3 * k + 2]!, foot[0]!, foot[1]!, foot[2]!);
    const o = ob + 3 * k;
    d = closestPointOnTriangle(a, 0, b[o]!, b[o + 1]!, b[o + 2]!, foot);
    if (d < best) best = keep(d, foot[0]!, foot[1]!, foot[2]!, b[o]!, b[o + 1]!, b[o + 2]!);
  }
  for (let i = 0; i < 3; i++) {
    const i2 = (i + 1) % 3;
    for (let j = 0; j < 3; j++) {
      const j2 = (j + 1) % 3;
      const d = segmentSegmentSq(a, 3 * i, a, 3 * i2, b, ob + 3 * j, b, ob + 3 * j2);
      if (d < best) best = keep(d, pa[0]!, pa[1]!, pa[2]!, pb[0]!, pb[1]!, pb[2]!);
    }
  }
  if (best > 0) {
    // Crossing triangles: an edge of one passes through the other (corners and edges missed it).
    for (let i = 0; i < 3 && best > 0; i++) {
      if (edgeCrosses(a, 3 * i, 3 * ((i + 1) % 3), b, ob)) best = keep(0, hit[0]!, hit[1]!, hit[2]!, hit[0]!, hit[1]!, hit[2]!);
      else if (edgeCrosses(b, ob + 3 * i, ob + 3 * ((i + 1) % 3), a, 0)) best = keep(0, hit[0]!, hit[1]!, hit[2]!, hit[0]!, hit[1]!, hit[2]!);
    }
  }
  return best < limit ? best : Infinity;
}

function keep(d: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  seg[0] = ax; seg[1] = ay; seg[2] = az;
  seg[3] = bx; seg[4] = by; seg[5] = bz;
  return d;
}

const pa = new Float64Array(3);
const pb = new Float64Array(3);

/** Squared distance between segments p1q1 and p2q2 (Ericson 5.1.9); the closest points in pa, pb. */
function segmentSegmentSq(A: SlotCorners, p1: number, B: SlotCorners, q1: number, C: SlotCorners, p2: number, D: SlotCorners, q2: number): number {
  const d1x = B[q1]! - A[p1]!, d1y = B[q1 + 1]! - A[p1 + 1]!, d1z = B[q1 + 2]! - A[p1 + 2]!;
  const d2x = D[q2]! - C[p2]!, d2y = D[q2 + 1]! - C[p2 + 1]!, d2z = D[q2 + 2]! - C[p2 + 2]!;
  const rx = A[p1]! - C[p2]!, ry = A[p1 + 1]! - C[p2 + 1]!, rz = A[p1 + 2]! - C[p2 + 2]!;
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  let s: number, t: number;
  if (a === 0 && e === 0) {
    s = t = 0;
  } else if (a === 0) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e === 0) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = a * e - b * b;
      s = denom > 0 ? clamp01((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  pa[0] = A[p1]! + d1x * s; pa[1] = A[p1 + 1]! + d1y * s; pa[2] = A[p1 + 2]! + d1z * s;
  pb[0] = C[p2]! + d2x * t; pb[1] = C[p2 + 1]! + d2y * t; pb[2] = C[p2 + 2]! + d2z * t;
  const x = pa[0] - pb[0], y = pa[1] - pb[1], z = pa[2] - pb[2];
  return x * x + y * y + z * z;
}

function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

const hit = new Float64Array(3);

/** Whether segment E[p]E[q] meets triangle T (at o) in its interior or boundary; the point in `hit`. */
function edgeCrosses(E: SlotCorners, p: number, q: number, T: SlotCorners, o: number): boolean {
  const ox = E[p]!, oy = E[p + 1]!, oz = E[p + 2]!;
  const dx = E[q]! - ox, dy = E[q + 1]! - oy, dz = E[q + 2]! - oz;
  const e1x = T[o + 3]! - T[o]!, e1y = T[o + 4]! - T[o + 1]!, e1z = T[o + 5]! - T[o + 2]!;
  const e2x = T[o + 6]! - T[o]!, e2y = T[o + 7]! - T[o + 1]!, e2z = T[o + 8]! - T[o + 2]!;
  const hx = dy * e2z - dz * e2y, hy = dz * e2x - dx * e2z, hz = dx * e2y - dy * e2x;
  const det = e1x * hx + e1y * hy + e1z * hz;
  // Parallel to the plane: a crossing would be coplanar, and then an edge-edge or corner distance is 0 already.
  if (det === 0) return false;
  const inv = 1 / det;
  const sx = ox - T[o]!, sy = oy - T[o + 1]!, sz = oz - T[o + 2]!;
  const u = (sx * hx + sy * hy + sz * hz) * inv;
  if (u < 0 || u > 1) return false;
  const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < 0 || u + v > 1) return false;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (t < 0 || t > 1) return false;
  hit[0] = ox + dx * t; hit[1] = oy + dy * t; hit[2] = oz + dz * t;
  return true;
}
