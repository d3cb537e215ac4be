import { describe, expect, it } from 'vitest';
import { parseStl, writeBinaryStl } from '../scene/import/stl';
import { meshMemory } from './meshMemory';
import { buildPseudoNormals } from './pseudoNormals';
import { buildBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';

/** A closed torus of n x m quads (2nm triangles, nm vertices: half a vertex per triangle, as a closed scan). */
function torus(R: number, r: number, n: number, m: number): TriMesh {
  const positions = new Float64Array(3 * n * m);
  const indices = new Uint32Array(6 * n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const u = (2 * Math.PI * i) / n, v = (2 * Math.PI * j) / m;
      positions.set([(R + r * Math.cos(v)) * Math.cos(u), (R + r * Math.cos(v)) * Math.sin(u), r * Math.sin(v)], 3 * (i * m + j));
      const a = i * m + j, b = ((i + 1) % n) * m + j, c = ((i + 1) % n) * m + ((j + 1) % m), d = i * m + ((j + 1) % m);
      indices.set([a, b, c, a, c, d], 6 * (i * m + j));
    }
  }
  return { positions, indices };
}

describe('meshMemory: the bytes a mesh body holds', () => {
  const n = 200, m = 100;
  const T = 2 * n * m, V = n * m;

  it('counts each array once at its byteLength: mesh, BVH, pseudo-normals; 32 bytes a triangle beside the BVH for a closed float32 mesh in a deviation', () => {
    const mesh = parseStl(writeBinaryStl(torus(50, 20, n, m)));
    expect(mesh.positions).toBeInstanceOf(Float32Array);
    expect([mesh.indices.length / 3, mesh.positions.length / 3]).toEqual([T, V]);
    const bvh = buildBvh(mesh);
    const normals = buildPseudoNormals(mesh);

    // Before any sign query: the vertex-normal memo's first 1024 slots only (the mesh's own indices are not counted again).
    const memo = 1024 * (4 + 24);
    expect(meshMemory(mesh, undefined, normals).normals).toBe(memo);
    expect(normals.isClosed()).toBe(true); // builds the corner lists
    // What a deviation holds: the corner lists (offsets and triangles) beside the memo, 14 bytes a triangle.
    const out = new Float64Array(3);
    for (let w = 0; w < 512; w++) normals.vertexNormal(w, out); // up to half of the 1024 slots: no growth
    const deviation = meshMemory(mesh, bvh, normals);
    expect(deviation.normals).toBe(memo + 4 * (V + 1) + 12 * T);
    expect(deviation.mesh + deviation.normals).toBe(32 * T + 4 + memo);
    normals.vertexNormal(512, out); // the 513th vertex: the memo doubles
    expect(meshMemory(mesh, undefined, normals).normals).toBe(2 * memo + 4 * (V + 1) + 12 * T);

    expect(normals.vertexNormals.length).toBe(3 * V); // every vertex normal, and the memo dropped
    const memory = meshMemory(mesh, bvh, normals);
    expect(memory.mesh).toBe(mesh.positions.byteLength + mesh.indices.byteLength);
    expect(memory.mesh).toBe(12 * V + 12 * T); // float32 positions: 6 bytes a triangle, indices 12
    expect(bvh.nodeLinks.buffer).toBe(bvh.nodeBounds.buffer);
    expect(memory.bvh).toBe(bvh.slotCorners.byteLength + bvh.slotTriangle.byteLength + bvh.nodeBounds.byteLength);
    // Vertex normals (float64), the corner lists' offsets and triangles.
    expect(memory.normals).toBe(24 * V + 4 * (V + 1) + 12 * T);
    expect(memory.total).toBe(memory.mesh + memory.bvh + memory.normals);
    expect(memory.bytesPerTriangle).toBe(memory.total / T);
    // Per triangle, beside the BVH: 18 bytes of mesh and 26 of normals (44 MB a million triangles), and the lists' one extra offset.
    expect(memory.mesh + memory.normals).toBe(44 * T + 4);
  });

  it('counts float64 positions where the coordinates are not float32 (12 bytes a triangle instead of 6)', () => {
    const mesh = torus(50, 20, n, m);
    expect(meshMemory(mesh).mesh).toBe(24 * V + 12 * T);
  });
});
