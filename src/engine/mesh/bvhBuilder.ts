/**
 * The split decisions of the triangle BVH (TriangleBvh.ts lays the result out for queries).
 *
 * Every triangle is a 32-byte record: its box (float32 min xyz, max xyz), its index and a scratch
 * word. (On a large mesh in a coherent order a record is a group of 8 or 4 consecutive triangles
 * instead, bvhGroups.ts: the builder is the same, over groups, and the tree is expanded after.) The boxes only steer the splits; the stored node boxes are computed later from the float64
 * corners. The tree comes out in build order (`BuildNodes`), with leaves as runs of positions in
 * the record order, which `slotTriangle` reports.
 *
 * Large nodes are split in grid rounds: one pass drops every record of the node into a grid of
 * cells over its centre box (at most GRID_CELLS, shaped like the box), and the top levels of the
 * node's subtree are then chosen by SAH over planes between cell layers on all three axes, from the
 * cells' boxes and counts alone; a second pass moves each record to the run of the subtree leaf
 * (or of the pending part, whose own round comes later) its cell fell into. Two passes decide
 * several levels, where binning and partitioning level by level reads every record twice per level.
 * A round stops refining a part once its cells are too coarse to choose well (fewer than
 * MIN_LAYERS layers along every axis); the next round grids that part afresh over its own centre box.
 * Parts of at most SMALL_NODE records are finished in cache by exact SAH over their centres
 * sorted along the longest axis; a part of two leaves' worth, the common case at leaves of 16, is
 * halved at its median centre, found by selection rather than a sort. On a 1M-triangle scan every record goes through two or three
 * rounds instead of twenty-odd binning levels.
 */

import { f32Above, f32Below } from './float32Steps';

/** Floats (and words) per record: min xyz, max xyz, triangle index, scratch (grid cell). */
export const REC = 8;
const GRID_CELLS = 32768;
/** Records per cell a grid aims for: coarser grids cost less to sweep, finer ones choose better. */
const CELL_LOAD = 4;
/** A round refines a part while it spans at least this many cell layers along some axis... */
const MIN_LAYERS = 3;
/** ...or, in a round of at most FINE_ROUND records, down to single cells: what is left is small. */
const FINE_ROUND = 2048;
/** Parts of at most this many records are split by exact SAH on sorted centres (splitPart). */
const SMALL_NODE = 32;
const MAX_BINS = 64;

/**
 * Nodes in build order, two words each: an inner node holds [left, right] (right > 0), a leaf
 * [first position, -count]. A leaf's box (6 floats in `boxes`; an inner node's are unset) is made
 * from its records, whose boxes are rounded outward to float32: the box of its triangles' corners
 * rounded outward, which the layout would otherwise find by reading every corner again.
 */
export interface BuildNodes {
  links: Int32Array;
  boxes: Float32Array;
  count: number;
}

export interface BuiltTree {
  nodes: BuildNodes;
  /** Position -> triangle index: leaves are runs of positions. */
  slotTriangle: Uint32Array;
}

/** The two record buffers (a round moves records from one to the other) and the tree being built. */
interface Ranges {
  rec: readonly [Float32Array, Float32Array];
  words: readonly [Int32Array, Int32Array];
  /** The same buffers as float64 words, which move a record in four copies (scatter). */
  pairs: readonly [Float64Array, Float64Array];
  nodes: BuildNodes;
  slotTriangle: Uint32Array;
  maxLeaf: number;
  bins: number;
}

/**
 * Records for mesh triangles [from, to) into `rec` (at their own positions): float32 boxes, exact
 * for float32 positions and rounded outward otherwise (they steer the splits and make the leaves'
 * boxes), index in word 6. Returns the box of the doubled centres. Throws on an index out of range.
 */
function triangleRecords(positions: Float64Array | Float32Array, indices: Uint32Array, rec: Float32Array, from: number, to: number): Float64Array {
  const V = positions.length / 3;
  const words = new Int32Array(rec.buffer, rec.byteOffset, rec.length);
  const centres = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  for (let t = from; t < to; ) {
    // Chunks keep the bounds check out of the hot loops and let each loop stay monomorphic.
    const end = Math.min(to, t + 65536);
    const bad = positions instanceof Float32Array ? float32Records(positions, indices, rec, words, t, end, centres) : float64Records(positions, indices, rec, words, t, end, centres);
    if (bad >= 0) throw new Error(`BVH: index ${bad} out of range (${V} vertices).`);
    t = end;
  }
  return centres;
}

/**
 * Exact boxes: every float32 coordinate is its own float32 bound. Unrolled by axis and apart from
 * float64Records on purpose: warm, 0.016 s per million triangles against 0.021 as a loop over the
 * axes and 0.031 as one function for both position types.
 */
