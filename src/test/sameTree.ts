import { expect } from 'vitest';
import type { TriangleBvh } from '../engine/mesh/TriangleBvh';

/** Two trees are the same byte for byte: boxes and links (one buffer), slot order, corners and their type. */
export function expectSameTree(a: TriangleBvh, b: TriangleBvh): void {
  expect(a.nodeCount).toBe(b.nodeCount);
  expect(a.maxDepth).toBe(b.maxDepth);
  expect(a.slotCorners.constructor).toBe(b.slotCorners.constructor);
  // Compared as bytes: toEqual walks big arrays slowly.
  expect(bytes(a.nodeBounds).equals(bytes(b.nodeBounds))).toBe(true);
  expect(bytes(a.slotTriangle).equals(bytes(b.slotTriangle))).toBe(true);
  expect(bytes(a.slotCorners).equals(bytes(b.slotCorners))).toBe(true);
}

function bytes(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}
