/**
 * The query layout of a BVH built over several threads (parallelBvh.ts), laid out where its parts
 * were built: each thread numbers its parts' subtrees depth first into blocks, copies their slots'
 * corners and computes their node boxes; the calling thread numbers the top nodes, places each
 * block where its part's root falls and offsets the block's right links. Depth-first order keeps
 * a subtree's nodes together, so the result is TriangleBvh.ts's layout of the same tree, byte for
 * byte (parallelBvh.test.ts compares them): the same boxes (a leaf's corners' box rounded outward
 * to float32, an inner node's the union of its children's) and the same corners, made by the same
 * rules as buildBvh's depthFirstLayout, gatherCorners and nodeBoxes, which this must follow.
 */
import { TASK_WORDS as TASK, type BuildNodes } from './bvhBuilder';
import { LINK_OFFSET, NODE_STRIDE } from './bvhLayout';
import type { TriangleBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';

/** A thread's parts laid out: blocks in task order, right links relative to their block's start. */
export interface LaidBlocks {
  /** NODE_STRIDE words a node (boxes as float32 in the same buffer). */
  words: Uint32Array;
  /** Per task: its block's node count and its subtree's depth below the task's root. */
  sizes: Int32Array;
  depths: Int32Array;
}


/**
 * Lays out the subtrees buildSubtrees built for `tasks` (local node k < task count is task k's
 * root) and fills their slots' corners in the shared slotCorners.
 */
export function layOutBlocks(nodes: BuildNodes, tasks: Float64Array, mesh: TriMesh, slotTriangle: Uint32Array, slotCorners: Float64Array): LaidBlocks {
  const k = tasks.length / TASK;
  const words = new Uint32Array(NODE_STRIDE * nodes.count);
  const box = new Float32Array(words.buffer);
  const sizes = new Int32Array(k), depths = new Int32Array(k);
  let base = 0;
  let stack = new Int32Array(3 * 64);
  for (let task = 0; task < k; task++) {
    let next = base, top = 0, deepest = 0;
    stack[top++] = task;
    stack[top++] = -1;
    stack[top++] = 0;
    const links = nodes.links;
    while (top > 0) {
      const depth = stack[--top]!, parent = stack[--top]!, node = stack[--top]!;
      const id = next++;
      if (depth > deepest) deepest = depth;
      if (parent >= 0) words[NODE_STRIDE * parent + LINK_OFFSET] = id - base;
      const a = links[2 * node]!, b = links[2 * node + 1]!;
      const o = NODE_STRIDE * id + LINK_OFFSET;
      if (b < 0) {
        words[o] = a;
        words[o + 1] = -b;
        continue;
      }
      words[o + 1] = 0;
      if (top + 6 > stack.length) {
        const grown = new Int32Array(2 * stack.length);
        grown.set(stack);
        stack = grown;
      }
      stack[top++] = b;
      stack[top++] = id;
      stack[top++] = depth + 1;
      stack[top++] = a;
      stack[top++] = -1;
      stack[top++] = depth + 1;
    }
    sizes[task] = next - base;
    depths[task] = deepest;
    gatherCorners(mesh, slotTriangle, slotCorners, tasks[TASK * task]! | 0, tasks[TASK * task + 1]! | 0);
    boxes(box, words, slotCorners, base, next, base);
    base = next;
  }
  return { words, sizes, depths };
}

/** A part the top left to a thread: where its laid-out block is. */
interface Placed {
  blocks: LaidBlocks;
  /** Node offset of the task's block in blocks.words. */
  offset: number;
  task: number;
}

/**
 * The TriangleBvh of a top (build-order nodes whose task roots are placeholders) and its parts'
 * laid-out blocks. `slotCorners` holds every part's corners already; the top's own leaves' are
 * gathered here.
 */
export function assembleBvh(
  mesh: TriMesh,
  top: BuildNodes,
  parts: readonly { tasks: Float64Array; blocks: LaidBlocks }[],
  slotTriangle: Uint32Array,
  slotCorners: Float64Array,
  shared: boolean,
): TriangleBvh {
  const placed = new Map<number, Placed>();
  let nodeCount = top.count;
  for (const { tasks, blocks } of parts) {
    let offset = 0;
    for (let t = 0; t < tasks.length / TASK; t++) {
      placed.set(tasks[TASK * t + 3]! | 0, { blocks, offset, task: t });
      offset += blocks.sizes[t]!;
      nodeCount += blocks.sizes[t]! - 1;
    }
  }
  const T = slotTriangle.length;
  const buffer = shared ? new SharedArrayBuffer(4 * NODE_STRIDE * nodeCount) : new ArrayBuffer(4 * NODE_STRIDE * nodeCount);
  const nodeBounds = new Float32Array(buffer);
  const nodeLinks = new Uint32Array(buffer);
  // The top's own nodes (not blocks), in layout order: their boxes are made last, bottom up.
  const own: number[] = [];
  let maxDepth = 0;
  let stack = new Int32Array(3 * 64);
  let top_ = 0, next = 0;
  stack[top_++] = 0;
  stack[top_++] = -1;
  stack[top_++] = 0;
  const links = top.links;
  while (top_ > 0) {
    const depth = stack[--top_]!, parent = stack[--top_]!, node = stack[--top_]!;
    const id = next;
    if (parent >= 0) nodeLinks[NODE_STRIDE * parent + LINK_OFFSET] = id;
    const p = placed.get(node);
    if (p) {
      const size = p.blocks.sizes[p.task]!;
      nodeLinks.set(p.blocks.words.subarray(NODE_STRIDE * p.offset, NODE_STRIDE * (p.offset + size)), NODE_STRIDE * id);
      for (let n = id; n < id + size; n++) {
        const o = NODE_STRIDE * n + LINK_OFFSET;
        if (nodeLinks[o + 1] === 0) nodeLinks[o]! += id;
      }
      if (depth + p.blocks.depths[p.task]! > maxDepth) maxDepth = depth + p.blocks.depths[p.task]!;
      next += size;
      continue;
    }
    next++;
    own.push(id);
    if (depth > maxDepth) maxDepth = depth;
    const a = links[2 * node]!, b = links[2 * node + 1]!;
    const o = NODE_STRIDE * id + LINK_OFFSET;
    if (b < 0) {
      nodeLinks[o] = a;
      nodeLinks[o + 1] = -b;
      gatherCorners(mesh, slotTriangle, slotCorners, a, a - b);
      continue;
    }
    nodeLinks[o + 1] = 0;
    if (top_ + 6 > stack.length) {
      const grown = new Int32Array(2 * stack.length);
      grown.set(stack);
      stack = grown;
    }
    stack[top_++] = b;
    stack[top_++] = id;
    stack[top_++] = depth + 1;
    stack[top_++] = a;
    stack[top_++] = -1;
    stack[top_++] = depth + 1;
  }
  if (next !== nodeCount) throw new Error('BVH: the laid-out blocks do not fit the tree.');
  for (let i = own.length - 1; i >= 0; i--) boxes(nodeBounds, nodeLinks, slotCorners, own[i]!, own[i]! + 1, 0);
  return { triangleCount: T, nodeCount: T === 0 ? 0 : nodeCount, nodeBounds, nodeLinks, slotCorners, slotTriangle, maxDepth };
}

/** TriangleBvh.ts's gatherCorners for slots [from, to). */
function gatherCorners(mesh: TriMesh, slotTriangle: Uint32Array, tri: Float64Array, from: number, to: number): void {
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
 * TriangleBvh.ts's nodeBoxes for nodes [from, to) of a layout whose right links are relative to
 * `linkBase`, bottom up (children follow their parent).
 */
function boxes(box: Float32Array, links: Uint32Array, tri: Float64Array, from: number, to: number, linkBase: number): void {
  for (let n = to - 1; n >= from; n--) {
    const o = NODE_STRIDE * n;
    const count = links[o + LINK_OFFSET + 1]!;
    if (count > 0) {
      let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
      const first = 9 * links[o + LINK_OFFSET]!;
      for (let c = first; c < first + 9 * count; c += 3) {
        const x = tri[c]!, y = tri[c + 1]!, z = tri[c + 2]!;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
        if (z < z0) z0 = z;
        if (z > z1) z1 = z;
      }
      let v = Math.fround(x0);
      box[o] = v <= x0 ? v : f32Below(v);
      v = Math.fround(y0);
      box[o + 1] = v <= y0 ? v : f32Below(v);
      v = Math.fround(z0);
      box[o + 2] = v <= z0 ? v : f32Below(v);
      v = Math.fround(x1);
      box[o + 3] = v >= x1 ? v : f32Above(v);
      v = Math.fround(y1);
      box[o + 4] = v >= y1 ? v : f32Above(v);
      v = Math.fround(z1);
      box[o + 5] = v >= z1 ? v : f32Above(v);
      continue;
    }
    const l = o + NODE_STRIDE, r = NODE_STRIDE * (linkBase + links[o + LINK_OFFSET]!);
    for (let k = 0; k < 3; k++) {
      const a = box[l + k]!, b = box[r + k]!;
      box[o + k] = a < b ? a : b;
    }
    for (let k = 3; k < 6; k++) {
      const a = box[l + k]!, b = box[r + k]!;
      box[o + k] = a > b ? a : b;
    }
  }
}

const f32 = new Float32Array(1);
const f32Bits = new Int32Array(f32.buffer);

function f32Below(f: number): number {
  if (f === 0) return -1.401298464324817e-45;
  f32[0] = f;
  f32Bits[0] = f32Bits[0]! + (f > 0 ? -1 : 1);
  return f32[0]!;
}

function f32Above(f: number): number {
  if (f === 0) return 1.401298464324817e-45;
  f32[0] = f;
  f32Bits[0] = f32Bits[0]! + (f > 0 ? 1 : -1);
  return f32[0]!;
}
