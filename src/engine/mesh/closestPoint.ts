import { hypot3 } from '../math/hypot3';
import { closestPointOnTriangle, type Feature } from './closestPointOnTriangle';
import { LINK_OFFSET as LAYOUT_LINK, NODE_STRIDE as LAYOUT_STRIDE } from './bvhLayout';
import { depthFirst, nearestFirst, type BvhQuery } from './bvhTraversal';
import { nearestSlotIn } from './nearestSearch';
import { nodeDistanceSq, type SlotCorners, type TriangleBvh } from './TriangleBvh';
// Local copies: where modules run as CommonJS (tsx: tests, bench) an imported constant is a getter
// call on every read, 6 % of a BVH build's profile in its hot loops.
const NODE_STRIDE = LAYOUT_STRIDE, LINK_OFFSET = LAYOUT_LINK;

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

interface NearestOptions {
  /** Only triangles strictly closer than this are considered. Default Infinity. */
  maxDistance?: number;
}

const triOut = new Float64Array(4);
const bestOut = new Float64Array(4);

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
  const slot = nearestSlotIn(bvh, px, py, pz, max * max, target.slot);
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

/**
 * The nearest-slot search as a BvhQuery: `bound` is the best squared distance so far. With a
 * filter normal, triangles that do not face it are skipped, and so is every subtree whose normal
 * box says none of its triangles can (as good as out of reach).
 */
class NearestSlot implements BvhQuery {
  bound = Infinity;
  slot = -1;
  bvh: TriangleBvh | undefined;
  tri: SlotCorners = NO_CORNERS;
  cones: Int8Array | undefined;
  px = 0;
  py = 0;
  pz = 0;
  nx = 0;
  ny = 0;
  nz = 0;

  nodeScore(node: number): number {
    if (this.cones && !mayFace(this.cones, node, this.nx, this.ny, this.nz)) return Infinity;
    return nodeDistanceSq(this.bvh!, node, this.px, this.py, this.pz);
  }

  leaf(first: number, count: number): boolean {
    const tri = this.tri;
    for (let s = first; s < first + count; s++) {
      if (this.cones && !faces(tri, 9 * s, this.nx, this.ny, this.nz)) continue;
      const d = closestPointOnTriangle(tri, 9 * s, this.px, this.py, this.pz, triOut);
      if (d < this.bound) {
        this.bound = d;
        this.slot = s;
      }
    }
    return false;
  }
}

const NO_CORNERS = new Float64Array(0);
const nearestQuery = new NearestSlot();

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
  const q = nearestQuery;
  const tri = bvh.slotCorners;
  q.bvh = bvh;
  q.tri = tri;
  q.px = px;
  q.py = py;
  q.pz = pz;
  q.nx = nx;
  q.ny = ny;
  q.nz = nz;
  q.bound = maxDistSq;
  q.slot = -1;
  // Warm start: the previous query's triangle (a reused target) is usually near this one, and the
  // distance to any real triangle is an upper bound, so the search stays exact and prunes sooner.
  if (hintSlot >= 0 && hintSlot < bvh.slotTriangle.length && (!filtered || faces(tri, 9 * hintSlot, nx, ny, nz))) {
    const d = closestPointOnTriangle(tri, 9 * hintSlot, px, py, pz, triOut);
    if (d < q.bound) {
      q.bound = d;
      q.slot = hintSlot;
    }
  }
  q.cones = filtered ? normalBoundsOf(bvh) : undefined;
  nearestFirst(bvh, q);
  // Drop the references: a module-level query must not keep a tree alive.
  q.bvh = q.cones = undefined;
  q.tri = NO_CORNERS;
  return q.slot;
}

/** Whether the triangle's (unnormalised) normal has a strictly positive dot with n. */
function faces(tri: SlotCorners, o: number, nx: number, ny: number, nz: number): boolean {
  const ax = tri[o]!, ay = tri[o + 1]!, az = tri[o + 2]!;
  const ux = tri[o + 3]! - ax, uy = tri[o + 4]! - ay, uz = tri[o + 5]! - az;
  const vx = tri[o + 6]! - ax, vy = tri[o + 7]! - ay, vz = tri[o + 8]! - az;
  return (uy * vz - uz * vy) * nx + (uz * vx - ux * vz) * ny + (ux * vy - uy * vx) * nz > 0;
}

