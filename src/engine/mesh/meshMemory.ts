import type { PseudoNormals } from './pseudoNormals';
import type { TriangleBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';

/** Bytes a mesh body holds for its triangles, by part, and their sum per triangle. */
export interface MeshMemory {
  triangles: number;
  /** Positions, indices, and the per-vertex normals and colours a scan file carried. */
  mesh: number;
  /** The BVH's arrays (slot corners, slot -> triangle, nodes). */
  bvh: number;
  /** The pseudo-normals' arrays (vertex normals, the corner lists once built; not the mesh's own indices). */
  normals: number;
  total: number;
  /** total / triangles; times 1e6 it is bytes per million triangles. */
  bytesPerTriangle: number;
}

/**
 * What a mesh body holds for its triangles (docs/scaling.md, "Where the memory goes"): the memory
 * of every array of the mesh, of its BVH and of its pseudo-normals, each buffer counted once (the
 * BVH's node links share the node boxes' buffer; the pseudo-normals may use the mesh's indices).
 * A buffer counts at its allocated size, whether or not all its pages were written.
 */
export function meshMemory(mesh: TriMesh, bvh?: TriangleBvh, normals?: PseudoNormals): MeshMemory {
  const counted = new Set<ArrayBufferLike>();
  const sum = (views: Iterable<unknown>): number => {
    let bytes = 0;
    for (const view of views) {
      if (!ArrayBuffer.isView(view) || counted.has(view.buffer)) continue;
      counted.add(view.buffer);
      bytes += view.buffer.byteLength;
    }
    return bytes;
  };
  const meshBytes = sum([mesh.positions, mesh.indices, mesh.normals, mesh.colors]);
  const bvhBytes = bvh ? sum(Object.values(bvh)) : 0;
  const normalBytes = normals ? sum(normals.heldArrays()) : 0;
  const triangles = mesh.indices.length / 3;
  const total = meshBytes + bvhBytes + normalBytes;
  return { triangles, mesh: meshBytes, bvh: bvhBytes, normals: normalBytes, total, bytesPerTriangle: triangles > 0 ? total / triangles : 0 };
}
