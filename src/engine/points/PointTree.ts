import { searchStack } from '../math/searchStack';
import type { CloudPositions } from './cloudPositions';

/**
 * A static k-d tree over a point cloud's positions, for nearest and k-nearest queries (a CAD sample
 * against a scan, the cloud's own spacing). Implicit layout: `order` is a permutation of the point
 * indices such that every range [lo, hi) is split at its middle element on the axis where the range
 * is widest (chosen at build time and kept per node), so the tree needs no node objects.
 *
 * Plain JS on typed arrays, no kernel. Build O(n log n); a query visits O(log n) nodes on average.
 */
export class PointTree {
  readonly count: number;
  /** Point indices in tree order. */
  readonly order: Uint32Array;
  /** Split axis of the node whose middle element is at a position of `order` (0, 1, 2). */
  private readonly axis: Uint8Array;
  private readonly positions: CloudPositions;
  // Scratch for k-nearest queries (a bounded max-heap by distance).
  private heapDist = new Float64Array(16);
  private heapIndex = new Uint32Array(16);
  private heapSize = 0;
  private heapK = 0;

  constructor(positions: CloudPositions, count = positions.length / 3) {
    this.positions = positions;
    this.count = count;
    this.order = new Uint32Array(count);
    for (let i = 0; i < count; i++) this.order[i] = i;
    this.axis = new Uint8Array(count);
    const stack: number[] = [0, count];
    while (stack.length) {
      const hi = stack.pop()!;
      const lo = stack.pop()!;
      if (hi - lo <= 1) continue;
      const axis = this.widestAxis(lo, hi);
      const mid = (lo + hi) >>> 1;
      this.select(lo, hi - 1, mid, axis);
      this.axis[mid] = axis;
      stack.push(lo, mid, mid + 1, hi);
    }
  }

