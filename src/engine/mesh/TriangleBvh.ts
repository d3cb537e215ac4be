import type { TriMesh } from './TriMesh';

/**
 * A bounding volume hierarchy over the triangles of a TriMesh, held in flat typed arrays so that it
 * builds without per-node objects, transfers between workers, and queries without allocating.
 *
 * Layout: nodes in depth-first order. A node's left child is the next node; an inner node stores
 * its right child. Leaves own a contiguous run of "slots"; each slot holds one triangle's nine
 * corner coordinates (copied, so a leaf reads one contiguous block instead of chasing indices)
 * and the index of that triangle in the source mesh.
 */
export interface TriangleBvh {
  readonly triangleCount: number;
  readonly nodeCount: number;
  /**
   * NODE_STRIDE floats per node: minX minY minZ maxX maxY maxZ, rounded outward to float32 so the
   * boxes stay conservative; 32 bytes a node with the links below, half the cache footprint of doubles.
   */
  readonly nodeBounds: Float32Array;
  /**
   * Same buffer as nodeBounds, as words: at NODE_STRIDE * node + 6 and + 7, a leaf has
   * [first slot, slot count > 0] and an inner node [right child, 0] (left child = node + 1).
   */
  readonly nodeLinks: Uint32Array;
  /** ax ay az bx by bz cx cy cz per slot. Costs 72 bytes per triangle; buys contiguous leaf reads. */
  readonly slotCorners: Float64Array;
  /** Slot -> triangle index in the source mesh. */
  readonly slotTriangle: Uint32Array;
  /** Deepest node depth (root = 0): sizes traversal stacks. */
  readonly maxDepth: number;
}

export const NODE_STRIDE = 8;
export const LINK_OFFSET = 6;

export interface BvhBuildOptions {
  /** Largest triangle count a leaf may hold. Default 4. */
  maxLeafSize?: number;
  /** SAH bins. Default 16. */
  bins?: number;
}

const MAX_BINS = 64;
const REC = 8;
const binCount = new Uint32Array(MAX_BINS);
const binBounds = new Float64Array(MAX_BINS * 6); // min xyz, max xyz per bin
const rightArea = new Float64Array(MAX_BINS);

/**
 * Builds a BVH by binned SAH (Wald 2007) along the longest axis of the triangles' box centres: the
 * plane between bins that minimises (left count x left area + right count x right area) wins.
 * Binning one axis instead of three costs a few percent of query speed and saves two thirds of the
 * binning work. Node boxes come from the bins, and the children's centre boxes are gathered while
 * partitioning, so each level reads every triangle twice. Nodes are split until they hold at most
 * maxLeafSize triangles, which bounds a query's work per leaf.
 */
