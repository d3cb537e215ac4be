/**
 * The query layout of a BVH built over several threads (parallelBvh.ts), laid out where its parts
 * were built: each thread numbers its parts' subtrees depth first into blocks, copies their slots'
 * corners and computes their node boxes; the calling thread numbers the top nodes, places each
 * block where its part's root falls and offsets the block's right links. Depth-first order keeps
 * a subtree's nodes together, so the result is TriangleBvh.ts's layout of the same tree, byte for
 * byte (parallelBvh.test.ts compares them): the numbering, corners and boxes are bvhLayoutRules.ts's,
 * the ones buildBvh uses.
 */
import { TASK_WORDS as TASK, type BuildNodes } from './bvhBuilder';
import { LINK_OFFSET as LAYOUT_LINK, NODE_STRIDE as LAYOUT_STRIDE } from './bvhLayout';
import { gatherCorners, nodeBoxes, numberDepthFirst } from './bvhLayoutRules';
import type { SlotCorners, TriangleBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';
// Local copies: where modules run as CommonJS (tsx: tests, bench) an imported constant is a getter
// call on every read, 6 % of a BVH build's profile in its hot loops.
const NODE_STRIDE = LAYOUT_STRIDE, LINK_OFFSET = LAYOUT_LINK;

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
export function layOutBlocks(nodes: BuildNodes, tasks: Float64Array, mesh: TriMesh, slotTriangle: Uint32Array, slotCorners: SlotCorners): LaidBlocks {
  const k = tasks.length / TASK;
  const words = new Uint32Array(NODE_STRIDE * nodes.count);
  const box = new Float32Array(words.buffer);
  const sizes = new Int32Array(k), depths = new Int32Array(k);
  let base = 0;
  for (let task = 0; task < k; task++) {
    const { next, deepest } = numberDepthFirst(nodes, task, words, base);
    sizes[task] = next - base;
    depths[task] = deepest;
    gatherCorners(mesh, slotTriangle, slotCorners, tasks[TASK * task]! | 0, tasks[TASK * task + 1]! | 0);
    nodeBoxes(box, words, base, next, base);
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
  slotCorners: SlotCorners,
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
  const block = (node: number, id: number, depth: number): number => {
    const p = placed.get(node);
    if (!p) {
      own.push(id);
      return 0;
    }
    const size = p.blocks.sizes[p.task]!;
    nodeLinks.set(p.blocks.words.subarray(NODE_STRIDE * p.offset, NODE_STRIDE * (p.offset + size)), NODE_STRIDE * id);
    for (let n = id; n < id + size; n++) {
      const o = NODE_STRIDE * n + LINK_OFFSET;
      if (nodeLinks[o + 1] === 0) nodeLinks[o]! += id;
    }
    maxDepth = Math.max(maxDepth, depth + p.blocks.depths[p.task]!);
    return size;
  };
  const { next, deepest } = numberDepthFirst(top, 0, nodeLinks, 0, block);
  if (next !== nodeCount) throw new Error('BVH: the laid-out blocks do not fit the tree.');
  for (let i = own.length - 1; i >= 0; i--) {
    const o = NODE_STRIDE * own[i]! + LINK_OFFSET, count = nodeLinks[o + 1]!;
    if (count > 0) gatherCorners(mesh, slotTriangle, slotCorners, nodeLinks[o]!, nodeLinks[o]! + count);
    nodeBoxes(nodeBounds, nodeLinks, own[i]!, own[i]! + 1, 0);
  }
  return { triangleCount: T, nodeCount: T === 0 ? 0 : nodeCount, nodeBounds, nodeLinks, slotCorners, slotTriangle, maxDepth: Math.max(maxDepth, deepest) };
}