  /** The index of the point nearest to p (ties: any), and its distance in `out` ([index, distance]); -1 for an empty tree. */
  nearest(px: number, py: number, pz: number, maxDistance = Infinity): { index: number; distance: number } {
    let best = -1;
    let bestSq = maxDistance === Infinity ? Infinity : maxDistance * maxDistance;
    const pos = this.positions;
    const order = this.order;
    const stack = searchStack;
    const base = stack.top;
    stack.push(0, this.count, 0);
    for (let t = stack.popBelow(base, bestSq); t >= 0; t = stack.popBelow(base, bestSq)) {
      const lo = stack.a[t]!, hi = stack.b[t]!;
      if (hi <= lo) continue;
      const mid = (lo + hi) >>> 1;
      const i = order[mid]!;
      const dx = pos[3 * i]! - px, dy = pos[3 * i + 1]! - py, dz = pos[3 * i + 2]! - pz;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 < bestSq) {
        bestSq = d2;
        best = i;
      }
      if (hi - lo === 1) continue;
      const a = this.axis[mid]!;
      pushChildren(lo, mid, hi, (a === 0 ? px : a === 1 ? py : pz) - pos[3 * i + a]!);
    }
    return { index: best, distance: best < 0 ? Infinity : Math.sqrt(bestSq) };
  }

  /**
   * The k points nearest to p, nearest first, into `target` (indices); returns how many were found
   * (fewer than k when the cloud is smaller). `skip` leaves one index out (a point's own).
   */
  kNearest(px: number, py: number, pz: number, k: number, target: Uint32Array, skip = -1): number {
    if (this.heapDist.length < k) {
      this.heapDist = new Float64Array(k);
      this.heapIndex = new Uint32Array(k);
    }
    this.heapSize = 0;
    this.heapK = k;
    const pos = this.positions;
    const order = this.order;
    const stack = searchStack;
    const base = stack.top;
    stack.push(0, this.count, 0);
    for (let t = stack.popBelow(base, this.bound()); t >= 0; t = stack.popBelow(base, this.bound())) {
      const lo = stack.a[t]!, hi = stack.b[t]!;
      if (hi <= lo) continue;
      const mid = (lo + hi) >>> 1;
      const i = order[mid]!;
      if (i !== skip) {
        const dx = pos[3 * i]! - px, dy = pos[3 * i + 1]! - py, dz = pos[3 * i + 2]! - pz;
        this.offer(dx * dx + dy * dy + dz * dz, i);
      }
      if (hi - lo === 1) continue;
      const a = this.axis[mid]!;
      pushChildren(lo, mid, hi, (a === 0 ? px : a === 1 ? py : pz) - pos[3 * i + a]!);
    }
    // Pop the max-heap from the back: nearest first.
    const n = this.heapSize;
    for (let j = n - 1; j >= 0; j--) {
      target[j] = this.heapIndex[0]!;
      this.popMax();
    }
    return n;
  }

  /** The k-nearest search's bound: the k-th best squared distance once k are held. */
  private bound(): number {
    return this.heapSize < this.heapK ? Infinity : this.heapDist[0]!;
  }

  private offer(d2: number, index: number): void {
    const dist = this.heapDist, idx = this.heapIndex;
    if (this.heapSize < this.heapK) {
      let c = this.heapSize++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (dist[p]! >= d2) break;
        dist[c] = dist[p]!;
        idx[c] = idx[p]!;
        c = p;
      }
      dist[c] = d2;
      idx[c] = index;
    } else if (d2 < dist[0]!) {
      this.siftDown(d2, index, this.heapSize);
    }
  }

  private popMax(): void {
    const n = --this.heapSize;
    if (n > 0) this.siftDown(this.heapDist[n]!, this.heapIndex[n]!, n);
  }

  private siftDown(d2: number, index: number, n: number): void {
    const dist = this.heapDist, idx = this.heapIndex;
    let c = 0;
    for (;;) {
      let m = 2 * c + 1;
      if (m >= n) break;
      if (m + 1 < n && dist[m + 1]! > dist[m]!) m++;
      if (dist[m]! <= d2) break;
      dist[c] = dist[m]!;
      idx[c] = idx[m]!;
      c = m;
    }
    dist[c] = d2;
    idx[c] = index;
  }

  private widestAxis(lo: number, hi: number): number {
    const pos = this.positions, order = this.order;
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    // A sample of the range is enough to choose an axis: a full scan would make the build O(n log^2 n) in practice.
    const step = Math.max(1, Math.floor((hi - lo) / 64));
    for (let j = lo; j < hi; j += step) {
      const o = 3 * order[j]!;
      const x = pos[o]!, y = pos[o + 1]!, z = pos[o + 2]!;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
    }
    const ex = x1 - x0, ey = y1 - y0, ez = z1 - z0;
    return ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
  }

  /** Quickselect (Floyd-Rivest-free Hoare partition): order[k] gets the element of rank k in [left, right] on `axis`. */
  private select(left: number, right: number, k: number, axis: number): void {
    const pos = this.positions, order = this.order;
    while (right > left) {
      const pivot = pos[3 * order[(left + right) >>> 1]! + axis]!;
      let i = left, j = right;
      while (i <= j) {
        while (pos[3 * order[i]! + axis]! < pivot) i++;
        while (pos[3 * order[j]! + axis]! > pivot) j--;
        if (i <= j) {
          const t = order[i]!;
          order[i] = order[j]!;
          order[j] = t;
          i++;
          j--;
        }
      }
      if (k <= j) right = j;
      else if (k >= i) left = i;
      else return;
    }
  }
}

/**
 * Pushes the children of the node at `mid` for a query `diff` off its splitting plane on the
 * shared search stack: the far side first, scored diff^2 (every point there is at least that far),
 * then the near side, scored 0, so the near side is popped first and tightens the bound before the
 * far side is checked against it.
 */
function pushChildren(lo: number, mid: number, hi: number, diff: number): void {
  if (diff < 0) {
    searchStack.push(mid + 1, hi, diff * diff);
    searchStack.push(lo, mid, 0);
  } else {
    searchStack.push(lo, mid, diff * diff);
    searchStack.push(mid + 1, hi, 0);
  }
}