export function buildBvh(mesh: TriMesh, options: BvhBuildOptions = {}): TriangleBvh {
  const maxLeafSize = options.maxLeafSize ?? 4;
  const bins = options.bins ?? 16;
  if (!(maxLeafSize >= 1)) throw new Error('BVH: maxLeafSize must be at least 1.');
  if (!(bins >= 2 && bins <= MAX_BINS)) throw new Error(`BVH: bins must be between 2 and ${MAX_BINS}.`);
  const idx = mesh.indices;
  const pos = mesh.positions;
  if (idx.length % 3 !== 0) throw new Error('BVH: indices length must be a multiple of 3.');
  const T = idx.length / 3;
  const V = pos.length / 3;
  for (let i = 0; i < idx.length; i++) {
    if (idx[i]! >= V) throw new Error(`BVH: index ${idx[i]} out of range (${V} vertices).`);
  }

  // One 64-byte record per triangle, partitioned in place: box min xyz, box max xyz, triangle
  // index, bin (scratch of the current split). Moving records instead of an index permutation keeps every pass over a node a
  // sequential read; with a permutation, each triangle read is a cache miss.
  const rec = new Float64Array(REC * T);
  const rootCentres = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let t = 0; t < T; t++) {
    const a = idx[3 * t]! * 3, b = idx[3 * t + 1]! * 3, c = idx[3 * t + 2]! * 3;
    const o = REC * t;
    for (let k = 0; k < 3; k++) {
      const va = pos[a + k]!, vb = pos[b + k]!, vc = pos[c + k]!;
      const lo = va < vb ? (va < vc ? va : vc) : vb < vc ? vb : vc;
      const hi = va > vb ? (va > vc ? va : vc) : vb > vc ? vb : vc;
      rec[o + k] = lo;
      rec[o + 3 + k] = hi;
      const m = lo + hi; // twice the centre: only ever compared with other doubled centres
      if (m < rootCentres[k]!) rootCentres[k] = m;
      if (m > rootCentres[3 + k]!) rootCentres[3 + k] = m;
    }
    rec[o + 6] = t;
  }

  const capacity = Math.max(1, 2 * T - 1);
  const boundsOut = new Float64Array(6 * capacity);
  const linksOut = new Uint32Array(2 * capacity);
  let nodeCount = 0;
  let maxDepth = 0;

  // Explicit task stack; the left task is pushed last so its subtree is numbered right after its
  // parent. Each task carries its centre box (6 doubles) from the parent's partition pass.
  let tasks = new Float64Array(64 * 10);
  let top = 0;
  const push = (start: number, end: number, parent: number, depth: number, cb: ArrayLike<number>): void => {
    if (top + 10 > tasks.length) {
      const grown = new Float64Array(2 * tasks.length);
      grown.set(tasks);
      tasks = grown;
    }
    tasks[top] = start;
    tasks[top + 1] = end;
    tasks[top + 2] = parent;
    tasks[top + 3] = depth;
    for (let k = 0; k < 6; k++) tasks[top + 4 + k] = cb[k]!;
    top += 10;
  };
  const childCentres = new Float64Array(12); // left then right centre boxes, filled by partition
  if (T > 0) push(0, T, -1, 0, rootCentres);
  while (top > 0) {
    top -= 10;
    const start = tasks[top]!, end = tasks[top + 1]!, parent = tasks[top + 2]!, depth = tasks[top + 3]!;
    const node = nodeCount++;
    if (parent >= 0) linksOut[2 * parent] = node; // only right children are patched
    if (depth > maxDepth) maxDepth = depth;
    const count = end - start;
    if (count <= maxLeafSize) {
      leafBounds(rec, start, end, boundsOut, 6 * node);
      linksOut[2 * node] = start;
      linksOut[2 * node + 1] = count;
      continue;
    }
    const mid = splitRange(rec, start, end, bins, tasks, top + 4, boundsOut, 6 * node, childCentres);
    linksOut[2 * node + 1] = 0;
    push(mid, end, node, depth + 1, childCentres.subarray(6, 12));
    push(start, mid, -1, depth + 1, childCentres);
  }

  const nodes = new ArrayBuffer(4 * NODE_STRIDE * nodeCount);
  const nodeBounds = new Float32Array(nodes);
  const nodeLinks = new Uint32Array(nodes);
  for (let n = 0; n < nodeCount; n++) {
    const o = NODE_STRIDE * n;
    for (let k = 0; k < 3; k++) {
      nodeBounds[o + k] = f32Down(boundsOut[6 * n + k]!);
      nodeBounds[o + 3 + k] = f32Up(boundsOut[6 * n + 3 + k]!);
    }
    nodeLinks[o + LINK_OFFSET] = linksOut[2 * n]!;
    nodeLinks[o + LINK_OFFSET + 1] = linksOut[2 * n + 1]!;
  }
  const perm = new Uint32Array(T);
  const slotCorners = new Float64Array(9 * T);
  for (let s = 0; s < T; s++) {
    const t = rec[REC * s + 6]!;
    perm[s] = t;
    for (let k = 0; k < 3; k++) {
      const v = idx[3 * t + k]! * 3;
      slotCorners[9 * s + 3 * k] = pos[v]!;
      slotCorners[9 * s + 3 * k + 1] = pos[v + 1]!;
      slotCorners[9 * s + 3 * k + 2] = pos[v + 2]!;
    }
  }
  return { triangleCount: T, nodeCount, nodeBounds, nodeLinks, slotCorners, slotTriangle: perm, maxDepth };
}

function leafBounds(rec: Float64Array, start: number, end: number, out: Float64Array, o: number): void {
  for (let k = 0; k < 3; k++) {
    out[o + k] = Infinity;
    out[o + 3 + k] = -Infinity;
  }
  for (let i = start; i < end; i++) {
    const b = REC * i;
    for (let k = 0; k < 3; k++) {
      if (rec[b + k]! < out[o + k]!) out[o + k] = rec[b + k]!;
      if (rec[b + 3 + k]! > out[o + 3 + k]!) out[o + 3 + k] = rec[b + 3 + k]!;
    }
  }
}

