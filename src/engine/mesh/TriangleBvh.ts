import { buildTree, type BuildNodes, type BuiltTree } from './bvhBuilder';
import { LINK_OFFSET, NODE_STRIDE } from './bvhLayout';
import type { TriMesh } from './TriMesh';

/**
 * A bounding volume hierarchy over the triangles of a TriMesh, held in flat typed arrays so that it
 * builds without per-node objects, transfers between workers, and queries without allocating.
 *
 * Layout (bvhLayout.ts, private to src/engine/mesh; other code walks the tree through
 * bvhTraversal.ts): nodes in depth-first order. A node's left child is the next node; an inner node stores
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

export interface BvhBuildOptions {
  /** Largest triangle count a leaf may hold. Default 4. */
  maxLeafSize?: number;
  /**
   * Most candidate planes per axis a large node's SAH chooses among (cell layers of its grid;
   * nodes of a few dozen triangles try every split of their sorted centres). Default 32.
   */
  bins?: number;
  /** Allocate the arrays in SharedArrayBuffers, so that another thread can query the tree without a copy. */
  shared?: boolean;
  /** The split decisions, made already with the same maxLeafSize and bins (parallelBvh.ts); laid out here. */
  tree?: BuiltTree;
}

const MAX_BINS = 64;

/**
 * Builds a BVH by the surface area heuristic (SAH): every split is the plane that minimises
 * (left count x left box area + right count x right box area) among candidate planes. Large nodes
 * choose among planes between the layers of a grid over their triangles' box centres, on all
 * three axes, several levels per pass over the triangles; nodes of a few dozen triangles try every
 * split of their centres sorted along the longest axis (bvhBuilder.ts). Nodes are split until they
 * hold at most maxLeafSize triangles, which bounds a query's work per leaf.
 */
export function buildBvh(mesh: TriMesh, options: BvhBuildOptions = {}): TriangleBvh {
  const maxLeafSize = options.maxLeafSize ?? 4;
  const bins = options.bins ?? 32;
  if (!(maxLeafSize >= 1)) throw new Error('BVH: maxLeafSize must be at least 1.');
  if (!(bins >= 2 && bins <= MAX_BINS)) throw new Error(`BVH: bins must be between 2 and ${MAX_BINS}.`);
  const idx = mesh.indices;
  const pos = mesh.positions;
  if (idx.length % 3 !== 0) throw new Error('BVH: indices length must be a multiple of 3.');
  const T = idx.length / 3;
  const shared = options.shared === true;
  // 72 bytes a triangle: the build's scratch first.
  const slotCorners = shared ? new Float64Array(new SharedArrayBuffer(72 * T)) : new Float64Array(9 * T);
  const built = options.tree ?? buildTree(pos, idx, slotCorners.buffer, maxLeafSize, bins);
  const nodes = built.nodes;
  let slotTriangle: Uint32Array = built.slotTriangle;
  if (shared) {
    slotTriangle = new Uint32Array(new SharedArrayBuffer(4 * T));
    slotTriangle.set(built.slotTriangle);
  }
  const { nodeBounds, nodeLinks, maxDepth } = depthFirstLayout(nodes, shared);
  const nodeCount = T === 0 ? 0 : nodes.count;
  gatherCorners(mesh, slotTriangle, slotCorners);
  nodeBoxes(nodeBounds, nodeLinks, slotCorners, nodeCount);
  return { triangleCount: T, nodeCount, nodeBounds, nodeLinks, slotCorners, slotTriangle, maxDepth };
}

/** Renumbers build-order nodes depth first (left child next, right child linked) into the query layout. */
function depthFirstLayout(nodes: BuildNodes, shared: boolean): { nodeBounds: Float32Array; nodeLinks: Uint32Array; maxDepth: number } {
  const n = nodes.count;
  const buffer = shared ? new SharedArrayBuffer(4 * NODE_STRIDE * n) : new ArrayBuffer(4 * NODE_STRIDE * n);
  const nodeBounds = new Float32Array(buffer);
  const nodeLinks = new Uint32Array(buffer);
  const links = nodes.links;
  let maxDepth = 0;
  if (n === 0) return { nodeBounds, nodeLinks, maxDepth };
  // Stack entries: build node, new id of the parent whose right link awaits it (-1 for none), depth.
  let stack = new Int32Array(3 * 64);
  let top = 0;
  stack[top++] = 0;
  stack[top++] = -1;
  stack[top++] = 0;
  let next = 0;
  while (top > 0) {
    const depth = stack[--top]!, parent = stack[--top]!, node = stack[--top]!;
    const id = next++;
    if (depth > maxDepth) maxDepth = depth;
    if (parent >= 0) nodeLinks[NODE_STRIDE * parent + LINK_OFFSET] = id;
    const a = links[2 * node]!, b = links[2 * node + 1]!;
    const o = NODE_STRIDE * id + LINK_OFFSET;
    if (b < 0) {
      nodeLinks[o] = a;
      nodeLinks[o + 1] = -b;
      continue;
    }
    nodeLinks[o + 1] = 0;
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
  return { nodeBounds, nodeLinks, maxDepth };
}

/**
 * Node boxes from the slots' float64 corners: a leaf's box is its corners' box rounded outward to
 * float32, an inner node's the union of its children's (float32 already, so exact). Children
 * follow their parent in depth-first order, so a reverse sweep is bottom-up.
 */
function nodeBoxes(box: Float32Array, links: Uint32Array, tri: Float64Array, nodeCount: number): void {
  for (let n = nodeCount - 1; n >= 0; n--) {
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
      // Math.fround rounds to nearest; the value it rounds the wrong way takes one more step.
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
    const l = o + NODE_STRIDE, r = NODE_STRIDE * links[o + LINK_OFFSET]!;
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

const f32 = new Float32Array(1);
const f32Bits = new Int32Array(f32.buffer);

/** The float32 just below float32 f (f finite or +Infinity). */
function f32Below(f: number): number {
  if (f === 0) return -1.401298464324817e-45;
  f32[0] = f;
  f32Bits[0] = f32Bits[0]! + (f > 0 ? -1 : 1);
  return f32[0]!;
}

/** The float32 just above float32 f (f finite or -Infinity). */
function f32Above(f: number): number {
  if (f === 0) return 1.401298464324817e-45;
  f32[0] = f;
  f32Bits[0] = f32Bits[0]! + (f > 0 ? 1 : -1);
  return f32[0]!;
}

/** Copies each slot's corners: the leaves' contiguous reads. */
function gatherCorners(mesh: TriMesh, slotTriangle: Uint32Array, tri: Float64Array): void {
  const idx = mesh.indices;
  const pos = mesh.positions;
  for (let s = 0, c = 0; s < slotTriangle.length; s++, c += 9) {
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
