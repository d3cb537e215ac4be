import { describe, expect, it } from 'vitest';
import { searchStack } from '../math/searchStack';
import { LINK_OFFSET, NODE_STRIDE } from './bvhLayout';
import { nodeMaxima } from './bvhTraversal';
import { closestPointOnTriangle } from './closestPointOnTriangle';
import { closestPoint, createHit, someTriangleWithin } from './closestPoint';
import { seededRandom, uvSphere } from './generators';
import { buildBvh } from './TriangleBvh';

describe('BVH traversal core', () => {
  const mesh = uvSphere(10, 48, 24);
  const bvh = buildBvh(mesh);
  const rand = seededRandom(3);
  const out = new Float64Array(4);
  const bruteWithin = (p: number[], r: number): number[] => {
    const hits: number[] = [];
    for (let s = 0; s < bvh.triangleCount; s++) if (closestPointOnTriangle(bvh.slotCorners, 9 * s, p[0]!, p[1]!, p[2]!, out) <= r * r) hits.push(s);
    return hits.sort((a, b) => a - b);
  };

  it('a search started from inside another search callback leaves the outer one exact (shared stack, own base)', () => {
    for (let trial = 0; trial < 20; trial++) {
      const p = [20 * rand() - 10, 20 * rand() - 10, 20 * rand() - 10];
      const visited: number[] = [];
      someTriangleWithin(bvh, p[0]!, p[1]!, p[2]!, 4, createHit(), (hit) => {
        visited.push(hit.slot);
        // Nested queries of both kinds at another point, checked against brute force.
        const q = [hit.x + 1, hit.y - 2, hit.z + 0.5];
        const inner: number[] = [];
        someTriangleWithin(bvh, q[0]!, q[1]!, q[2]!, 2, createHit(), (h) => (inner.push(h.slot), false));
        expect(inner.sort((a, b) => a - b)).toEqual(bruteWithin(q, 2));
        const near = closestPoint(bvh, q[0]!, q[1]!, q[2]!);
        let best = Infinity;
        for (let s = 0; s < bvh.triangleCount; s++) best = Math.min(best, closestPointOnTriangle(bvh.slotCorners, 9 * s, q[0]!, q[1]!, q[2]!, out));
        expect(near.distanceSq).toBe(best);
        return false;
      });
      expect(visited.sort((a, b) => a - b)).toEqual(bruteWithin(p, 4));
      expect(searchStack.top).toBe(0);
    }
  });

  it('a search stopped by its leaf callback leaves the stack as it found it', () => {
    const hit = createHit();
    let visits = 0;
    expect(someTriangleWithin(bvh, 10, 0, 0, 5, hit, () => ++visits === 3)).toBe(true);
    expect(visits).toBe(3);
    expect(searchStack.top).toBe(0);
  });

  it('nodeMaxima gives every node the largest value of the slots below it', () => {
    const value = new Float64Array(bvh.triangleCount);
    for (let s = 0; s < value.length; s++) value[s] = rand();
    const max = nodeMaxima(bvh, value);
    // Independent walk down the layout from each node.
    const link = (node: number, k: number) => bvh.nodeLinks[NODE_STRIDE * node + LINK_OFFSET + k]!;
    const below = (node: number): number => {
      const count = link(node, 1);
      if (count === 0) return Math.max(below(node + 1), below(link(node, 0)));
      let m = 0;
      for (let s = link(node, 0); s < link(node, 0) + count; s++) m = Math.max(m, value[s]!);
      return m;
    };
    for (let node = 0; node < bvh.nodeCount; node++) expect(max[node]).toBe(below(node));
    expect(max[0]).toBe(Math.max(...value));
  });
});
