import { closestPointOnTriangle, type Feature } from './closestPointOnTriangle';
import { LINK_OFFSET, NODE_STRIDE, nodeDistanceSq, type TriangleBvh } from './TriangleBvh';

/** The nearest point found on a mesh. `triangle` is -1 (and distance Infinity) when nothing qualified. */
export interface MeshHit {
  distance: number;
  distanceSq: number;
  /** Closest point on the mesh. */
  x: number;
  y: number;
  z: number;
  /** Triangle index in the source mesh. */
  triangle: number;
  /** BVH slot of that triangle (reads its corners from bvh.slotCorners without the source mesh). */
  slot: number;
  feature: Feature;
}

export function createHit(): MeshHit {
  return { distance: Infinity, distanceSq: Infinity, x: NaN, y: NaN, z: NaN, triangle: -1, slot: -1, feature: 0 };
}

export interface NearestOptions {
  /** Only triangles strictly closer than this are considered. Default Infinity. */
  maxDistance?: number;
}

// Traversal scratch shared by every query in this module: queries are synchronous and not re-entrant.
let stackNode = new Uint32Array(128);
let stackDist = new Float64Array(128);
const triOut = new Float64Array(4);
const bestOut = new Float64Array(4);

function ensureStack(bvh: TriangleBvh): void {
  if (stackNode.length < bvh.maxDepth + 2) {
    stackNode = new Uint32Array(2 * (bvh.maxDepth + 2));
    stackDist = new Float64Array(2 * (bvh.maxDepth + 2));
  }
}

/**
 * Nearest point on the mesh to p, exact (point-triangle distance per Ericson 5.1.5). Children are
 * visited nearer-box first, and every subtree whose box is no closer than the best distance so far
 * is pruned, so the search ends with the global minimum.
 */
export function closestPoint(
  bvh: TriangleBvh,
  px: number,
  py: number,
  pz: number,
  target: MeshHit = createHit(),
  options: NearestOptions = {},
): MeshHit {
  const max = options.maxDistance ?? Infinity;
  const slot = nearestSlot(bvh, px, py, pz, max * max, false, 0, 0, 0, target.slot);
  return writeHit(bvh, slot, px, py, pz, target);
}

/**
 * Nearest point on the triangles whose unit normal has a strictly positive dot product with
 * (nx, ny, nz): the robust sign rule's candidate set ("reject reference triangles whose outward
 * normal opposes the sample's own, the nearest survivor wins"). The normal need not be unit length;
 * the test is the sign of (cross(b - a, c - a) . n), so zero-area triangles never qualify.
 */
export function closestCompatiblePoint(
  bvh: TriangleBvh,
  px: number,
  py: number,
  pz: number,
  nx: number,
  ny: number,
  nz: number,
  target: MeshHit = createHit(),
  options: NearestOptions = {},
): MeshHit {
  const max = options.maxDistance ?? Infinity;
  const slot = nearestSlot(bvh, px, py, pz, max * max, true, nx, ny, nz, target.slot);
  return writeHit(bvh, slot, px, py, pz, target);
}

function writeHit(bvh: TriangleBvh, slot: number, px: number, py: number, pz: number, target: MeshHit): MeshHit {
  if (slot < 0) {
    target.distance = target.distanceSq = Infinity;
    target.x = target.y = target.z = NaN;
    target.triangle = target.slot = -1;
    target.feature = 0;
    return target;
  }
  const d2 = closestPointOnTriangle(bvh.slotCorners, 9 * slot, px, py, pz, triOut);
  target.distanceSq = d2;
  target.distance = Math.sqrt(d2);
  target.x = triOut[0]!;
  target.y = triOut[1]!;
  target.z = triOut[2]!;
  target.feature = triOut[3]! as Feature;
  target.slot = slot;
  target.triangle = bvh.slotTriangle[slot]!;
  return target;
}

