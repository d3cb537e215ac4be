import type { TriMesh } from '../engine/mesh/TriMesh';

/** A copy in shared memory (float64 positions), as an import gives meshes to a host with mesh threads. */
export function sharedMesh(mesh: TriMesh): TriMesh {
  const positions = new Float64Array(new SharedArrayBuffer(8 * mesh.positions.length));
  const indices = new Uint32Array(new SharedArrayBuffer(mesh.indices.byteLength));
  positions.set(mesh.positions);
  indices.set(mesh.indices);
  return { positions, indices };
}