function float32Records(positions: Float32Array, indices: Uint32Array, rec: Float32Array, words: Int32Array, from: number, to: number, centres: Float64Array): number {
  const V = positions.length / 3;
  let x0 = centres[0]!, y0 = centres[1]!, z0 = centres[2]!, x1 = centres[3]!, y1 = centres[4]!, z1 = centres[5]!;
  for (let t = from; t < to; t++) {
    const ia = indices[3 * t]!, ib = indices[3 * t + 1]!, ic = indices[3 * t + 2]!;
    if (ia >= V || ib >= V || ic >= V) return Math.max(ia, ib, ic);
    const a = 3 * ia, b = 3 * ib, c = 3 * ic;
    const o = REC * t;
    let va = positions[a]!, vb = positions[b]!, vc = positions[c]!;
    let lo = va < vb ? (va < vc ? va : vc) : vb < vc ? vb : vc;
    let hi = va > vb ? (va > vc ? va : vc) : vb > vc ? vb : vc;
    rec[o] = lo;
    rec[o + 3] = hi;
    const x = lo + hi;
    va = positions[a + 1]!;
    vb = positions[b + 1]!;
    vc = positions[c + 1]!;
    lo = va < vb ? (va < vc ? va : vc) : vb < vc ? vb : vc;
    hi = va > vb ? (va > vc ? va : vc) : vb > vc ? vb : vc;
    rec[o + 1] = lo;
    rec[o + 4] = hi;
    const y = lo + hi;
    va = positions[a + 2]!;
    vb = positions[b + 2]!;
    vc = positions[c + 2]!;
    lo = va < vb ? (va < vc ? va : vc) : vb < vc ? vb : vc;
    hi = va > vb ? (va > vc ? va : vc) : vb > vc ? vb : vc;
    rec[o + 2] = lo;
    rec[o + 5] = hi;
    const z = lo + hi;
    words[o + 6] = t;
    // Twice the centre: only ever compared with other doubled centres.
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  centres.set([x0, y0, z0, x1, y1, z1]);
  return -1;
}

/** Boxes rounded outward to float32. Returns -1, or an index out of range. */
function float64Records(positions: Float64Array, indices: Uint32Array, rec: Float32Array, words: Int32Array, from: number, to: number, centres: Float64Array): number {
  const V = positions.length / 3;
  let x0 = centres[0]!, y0 = centres[1]!, z0 = centres[2]!, x1 = centres[3]!, y1 = centres[4]!, z1 = centres[5]!;
  for (let t = from; t < to; t++) {
    const ia = indices[3 * t]!, ib = indices[3 * t + 1]!, ic = indices[3 * t + 2]!;
    if (ia >= V || ib >= V || ic >= V) return Math.max(ia, ib, ic);
    const a = 3 * ia, b = 3 * ib, c = 3 * ic;
    const o = REC * t;
    for (let k = 0; k < 3; k++) {
      const va = positions[a + k]!, vb = positions[b + k]!, vc = positions[c + k]!;
      const lo = va < vb ? (va < vc ? va : vc) : vb < vc ? vb : vc;
      const hi = va > vb ? (va > vc ? va : vc) : vb > vc ? vb : vc;
      // Stored to nearest; a value rounded the wrong way takes one float32 step out.
      rec[o + k] = lo;
      if (rec[o + k]! > lo) rec[o + k] = f32Below(rec[o + k]!);
      rec[o + 3 + k] = hi;
      if (rec[o + 3 + k]! < hi) rec[o + 3 + k] = f32Above(rec[o + 3 + k]!);
    }
    words[o + 6] = t;
    const x = rec[o]! + rec[o + 3]!, y = rec[o + 1]! + rec[o + 4]!, z = rec[o + 2]! + rec[o + 5]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  centres.set([x0, y0, z0, x1, y1, z1]);
  return -1;
}

// Pending parts: start, end, buffer, node, then the centre box (6). Integers are read back with
// `| 0`: doubles flowing into functions compiled for small integers would deoptimise them.
const TASK = 10;
/** Words per task of a TopTree. */
export const TASK_WORDS = TASK;

/** Bytes of scratch memory buildTree needs per triangle (two record buffers). */
export const SCRATCH_BYTES_PER_TRIANGLE = 2 * 4 * REC;

/**
 * Splits the mesh's triangles into a tree. `scratch` (at least SCRATCH_BYTES_PER_TRIANGLE per
 * triangle) holds the records while building; the caller may reuse it afterwards. TriangleBvh
 * lends it the memory of the slot corners it fills next, which saves touching 64 fresh bytes a
 * triangle (page faults cost as much as a pass over the records).
 */
export function buildTree(positions: Float64Array | Float32Array, indices: Uint32Array, scratch: ArrayBufferLike, maxLeaf: number, bins: number): BuiltTree {
  const top = buildTop(positions, indices, scratch, new Uint32Array(indices.length / 3), maxLeaf, bins, 0);
  return { nodes: top.nodes, slotTriangle: top.slotTriangle };
}

/**
 * The top of a tree whose parts of at most `deferAt` records (deferAt 0: none) are left for
 * buildSubtrees, possibly on other threads: each such part is a task (TASK words: start, end,
 * record buffer, node, centre box) over its own run of positions, in both record buffers and in
 * slotTriangle, so tasks never touch each other's memory. The tree built from every task and
 * stitched (stitchSubtrees) is the one buildTree builds, node for node: a part's subtree depends
 * on its records alone.
 */
export interface TopTree extends BuiltTree {
  tasks: Float64Array;
  taskCount: number;
}

/**
 * The records of triangles [from, to) in the first record buffer of a scratch for all the mesh's
 * triangles, which buildTop then takes as made (several threads may make a run each). Returns
 * their doubled centres' box.
 */
export function makeRecords(positions: Float64Array | Float32Array, indices: Uint32Array, scratch: ArrayBufferLike, from: number, to: number): Float64Array {
  const T = indices.length / 3;
  if (scratch.byteLength < SCRATCH_BYTES_PER_TRIANGLE * T) throw new Error('BVH: scratch buffer too small.');
  if (!(from >= 0 && from <= to && to <= T)) throw new Error('BVH: record range out of the mesh.');
  return triangleRecords(positions, indices, new Float32Array(scratch, 0, REC * T), from, to);
}

/** `madeCentres`: the records are made already (makeRecords), with this box of their doubled centres. */
export function buildTop(
  positions: Float64Array | Float32Array,
  indices: Uint32Array,
  scratch: ArrayBufferLike,
  slotTriangle: Uint32Array,
  maxLeaf: number,
  bins: number,
  deferAt: number,
  madeCentres?: Float64Array,
  rootRound?: RootRound,
): TopTree {
  // Records, one per position of slotTriangle: triangles, or groups made already (bvhGroups.ts).
  const T = slotTriangle.length;
  // Room for 3 / maxLeaf nodes a triangle: a tree of leaves of about maxLeaf / 1.5 (0.17 nodes a
  // triangle at leaves of 16); room for one node a triangle held 32 bytes a triangle of it idle.
  const r = ranges(scratch, T, slotTriangle, maxLeaf, bins, 2 * Math.max(16, Math.ceil((3 * T) / maxLeaf)));
  const deferred: TaskList = { tasks: new Float64Array(0), top: 0 };
  if (T === 0) return { nodes: r.nodes, slotTriangle, tasks: deferred.tasks, taskCount: 0 };
  const centres = madeCentres ?? triangleRecords(positions, indices, r.rec[0], 0, T);
  const root = allocNode(r.nodes);
  const work: TaskList = { tasks: new Float64Array(64 * TASK), top: 0 };
  if (rootRound) finishRootRound(r, root, rootRound, work);
  else pushTask(work, 0, T, 0, root, centres, 0);
  grow(r, work, deferAt > 0 ? deferred : null, deferAt);
  return { nodes: r.nodes, slotTriangle, tasks: deferred.tasks, taskCount: deferred.top / TASK };
}

// ---- the root's grid round in runs (several threads) ----
//
// The serial round (gridRound) bins every record, chooses the splits from the cells and scatters
// every record to its bucket's run. Over threads, each bins a run of the records (binRun), the
// calling thread merges the cells and chooses the splits (splitRoot), each scatters its run to
// offsets that put the runs in record order (scatterRun), as the serial scatter's stable order
// does, and the calling thread ends the round (buildTop with the RootRound). Cell counts and boxes
// (min and max) merge exactly, so the round decides what gridRound decides.

/** The root round's grid: gx, gy, gz, x0, y0, z0, sx, sy, sz (gridRound's, for the same records). */
export function rootGrid(T: number, centres: Float64Array, bins: number): Float64Array | undefined {
  const { grid } = arrays;
  const ex = centres[3]! - centres[0]!, ey = centres[4]! - centres[1]!, ez = centres[5]! - centres[2]!;
  // Every centre in one point: gridRound halves instead (buildTop does it serially).
  if (!(ex > 0 || ey > 0 || ez > 0) || T <= SMALL_NODE) return undefined;
  gridShape(ex, ey, ez, Math.min(GRID_CELLS, Math.max(8, Math.floor(T / CELL_LOAD))), bins);
  const gx = grid[GX]!, gy = grid[GY]!, gz = grid[GZ]!;
  const sx = ex > 0 ? (gx * (1 - 1e-9)) / ex : 0;
  const sy = ey > 0 ? (gy * (1 - 1e-9)) / ey : 0;
  const sz = ez > 0 ? (gz * (1 - 1e-9)) / ez : 0;
  return new Float64Array([gx, gy, gz, centres[0]!, centres[1]!, centres[2]!, sx, sy, sz]);
}

/** A run's occupied cells: their indices, record counts and boxes (6 each). */
export interface BinnedRun {
  cells: Int32Array;
  counts: Int32Array;
  boxes: Float64Array;
}

/** Bins records [from, to) of the first buffer into the root grid (each record's cell in its word 7). */
export function binRun(scratch: ArrayBufferLike, T: number, spec: Float64Array, from: number, to: number): BinnedRun {
  const { cellCount, cellBox, occupied, grid } = arrays;
  if (scratch.byteLength < SCRATCH_BYTES_PER_TRIANGLE * T || !(from >= 0 && from <= to && to <= T)) throw new Error('BVH: bad root round run.');
  grid[GX] = spec[0]!;
  grid[GY] = spec[1]!;
  grid[GZ] = spec[2]!;
  const rec = new Float32Array(scratch, 0, REC * T), words = new Int32Array(scratch, 0, REC * T);
  const n = binCells(rec, words, from, to, spec[3]!, spec[4]!, spec[5]!, spec[6]!, spec[7]!, spec[8]!);
  const out: BinnedRun = { cells: occupied.slice(0, n), counts: new Int32Array(n), boxes: new Float64Array(6 * n) };
  for (let i = 0; i < n; i++) {
    const c = occupied[i]!;
    out.counts[i] = cellCount[c]!;
    cellCount[c] = 0;
    for (let k = 0; k < 6; k++) out.boxes[6 * i + k] = cellBox[6 * c + k]!;
  }
  return out;
}

/** What a run's scatter needs: cell -> bucket, and per bucket its size and this run's first position. */
export interface ScatterPlan {
  cellBucket: Int32Array;
  sizes: Int32Array;
  next: Int32Array;
}

/** The splits of the root round from every run's cells (in record order of the runs); a scatter plan per run. */
export function splitRoot(T: number, spec: Float64Array, runs: readonly BinnedRun[], maxLeaf: number, bins: number): { plans: ScatterPlan[]; round: RootRound } {
  const { cellCount, cellBox, cellBucket, cellLayer, occupied, bucketNode, bucketLeaf, bucketSize, grid } = arrays;
  grid[GX] = spec[0]!;
  grid[GY] = spec[1]!;
  grid[GZ] = spec[2]!;
  const gx = grid[GX]!, gxy = gx * grid[GY]!;
  let cells = 0;
  for (const run of runs) {
    for (let i = 0; i < run.cells.length; i++) {
      const c = run.cells[i]!, n = run.counts[i]!, o = 6 * c, b = 6 * i;
      if (cellCount[c] === 0) {
        occupied[cells++] = c;
        cellLayer[3 * c] = c % gx;
        cellLayer[3 * c + 1] = ((c % gxy) / gx) | 0;
        cellLayer[3 * c + 2] = (c / gxy) | 0;
        for (let k = 0; k < 6; k++) cellBox[o + k] = run.boxes[b + k]!;
      } else {
        for (let k = 0; k < 3; k++) if (run.boxes[b + k]! < cellBox[o + k]!) cellBox[o + k] = run.boxes[b + k]!;
        for (let k = 3; k < 6; k++) if (run.boxes[b + k]! > cellBox[o + k]!) cellBox[o + k] = run.boxes[b + k]!;
      }
      cellCount[c]! += n;
    }
  }
  // Nodes the splits make are numbered from 1 (0 is the root), as buildTop's node list will have them.
  const nodes: BuildNodes = { links: new Int32Array(2 * Math.max(16, cells)), boxes: new Float32Array(6 * Math.max(16, cells)), count: 1 };
  const r = { nodes, maxLeaf, bins } as Ranges;
  grid[BUCKETS] = 0;
  grid[MINL] = T <= FINE_ROUND ? 2 : MIN_LAYERS;
  splitCells(r, 0, 0, cells, T, true);
  for (let i = 0; i < cells; i++) cellCount[occupied[i]!] = 0;
  const buckets = grid[BUCKETS]!;
  const sizes = bucketSize.slice(0, buckets);
  const starts = new Int32Array(buckets);
  for (let k = 0, at = 0; k < buckets; k++) {
    starts[k] = at;
    at += sizes[k]!;
  }
  const cellBucketCopy = cellBucket.slice();
  const plans = runs.map((run) => {
    const next = starts.slice();
    for (let i = 0; i < run.cells.length; i++) starts[cellBucket[run.cells[i]!]!]! += run.counts[i]!;
    return { cellBucket: cellBucketCopy, sizes, next };
  });
  const round: RootRound = { nodes, buckets, bucketNode: bucketNode.slice(0, buckets), bucketLeaf: bucketLeaf.slice(0, buckets), sizes, centres: [] };
  return { plans, round };
}

/** Scatters records [from, to) of the first buffer to the second by a plan; returns the buckets' centre boxes (6 each) of this run. */
export function scatterRun(scratch: ArrayBufferLike, T: number, plan: ScatterPlan, from: number, to: number): Float64Array {
  const { cellBucket, bucketSize, bucketNext, bucketCentres } = arrays;
  if (scratch.byteLength < SCRATCH_BYTES_PER_TRIANGLE * T || !(from >= 0 && from <= to && to <= T)) throw new Error('BVH: bad root round run.');
  const buckets = plan.sizes.length;
  cellBucket.set(plan.cellBucket);
  bucketSize.set(plan.sizes);
  bucketNext.set(plan.next);
  for (let k = 0; k < buckets; k++) {
    const o = 6 * k;
    bucketCentres[o] = bucketCentres[o + 1] = bucketCentres[o + 2] = Infinity;
    bucketCentres[o + 3] = bucketCentres[o + 4] = bucketCentres[o + 5] = -Infinity;
  }
  scatter(new Float32Array(scratch, 0, REC * T), new Int32Array(scratch, 0, REC * T), new Float64Array(scratch, 0, (REC / 2) * T), new Float64Array(scratch, 4 * REC * T, (REC / 2) * T), from, to);
  return bucketCentres.slice(0, 6 * buckets);
}

/** The root round decided by splitRoot, with the runs' bucket centre boxes once scattered. */
export interface RootRound {
  /** Nodes 1 to count - 1: the splits' (node 0 is the root). */
  nodes: BuildNodes;
  buckets: number;
  bucketNode: Int32Array;
  bucketLeaf: Uint8Array;
  sizes: Int32Array;
  centres: Float64Array[];
}

/** gridRound's end for the root, from a RootRound: leaves, small parts split, the rest pending on `work`. */
function finishRootRound(r: Ranges, root: number, round: RootRound, work: TaskList): void {
  if (root !== 0 || r.nodes.count !== 1) throw new Error('BVH: the root round must come first.');
  if (r.nodes.links.length < 2 * round.nodes.count) growNodes(r.nodes, 2 * round.nodes.count);
  r.nodes.links.set(round.nodes.links.subarray(0, 2 * round.nodes.count));
  r.nodes.count = round.nodes.count;
  const box = new Float64Array(6);
  let at = 0;
  for (let k = 0; k < round.buckets; k++) {
    const first = at, last = (at += round.sizes[k]!);
    const node = round.bucketNode[k]!;
    if (round.bucketLeaf[k]) {
      recordLeaf(r, 1, node, first, last);
      continue;
    }
    if (last - first <= SMALL_NODE) {
      splitPart(r, 1, first, last, node);
      continue;
    }
    box.fill(Infinity, 0, 3).fill(-Infinity, 3, 6);
    for (const c of round.centres) {
      for (let i = 0; i < 3; i++) if (c[6 * k + i]! < box[i]!) box[i] = c[6 * k + i]!;
      for (let i = 3; i < 6; i++) if (c[6 * k + i]! > box[i]!) box[i] = c[6 * k + i]!;
    }
    pushTask(work, first, last, 1, node, box, 0);
  }
}

/**
 * Builds the subtrees of tasks (a run of a TopTree's tasks) over the same scratch and slotTriangle
 * the top was built with. Nodes 0 to count - 1 of the result are the tasks' roots, in order; the
 * others follow.
 */
export function buildSubtrees(scratch: ArrayBufferLike, triangles: number, slotTriangle: Uint32Array, tasks: Float64Array, maxLeaf: number, bins: number): BuildNodes {
  const count = tasks.length / TASK;
  const r = ranges(scratch, triangles, slotTriangle, maxLeaf, bins, 2 * Math.max(16, count));
  for (let k = 0; k < count; k++) allocNode(r.nodes);
  const work: TaskList = { tasks: new Float64Array(Math.max(64 * TASK, tasks.length)), top: 0 };
  // Each task's node is its place in this list, whatever node the top tree gave it.
  for (let k = 0; k < count; k++) pushTask(work, tasks[TASK * k]! | 0, tasks[TASK * k + 1]! | 0, tasks[TASK * k + 2]! | 0, k, tasks, TASK * k + 4);
  grow(r, work, null, 0);
  return r.nodes;
}

/** buildSubtrees' result for a run of a top's tasks (TASK_WORDS each, copied from top.tasks). */
export interface Subtrees {
  nodes: BuildNodes;
  tasks: Float64Array;
}

/**
 * Joins the subtrees of a top's tasks into the top: the parts' task runs hold every task of the
 * top once. Returns the whole tree (a fresh node array; the top is left as it was).
 */
export function stitchSubtrees(top: TopTree, parts: readonly Subtrees[]): BuiltTree {
  let total = top.nodes.count, roots = 0;
  for (const p of parts) {
    const k = p.tasks.length / TASK;
    if (p.nodes.count < k) throw new Error('BVH: a subtree part lacks its roots.');
    total += p.nodes.count - k;
    roots += k;
  }
  if (roots !== top.taskCount) throw new Error('BVH: the subtrees do not cover the tasks.');
  const links = new Int32Array(2 * Math.max(1, total)), boxes = new Float32Array(6 * Math.max(1, total));
  links.set(top.nodes.links.subarray(0, 2 * top.nodes.count));
  boxes.set(top.nodes.boxes.subarray(0, 6 * top.nodes.count));
  let base = top.nodes.count;
  for (const { nodes, tasks } of parts) {
    // Local node i < k is task i's root, a node of the top; the others are new.
    const k = tasks.length / TASK, shift = base - k;
    const map = (local: number): number => (local < k ? tasks[TASK * local + 3]! | 0 : shift + local);
    const from = nodes.links;
    for (let local = 0; local < nodes.count; local++) {
      const a = from[2 * local]!, b = from[2 * local + 1]!;
      const at = 2 * map(local);
      // Leaves keep [first position, -count]; positions are global already.
      links[at] = b < 0 ? a : map(a);
      links[at + 1] = b < 0 ? b : map(b);
      if (b < 0) for (let k = 0; k < 6; k++) boxes[3 * at + k] = nodes.boxes[6 * local + k]!;
    }
    base += nodes.count - k;
  }
  return { nodes: { links, boxes, count: total }, slotTriangle: top.slotTriangle };
}

/** A stack of tasks, TASK words each. */
interface TaskList {
  tasks: Float64Array;
  top: number;
}

function ranges(scratch: ArrayBufferLike, T: number, slotTriangle: Uint32Array, maxLeaf: number, bins: number, links: number): Ranges {
  if (scratch.byteLength < SCRATCH_BYTES_PER_TRIANGLE * T) throw new Error('BVH: scratch buffer too small.');
  return {
    rec: [new Float32Array(scratch, 0, REC * T), new Float32Array(scratch, 4 * REC * T, REC * T)],
    words: [new Int32Array(scratch, 0, REC * T), new Int32Array(scratch, 4 * REC * T, REC * T)],
    pairs: [new Float64Array(scratch, 0, (REC / 2) * T), new Float64Array(scratch, 4 * REC * T, (REC / 2) * T)],
    // A tree never has more than 2 T - 1 nodes; allocNode grows the arrays when they are full.
    nodes: { links: new Int32Array(links), boxes: new Float32Array(3 * links), count: 0 },
    slotTriangle,
    maxLeaf,
    bins,
  };
}

function pushTask(list: TaskList, start: number, end: number, buffer: number, node: number, cb: Float64Array, cbo: number): void {
  if (list.top + TASK > list.tasks.length) {
    const grown = new Float64Array(Math.max(64 * TASK, 2 * list.tasks.length));
    grown.set(list.tasks);
    list.tasks = grown;
  }
  const t = list.tasks, top = list.top;
  t[top] = start;
  t[top + 1] = end;
  t[top + 2] = buffer;
  t[top + 3] = node;
  for (let k = 0; k < 6; k++) t[top + 4 + k] = cb[cbo + k]!;
  list.top = top + TASK;
}

/** Splits the parts on `work` down to leaves; with `deferred`, parts of at most deferAt records (and more than SMALL_NODE) go there instead. */
function grow(r: Ranges, work: TaskList, deferred: TaskList | null, deferAt: number): void {
  const { pendingTasks } = arrays;
  while (work.top > 0) {
    work.top -= TASK;
    const tasks = work.tasks, top = work.top;
    const start = tasks[top]! | 0, end = tasks[top + 1]! | 0, buffer = tasks[top + 2]! | 0, node = tasks[top + 3]! | 0;
    if (end - start <= SMALL_NODE) {
      splitPart(r, buffer, start, end, node);
      continue;
    }
    if (deferred && end - start <= deferAt) {
      pushTask(deferred, start, end, buffer, node, tasks, top + 4);
      continue;
    }
    const pending = gridRound(r, buffer, start, end, node, tasks, top + 4);
    for (let p = 0; p < pending; p++) {
      const o = PENDING * p;
      pushTask(work, pendingTasks[o]! | 0, pendingTasks[o + 1]! | 0, 1 - buffer, pendingTasks[o + 2]! | 0, pendingTasks, o + 3);
    }
  }
}

function allocNode(nodes: BuildNodes): number {
  if (2 * nodes.count === nodes.links.length) growNodes(nodes, 2 * nodes.count);
  return nodes.count++;
}

/** Room for `count` nodes, the ones there kept. */
function growNodes(nodes: BuildNodes, count: number): void {
  const links = new Int32Array(2 * count), boxes = new Float32Array(6 * count);
  links.set(nodes.links.subarray(0, 2 * nodes.count));
  boxes.set(nodes.boxes.subarray(0, 6 * nodes.count));
  nodes.links = links;
  nodes.boxes = boxes;
}

function setInner(nodes: BuildNodes, node: number, left: number, right: number): void {
  nodes.links[2 * node] = left;
  nodes.links[2 * node + 1] = right;
}

/**
 * Makes `node` the leaf of positions [first, last) of record buffer `b`: its triangles go to
 * slotTriangle and its box is the union of the records' boxes.
 */
function recordLeaf(r: Ranges, b: number, node: number, first: number, last: number): void {
  const rec = r.rec[b]!, words = r.words[b]!;
  r.nodes.links[2 * node] = first;
  r.nodes.links[2 * node + 1] = first - last;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let p = first; p < last; p++) {
    const o = REC * p;
    r.slotTriangle[p] = words[o + 6]!;
    if (rec[o]! < x0) x0 = rec[o]!;
    if (rec[o + 1]! < y0) y0 = rec[o + 1]!;
    if (rec[o + 2]! < z0) z0 = rec[o + 2]!;
    if (rec[o + 3]! > x1) x1 = rec[o + 3]!;
    if (rec[o + 4]! > y1) y1 = rec[o + 4]!;
    if (rec[o + 5]! > z1) z1 = rec[o + 5]!;
  }
  setBox(r.nodes.boxes, node, x0, y0, z0, x1, y1, z1);
}

function setBox(boxes: Float32Array, node: number, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): void {
  const o = 6 * node;
  boxes[o] = x0;
  boxes[o + 1] = y0;
  boxes[o + 2] = z0;
  boxes[o + 3] = x1;
  boxes[o + 4] = y1;
  boxes[o + 5] = z1;
}

// ---- grid rounds ----

/** start, end, node, centre box (6) of each pending part a round returns. */
const PENDING = 9;
const GX = 0, GY = 1, GZ = 2, BUCKETS = 3, MINL = 4;

/**
 * The rounds' scratch arrays (one set per thread). Each function reads the ones it uses into locals
 * first: in an ES module (the CLI's and the browser's bundles, tsx) V8 reads a module-level binding
 * through the module's context on every access, where a CommonJS bundle's function context is
 * specialised away; with the arrays at module level the serial build took 0.27 to 0.32 CPU s per
 * million triangles as an ES module bundle against 0.23 to 0.26 as CommonJS, read into locals 0.25
 * to 0.27 (1M-triangle torus, docs/scaling.md).
 */
const arrays = {
  /** Per cell: record count (zero between rounds), box, bucket, and its x y z layer. */
  cellCount: new Int32Array(GRID_CELLS),
  cellBox: new Float64Array(6 * GRID_CELLS),
  cellBucket: new Int32Array(GRID_CELLS),
  cellLayer: new Int32Array(3 * GRID_CELLS),
  /** The occupied cells of the round; a part of the grid is a run of this list. */
  occupied: new Int32Array(GRID_CELLS),
  /** Per axis, per layer: count and box, for the SAH sweep of one part. */
  layerCount: new Int32Array(3 * MAX_BINS),
  layerBox: new Float64Array(18 * MAX_BINS),
  suffixArea: new Float64Array(MAX_BINS),
  /** Buckets: the parts a round ends with (leaves and pending parts), in depth-first order. */
  bucketNode: new Int32Array(GRID_CELLS),
  bucketLeaf: new Uint8Array(GRID_CELLS),
  bucketSize: new Int32Array(GRID_CELLS),
  bucketNext: new Int32Array(GRID_CELLS),
  bucketCentres: new Float64Array(6 * GRID_CELLS),
  pendingTasks: new Float64Array(PENDING * GRID_CELLS),
  /**
   * The current grid's shape and counters (GX ... MINL), in a typed array rather than module
   * `let`s: V8 treats a module variable that keeps changing as a deoptimisation hazard in every
   * function reading it.
   */
  grid: new Int32Array(5),
  /** A small part's local copy (splitPart, halvePart). */
  partBox: new Float64Array(6 * SMALL_NODE),
  partCentre: new Float64Array(3 * SMALL_NODE),
  partTriangle: new Int32Array(SMALL_NODE),
  order: new Int32Array(SMALL_NODE),
  suffixCost: new Float64Array(SMALL_NODE),
  sortKeys: new Float64Array(SMALL_NODE),
  partTasks: new Int32Array(3 * 2 * (SMALL_NODE + 1)),
};

/**
 * One grid round over records [start, end) of buffer `b`, whose centre box is cb[cbo..cbo+6):
 * decides the node's top levels, moves the records into the other buffer part by part, sets the
 * leaves and returns how many pending parts it wrote to pendingTasks.
 */
function gridRound(r: Ranges, b: number, start: number, end: number, node: number, cb: Float64Array, cbo: number): number {
  const { cellCount, occupied, bucketNode, bucketLeaf, bucketSize, bucketNext, bucketCentres, pendingTasks, grid } = arrays;
  const count = end - start;
  const ex = cb[cbo + 3]! - cb[cbo]!, ey = cb[cbo + 4]! - cb[cbo + 1]!, ez = cb[cbo + 5]! - cb[cbo + 2]!;
  if (!(ex > 0 || ey > 0 || ez > 0)) {
    // Every centre in one point: no plane separates them; halve by position.
    return halveRound(r, b, start, end, node, cb, cbo);
  }
  gridShape(ex, ey, ez, Math.min(GRID_CELLS, Math.max(8, Math.floor(count / CELL_LOAD))), r.bins);
  const gx = grid[GX]!, gy = grid[GY]!, gz = grid[GZ]!;
  // Slightly under cells / extent so the largest centre lands in the last layer, not past it.
  const sx = ex > 0 ? (gx * (1 - 1e-9)) / ex : 0;
  const sy = ey > 0 ? (gy * (1 - 1e-9)) / ey : 0;
  const sz = ez > 0 ? (gz * (1 - 1e-9)) / ez : 0;
  const cells = binCells(r.rec[b]!, r.words[b]!, start, end, cb[cbo]!, cb[cbo + 1]!, cb[cbo + 2]!, sx, sy, sz);

  grid[BUCKETS] = 0;
  grid[MINL] = count <= FINE_ROUND ? 2 : MIN_LAYERS;
  splitCells(r, node, 0, cells, count, true);
  for (let i = 0; i < cells; i++) cellCount[occupied[i]!] = 0;
  const buckets = grid[BUCKETS]!;
  let at = start;
  for (let k = 0; k < buckets; k++) {
    bucketNext[k] = at;
    at += bucketSize[k]!;
    const o = 6 * k;
    bucketCentres[o] = bucketCentres[o + 1] = bucketCentres[o + 2] = Infinity;
    bucketCentres[o + 3] = bucketCentres[o + 4] = bucketCentres[o + 5] = -Infinity;
  }
  scatter(r.rec[b]!, r.words[b]!, r.pairs[b]!, r.pairs[1 - b]!, start, end);
  let pending = 0;
  for (let k = 0; k < buckets; k++) {
    const last = bucketNext[k]!, first = last - bucketSize[k]!;
    if (bucketLeaf[k]) {
      recordLeaf(r, 1 - b, bucketNode[k]!, first, last);
      continue;
    }
    if (last - first <= SMALL_NODE) {
      // While its records are still in cache.
      splitPart(r, 1 - b, first, last, bucketNode[k]!);
      continue;
    }
    const o = PENDING * pending++;
    pendingTasks[o] = first;
    pendingTasks[o + 1] = last;
    pendingTasks[o + 2] = bucketNode[k]!;
    for (let i = 0; i < 6; i++) pendingTasks[o + 3 + i] = bucketCentres[6 * k + i]!;
  }
  return pending;
}

/** Cells per axis in proportion to the box's extents, about `target` in all, 1 to maxLayers each (2 on the longest). */
function gridShape(ex: number, ey: number, ez: number, target: number, maxLayers: number): void {
  const { grid } = arrays;
  const e = Math.max(ex, ey, ez);
  const rx = ex / e, ry = ey / e, rz = ez / e;
  // Axes too flat for a second layer get one; the others share the budget.
  let k = Math.cbrt(target / Math.max(rx * ry * rz, 1e-30));
  let flat = 0, product = 1;
  if (k * rx < 1) flat++;
  else product *= rx;
  if (k * ry < 1) flat++;
  else product *= ry;
  if (k * rz < 1) flat++;
  else product *= rz;
  if (flat === 1) k = Math.sqrt(target / product);
  else if (flat === 2) k = target / product;
  // The longest axis always gets two layers, so a round can always split its node.
  grid[GX] = Math.max(ex === e ? 2 : 1, Math.min(maxLayers, Math.floor(k * rx)));
  grid[GY] = Math.max(ex !== e && ey === e ? 2 : 1, Math.min(maxLayers, Math.floor(k * ry)));
  grid[GZ] = Math.max(ex !== e && ey !== e ? 2 : 1, Math.min(maxLayers, Math.floor(k * rz)));
}

/**
 * Drops each record into its cell (kept in word 7), lists the occupied cells and returns how many.
 * Nothing after the loop: V8 compiles the loop while the first, largest round runs it, before any
 * code after it has run, and code it has never seen run deoptimises on every later call.
 */
function binCells(rec: Float32Array, words: Int32Array, start: number, end: number, x0: number, y0: number, z0: number, sx: number, sy: number, sz: number): number {
  const { cellCount, cellBox, cellLayer, occupied, grid } = arrays;
  const gx = grid[GX]!, stride = gx * grid[GY]!;
  let cells = 0;
  for (let o = REC * start; o < REC * end; o += REC) {
    const ax = rec[o]!, ay = rec[o + 1]!, az = rec[o + 2]!, bx = rec[o + 3]!, by = rec[o + 4]!, bz = rec[o + 5]!;
    const ix = ((ax + bx - x0) * sx) | 0, iy = ((ay + by - y0) * sy) | 0, iz = ((az + bz - z0) * sz) | 0;
    const cell = ix + gx * iy + stride * iz;
    words[o + 7] = cell;
    const n = cellCount[cell]!;
    cellCount[cell] = n + 1;
    const c = 6 * cell;
    if (n === 0) {
      occupied[cells++] = cell;
      cellLayer[3 * cell] = ix;
      cellLayer[3 * cell + 1] = iy;
      cellLayer[3 * cell + 2] = iz;
      cellBox[c] = ax;
      cellBox[c + 1] = ay;
      cellBox[c + 2] = az;
      cellBox[c + 3] = bx;
      cellBox[c + 4] = by;
      cellBox[c + 5] = bz;
      continue;
    }
    if (ax < cellBox[c]!) cellBox[c] = ax;
    if (ay < cellBox[c + 1]!) cellBox[c + 1] = ay;
    if (az < cellBox[c + 2]!) cellBox[c + 2] = az;
    if (bx > cellBox[c + 3]!) cellBox[c + 3] = bx;
    if (by > cellBox[c + 4]!) cellBox[c + 4] = by;
    if (bz > cellBox[c + 5]!) cellBox[c + 5] = bz;
  }
  return cells;
}

/**
 * Chooses the subtree of the part made of the occupied cells occupied[lo, hi), holding `count`
 * records, rooted at `node`: the cheapest SAH plane between cell layers on any axis, recursively,
 * until a part is a leaf, small, or too coarse to split well in this grid (then it is a bucket).
 */
function splitCells(r: Ranges, node: number, lo: number, hi: number, count: number, root: boolean): void {
  const { cellCount, cellLayer, occupied, layerCount, layerBox, suffixArea, grid } = arrays;
  const leaf = count <= r.maxLeaf;
  let bucket = leaf || count <= SMALL_NODE;
  // The part's extent in layers.
  let x0 = MAX_BINS, y0 = MAX_BINS, z0 = MAX_BINS, x1 = 0, y1 = 0, z1 = 0;
  for (let i = lo; i < hi; i++) {
    const c = 3 * occupied[i]!;
    const x = cellLayer[c]!, y = cellLayer[c + 1]!, z = cellLayer[c + 2]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  const nx = x1 - x0 + 1, ny = y1 - y0 + 1, nz = z1 - z0 + 1;
  const layers = Math.max(nx, ny, nz);
  if (layers < 2 || (!root && layers < grid[MINL]!)) bucket = true;
  if (bucket) {
    addBucket(node, leaf, lo, hi);
    return;
  }
  clearLayers(0, nx);
  clearLayers(MAX_BINS, ny);
  clearLayers(2 * MAX_BINS, nz);
  for (let i = lo; i < hi; i++) {
    const cell = occupied[i]!;
    const n = cellCount[cell]!;
    addLayer(cellLayer[3 * cell]! - x0, cell, n);
    addLayer(MAX_BINS + cellLayer[3 * cell + 1]! - y0, cell, n);
    addLayer(2 * MAX_BINS + cellLayer[3 * cell + 2]! - z0, cell, n);
  }

  let bestCost = Infinity, bestAxis = 0, bestPlane = 0, bestLeft = 0;
  for (let axis = 0; axis < 3; axis++) {
    const l1 = axis === 0 ? nx : axis === 1 ? ny : nz;
    if (l1 < 2) continue;
    const base = axis * MAX_BINS;
    let ax = Infinity, ay = Infinity, az = Infinity, bx = -Infinity, by = -Infinity, bz = -Infinity;
    for (let i = l1 - 1; i > 0; i--) {
      const o = 6 * (base + i);
      if (layerBox[o]! < ax) ax = layerBox[o]!;
      if (layerBox[o + 1]! < ay) ay = layerBox[o + 1]!;
      if (layerBox[o + 2]! < az) az = layerBox[o + 2]!;
      if (layerBox[o + 3]! > bx) bx = layerBox[o + 3]!;
      if (layerBox[o + 4]! > by) by = layerBox[o + 4]!;
      if (layerBox[o + 5]! > bz) bz = layerBox[o + 5]!;
      suffixArea[i] = halfArea(ax, ay, az, bx, by, bz);
    }
    ax = ay = az = Infinity;
    bx = by = bz = -Infinity;
    let left = 0;
    for (let i = 0; i < l1 - 1; i++) {
      const o = 6 * (base + i);
      if (layerBox[o]! < ax) ax = layerBox[o]!;
      if (layerBox[o + 1]! < ay) ay = layerBox[o + 1]!;
      if (layerBox[o + 2]! < az) az = layerBox[o + 2]!;
      if (layerBox[o + 3]! > bx) bx = layerBox[o + 3]!;
      if (layerBox[o + 4]! > by) by = layerBox[o + 4]!;
      if (layerBox[o + 5]! > bz) bz = layerBox[o + 5]!;
      left += layerCount[base + i]!;
      // An empty layer next to the plane repeats the previous plane's split.
      if (left === 0 || left === count || layerCount[base + i] === 0) continue;
      const cost = left * halfArea(ax, ay, az, bx, by, bz) + (count - left) * suffixArea[i + 1]!;
      if (cost < bestCost) {
        bestCost = cost;
        bestAxis = axis;
        bestPlane = i + 1 + (axis === 0 ? x0 : axis === 1 ? y0 : z0);
        bestLeft = left;
      }
    }
  }
  // Occupied cells below the plane first (order within a side does not matter).
  let i = lo, j = hi - 1;
  while (i <= j) {
    if (cellLayer[3 * occupied[i]! + bestAxis]! < bestPlane) i++;
    else {
      const t = occupied[i]!;
      occupied[i] = occupied[j]!;
      occupied[j--] = t;
    }
  }
  const left = allocNode(r.nodes), right = allocNode(r.nodes);
  setInner(r.nodes, node, left, right);
  splitCells(r, left, lo, i, bestLeft, false);
  splitCells(r, right, i, hi, count - bestLeft, false);
}

function clearLayers(base: number, n: number): void {
  const { layerCount, layerBox } = arrays;
  for (let i = base; i < base + n; i++) {
    layerCount[i] = 0;
    const o = 6 * i;
    layerBox[o] = layerBox[o + 1] = layerBox[o + 2] = Infinity;
    layerBox[o + 3] = layerBox[o + 4] = layerBox[o + 5] = -Infinity;
  }
}

function addLayer(layer: number, cell: number, n: number): void {
  const { cellBox, layerCount, layerBox } = arrays;
  layerCount[layer]! += n;
  const o = 6 * layer, c = 6 * cell;
  if (cellBox[c]! < layerBox[o]!) layerBox[o] = cellBox[c]!;
  if (cellBox[c + 1]! < layerBox[o + 1]!) layerBox[o + 1] = cellBox[c + 1]!;
  if (cellBox[c + 2]! < layerBox[o + 2]!) layerBox[o + 2] = cellBox[c + 2]!;
  if (cellBox[c + 3]! > layerBox[o + 3]!) layerBox[o + 3] = cellBox[c + 3]!;
  if (cellBox[c + 4]! > layerBox[o + 4]!) layerBox[o + 4] = cellBox[c + 4]!;
  if (cellBox[c + 5]! > layerBox[o + 5]!) layerBox[o + 5] = cellBox[c + 5]!;
}

/** Ends a part in this round: its cells all move to one run, a leaf or a pending part. */
function addBucket(node: number, leaf: boolean, lo: number, hi: number): void {
  const { cellCount, cellBucket, occupied, bucketNode, bucketLeaf, bucketSize, grid } = arrays;
  const k = grid[BUCKETS]!++;
  bucketNode[k] = node;
  bucketLeaf[k] = leaf ? 1 : 0;
  let size = 0;
  for (let i = lo; i < hi; i++) {
    const cell = occupied[i]!;
    cellBucket[cell] = k;
    size += cellCount[cell]!;
  }
  bucketSize[k] = size;
}

/**
 * Moves every record to the next position of its bucket's run (stable), gathering each bucket's
 * centre box. A record moves as four float64 words: no pair of its 32-bit words reads as a NaN
 * (finite float32 bounds; an index beside a cell below 2^15), so every bit is kept.
 */
function scatter(rec: Float32Array, words: Int32Array, from: Float64Array, to: Float64Array, start: number, end: number): void {
  const { cellBucket, bucketSize, bucketNext, bucketCentres } = arrays;
  for (let o = REC * start; o < REC * end; o += REC) {
    const k = cellBucket[words[o + 7]!]!;
    const p = bucketNext[k]!++;
    const d = (REC / 2) * p, q = o >> 1;
    to[d] = from[q]!;
    to[d + 1] = from[q + 1]!;
    to[d + 2] = from[q + 2]!;
    to[d + 3] = from[q + 3]!;
    // Only a part that gets a round of its own needs its centre box (splitPart finds its own).
    if (bucketSize[k]! <= SMALL_NODE) continue;
    const x = rec[o]! + rec[o + 3]!, y = rec[o + 1]! + rec[o + 4]!, z = rec[o + 2]! + rec[o + 5]!;
    const c = 6 * k;
    if (x < bucketCentres[c]!) bucketCentres[c] = x;
    if (y < bucketCentres[c + 1]!) bucketCentres[c + 1] = y;
    if (z < bucketCentres[c + 2]!) bucketCentres[c + 2] = z;
    if (x > bucketCentres[c + 3]!) bucketCentres[c + 3] = x;
    if (y > bucketCentres[c + 4]!) bucketCentres[c + 4] = y;
    if (z > bucketCentres[c + 5]!) bucketCentres[c + 5] = z;
  }
}

/** A round for a node whose centres all coincide: two pending halves by position, in the other buffer. */
function halveRound(r: Ranges, b: number, start: number, end: number, node: number, cb: Float64Array, cbo: number): number {
  const { pendingTasks } = arrays;
  r.words[1 - b]!.set(r.words[b]!.subarray(REC * start, REC * end), REC * start);
  const mid = (start + end) >>> 1;
  const left = allocNode(r.nodes), right = allocNode(r.nodes);
  setInner(r.nodes, node, left, right);
  for (const [p, s, e, n] of [
    [0, start, mid, left],
    [1, mid, end, right],
  ] as const) {
    const o = PENDING * p;
    pendingTasks[o] = s;
    pendingTasks[o + 1] = e;
    pendingTasks[o + 2] = n;
    for (let i = 0; i < 6; i++) pendingTasks[o + 3 + i] = cb[cbo + i]!;
  }
  return 2;
}

// ---- small parts: exact SAH on sorted centres ----

/**
 * Splits a part of at most SMALL_NODE records under `node`, in a local copy: each node sorts its
 * records by centre along the longest axis of their centre box and takes the cheapest SAH split
 * of that order (exact, where bins would approximate). Only the order is permuted; the records
 * stay put, and the part's triangles go to slotTriangle in leaf order.
 */
function splitPart(r: Ranges, b: number, start: number, end: number, node: number): void {
  const { partBox, partCentre, partTriangle, order, partTasks } = arrays;
  const rec = r.rec[b]!, words = r.words[b]!;
  const n = end - start;
  if (n > r.maxLeaf && n <= 2 * r.maxLeaf) {
    halvePart(r, b, start, end, node);
    return;
  }
  for (let i = 0; i < n; i++) {
    const o = REC * (start + i);
    for (let k = 0; k < 6; k++) partBox[6 * i + k] = rec[o + k]!;
    partCentre[3 * i] = rec[o]! + rec[o + 3]!;
    partCentre[3 * i + 1] = rec[o + 1]! + rec[o + 4]!;
    partCentre[3 * i + 2] = rec[o + 2]! + rec[o + 5]!;
    partTriangle[i] = words[o + 6]!;
    order[i] = i;
  }
  let top = 0;
  partTasks[top++] = 0;
  partTasks[top++] = n;
  partTasks[top++] = node;
  while (top > 0) {
    const nd = partTasks[--top]!, hi = partTasks[--top]!, lo = partTasks[--top]!;
    if (hi - lo <= r.maxLeaf) {
      partLeaf(r.nodes, nd, start, lo, hi);
      continue;
    }
    const mid = lo + sortedSahSplit(lo, hi, r.maxLeaf);
    const left = allocNode(r.nodes), right = allocNode(r.nodes);
    setInner(r.nodes, nd, left, right);
    partTasks[top++] = mid;
    partTasks[top++] = hi;
    partTasks[top++] = right;
    partTasks[top++] = lo;
    partTasks[top++] = mid;
    partTasks[top++] = left;
  }
  for (let i = 0; i < n; i++) r.slotTriangle[start + i] = partTriangle[order[i]!]!;
}

/**
 * Splits a part of two leaves' worth (maxLeaf < n <= 2 maxLeaf) into two leaves at the median
 * centre along the longest axis of the centre box: the split the sorted SAH sweep makes for such a
 * part (sortedSahSplit), found by selection, with no copy of the records.
 */
function halvePart(r: Ranges, b: number, start: number, end: number, node: number): void {
  const { order, sortKeys } = arrays;
  const rec = r.rec[b]!, words = r.words[b]!;
  const n = end - start;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let o = REC * start; o < REC * end; o += REC) {
    const x = rec[o]! + rec[o + 3]!, y = rec[o + 1]! + rec[o + 4]!, z = rec[o + 2]! + rec[o + 5]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  const ex = x1 - x0, ey = y1 - y0, ez = z1 - z0;
  const axis = ex >= ey ? (ex >= ez ? 0 : 2) : ey >= ez ? 1 : 2;
  for (let i = 0; i < n; i++) {
    const o = REC * (start + i) + axis;
    sortKeys[i] = rec[o]! + rec[o + 3]!;
    order[i] = i;
  }
  const mid = n >>> 1;
  selectKey(n, mid);
  const left = allocNode(r.nodes), right = allocNode(r.nodes);
  setInner(r.nodes, node, left, right);
  orderLeaf(r, rec, words, left, start, 0, mid);
  orderLeaf(r, rec, words, right, start, mid, n);
}

/** Reorders sortKeys[0, n) (and order alongside) so that key k is in place, smaller ones before it, larger after (Hoare). */
function selectKey(n: number, k: number): void {
  const { order, sortKeys } = arrays;
  let lo = 0, hi = n - 1;
  while (hi > lo) {
    const pivot = sortKeys[(lo + hi) >>> 1]!;
    let i = lo, j = hi;
    while (i <= j) {
      while (sortKeys[i]! < pivot) i++;
      while (sortKeys[j]! > pivot) j--;
      if (i <= j) {
        const key = sortKeys[i]!, v = order[i]!;
        sortKeys[i] = sortKeys[j]!;
        order[i] = order[j]!;
        sortKeys[j] = key;
        order[j] = v;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/** Makes `node` the leaf of records start + order[lo, hi) of a record buffer, at positions start + lo on. */
function orderLeaf(r: Ranges, rec: Float32Array, words: Int32Array, node: number, start: number, lo: number, hi: number): void {
  const { order } = arrays;
  r.nodes.links[2 * node] = start + lo;
  r.nodes.links[2 * node + 1] = lo - hi;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = lo; i < hi; i++) {
    const o = REC * (start + order[i]!);
    r.slotTriangle[start + i] = words[o + 6]!;
    if (rec[o]! < x0) x0 = rec[o]!;
    if (rec[o + 1]! < y0) y0 = rec[o + 1]!;
    if (rec[o + 2]! < z0) z0 = rec[o + 2]!;
    if (rec[o + 3]! > x1) x1 = rec[o + 3]!;
    if (rec[o + 4]! > y1) y1 = rec[o + 4]!;
    if (rec[o + 5]! > z1) z1 = rec[o + 5]!;
  }
  setBox(r.nodes.boxes, node, x0, y0, z0, x1, y1, z1);
}

/** Makes `node` the leaf of the part's records order[lo, hi), at positions start + lo on, with their box. */
function partLeaf(nodes: BuildNodes, node: number, start: number, lo: number, hi: number): void {
  const { partBox, order } = arrays;
  nodes.links[2 * node] = start + lo;
  nodes.links[2 * node + 1] = lo - hi;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = lo; i < hi; i++) {
    const o = 6 * order[i]!;
    if (partBox[o]! < x0) x0 = partBox[o]!;
    if (partBox[o + 1]! < y0) y0 = partBox[o + 1]!;
    if (partBox[o + 2]! < z0) z0 = partBox[o + 2]!;
    if (partBox[o + 3]! > x1) x1 = partBox[o + 3]!;
    if (partBox[o + 4]! > y1) y1 = partBox[o + 4]!;
    if (partBox[o + 5]! > z1) z1 = partBox[o + 5]!;
  }
  setBox(nodes.boxes, node, x0, y0, z0, x1, y1, z1);
}

/** Sorts order[lo, hi) along the longest centre axis and returns the best SAH split's left size. */
function sortedSahSplit(lo: number, hi: number, maxLeaf: number): number {
  const { partBox, partCentre, order, suffixCost, sortKeys } = arrays;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = lo; i < hi; i++) {
    const c = 3 * order[i]!;
    const x = partCentre[c]!, y = partCentre[c + 1]!, z = partCentre[c + 2]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  const ex = x1 - x0, ey = y1 - y0, ez = z1 - z0;
  const axis = ex >= ey ? (ex >= ez ? 0 : 2) : ey >= ez ? 1 : 2;
  // Insertion sort on (key, record) pairs: stable, and nearly free on the sorted runs a parent
  // leaves behind.
  for (let i = lo; i < hi; i++) {
    const v = order[i]!;
    const key = partCentre[3 * v + axis]!;
    let j = i;
    while (j > lo && sortKeys[j - 1]! > key) {
      sortKeys[j] = sortKeys[j - 1]!;
      order[j] = order[j - 1]!;
      j--;
    }
    sortKeys[j] = key;
    order[j] = v;
  }
  // Two leaves' worth: the even split of the sorted order makes exactly two leaves.
  if (hi - lo <= 2 * maxLeaf) return (hi - lo) >>> 1;
  x0 = y0 = z0 = Infinity;
  x1 = y1 = z1 = -Infinity;
  for (let i = hi - 1; i > lo; i--) {
    const o = 6 * order[i]!;
    if (partBox[o]! < x0) x0 = partBox[o]!;
    if (partBox[o + 1]! < y0) y0 = partBox[o + 1]!;
    if (partBox[o + 2]! < z0) z0 = partBox[o + 2]!;
    if (partBox[o + 3]! > x1) x1 = partBox[o + 3]!;
    if (partBox[o + 4]! > y1) y1 = partBox[o + 4]!;
    if (partBox[o + 5]! > z1) z1 = partBox[o + 5]!;
    suffixCost[i] = (hi - i) * halfArea(x0, y0, z0, x1, y1, z1);
  }
  x0 = y0 = z0 = Infinity;
  x1 = y1 = z1 = -Infinity;
  let best = 1, bestCost = Infinity;
  for (let i = lo + 1; i < hi; i++) {
    const o = 6 * order[i - 1]!;
    if (partBox[o]! < x0) x0 = partBox[o]!;
    if (partBox[o + 1]! < y0) y0 = partBox[o + 1]!;
    if (partBox[o + 2]! < z0) z0 = partBox[o + 2]!;
    if (partBox[o + 3]! > x1) x1 = partBox[o + 3]!;
    if (partBox[o + 4]! > y1) y1 = partBox[o + 4]!;
    if (partBox[o + 5]! > z1) z1 = partBox[o + 5]!;
    const cost = (i - lo) * halfArea(x0, y0, z0, x1, y1, z1) + suffixCost[i]!;
    if (cost < bestCost) {
      bestCost = cost;
      best = i - lo;
    }
  }
  return best;
}

function halfArea(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
  const dx = x1 - x0, dy = y1 - y0, dz = z1 - z0;
  return dx * dy + dy * dz + dz * dx;
}
