/**
 * The node layout of TriangleBvh (see TriangleBvh.ts), private to src/engine/mesh: code outside
 * it walks a tree through bvhTraversal.ts (lint-enforced, eslint.config.js).
 *
 * NODE_STRIDE 32-bit words a node: its box as six float32 (min xyz, max xyz), then at LINK_OFFSET
 * and LINK_OFFSET + 1 a leaf's [first slot, slot count > 0] or an inner node's [right child, 0];
 * the left child is the next node.
 */
export const NODE_STRIDE = 8;
export const LINK_OFFSET = 6;

/** A tree's slot corners: float32 where every coordinate of its mesh is exactly one, else float64. */
export type SlotCorners = Float32Array | Float64Array;