/**
 * Bins records [start, end) along the longest axis of its centre box (read from `cb` at `cbo`), writes
 * the node's box (the union of the bins) to out at o, partitions at the best SAH plane, fills
 * childCentres with the two sides' centre boxes and returns the split position. Falls back to an
 * even split by position when no plane separates the centres (all centres coincident), so every
 * split makes progress.
 */
function splitRange(
  rec: Float64Array,
  start: number,
  end: number,
  bins: number,
  cb: Float64Array,
  cbo: number,
  out: Float64Array,
  o: number,
  childCentres: Float64Array,
): number {
  // Small nodes are most of the nodes; 16 bins for 10 triangles would be mostly empty-bin bookkeeping.
  bins = Math.min(bins, Math.max(4, (end - start) >>> 1));
  const ex = cb[cbo + 3]! - cb[cbo]!, ey = cb[cbo + 4]! - cb[cbo + 1]!, ez = cb[cbo + 5]! - cb[cbo + 2]!;
  const axis = ex >= ey ? (ex >= ez ? 0 : 2) : ey >= ez ? 1 : 2;
  const extent = axis === 0 ? ex : axis === 1 ? ey : ez;
  const lo = cb[cbo + axis]!;
  // Slightly under bins / extent so that the maximum centre lands in the last bin, not past it.
  const scale = extent > 0 ? (bins * (1 - 1e-9)) / extent : 0;

  binCount.fill(0, 0, bins);
  for (let i = 0; i < bins; i++) {
    const b = 6 * i;
    binBounds[b] = binBounds[b + 1] = binBounds[b + 2] = Infinity;
    binBounds[b + 3] = binBounds[b + 4] = binBounds[b + 5] = -Infinity;
  }
  for (let i = start; i < end; i++) {
    const to = REC * i;
    const bin = ((rec[to + axis]! + rec[to + 3 + axis]! - lo) * scale) | 0;
    rec[to + 7] = bin;
    binCount[bin]!++;
    const b = 6 * bin;
    if (rec[to]! < binBounds[b]!) binBounds[b] = rec[to]!;
    if (rec[to + 1]! < binBounds[b + 1]!) binBounds[b + 1] = rec[to + 1]!;
    if (rec[to + 2]! < binBounds[b + 2]!) binBounds[b + 2] = rec[to + 2]!;
    if (rec[to + 3]! > binBounds[b + 3]!) binBounds[b + 3] = rec[to + 3]!;
    if (rec[to + 4]! > binBounds[b + 4]!) binBounds[b + 4] = rec[to + 4]!;
    if (rec[to + 5]! > binBounds[b + 5]!) binBounds[b + 5] = rec[to + 5]!;
  }

  // Sweep from the right: area of bins [i, bins) for the plane left of bin i; the full sweep is the node box.
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = bins - 1; i >= 0; i--) {
    const b = 6 * i;
    if (binBounds[b]! < x0) x0 = binBounds[b]!;
    if (binBounds[b + 1]! < y0) y0 = binBounds[b + 1]!;
    if (binBounds[b + 2]! < z0) z0 = binBounds[b + 2]!;
    if (binBounds[b + 3]! > x1) x1 = binBounds[b + 3]!;
    if (binBounds[b + 4]! > y1) y1 = binBounds[b + 4]!;
    if (binBounds[b + 5]! > z1) z1 = binBounds[b + 5]!;
    rightArea[i] = halfArea(x0, y0, z0, x1, y1, z1);
  }
  out[o] = x0;
  out[o + 1] = y0;
  out[o + 2] = z0;
  out[o + 3] = x1;
  out[o + 4] = y1;
  out[o + 5] = z1;

  let bestCost = Infinity;
  let bestBin = -1;
  x0 = y0 = z0 = Infinity;
  x1 = y1 = z1 = -Infinity;
  let leftCount = 0;
  const total = end - start;
  for (let i = 0; i < bins - 1; i++) {
    const b = 6 * i;
    if (binBounds[b]! < x0) x0 = binBounds[b]!;
    if (binBounds[b + 1]! < y0) y0 = binBounds[b + 1]!;
    if (binBounds[b + 2]! < z0) z0 = binBounds[b + 2]!;
    if (binBounds[b + 3]! > x1) x1 = binBounds[b + 3]!;
    if (binBounds[b + 4]! > y1) y1 = binBounds[b + 4]!;
    if (binBounds[b + 5]! > z1) z1 = binBounds[b + 5]!;
    leftCount += binCount[i]!;
    if (leftCount === 0 || leftCount === total) continue;
    const cost = leftCount * halfArea(x0, y0, z0, x1, y1, z1) + (total - leftCount) * rightArea[i + 1]!;
    if (cost < bestCost) {
      bestCost = cost;
      bestBin = i;
    }
  }

  if (bestBin < 0) {
    const mid = (start + end) >>> 1;
    centreBox(rec, start, mid, childCentres, 0);
    centreBox(rec, mid, end, childCentres, 6);
    return mid;
  }
  // Partition by the bin stored during binning, gathering both sides' centre boxes on the way.
  let lx0 = Infinity, ly0 = Infinity, lz0 = Infinity, lx1 = -Infinity, ly1 = -Infinity, lz1 = -Infinity;
  let rx0 = Infinity, ry0 = Infinity, rz0 = Infinity, rx1 = -Infinity, ry1 = -Infinity, rz1 = -Infinity;
  let i = start;
  let j = end - 1;
  while (i <= j) {
    const oi = REC * i;
    const x = rec[oi]! + rec[oi + 3]!, y = rec[oi + 1]! + rec[oi + 4]!, z = rec[oi + 2]! + rec[oi + 5]!;
    if (rec[oi + 7]! <= bestBin) {
      if (x < lx0) lx0 = x;
      if (x > lx1) lx1 = x;
      if (y < ly0) ly0 = y;
      if (y > ly1) ly1 = y;
      if (z < lz0) lz0 = z;
      if (z > lz1) lz1 = z;
      i++;
    } else {
      if (x < rx0) rx0 = x;
      if (x > rx1) rx1 = x;
      if (y < ry0) ry0 = y;
      if (y > ry1) ry1 = y;
      if (z < rz0) rz0 = z;
      if (z > rz1) rz1 = z;
      const oj = REC * j;
      for (let k = 0; k < REC; k++) {
        const v = rec[oi + k]!;
        rec[oi + k] = rec[oj + k]!;
        rec[oj + k] = v;
      }
      j--;
    }
  }
  childCentres[0] = lx0;
  childCentres[1] = ly0;
  childCentres[2] = lz0;
  childCentres[3] = lx1;
  childCentres[4] = ly1;
  childCentres[5] = lz1;
  childCentres[6] = rx0;
  childCentres[7] = ry0;
  childCentres[8] = rz0;
  childCentres[9] = rx1;
  childCentres[10] = ry1;
  childCentres[11] = rz1;
  return i;
}