function nearestSlot(
  bvh: TriangleBvh,
  px: number,
  py: number,
  pz: number,
  maxDistSq: number,
  filtered: boolean,
  nx: number,
  ny: number,
  nz: number,
  hintSlot: number,
): number {
  if (bvh.nodeCount === 0) return -1;
  ensureStack(bvh);
  const links = bvh.nodeLinks;
  const tri = bvh.slotCorners;
  let best = maxDistSq;
  let bestSlot = -1;
  // Warm start: the previous query's triangle (a reused target) is usually near this one, and the
  // distance to any real triangle is an upper bound, so the search stays exact and prunes sooner.
  if (hintSlot >= 0 && hintSlot < bvh.slotTriangle.length && (!filtered || faces(tri, 9 * hintSlot, nx, ny, nz))) {
    const d = closestPointOnTriangle(tri, 9 * hintSlot, px, py, pz, triOut);
    if (d < best) {
      best = d;
      bestSlot = hintSlot;
    }
  }
  let sp = 0;
  let node = 0;
  if (nodeDistanceSq(bvh, 0, px, py, pz) >= best) return bestSlot;
  for (;;) {
    const count = links[NODE_STRIDE * node + LINK_OFFSET + 1]!;
    if (count > 0) {
      const first = links[NODE_STRIDE * node + LINK_OFFSET]!;
      for (let s = first; s < first + count; s++) {
        if (filtered && !faces(tri, 9 * s, nx, ny, nz)) continue;
        const d = closestPointOnTriangle(tri, 9 * s, px, py, pz, triOut);
        if (d < best) {
          best = d;
          bestSlot = s;
        }
      }
    } else {
      const left = node + 1;
      const right = links[NODE_STRIDE * node + LINK_OFFSET]!;
      const dl = nodeDistanceSq(bvh, left, px, py, pz);
      const dr = nodeDistanceSq(bvh, right, px, py, pz);
      const nearFirst = dl <= dr;
      const near = nearFirst ? left : right;
      const dn = nearFirst ? dl : dr;
      const df = nearFirst ? dr : dl;
      if (df < best) {
        stackNode[sp] = nearFirst ? right : left;
        stackDist[sp++] = df;
      }
      if (dn < best) {
        node = near;
        continue;
      }
    }
    // Pop the next subtree that can still beat the best distance.
    node = -1;
    while (sp > 0) {
      sp--;
      if (stackDist[sp]! < best) {
        node = stackNode[sp]!;
        break;
      }
    }
    if (node < 0) return bestSlot;
  }
}

/** Whether the triangle's (unnormalised) normal has a strictly positive dot with n. */
function faces(tri: Float64Array, o: number, nx: number, ny: number, nz: number): boolean {
  const ax = tri[o]!, ay = tri[o + 1]!, az = tri[o + 2]!;
  const ux = tri[o + 3]! - ax, uy = tri[o + 4]! - ay, uz = tri[o + 5]! - az;
  const vx = tri[o + 6]! - ax, vy = tri[o + 7]! - ay, vz = tri[o + 8]! - az;
  return (uy * vz - uz * vy) * nx + (uz * vx - ux * vz) * ny + (ux * vy - uy * vx) * nz > 0;
}

/** The k nearest triangles, nearest first. Reuse one per thread of queries. */
export interface NearestTriangles {
  /** How many entries are filled (at most k). */
  count: number;
  slots: Uint32Array;
  triangles: Uint32Array;
  distanceSq: Float64Array;
}

export function createNearestTriangles(k: number): NearestTriangles {
  if (!(k >= 1 && Number.isInteger(k))) throw new Error('BVH: k must be a positive integer.');
  return { count: 0, slots: new Uint32Array(k), triangles: new Uint32Array(k), distanceSq: new Float64Array(k) };
}

export interface KNearestOptions extends NearestOptions {
  /** When given, only triangles whose normal has a strictly positive dot with it are kept. */
  normal?: readonly [number, number, number];
}

/**
 * The k triangles nearest to p (k = target.slots.length), by exact point-triangle distance, sorted
 * nearest first. The pruning bound is the k-th best distance once k are held. This is the origin
 * service's candidate pool (k = 6, then 1024); the deviation rules below use radius searches
 * instead, but tools that must match the origin's pool exactly can use this.
 */
