/**
 * How a built tree (bvhBuilder.ts, build-order nodes) becomes TriangleBvh's query layout: the
 * options' defaults, the corners' type, the depth-first numbering, the slots' corners and the node
 * boxes. One module for buildBvh (TriangleBvh.ts, a whole tree at once) and the parallel build
 * (parallelLayout.ts, a part at a time on the thread that built it), so that the two cannot drift
 * apart: parallelBvh.test.ts compares their trees byte for byte.
 */
import type { BuildNodes } from './bvhBuilder';
import { LINK_OFFSET as LAYOUT_LINK, NODE_STRIDE as LAYOUT_STRIDE, type SlotCorners } from './bvhLayout';
import type { TriMesh } from './TriMesh';
// Local copies: where modules run as CommonJS (tsx: tests, bench) an imported constant is a getter
// call on every read, 6 % of a BVH build's profile in its hot loops.
const NODE_STRIDE = LAYOUT_STRIDE, LINK_OFFSET = LAYOUT_LINK;

const MAX_BINS = 64;
/** Trees below this many triangles default to leaves of 4, larger ones to 16 (BvhBuildOptions.maxLeafSize). */
export const SMALL_TREE = 50_000;

/** The leaf size and bins a build of T triangles uses (BvhBuildOptions' defaults); throws on a bad option. */
export function buildParameters(T: number, options: { maxLeafSize?: number | undefined; bins?: number | undefined }): { maxLeafSize: number; bins: number } {
  const maxLeafSize = options.maxLeafSize ?? (T < SMALL_TREE ? 4 : 16);
  const bins = options.bins ?? 32;
  if (!(maxLeafSize >= 1)) throw new Error('BVH: maxLeafSize must be at least 1.');
  if (!(bins >= 2 && bins <= MAX_BINS)) throw new Error(`BVH: bins must be between 2 and ${MAX_BINS}.`);
  return { maxLeafSize, bins };
}

/** Whether the slots' corners are float32: every coordinate is exactly one, and float64 was not asked for. */
export function narrowCorners(positions: ArrayLike<number>, float64Corners: boolean | undefined): boolean {
  if (float64Corners === true) return false;
  if (positions instanceof Float32Array) return true;
  for (let i = 0; i < positions.length; i++) {
    const v = positions[i]!;
    if (Math.fround(v) !== v) return false;
  }
  return true;
}

/** Corners for T slots: float32 (36 bytes a triangle) or float64 (72), in shared memory when asked. */
export function allocCorners(T: number, narrow: boolean, shared: boolean): SlotCorners {
  const bytes = (narrow ? 36 : 72) * T;
  const buffer = shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  return narrow ? new Float32Array(buffer) : new Float64Array(buffer);
}

/**
 * Numbers the subtree of build node `root` depth first (left child next, right child linked) into
 * `words` from node `base`, right links relative to `base`, with the leaves' boxes the build made
 * (as float32 in the same buffer). `block`, when given, is asked first for each node: a positive
 * answer is that many nodes it placed at `id` itself (a part laid out already), whose subtree is
 * not walked. Returns the next free node and the deepest depth numbered.
 */
