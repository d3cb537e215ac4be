/**
 * Triangle groups: on a large mesh whose triangles come in a coherent order (a scan's STL, a
 * tessellation: neighbours in the file are neighbours in space), the BVH builder splits groups of
 * G consecutive triangles (8, else 4) instead of single triangles. Every pass of the build
 * (bvhBuilder.ts) then moves an eighth (a quarter) of the records, which is most of its cost; a
 * leaf of 16 triangles is 2 (4) groups, and every leaf holds whole triangles, so every query
 * answers the same distance (the split planes differ, not the search). Measured on a 1M-triangle
 * torus: 0.20 to 0.28 CPU s per million triangles in groups of 4 against 0.35 to 0.47 single;
 * groups of 8 take another 15 to 22 % off on tori and spheres, queries as fast (docs/scaling.md,
 * "Triangle groups").
 *
 * A group is triangles [G g, G g + G); the builder works in group positions and the tree is
 * expanded to triangle slots afterwards (slot = G x position). The last T mod G triangles, when
 * there are any, are a leaf of their own beside the groups' tree under a new root. A mesh whose
 * order is not coherent at 8 (a sample of its groups spans far more than their triangles) is
 * tried at 4, then built triangle by triangle.
 */
import { buildTop, buildTree, REC as BUILDER_REC, SCRATCH_BYTES_PER_TRIANGLE, type BuildNodes, type BuiltTree } from './bvhBuilder';
import { buildParameters } from './bvhLayoutRules';
import { f32Above, f32Below } from './float32Steps';
import type { TriMesh } from './TriMesh';
// Local copies: where modules run as CommonJS (tsx: tests, bench) an imported constant is a getter
// call on every read, 6 % of a BVH build's profile in its hot loops.
const REC = BUILDER_REC;

/**
 * The group sizes tried, largest first, each with its compactness bound: a group is compact when
 * its box's longest side is at most `span` times its largest triangle's. Four triangles of a row
 * of square quads span 2 quads, eight span 4: the bound grows with the run, so a coherent grid
 * passes at 8 where a file of 4-triangle patches in random order (compact at 4) does not.
 */
export const GROUP_SIZES: readonly { size: number; span: number }[] = [
  { size: 8, span: 6 },
  { size: 4, span: 4 },
];
/** Groups are used from this many triangles, with leaves of at least this many triangles (the default 16). */
const GROUP_MIN_TRIANGLES = 50_000;
const GROUP_MIN_LEAF = 16;
/** Groups sampled for the coherence test, and the share of them that must be compact. */
const SAMPLE = 4096;
const COMPACT_SHARE = 0.9;

/**
 * Triangles a record of the build holds: the largest of GROUP_SIZES that divides the leaves
 * (of at least GROUP_MIN_LEAF) and whose groups a large mesh's order keeps compact, else 1.
 * Decided from a sample of evenly spaced groups, so the serial and the parallel build decide alike.
 */
export function triangleGroup(positions: ArrayLike<number>, indices: Uint32Array, maxLeaf: number): number {
  const T = Math.floor(indices.length / 3);
  if (T < GROUP_MIN_TRIANGLES || maxLeaf < GROUP_MIN_LEAF) return 1;
  for (const { size, span } of GROUP_SIZES) {
    if (maxLeaf % size !== 0) continue;
    const compact = compactShare(positions, indices, size, span);
    // An index out of range: the build itself reports it, triangle by triangle.
    if (compact === undefined) return 1;
    if (compact >= COMPACT_SHARE) return size;
  }
  return 1;
}

/**
 * The share of sampled groups of `size` that are compact, or undefined on an index out of range.
 * A fixed 4,096 groups whatever the mesh: the box helpers' cost does not grow with it.
 */
function compactShare(positions: ArrayLike<number>, indices: Uint32Array, size: number, span: number): number | undefined {
  const groups = Math.floor(indices.length / 3 / size), samples = Math.min(SAMPLE, groups);
  let compact = 0;
  const group = new Float64Array(6), triangle = new Float64Array(6);
  for (let s = 0; s < samples; s++) {
    const g = Math.floor((s * groups) / samples);
    emptyBox(group);
    let triangleSpan = 0;
    for (let t = size * g; t < size * g + size; t++) {
      emptyBox(triangle);
      for (let c = 0; c < 3; c++) if (!growBox(triangle, positions, indices[3 * t + c]!)) return undefined;
      triangleSpan = Math.max(triangleSpan, boxSpan(triangle));
      for (let k = 0; k < 3; k++) {
        group[k] = Math.min(group[k]!, triangle[k]!);
        group[k + 3] = Math.max(group[k + 3]!, triangle[k + 3]!);
      }
    }
    if (boxSpan(group) <= span * triangleSpan) compact++;
  }
  return compact / samples;
}

/** Whether buildBvh, at its default leaves, builds this mesh's tree over groups. */
export function buildsInGroups(mesh: TriMesh): boolean {
  const T = mesh.indices.length / 3;
  return Number.isInteger(T) && triangleGroup(mesh.positions, mesh.indices, buildParameters(T, {}).maxLeafSize) > 1;
}

