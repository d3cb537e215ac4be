import type { BuiltTree } from './bvhBuilder';
import { buildTreeGrouped, triangleGroup } from './bvhGroups';
import { NODE_STRIDE, type SlotCorners } from './bvhLayout';
import { allocCorners, buildParameters, depthFirstLayout, gatherCorners, narrowCorners, nodeBoxes } from './bvhLayoutRules';
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
  /**
   * ax ay az bx by bz cx cy cz per slot; buys contiguous leaf reads. Float32Array (36 bytes a
   * triangle) when every coordinate of the mesh is exactly a float32 (an STL, a float PLY), so the
   * values are the mesh's own and every distance is the same as from float64 corners; Float64Array
   * (72 bytes) otherwise. Queries specialise on the type (nearestSearch.ts).
   */
  readonly slotCorners: SlotCorners;
  /** Slot -> triangle index in the source mesh. */
  readonly slotTriangle: Uint32Array;
  /** Deepest node depth (root = 0): sizes traversal stacks. */
  readonly maxDepth: number;
}

export type { SlotCorners } from './bvhLayout';

export interface BvhBuildOptions {
  /**
   * Largest triangle count a leaf may hold. Default 4 below SMALL_TREE triangles, 16 from there:
   * a tree that fits in the processor's caches is bound by arithmetic, and small leaves test fewer
   * triangles; a larger one is bound by memory, where a leaf's corners are one sequential read the
   * processor prefetches and every node level a dependent fetch, so fewer, larger leaves win
   * (closest point per CPU second, leaves of 4 against 16: 1.14M / 0.95M at 10k triangles, about
   * even at 40k, 0.49M / 0.53M at 100k, 189k / 222k at 1M; docs/scaling.md, "Queries beside Open3D").
   */
  maxLeafSize?: number;
  /**
   * Most candidate planes per axis a large node's SAH chooses among (cell layers of its grid;
   * nodes of a few dozen triangles try every split of their sorted centres). Default 32.
   */
  bins?: number;
  /** Allocate the arrays in SharedArrayBuffers, so that another thread can query the tree without a copy. */
  shared?: boolean;
  /** Keep float64 corners even where float32 would hold them exactly (a reference to compare against). */
  float64Corners?: boolean;
  /** The split decisions, made already with the same maxLeafSize and bins (parallelBvh.ts); laid out here. */
  tree?: BuiltTree | undefined;
}

export { SMALL_TREE } from './bvhLayoutRules';

/**
 * Builds a BVH by the surface area heuristic (SAH): every split is the plane that minimises
 * (left count x left box area + right count x right box area) among candidate planes. Large nodes
 * choose among planes between the layers of a grid over their triangles' box centres, on all
 * three axes, several levels per pass over the triangles; nodes of a few dozen triangles try every
 * split of their centres sorted along the longest axis (bvhBuilder.ts). Nodes are split until they
 * hold at most maxLeafSize triangles, which bounds a query's work per leaf. A large mesh in a
 * coherent order is split in groups of 8 (or 4) consecutive triangles (bvhGroups.ts).
 */
export function buildBvh(mesh: TriMesh, options: BvhBuildOptions = {}): TriangleBvh {
  const idx = mesh.indices;
  const pos = mesh.positions;
  if (idx.length % 3 !== 0) throw new Error('BVH: indices length must be a multiple of 3.');
  const T = idx.length / 3;
  const { maxLeafSize, bins } = buildParameters(T, options);
  const shared = options.shared === true;
  const narrow = narrowCorners(pos, options.float64Corners);
  // The corners' memory holds the build's scratch first where it is large enough, so its pages are
  // touched once (a fresh page costs about what a pass over the records does): float64 corners'
  // 72 bytes a triangle hold the 64 of triangle records, float32 corners' 36 the 8 or 16 of group
  // records. Otherwise the corners are allocated after the build, the scratch no larger than needed.
  const group = options.tree ? 1 : triangleGroup(pos, idx, maxLeafSize);
  const early = !narrow || group > 1 ? allocCorners(T, narrow, shared) : undefined;
  const built = options.tree ?? buildTreeGrouped(pos, idx, maxLeafSize, bins, early?.buffer, group);
  const slotCorners = early ?? allocCorners(T, true, shared);
  const nodes = built.nodes;
  let slotTriangle: Uint32Array = built.slotTriangle;
  if (shared) {
    slotTriangle = new Uint32Array(new SharedArrayBuffer(4 * T));
    slotTriangle.set(built.slotTriangle);
  }
  const { nodeBounds, nodeLinks, maxDepth } = depthFirstLayout(nodes, shared);
  const nodeCount = T === 0 ? 0 : nodes.count;
  gatherCorners(mesh, slotTriangle, slotCorners, 0, T);
  nodeBoxes(nodeBounds, nodeLinks, 0, nodeCount, 0);
  return { triangleCount: T, nodeCount, nodeBounds, nodeLinks, slotCorners, slotTriangle, maxDepth };
}

/**
 * buildBvh's split decisions alone, in a scratch of their own that is garbage when this returns:
 * for a caller that can collect garbage (a Node mesh thread) before `buildBvh(mesh, { tree })`
 * lays them out, so that the scratch (64 bytes a triangle) and the float32 corners (36) are never
 * held at once. (Within buildBvh a collection cannot free the scratch: its frame still holds it.)
 * Float64 corners gain nothing: buildBvh builds in their own memory; nor does a mesh built in
 * groups (bvhGroups.ts), whose 8 (16) bytes a triangle of scratch fit in the float32 corners.
 */
export function bvhSplits(mesh: TriMesh, options: Pick<BvhBuildOptions, 'maxLeafSize' | 'bins'> = {}): BuiltTree {
  const T = mesh.indices.length / 3;
  if (!Number.isInteger(T)) throw new Error('BVH: indices length must be a multiple of 3.');
  const { maxLeafSize, bins } = buildParameters(T, options);
  return buildTreeGrouped(mesh.positions, mesh.indices, maxLeafSize, bins);
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
