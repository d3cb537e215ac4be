/**
 * Coarser copies of a display mesh for drawing (levels of detail), by vertex clustering (Rossignac
 * and Borrel 1993): a grid over the box, every vertex snapped to the vertex of its cell nearest the
 * cell's mean, triangles whose corners fall in fewer than three cells dropped, duplicates dropped.
 * A level's vertices are vertices of the mesh it came from (`vertexIds`), so a value per vertex
 * (a heat-map colour, a deviation) is read for a level by index, never interpolated. Linear time,
 * typed arrays only: it runs in the engine's worker on meshes of millions of triangles. Drawing only:
 * every measurement reads the body's own triangles.
 */

export interface DisplayLevel {
  /** Float32 xyz of the level's vertices. */
  positions: Float32Array<ArrayBuffer>;
  /** Triangles over the level's vertices (empty for a level of points). */
  indices: Uint32Array<ArrayBuffer>;
  /** For each level vertex, its index among the full mesh's vertices. */
  vertexIds: Uint32Array<ArrayBuffer>;
}

/** Open addressing over non-negative integer keys below 2^53 (a cell's grid coordinates folded into one number); grows at half full. */
class CellTable {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  private size = 0;

  constructor(expected: number) {
    let slots = 1024;
    while (slots < 2 * expected) slots *= 2;
    this.keys = new Float64Array(slots).fill(-1);
    this.values = new Int32Array(slots);
    this.mask = slots - 1;
  }

  private slotOf(key: number): number {
    const lo = key % 4294967296, hi = (key - lo) / 4294967296;
    let slot = (Math.imul(lo | 0, 0x9e3779b1) ^ Math.imul(hi | 0, 0x85ebca6b)) & this.mask;
    while (this.keys[slot] !== key && this.keys[slot] !== -1) slot = (slot + 1) & this.mask;
    return slot;
  }

  /** The value stored for `key`, or `fresh` stored for it now. */
  getOrAdd(key: number, fresh: number): number {
    const slot = this.slotOf(key);
    if (this.keys[slot] === key) return this.values[slot]!;
    this.keys[slot] = key;
    this.values[slot] = fresh;
    if (++this.size * 2 > this.keys.length) this.grow();
    return fresh;
  }

  private grow(): void {
    const keys = this.keys, values = this.values;
    this.keys = new Float64Array(2 * keys.length).fill(-1);
    this.values = new Int32Array(2 * keys.length);
    this.mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === -1) continue;
      const slot = this.slotOf(keys[i]!);
      this.keys[slot] = keys[i]!;
      this.values[slot] = values[i]!;
    }
  }
}

interface Clusters {
  /** Cluster of each input vertex (-1: used by no triangle). */
  of: Int32Array;
  count: number;
}

function clusterVertices(positions: ArrayLike<number>, used: Uint8Array, cell: number, min: readonly number[]): Clusters {
  const n = used.length;
  const of = new Int32Array(n).fill(-1);
  const table = new CellTable(Math.min(n, 1 << 20));
  let count = 0;
  // 2^17 cells a side keeps the folded key below 2^51; a finer grid than that is the mesh itself.
  const side = 131072;
  for (let v = 0; v < n; v++) {
    if (!used[v]) continue;
    const ix = Math.min(side - 1, Math.floor((positions[3 * v]! - min[0]!) / cell));
    const iy = Math.min(side - 1, Math.floor((positions[3 * v + 1]! - min[1]!) / cell));
    const iz = Math.min(side - 1, Math.floor((positions[3 * v + 2]! - min[2]!) / cell));
    const c = table.getOrAdd(ix + side * (iy + side * iz), count);
    if (c === count) count++;
    of[v] = c;
  }
  return { of, count };
}

