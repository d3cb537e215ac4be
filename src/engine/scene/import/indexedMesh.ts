import { BrepscopeError } from '../../errors';
import { compactPositions, type TriMesh } from '../../mesh/TriMesh';
import { weldVertexIds } from '../../mesh/weld';

/** What an indexed mesh file (PLY, OBJ, 3MF) holds before welding: its own vertex list and faces. */
export interface IndexedMesh {
  /** x, y, z per file vertex. */
  positions: Float64Array;
  /** Three file-vertex indices per triangle (polygons already fanned), each checked < vertex count. */
  indices: Uint32Array;
  normals?: Float32Array | undefined;
  colors?: Uint8Array | undefined;
}

/**
 * Turns an indexed mesh into the same TriMesh an STL of the same triangles gives: vertices with
 * bit-identical coordinates welded (-0 as 0), numbered in order of first use by the triangles, and
 * vertices no triangle uses dropped. So every tool sees identical arrays whichever format carried
 * the triangles. Per-vertex normals and colours follow their vertex (the first one of a welded group).
 * `indices` is rewritten in place.
 */
export function weldIndexedMesh(input: IndexedMesh, name: string): TriMesh {
  const { positions, indices } = input;
  if (indices.length === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the mesh contains no triangles`);
  const { ids, count } = weldVertexIds(positions);
  const order = new Int32Array(count).fill(-1);
  const source = new Uint32Array(count);
  let used = 0;
  for (let c = 0; c < indices.length; c++) {
    const v = indices[c]!;
    const w = ids[v]!;
    let o = order[w]!;
    if (o < 0) {
      o = order[w] = used;
      source[used++] = v;
    }
    indices[c] = o;
  }
  const out = new Float64Array(used * 3);
  for (let i = 0; i < used; i++) {
    const v = source[i]! * 3;
    out[i * 3] = positions[v]! + 0;
    out[i * 3 + 1] = positions[v + 1]! + 0;
    out[i * 3 + 2] = positions[v + 2]! + 0;
  }
  const mesh: TriMesh = { positions: compactPositions(out), indices, distinctPositions: true };
  if (input.normals) mesh.normals = gather(input.normals, source, used, new Float32Array(used * 3));
  if (input.colors) mesh.colors = gather(input.colors, source, used, new Uint8Array(used * 3));
  return mesh;
}

function gather<T extends Float32Array | Uint8Array>(from: T, source: Uint32Array, count: number, to: T): T {
  for (let i = 0; i < count; i++) {
    const v = source[i]! * 3;
    to[i * 3] = from[v]!;
    to[i * 3 + 1] = from[v + 1]!;
    to[i * 3 + 2] = from[v + 2]!;
  }
  return to;
}