function centreBox(rec: Float64Array, start: number, end: number, out: Float64Array, o: number): void {
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = start; i < end; i++) {
    const c = REC * i;
    const x = rec[c]! + rec[c + 3]!, y = rec[c + 1]! + rec[c + 4]!, z = rec[c + 2]! + rec[c + 5]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  out[o] = x0;
  out[o + 1] = y0;
  out[o + 2] = z0;
  out[o + 3] = x1;
  out[o + 4] = y1;
  out[o + 5] = z1;
}

function halfArea(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
  const dx = x1 - x0, dy = y1 - y0, dz = z1 - z0;
  return dx * dy + dy * dz + dz * dx;
}

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/** Largest float32 not above x. */
function f32Down(x: number): number {
  f32[0] = x;
  if (f32[0]! <= x) return f32[0]!;
  if (f32[0] === 0) return -1.401298464324817e-45;
  f32Bits[0] = f32[0]! > 0 ? f32Bits[0]! - 1 : f32Bits[0]! + 1;
  return f32[0]!;
}

/** Smallest float32 not below x. */
function f32Up(x: number): number {
  f32[0] = x;
  if (f32[0]! >= x) return f32[0]!;
  if (f32[0] === 0) return 1.401298464324817e-45;
  f32Bits[0] = f32[0]! > 0 ? f32Bits[0]! + 1 : f32Bits[0]! - 1;
  return f32[0]!;
}

/** Squared distance from a point to node `node`'s box (0 inside). */
export function nodeDistanceSq(bvh: TriangleBvh, node: number, px: number, py: number, pz: number): number {
  const b = bvh.nodeBounds;
  const o = NODE_STRIDE * node;
  let d = 0;
  let v = b[o]! - px;
  if (v > 0) d += v * v;
  else if ((v = px - b[o + 3]!) > 0) d += v * v;
  v = b[o + 1]! - py;
  if (v > 0) d += v * v;
  else if ((v = py - b[o + 4]!) > 0) d += v * v;
  v = b[o + 2]! - pz;
  if (v > 0) d += v * v;
  else if ((v = pz - b[o + 5]!) > 0) d += v * v;
  return d;
}