/** Each cluster's representative: its vertex nearest the cluster's mean. */
function representatives(positions: ArrayLike<number>, clusters: Clusters): Uint32Array<ArrayBuffer> {
  const { of, count } = clusters;
  const sum = new Float64Array(3 * count);
  const members = new Uint32Array(count);
  for (let v = 0; v < of.length; v++) {
    const c = of[v]!;
    if (c < 0) continue;
    sum[3 * c] = sum[3 * c]! + positions[3 * v]!;
    sum[3 * c + 1] = sum[3 * c + 1]! + positions[3 * v + 1]!;
    sum[3 * c + 2] = sum[3 * c + 2]! + positions[3 * v + 2]!;
    members[c]!++;
  }
  const best = new Float64Array(count).fill(Infinity);
  const rep = new Uint32Array(count);
  for (let v = 0; v < of.length; v++) {
    const c = of[v]!;
    if (c < 0) continue;
    const m = members[c]!;
    const dx = positions[3 * v]! - sum[3 * c]! / m, dy = positions[3 * v + 1]! - sum[3 * c + 1]! / m, dz = positions[3 * v + 2]! - sum[3 * c + 2]! / m;
    const d = dx * dx + dy * dy + dz * dz;
    if (d < best[c]!) {
      best[c] = d;
      rep[c] = v;
    }
  }
  return rep;
}

/** A set of triangles over clusters, each keyed by its sorted corners (open addressing, three int keys a slot); grows at half full. */
class TriangleSet {
  private keys: Int32Array;
  private mask: number;
  private size = 0;

  constructor(expected: number) {
    let slots = 1024;
    while (slots < 2 * expected) slots *= 2;
    this.keys = new Int32Array(3 * slots).fill(-1);
    this.mask = slots - 1;
  }

  /** Adds the triangle; false when it was there already. */
  add(lo: number, mid: number, hi: number): boolean {
    if (!this.put(lo, mid, hi)) return false;
    if (++this.size * 2 > this.mask + 1) this.grow();
    return true;
  }

  private put(lo: number, mid: number, hi: number): boolean {
    let slot = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(mid, 0x85ebca6b) ^ Math.imul(hi, 0xc2b2ae35)) & this.mask;
    const k = this.keys;
    for (;;) {
      const o = 3 * slot;
      if (k[o] === -1) {
        k[o] = lo;
        k[o + 1] = mid;
        k[o + 2] = hi;
        return true;
      }
      if (k[o] === lo && k[o + 1] === mid && k[o + 2] === hi) return false;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.keys;
    this.keys = new Int32Array(2 * old.length).fill(-1);
    this.mask = 2 * (this.mask + 1) - 1;
    for (let o = 0; o < old.length; o += 3) if (old[o] !== -1) this.put(old[o]!, old[o + 1]!, old[o + 2]!);
  }
}

/** Triangles over clusters: corners mapped, those with a repeated cluster dropped, each triangle once (in its first winding seen). */
function clusterTriangles(indices: ArrayLike<number>, of: Int32Array): Uint32Array<ArrayBuffer> {
  const m = indices.length / 3;
  const out = new Uint32Array(indices.length);
  const seen = new TriangleSet(Math.min(m, 1 << 20));
  let k = 0;
  for (let t = 0; t < m; t++) {
    const a = of[indices[3 * t]!]!, b = of[indices[3 * t + 1]!]!, c = of[indices[3 * t + 2]!]!;
    if (a === b || b === c || a === c) continue;
    const lo = Math.min(a, b, c), hi = Math.max(a, b, c);
    if (!seen.add(lo, a + b + c - lo - hi, hi)) continue;
    out[k++] = a;
    out[k++] = b;
    out[k++] = c;
  }
  return out.slice(0, k);
}

function boxOf(positions: ArrayLike<number>, used: Uint8Array): { min: number[]; extent: number } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < used.length; v++) {
    if (!used[v]) continue;
    for (let a = 0; a < 3; a++) {
      const x = positions[3 * v + a]!;
      if (x < min[a]!) min[a] = x;
      if (x > max[a]!) max[a] = x;
    }
  }
  return { min, extent: Math.max(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!, 0) };
}

function surfaceArea(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let area = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t]!, b = 3 * indices[t + 1]!, c = 3 * indices[t + 2]!;
    const ux = positions[b]! - positions[a]!, uy = positions[b + 1]! - positions[a + 1]!, uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!, vy = positions[c + 1]! - positions[a + 1]!, vz = positions[c + 2]! - positions[a + 2]!;
    area += Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) / 2;
  }
  return area;
}

/**
 * A level of about `target` triangles (at most `target`, unless the grid cannot get coarser): the
 * cell size starts from the surface area (a surface cut by cells of side h keeps about 2 A / h²
 * triangles, a little more in a grid) and grows until the level fits.
 */