/** The k nearest triangles, nearest first. Reuse one per thread of queries. */
interface NearestTriangles {
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

interface KNearestOptions extends NearestOptions {
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
  const maxDist = options.maxDistance ?? Infinity;
  target.count = 0;
  if (bvh.nodeCount === 0) return target;
  const q = new KNearest(bvh, px, py, pz, target, options.normal, maxDist * maxDist);
  nearestFirst(bvh, q);
  target.count = q.count;
  for (let i = 0; i < q.count; i++) target.triangles[i] = bvh.slotTriangle[target.slots[i]!]!;
  return target;
}

/** `bound` is the k-th best squared distance once k are held. */
class KNearest implements BvhQuery {
  count = 0;
  constructor(
    private readonly bvh: TriangleBvh,
    private readonly px: number,
    private readonly py: number,
    private readonly pz: number,
    private readonly target: NearestTriangles,
    private readonly normal: readonly [number, number, number] | undefined,
    public bound: number,
  ) {}

  nodeScore(node: number): number {
    return nodeDistanceSq(this.bvh, node, this.px, this.py, this.pz);
  }

  leaf(first: number, c: number): boolean {
    const tri = this.bvh.slotCorners, n = this.normal;
    const ds = this.target.distanceSq, sl = this.target.slots, k = sl.length;
    for (let s = first; s < first + c; s++) {
      if (n && !faces(tri, 9 * s, n[0], n[1], n[2])) continue;
      const d = closestPointOnTriangle(tri, 9 * s, this.px, this.py, this.pz, triOut);
      if (d >= this.bound) continue;
      // Insertion into the sorted prefix; k is small in practice.
      let i = this.count < k ? this.count++ : k - 1;
      while (i > 0 && ds[i - 1]! > d) {
        ds[i] = ds[i - 1]!;
        sl[i] = sl[i - 1]!;
        i--;
      }
      ds[i] = d;
      sl[i] = s;
      if (this.count === k) this.bound = ds[k - 1]!;
    }
    return false;
  }
}

/**
 * Visits every triangle within `radius` of p (closed ball) and stops early when `visit` returns
 * true. The triangle's closest point and feature are passed in `hit` (reused between calls).
 * Returns whether a visit stopped the search. Used by the tie-band check, which usually stops at
 * the first opposite-side triangle or sees only a handful of same-side ones. With `normal`, only
 * triangles whose normal has a strictly positive dot with it are visited (tested before the
 * distance, so a thin wall's far skin costs a cross product per triangle, not a closest point).
 * The callback may run queries of its own, this one included.
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
  // One query object serves every call but a nested one (a callback searching again).
  const q = withinQuery.busy ? new TrianglesWithin() : withinQuery;
  q.busy = true;
  q.bvh = bvh;
  q.px = px;
  q.py = py;
  q.pz = pz;
  q.r2 = radius * radius;
  q.hit = hit;
  q.visit = visit;
  q.normal = normal;
  q.cones = normal ? normalBoundsOf(bvh) : undefined;
  try {
    return depthFirst(bvh, q);
  } finally {
    q.release();
  }
}

/** Scores a node 0 while it is within reach and facing, Infinity otherwise (`bound` stays Infinity). */
class TrianglesWithin implements BvhQuery {
  readonly bound = Infinity;
  busy = false;
  bvh: TriangleBvh | undefined;
  px = 0;
  py = 0;
  pz = 0;
  r2 = 0;
  hit: MeshHit | undefined;
  visit: ((hit: MeshHit) => boolean) | undefined;
  normal: readonly [number, number, number] | undefined;
  cones: Int8Array | undefined;

  nodeScore(node: number): number {
    if (nodeDistanceSq(this.bvh!, node, this.px, this.py, this.pz) > this.r2) return Infinity;
    const n = this.normal;
    if (this.cones && !mayFace(this.cones, node, n![0], n![1], n![2])) return Infinity;
    return 0;
  }

  leaf(first: number, count: number): boolean {
    const bvh = this.bvh!, tri = bvh.slotCorners, n = this.normal, hit = this.hit!;
    for (let s = first; s < first + count; s++) {
      // The facing test is a cross product, far cheaper than the closest point it saves.
      if (n && !faces(tri, 9 * s, n[0], n[1], n[2])) continue;
      const d = closestPointOnTriangle(tri, 9 * s, this.px, this.py, this.pz, bestOut);
      if (d > this.r2) continue;
      hit.distanceSq = d;
      hit.distance = Math.sqrt(d);
      hit.x = bestOut[0]!;
      hit.y = bestOut[1]!;
      hit.z = bestOut[2]!;
      hit.feature = bestOut[3]! as Feature;
      hit.slot = s;
      hit.triangle = bvh.slotTriangle[s]!;
      if (this.visit!(hit)) return true;
    }
    return false;
  }