export function numberDepthFirst(
  nodes: BuildNodes,
  root: number,
  words: Uint32Array,
  base: number,
  block?: (node: number, id: number, depth: number) => number,
): { next: number; deepest: number } {
  const links = nodes.links, leafBoxes = nodes.boxes;
  const bounds = new Float32Array(words.buffer, words.byteOffset, words.length);
  let next = base, deepest = 0, top = 0;
  // Stack entries: build node, id of the parent whose right link awaits it (-1 for none), depth.
  let stack = new Int32Array(3 * 64);
  stack[top++] = root;
  stack[top++] = -1;
  stack[top++] = 0;
  while (top > 0) {
    const depth = stack[--top]!, parent = stack[--top]!, node = stack[--top]!;
    const id = next;
    if (parent >= 0) words[NODE_STRIDE * parent + LINK_OFFSET] = id - base;
    const placed = block ? block(node, id, depth) : 0;
    if (placed > 0) {
      next += placed;
      continue;
    }
    next++;
    if (depth > deepest) deepest = depth;
    const a = links[2 * node]!, b = links[2 * node + 1]!;
    const o = NODE_STRIDE * id + LINK_OFFSET;
    if (b < 0) {
      words[o] = a;
      words[o + 1] = -b;
      const f = 6 * node, t = NODE_STRIDE * id;
      bounds[t] = leafBoxes[f]!;
      bounds[t + 1] = leafBoxes[f + 1]!;
      bounds[t + 2] = leafBoxes[f + 2]!;
      bounds[t + 3] = leafBoxes[f + 3]!;
      bounds[t + 4] = leafBoxes[f + 4]!;
      bounds[t + 5] = leafBoxes[f + 5]!;
      continue;
    }
    words[o + 1] = 0;
    if (top + 6 > stack.length) {
      const grown = new Int32Array(2 * stack.length);
      grown.set(stack);
      stack = grown;
    }
    // Right pushed first so the left subtree is numbered right after its parent.
    stack[top++] = b;
    stack[top++] = id;
    stack[top++] = depth + 1;
    stack[top++] = a;
    stack[top++] = -1;
    stack[top++] = depth + 1;
  }
  return { next, deepest };
}

/** The whole tree's layout (buildBvh): nodes numbered depth first from the root. */
export function depthFirstLayout(nodes: BuildNodes, shared: boolean): { nodeBounds: Float32Array; nodeLinks: Uint32Array; maxDepth: number } {
  const n = nodes.count;
  const buffer = shared ? new SharedArrayBuffer(4 * NODE_STRIDE * n) : new ArrayBuffer(4 * NODE_STRIDE * n);
  const nodeBounds = new Float32Array(buffer);
  const nodeLinks = new Uint32Array(buffer);
  const maxDepth = n === 0 ? 0 : numberDepthFirst(nodes, 0, nodeLinks, 0).deepest;
  return { nodeBounds, nodeLinks, maxDepth };
}

/** Copies the corners of slots [from, to): the leaves' contiguous reads. */
export function gatherCorners(mesh: TriMesh, slotTriangle: Uint32Array, tri: SlotCorners, from: number, to: number): void {
  const idx = mesh.indices;
  const pos = mesh.positions;
  for (let s = from, c = 9 * from; s < to; s++, c += 9) {
    const t = 3 * slotTriangle[s]!;
    const a = 3 * idx[t]!, b = 3 * idx[t + 1]!, d = 3 * idx[t + 2]!;
    tri[c] = pos[a]!;
    tri[c + 1] = pos[a + 1]!;
    tri[c + 2] = pos[a + 2]!;
    tri[c + 3] = pos[b]!;
    tri[c + 4] = pos[b + 1]!;
    tri[c + 5] = pos[b + 2]!;
    tri[c + 6] = pos[d]!;
    tri[c + 7] = pos[d + 1]!;
    tri[c + 8] = pos[d + 2]!;
  }
}

/**
 * Boxes of the inner nodes among [from, to) of a layout whose right links are relative to node
 * `linkBase`: the union of their children's (float32, so exact); the leaves have theirs from the
 * build (numberDepthFirst). Children follow their parent in depth-first order, so a reverse sweep
 * is bottom-up.
 */
export function nodeBoxes(box: Float32Array, links: Uint32Array, from: number, to: number, linkBase: number): void {
  for (let n = to - 1; n >= from; n--) {
    const o = NODE_STRIDE * n;
    if (links[o + LINK_OFFSET + 1]! > 0) continue;
    const l = o + NODE_STRIDE, r = NODE_STRIDE * (linkBase + links[o + LINK_OFFSET]!);
    let a = box[l]!, b = box[r]!;
    box[o] = a < b ? a : b;
    a = box[l + 1]!;
    b = box[r + 1]!;
    box[o + 1] = a < b ? a : b;
    a = box[l + 2]!;
    b = box[r + 2]!;
    box[o + 2] = a < b ? a : b;
    a = box[l + 3]!;
    b = box[r + 3]!;
    box[o + 3] = a > b ? a : b;
    a = box[l + 4]!;
    b = box[r + 4]!;
    box[o + 4] = a > b ? a : b;
    a = box[l + 5]!;
    b = box[r + 5]!;
    box[o + 5] = a > b ? a : b;
  }
}