/**
 * Records for groups [from, to) (each `group` whole triangles) into the first record buffer of a
 * scratch for `records` records, as bvhBuilder's triangle records: the float32 box of the group's
 * corners (exact for float32 positions, rounded outward otherwise), group index in word 6.
 * Returns the box of the doubled centres. Throws on an index out of range.
 */
export function makeGroupRecords(positions: Float64Array | Float32Array, indices: Uint32Array, group: number, scratch: ArrayBufferLike, records: number, from: number, to: number): Float64Array {
  if (scratch.byteLength < 2 * 4 * REC * records) throw new Error('BVH: scratch buffer too small.');
  if (!(from >= 0 && from <= to && to <= records && group * records <= indices.length / 3)) throw new Error('BVH: record range out of the mesh.');
  const rec = new Float32Array(scratch, 0, REC * records), words = new Int32Array(scratch, 0, REC * records);
  const centres = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  const bad = positions instanceof Float32Array ? float32Groups(positions, indices, 3 * group, rec, words, from, to, centres) : float64Groups(positions, indices, 3 * group, rec, words, from, to, centres);
  if (bad >= 0) throw new Error(`BVH: index ${bad} out of range (${positions.length / 3} vertices).`);
  return centres;
}

/** A group's corners' float32 box, exact (`corners` a group). Returns -1, or an index out of range. */
function float32Groups(positions: Float32Array, indices: Uint32Array, corners: number, rec: Float32Array, words: Int32Array, from: number, to: number, centres: Float64Array): number {
  const V = positions.length / 3;
  let cx0 = centres[0]!, cy0 = centres[1]!, cz0 = centres[2]!, cx1 = centres[3]!, cy1 = centres[4]!, cz1 = centres[5]!;
  for (let g = from; g < to; g++) {
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (let i = corners * g, end = i + corners; i < end; i++) {
      const v = indices[i]!;
      if (v >= V) return v;
      const a = 3 * v;
      const x = positions[a]!, y = positions[a + 1]!, z = positions[a + 2]!;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
    }
    const o = REC * g;
    rec[o] = x0;
    rec[o + 1] = y0;
    rec[o + 2] = z0;
    rec[o + 3] = x1;
    rec[o + 4] = y1;
    rec[o + 5] = z1;
    words[o + 6] = g;
    // Twice the centre, as the triangle records have it.
    const x = x0 + x1, y = y0 + y1, z = z0 + z1;
    if (x < cx0) cx0 = x;
    if (x > cx1) cx1 = x;
    if (y < cy0) cy0 = y;
    if (y > cy1) cy1 = y;
    if (z < cz0) cz0 = z;
    if (z > cz1) cz1 = z;
  }
  centres.set([cx0, cy0, cz0, cx1, cy1, cz1]);
  return -1;
}

/** A group's box rounded outward to float32. Returns -1, or an index out of range. */
function float64Groups(positions: Float64Array, indices: Uint32Array, corners: number, rec: Float32Array, words: Int32Array, from: number, to: number, centres: Float64Array): number {
  const box = new Float64Array(6);
  for (let g = from; g < to; g++) {
    emptyBox(box);
    for (let i = corners * g, end = i + corners; i < end; i++) if (!growBox(box, positions, indices[i]!)) return indices[i]!;
    const o = REC * g;
    outwardBox(box, rec, o);
    words[o + 6] = g;
    for (let k = 0; k < 3; k++) {
      const c = rec[o + k]! + rec[o + 3 + k]!;
      if (c < centres[k]!) centres[k] = c;
      if (c > centres[k + 3]!) centres[k + 3] = c;
    }
  }
  return -1;
}

/** A box (min xyz, max xyz) holding nothing yet. */
function emptyBox(box: Float64Array): Float64Array {
  return box.fill(Infinity, 0, 3).fill(-Infinity, 3, 6);
}

/** Grows a box by vertex v; false when v is out of range. */
function growBox(box: Float64Array, positions: ArrayLike<number>, v: number): boolean {
  const a = 3 * v;
  if (!(a + 2 < positions.length)) return false;
  for (let k = 0; k < 3; k++) {
    const p = positions[a + k]!;
    if (p < box[k]!) box[k] = p;
    if (p > box[k + 3]!) box[k + 3] = p;
  }
  return true;
}

/** A box's longest side. */
function boxSpan(box: Float64Array): number {
  return Math.max(box[3]! - box[0]!, box[4]! - box[1]!, box[5]! - box[2]!);
}

/** Stores a float64 box (min xyz, max xyz) into rec[o..o+6) as float32, rounded outward. */
function outwardBox(box: Float64Array, rec: Float32Array, o: number): void {
  for (let k = 0; k < 3; k++) {
    rec[o + k] = box[k]!;
    if (rec[o + k]! > box[k]!) rec[o + k] = f32Below(rec[o + k]!);
    rec[o + 3 + k] = box[k + 3]!;
    if (rec[o + 3 + k]! < box[k + 3]!) rec[o + 3 + k] = f32Above(rec[o + 3 + k]!);
  }
}

