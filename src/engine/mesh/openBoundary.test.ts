import { describe, expect, it } from 'vitest';
import { closestPoint, createHit } from './closestPoint';
import { box } from './generators';
import { BEYOND_LEAN, beyondOpenBoundary, buildOpenBoundary, onOpenBoundary } from './openBoundary';
import { buildPseudoNormals } from './pseudoNormals';
import { buildBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';

/** A 10-cube of 2 x 2 quads per side (unwelded per face, as generators make it) without its top (z = 10). */
function openBox(): TriMesh {
  const closed = box([0, 0, 0], [10, 10, 10], 2);
  const idx = closed.indices;
  const kept: number[] = [];
  for (let t = 0; t < idx.length; t += 3) {
    const top = [0, 1, 2].every((k) => closed.positions[3 * idx[t + k]! + 2] === 10);
    if (!top) kept.push(idx[t]!, idx[t + 1]!, idx[t + 2]!);
  }
  return { positions: closed.positions, indices: Uint32Array.from(kept) };
}

/** Open edges (as welded vertex pairs) and welded vertices on them, asking every feature. */
function census(mesh: TriMesh): { edges: number; vertices: number } {
  const pn = buildPseudoNormals(mesh);
  const boundary = buildOpenBoundary(pn);
  const tv = pn.triangleVertices;
  const edges = new Set<string>();
  for (let t = 0; t < tv.length / 3; t++) {
    for (let k = 0; k < 3; k++) {
      const a = tv[3 * t + k]!, b = tv[3 * t + ((k + 1) % 3)]!;
      if (boundary.edgeOpen(t, k)) edges.add(`${Math.min(a, b)}-${Math.max(a, b)}`);
    }
  }
  let vertices = 0;
  for (let w = 0; w < pn.vertexCount; w++) if (boundary.vertexOpen(w)) vertices++;
  return { edges: edges.size, vertices };
}

describe('open boundary of a mesh', () => {
  it('a closed box has none; without its top, the 8 edges of the rim are open (after welding by coordinates)', () => {
    expect(census(box([0, 0, 0], [10, 10, 10], 2))).toEqual({ edges: 0, vertices: 0 });
    expect(census(openBox())).toEqual({ edges: 8, vertices: 8 });
  });

  it('a nearest point on the rim (beyond the opening) is on the boundary; one on a wall or the floor is not', () => {
    const mesh = openBox();
    const pn = buildPseudoNormals(mesh);
    const boundary = buildOpenBoundary(pn);
    const bvh = buildBvh(mesh);
    const at = (x: number, y: number, z: number) => onOpenBoundary(boundary, closestPoint(bvh, x, y, z, createHit()));
    // Above the missing top: the nearest points are the rim's edges and corners.
    expect(at(5, 5, 13)).toBe(true);
    expect(at(2.5, 5, 12)).toBe(true);
    expect(at(12, 12, 12)).toBe(true);
    // Beside a wall, below the rim; under the floor.
    expect(at(12, 5, 5)).toBe(false);
    expect(at(5, 5, -2)).toBe(false);
    expect(at(5, 5, 5)).toBe(false);
  });

  it('beyond the boundary: a point over the opening is; one square on to the rim (level with it, outside the wall) is not', () => {
    const mesh = openBox();
    const pn = buildPseudoNormals(mesh);
    const boundary = buildOpenBoundary(pn);
    const bvh = buildBvh(mesh);
    const beyond = (x: number, y: number, z: number) => beyondOpenBoundary(boundary, closestPoint(bvh, x, y, z, createHit()), x, y, z);
    expect(beyond(5, 5, 13)).toBe(true);
    expect(beyond(12, 12, 12)).toBe(true);
    // Level with the rim, 2 outside the wall y = 10: the nearest point (5, 10, 10) is on the rim, but square on.
    expect(beyond(5, 12, 10)).toBe(false);
    // Leaning by 0.5 over 2: beyond; by just under the limit: not.
    expect(beyond(5, 12, 10.5)).toBe(true);
    const h = 2 * BEYOND_LEAN * 0.99;
    expect(beyond(5, 12, 10 + h)).toBe(false);
    // Inside the box below the rim, and on the rim itself.
    expect(beyond(5, 5, 5)).toBe(false);
    expect(beyond(5, 10, 10)).toBe(false);
  });
});
