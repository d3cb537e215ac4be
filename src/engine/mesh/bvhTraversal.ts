import { searchStack } from '../math/searchStack';
import { LINK_OFFSET as LAYOUT_LINK, NODE_STRIDE as LAYOUT_STRIDE } from './bvhLayout';
import type { TriangleBvh } from './TriangleBvh';
// Local copies: where modules run as CommonJS (tsx: tests, bench) an imported constant is a getter
// call on every read, 6 % of a BVH build's profile in its hot loops.
const NODE_STRIDE = LAYOUT_STRIDE, LINK_OFFSET = LAYOUT_LINK;

/**
 * The traversal core of every query over a TriangleBvh (closest point, k nearest, radius search,
 * winding number, the exact reference's face search), in the manner of three-mesh-bvh's shapecast:
 * a query says what a node scores and what to do with a leaf's slots; the core walks the tree on
 * the shared search stack (math/searchStack.ts) and owns the node layout.
 *
 * A query's `bound` is its pruning limit: a node is opened only while its score is below it, and
 * the query may lower it from `leaf` (the best distance so far) so later subtrees are cut.
 */
export interface BvhQuery {
  bound: number;
  /**
   * A node's score before it is opened: a lower bound of what its subtree can hold (a squared box
   * distance), Infinity to cut it. Called once per node reached, in traversal order, so it may also
   * act on the node (the winding number sums a far node's expansion here and cuts it).
   */
  nodeScore(node: number): number;
  /** Visits slots [first, first + count) of a leaf; true stops the traversal. */
  leaf(first: number, count: number): boolean;
}

/**
 * Best-first descent for nearest queries: of two children the lower-scoring is opened first (the
 * left on a tie) and the other deferred with its score; deferred subtrees are reopened nearest
 * last pushed first, each only if it still scores below the bound. Returns whether a leaf stopped it.
 */
export function nearestFirst(bvh: TriangleBvh, q: BvhQuery): boolean {
  if (bvh.nodeCount === 0 || !(q.nodeScore(0) < q.bound)) return false;
  const links = bvh.nodeLinks;
  const stack = searchStack;
  const base = stack.top;
  let node = 0;
  for (;;) {
    const o = NODE_STRIDE * node + LINK_OFFSET;
    const count = links[o + 1]!;
    if (count > 0) {
      if (q.leaf(links[o]!, count)) {
        stack.top = base;
        return true;
      }
    } else {
      const left = node + 1;
      const right = links[o]!;
      const dl = q.nodeScore(left);
      const dr = q.nodeScore(right);
      const nearFirst = dl <= dr;
      const dn = nearFirst ? dl : dr;
      const df = nearFirst ? dr : dl;
      if (df < q.bound) stack.push(nearFirst ? right : left, 0, df);
      if (dn < q.bound) {
        node = nearFirst ? left : right;
        continue;
      }
    }
    const t = stack.popBelow(base, q.bound);
    if (t < 0) return false;
    node = stack.a[t]!;
  }
}

/**
 * Depth-first walk for queries that visit everything in reach (radius searches, the winding
 * number): each node is scored when it is reached, left subtree before right, and opened while
 * its score is below the bound. Returns whether a leaf stopped it.
 */
export function depthFirst(bvh: TriangleBvh, q: BvhQuery): boolean {
  if (bvh.nodeCount === 0) return false;
  const links = bvh.nodeLinks;
  const stack = searchStack;
  const base = stack.top;
  stack.push(0, 0, -Infinity);
  while (stack.top > base) {
    const node = stack.a[--stack.top]!;
    if (!(q.nodeScore(node) < q.bound)) continue;
    const o = NODE_STRIDE * node + LINK_OFFSET;
    const count = links[o + 1]!;
    if (count === 0) {
      stack.push(links[o]!, 0, -Infinity);
      stack.push(node + 1, 0, -Infinity);
    } else if (q.leaf(links[o]!, count)) {
      stack.top = base;
      return true;
    }
  }
  return false;
}

/**
 * A bottom-up sweep (children before their parent): `leaf(node, first, count)` for a leaf,
 * `inner(node, left, right)` for an inner node. Children follow their parent in the depth-first
 * layout, so a reverse sweep over the nodes is bottom-up.
 */
export function bottomUp(
  bvh: TriangleBvh,
  leaf: (node: number, first: number, count: number) => void,
  inner: (node: number, left: number, right: number) => void,
): void {
  const links = bvh.nodeLinks;
  for (let node = bvh.nodeCount - 1; node >= 0; node--) {
    const o = NODE_STRIDE * node + LINK_OFFSET;
    const count = links[o + 1]!;
    if (count > 0) leaf(node, links[o]!, count);
    else inner(node, node + 1, links[o]!);
  }
}

/** Per node, the largest of `slotValue` over the slots below it (0 for none). */
export function nodeMaxima(bvh: TriangleBvh, slotValue: Float64Array): Float64Array {
  const out = new Float64Array(bvh.nodeCount);
  bottomUp(
    bvh,
    (node, first, count) => {
      let m = 0;
      for (let s = first; s < first + count; s++) m = Math.max(m, slotValue[s]!);
      out[node] = m;
    },
    (node, left, right) => {
      out[node] = Math.max(out[left]!, out[right]!);
    },
  );
  return out;
}