/** Leaves of nodes [from, to) from positions of groups of `group` to triangle slots. */
export function expandLeaves(nodes: BuildNodes, group: number, from: number, to: number): void {
  const links = nodes.links;
  for (let n = from; n < to; n++) {
    if (links[2 * n + 1]! >= 0) continue;
    links[2 * n] = group * links[2 * n]!;
    links[2 * n + 1] = group * links[2 * n + 1]!;
  }
}

/** Slots of group positions [from, to): the triangles of the group at each position, in order. */
export function expandSlots(slotGroup: Uint32Array, slotTriangle: Uint32Array, group: number, from: number, to: number): void {
  for (let p = from; p < to; p++) {
    const first = group * slotGroup[p]!, s = group * p;
    for (let i = 0; i < group; i++) slotTriangle[s + i] = first + i;
  }
}

/**
 * Puts the last T mod `group` triangles (slots from group x groups on, which hold them in order) in
 * a leaf beside the groups' tree (groups > 0): node 0 becomes a new root over the old one, moved
 * to the end, and that leaf. No other node changes number (a top's task roots keep theirs).
 */
export function addTailLeaf(nodes: BuildNodes, positions: ArrayLike<number>, indices: Uint32Array, slotTriangle: Uint32Array, group: number, groups: number): void {
  const T = slotTriangle.length, first = group * groups;
  if (first === T) return;
  for (let t = first; t < T; t++) slotTriangle[t] = t;
  const box = emptyBox(new Float64Array(6));
  for (let i = 3 * first; i < 3 * T; i++) if (!growBox(box, positions, indices[i]!)) throw new Error(`BVH: index ${indices[i]} out of range (${positions.length / 3} vertices).`);
  const count = nodes.count;
  if (2 * (count + 2) > nodes.links.length) {
    const links = new Int32Array(2 * (count + 2)), boxes = new Float32Array(6 * (count + 2));
    links.set(nodes.links.subarray(0, 2 * count));
    boxes.set(nodes.boxes.subarray(0, 6 * count));
    nodes.links = links;
    nodes.boxes = boxes;
  }
  const { links, boxes } = nodes;
  const moved = count, tail = count + 1;
  links.copyWithin(2 * moved, 0, 2);
  boxes.copyWithin(6 * moved, 0, 6);
  links[0] = moved;
  links[1] = tail;
  links[2 * tail] = first;
  links[2 * tail + 1] = first - T;
  outwardBox(box, boxes, 6 * tail);
  nodes.count = count + 2;
}

/**
 * A tree built over groups (leaves in group positions, slotGroup of every group position), as
 * triangle slots: the leaves and slots expanded, the tail leaf added.
 */
export function expandTree(tree: BuiltTree, positions: ArrayLike<number>, indices: Uint32Array, group: number): BuiltTree {
  const groups = tree.slotTriangle.length;
  const slotTriangle = new Uint32Array(indices.length / 3);
  expandLeaves(tree.nodes, group, 0, tree.nodes.count);
  expandSlots(tree.slotTriangle, slotTriangle, group, 0, groups);
  addTailLeaf(tree.nodes, positions, indices, slotTriangle, group, groups);
  return { nodes: tree.nodes, slotTriangle };
}

/**
 * The split decisions of a mesh's BVH (buildBvh's), in triangle slots: over groups where
 * triangleGroup allows (`group`, its answer when known), else over triangles. `scratch`, when
 * given, holds SCRATCH_BYTES_PER_TRIANGLE a record; otherwise one as small as the records is made.
 */
export function buildTreeGrouped(
  positions: Float64Array | Float32Array,
  indices: Uint32Array,
  maxLeaf: number,
  bins: number,
  scratch?: ArrayBufferLike,
  group = triangleGroup(positions, indices, maxLeaf),
): BuiltTree {
  const T = indices.length / 3;
  const records = Math.floor(T / group);
  const memory = scratch ?? new ArrayBuffer(SCRATCH_BYTES_PER_TRIANGLE * records);
  if (group === 1) return buildTree(positions, indices, memory, maxLeaf, bins);
  const centres = makeGroupRecords(positions, indices, group, memory, records, 0, records);
  const top = buildTop(positions, indices, memory, new Uint32Array(records), maxLeaf / group, bins, 0, centres);
  return expandTree(top, positions, indices, group);
}

/**
 * The top of a parallel build over groups (build-order nodes in group positions; its task roots
 * placeholders) in triangle slots: its own leaves and their slots expanded, the tail leaf added.
 * The threads expand their parts' (expandLeaves, expandSlots).
 */
export function expandTop(nodes: BuildNodes, slotGroup: Uint32Array, slotTriangle: Uint32Array, group: number, positions: ArrayLike<number>, indices: Uint32Array): void {
  const links = nodes.links;
  for (let n = 0; n < nodes.count; n++) {
    const first = links[2 * n]!, count = -links[2 * n + 1]!;
    if (count > 0) expandSlots(slotGroup, slotTriangle, group, first, first + count);
  }
  expandLeaves(nodes, group, 0, nodes.count);
  addTailLeaf(nodes, positions, indices, slotTriangle, group, slotGroup.length);
}