export function decimateMesh(positions: ArrayLike<number>, indices: ArrayLike<number>, target: number): DisplayLevel {
  if (!(target >= 1)) throw new Error(`decimateMesh: target must be at least 1, got ${target}`);
  const n = positions.length / 3;
  const used = new Uint8Array(n);
  for (let i = 0; i < indices.length; i++) used[indices[i]!] = 1;
  const { min, extent } = boxOf(positions, used);
  const area = surfaceArea(positions, indices);
  // 2.4 rather than 2: a grid keeps a few more triangles than a surface's cells (measured on spheres and scans).
  let cell = Math.max(Math.sqrt((2.4 * area) / target), extent / 131072, Number.MIN_VALUE);
  for (let attempt = 0; ; attempt++) {
    const clusters = clusterVertices(positions, used, cell, min);
    const triangles = clusterTriangles(indices, clusters.of);
    if (triangles.length / 3 <= target || attempt === 12 || !(extent > 0)) return levelOf(positions, clusters, triangles);
    cell *= Math.max(1.05, 1.02 * Math.sqrt(triangles.length / 3 / target));
  }
}

/** The level's own arrays: only clusters some kept triangle uses, renumbered in order. */
function levelOf(positions: ArrayLike<number>, clusters: Clusters, triangles: Uint32Array<ArrayBuffer>): DisplayLevel {
  const rep = representatives(positions, clusters);
  const index = new Int32Array(clusters.count).fill(-1);
  let kept = 0;
  for (let i = 0; i < triangles.length; i++) {
    const c = triangles[i]!;
    if (index[c] === -1) index[c] = kept++;
    triangles[i] = index[c]!;
  }
  const vertexIds = new Uint32Array(kept);
  for (let c = 0; c < clusters.count; c++) if (index[c]! >= 0) vertexIds[index[c]!] = rep[c]!;
  return { positions: gather(positions, vertexIds), indices: triangles, vertexIds };
}

/** Every `stride`-th point of a cloud as a level (a cloud's points are already spread evenly by the file's order or not at all: a stride keeps either). */
export function thinPoints(positions: ArrayLike<number>, target: number): DisplayLevel {
  const n = positions.length / 3;
  const stride = Math.max(1, Math.ceil(n / Math.max(1, target)));
  const vertexIds = new Uint32Array(Math.ceil(n / stride));
  for (let j = 0; j < vertexIds.length; j++) vertexIds[j] = j * stride;
  return { positions: gather(positions, vertexIds), indices: new Uint32Array(0), vertexIds };
}

/** `values` (itemSize per vertex) read at `vertexIds`. */
export function gather<T extends Float32Array | Uint8Array | Uint32Array>(values: ArrayLike<number>, vertexIds: ArrayLike<number>, itemSize = 3, into?: T): T {
  const out = (into ?? new Float32Array(vertexIds.length * itemSize)) as T;
  for (let j = 0; j < vertexIds.length; j++) {
    const v = vertexIds[j]! * itemSize;
    for (let a = 0; a < itemSize; a++) out[j * itemSize + a] = values[v + a]!;
  }
  return out;
}

/**
 * Levels for drawing, finest first, each about a quarter of the one before, the coarsest at most
 * `coarsest` triangles (or points): none when the mesh is no bigger than `from`.
 */
export function displayLevels(positions: ArrayLike<number>, indices: ArrayLike<number>, options: { from: number; finest: number; coarsest: number }): DisplayLevel[] {
  const points = indices.length === 0;
  const size = points ? positions.length / 3 : indices.length / 3;
  if (size <= options.from) return [];
  const levels: DisplayLevel[] = [];
  let target = Math.min(options.finest, Math.floor(size / 4));
  for (;;) {
    const before = levels.at(-1);
    if (points) levels.push(thinPoints(positions, target));
    else if (!before) levels.push(decimateMesh(positions, indices, target));
    else {
      // A coarser level from the one before (a quarter of the work); its vertices are still the full mesh's.
      const next = decimateMesh(before.positions, before.indices, target);
      levels.push({ ...next, vertexIds: gather(before.vertexIds, next.vertexIds, 1, new Uint32Array(next.vertexIds.length)) });
    }
    if (target <= 2 * options.coarsest) return levels;
    target = Math.max(options.coarsest, Math.floor(target / 4));
  }
}