export function kNearestTriangles(
  bvh: TriangleBvh,
  px: number,
  py: number,
  pz: number,
  target: NearestTriangles,
  options: KNearestOptions = {},
): NearestTriangles {
  const k = target.slots.length;
  const maxDist = options.maxDistance ?? Infinity;
  const n = options.normal;
  target.count = 0;
  if (bvh.nodeCount === 0) return target;
  ensureStack(bvh);
  const links = bvh.nodeLinks;
  const tri = bvh.slotCorners;
  const ds = target.distanceSq;
  const sl = target.slots;
  let bound = maxDist * maxDist;
  let count = 0;
  let sp = 0;
  let node = 0;
  if (nodeDistanceSq(bvh, 0, px, py, pz) >= bound) return target;
  for (;;) {
    const c = links[NODE_STRIDE * node + LINK_OFFSET + 1]!;
    if (c > 0) {
      const first = links[NODE_STRIDE * node + LINK_OFFSET]!;
      for (let s = first; s < first + c; s++) {
        if (n && !faces(tri, 9 * s, n[0], n[1], n[2])) continue;
        const d = closestPointOnTriangle(tri, 9 * s, px, py, pz, triOut);
        if (d >= bound) continue;
        // Insertion into the sorted prefix; k is small in practice.
        let i = count < k ? count++ : k - 1;
        while (i > 0 && ds[i - 1]! > d) {
          ds[i] = ds[i - 1]!;
          sl[i] = sl[i - 1]!;
          i--;
        }
        ds[i] = d;
        sl[i] = s;
        if (count === k) bound = ds[k - 1]!;
      }
    } else {
      const left = node + 1;
      const right = links[NODE_STRIDE * node + LINK_OFFSET]!;
      const dl = nodeDistanceSq(bvh, left, px, py, pz);
      const dr = nodeDistanceSq(bvh, right, px, py, pz);
      const nearFirst = dl <= dr;
      if ((nearFirst ? dr : dl) < bound) {
        stackNode[sp] = nearFirst ? right : left;
        stackDist[sp++] = nearFirst ? dr : dl;
      }
      if ((nearFirst ? dl : dr) < bound) {
        node = nearFirst ? left : right;
        continue;
      }
    }
    node = -1;
    while (sp > 0) {
      sp--;
      if (stackDist[sp]! < bound) {
        node = stackNode[sp]!;
        break;
      }
    }
    if (node < 0) break;
  }
  target.count = count;
  for (let i = 0; i < count; i++) target.triangles[i] = bvh.slotTriangle[sl[i]!]!;
  return target;
}

/**
 * Visits every triangle within `radius` of p (closed ball) and stops early when `visit` returns
 * true. The triangle's closest point and feature are passed in `hit` (reused between calls).
 * Returns whether a visit stopped the search. Used by the tie-band check, which usually stops at
 * the first opposite-side triangle or sees only a handful of same-side ones. With `normal`, only
 * triangles whose normal has a strictly positive dot with it are visited (tested before the
 * distance, so a thin wall's far skin costs a cross product per triangle, not a closest point).
 */
export function someTriangleWithin(
  bvh: TriangleBvh,
  px: number,
  py: number,
  pz: number,
  radius: number,
  hit: MeshHit,
  visit: (hit: MeshHit) => boolean,
  normal?: readonly [number, number, number],
): boolean {
  if (bvh.nodeCount === 0 || !(radius >= 0)) return false;
  ensureStack(bvh);
  const r2 = radius * radius;
  const links = bvh.nodeLinks;
  const tri = bvh.slotCorners;
  let sp = 0;
  stackNode[sp++] = 0;
  while (sp > 0) {
    const node = stackNode[--sp]!;
    if (nodeDistanceSq(bvh, node, px, py, pz) > r2) continue;
    const c = links[NODE_STRIDE * node + LINK_OFFSET + 1]!;
    if (c === 0) {
      stackNode[sp++] = links[NODE_STRIDE * node + LINK_OFFSET]!;
      stackNode[sp++] = node + 1;
      continue;
    }
    const first = links[NODE_STRIDE * node + LINK_OFFSET]!;
    for (let s = first; s < first + c; s++) {
      // The facing test is a cross product, far cheaper than the closest point it saves.
      if (normal && !faces(tri, 9 * s, normal[0], normal[1], normal[2])) continue;
      const d = closestPointOnTriangle(tri, 9 * s, px, py, pz, bestOut);
      if (d > r2) continue;
      hit.distanceSq = d;
      hit.distance = Math.sqrt(d);
      hit.x = bestOut[0]!;
      hit.y = bestOut[1]!;
      hit.z = bestOut[2]!;
      hit.feature = bestOut[3]! as Feature;
      hit.slot = s;
      hit.triangle = bvh.slotTriangle[s]!;
      // The callback may run queries of its own; it must not be one that uses this stack.
      if (visit(hit)) return true;
    }
  }
  return false;
}
