import { describe, expect, it } from 'vitest';
import { uvSphere } from '../test/uvSphere';
import { decimateMesh, displayLevels, gather, thinPoints } from './decimate';

const R = 40;

/** A closed UV sphere of radius R about (5, -3, 2). */
function sphere(rings: number): { positions: Float32Array; indices: Uint32Array } {
  return uvSphere(rings, 2 * rings, R, [5, -3, 2]);
}

/** Signed volume enclosed by triangles (divergence theorem), about (5, -3, 2). */
function volume(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let v = 0;
  const p = (i: number) => [positions[3 * i]! - 5, positions[3 * i + 1]! + 3, positions[3 * i + 2]! - 2] as const;
  for (let t = 0; t < indices.length; t += 3) {
    const [ax, ay, az] = p(indices[t]!), [bx, by, bz] = p(indices[t + 1]!), [cx, cy, cz] = p(indices[t + 2]!);
    v += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6;
  }
  return v;
}

describe('decimateMesh (vertex clustering for display levels)', () => {
  const mesh = sphere(120); // 57,360 triangles
  const level = decimateMesh(mesh.positions, mesh.indices, 6000);

  it('keeps at most the target and not far below it', () => {
    const triangles = level.indices.length / 3;
    expect(triangles).toBeLessThanOrEqual(6000);
    expect(triangles).toBeGreaterThan(2500);
  });

  it('draws only vertices of the full mesh, each read back by its id', () => {
    expect(level.positions.length).toBe(3 * level.vertexIds.length);
    for (let j = 0; j < level.vertexIds.length; j++) {
      const v = level.vertexIds[j]!;
      expect([level.positions[3 * j], level.positions[3 * j + 1], level.positions[3 * j + 2]]).toEqual([mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]]);
    }
    expect(new Set(level.vertexIds).size).toBe(level.vertexIds.length);
  });

  it('has no degenerate or repeated triangle and uses every vertex it lists', () => {
    const seen = new Set<string>();
    const used = new Uint8Array(level.vertexIds.length);
    for (let t = 0; t < level.indices.length; t += 3) {
      const tri = [level.indices[t]!, level.indices[t + 1]!, level.indices[t + 2]!];
      expect(new Set(tri).size).toBe(3);
      const key = [...tri].sort((a, b) => a - b).join();
      expect(seen.has(key)).toBe(false);
      seen.add(key);
      for (const i of tri) used[i] = 1;
    }
    expect(used.every((u) => u === 1)).toBe(true);
  });

  it('keeps the winding (outward) and the shape: the enclosed volume within 1 % of the full mesh', () => {
    const full = volume(mesh.positions, mesh.indices);
    expect(full).toBeGreaterThan(0);
    expect(Math.abs(volume(level.positions, level.indices) / full - 1)).toBeLessThan(0.01);
  });

  it('refuses a target below one triangle', () => {
    expect(() => decimateMesh(mesh.positions, mesh.indices, 0)).toThrow(/target/);
  });
});

describe('displayLevels', () => {
  it('makes none for a mesh no bigger than `from`, else levels about a quarter apart down to the coarsest', () => {
    const mesh = sphere(120);
    expect(displayLevels(mesh.positions, mesh.indices, { from: 60_000, finest: 20_000, coarsest: 1000 })).toEqual([]);
    const levels = displayLevels(mesh.positions, mesh.indices, { from: 10_000, finest: 20_000, coarsest: 1000 });
    const sizes = levels.map((l) => l.indices.length / 3);
    expect(sizes.length).toBe(3); // targets 14,340 (a quarter of the mesh), 3,585, then 1,000 (a quarter would be below it)
    expect(sizes[0]).toBeLessThanOrEqual(14_340);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThan(sizes[i - 1]!);
    expect(sizes.at(-1)).toBeLessThanOrEqual(1000);
  });

  it('thins a cloud by a stride, keeping the first point and every stride-th after it', () => {
    const positions = Float32Array.from({ length: 3 * 1001 }, (_, i) => i);
    const level = thinPoints(positions, 100);
    expect(level.indices.length).toBe(0);
    expect(Array.from(level.vertexIds.slice(0, 3))).toEqual([0, 11, 22]);
    expect(level.vertexIds.length).toBe(91);
    expect(Array.from(level.positions.slice(3, 6))).toEqual([33, 34, 35]);
  });
});

describe('gather', () => {
  it('reads values per vertex at the ids, for any item size', () => {
    expect(Array.from(gather(Float32Array.of(0, 1, 2, 3, 4, 5, 6, 7, 8), [2, 0]))).toEqual([6, 7, 8, 0, 1, 2]);
    expect(Array.from(gather(Uint8Array.of(9, 8, 7), [1, 1, 2], 1, new Uint8Array(3)))).toEqual([8, 8, 7]);
  });
});