  /** Drops the references, so that a module-level query keeps no tree alive. */
  release(): void {
    this.busy = false;
    this.bvh = this.hit = this.visit = this.normal = this.cones = undefined;
  }
}

const withinQuery = new TrianglesWithin();

const normalBoundsCache = new WeakMap<TriangleBvh, Int8Array>();
/** Normal bounds are kept in 1/127 steps, rounded outward: 6 bytes a node stay in cache where doubles would not. */
const Q = 127;

/**
 * Per node, the box of its triangles' unit normals (min x y z, max x y z), built bottom-up on the
 * first filtered query and kept with the BVH. With it the robust sign rule skips whole subtrees
 * that face away (the near skin of a thin-walled scan) instead of testing them triangle by triangle.
 */
export function normalBoundsOf(bvh: TriangleBvh, shared = false): Int8Array {
  let nb = normalBoundsCache.get(bvh);
  if (nb) return nb;
  nb = shared ? new Int8Array(new SharedArrayBuffer(6 * bvh.nodeCount)) : new Int8Array(6 * bvh.nodeCount);
  const links = bvh.nodeLinks;
  const tri = bvh.slotCorners;
  // Children are stored after their parent (left = node + 1, right > node): children first when walking back.
  for (let node = bvh.nodeCount - 1; node >= 0; node--) {
    const o = 6 * node;
    // An empty box (min above max) for a node of zero-area triangles only: it can never face anything.
    let x0 = Q, y0 = Q, z0 = Q, x1 = -Q, y1 = -Q, z1 = -Q;
    const count = links[NODE_STRIDE * node + LINK_OFFSET + 1]!;
    if (count > 0) {
      const first = links[NODE_STRIDE * node + LINK_OFFSET]!;
      for (let sl = first; sl < first + count; sl++) {
        const t = 9 * sl;
        const ux = tri[t + 3]! - tri[t]!, uy = tri[t + 4]! - tri[t + 1]!, uz = tri[t + 5]! - tri[t + 2]!;
        const vx = tri[t + 6]! - tri[t]!, vy = tri[t + 7]! - tri[t + 1]!, vz = tri[t + 8]! - tri[t + 2]!;
        const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
        const len2 = cx * cx + cy * cy + cz * cz;
        // A plain square root (the scaled one where the squares overflow or underflow), and one
        // step of margin each way below: the box holds the exact unit normal whatever the rounding,
        // so culling only ever skips what the facing test would reject.
        const len = len2 > 1e-280 && len2 < 1e280 ? Math.sqrt(len2) : hypot3(cx, cy, cz);
        if (len === 0) continue; // a zero-area triangle never passes the facing test
        const k = Q / len;
        x0 = Math.min(x0, Math.floor(cx * k) - 1);
        x1 = Math.max(x1, Math.ceil(cx * k) + 1);
        y0 = Math.min(y0, Math.floor(cy * k) - 1);
        y1 = Math.max(y1, Math.ceil(cy * k) + 1);
        z0 = Math.min(z0, Math.floor(cz * k) - 1);
        z1 = Math.max(z1, Math.ceil(cz * k) + 1);
      }
    } else {
      const left = 6 * (node + 1), right = 6 * links[NODE_STRIDE * node + LINK_OFFSET]!;
      x0 = Math.min(nb[left]!, nb[right]!);
      y0 = Math.min(nb[left + 1]!, nb[right + 1]!);
      z0 = Math.min(nb[left + 2]!, nb[right + 2]!);
      x1 = Math.max(nb[left + 3]!, nb[right + 3]!);
      y1 = Math.max(nb[left + 4]!, nb[right + 4]!);
      z1 = Math.max(nb[left + 5]!, nb[right + 5]!);
    }
    // Rounding outward can step past 127 only by float noise; clamping keeps the box containing the normals.
    nb[o] = Math.max(-Q, x0);
    nb[o + 1] = Math.max(-Q, y0);
    nb[o + 2] = Math.max(-Q, z0);
    nb[o + 3] = Math.min(Q, x1);
    nb[o + 4] = Math.min(Q, y1);
    nb[o + 5] = Math.min(Q, z1);
  }
  normalBoundsCache.set(bvh, nb);
  return nb;
}

/** Gives a BVH the normal bounds another thread built for the same tree (normalBoundsOf with `shared`, posted with it). */
export function adoptNormalBounds(bvh: TriangleBvh, nb: Int8Array): void {
  if (nb.length !== 6 * bvh.nodeCount) throw new Error('normal bounds: not built for this tree');
  normalBoundsCache.set(bvh, nb);
}

/**
 * Whether some unit normal in the node's normal box can have a positive dot with n: the largest
 * dot over the box. The box was rounded outward, so "no" is safe. An empty box answers no.
 */
function mayFace(nb: Int8Array, node: number, nx: number, ny: number, nz: number): boolean {
  const o = 6 * node;
  return (nx >= 0 ? nx * nb[o + 3]! : nx * nb[o]!) + (ny >= 0 ? ny * nb[o + 4]! : ny * nb[o + 1]!) + (nz >= 0 ? nz * nb[o + 5]! : nz * nb[o + 2]!) > 0;
}
