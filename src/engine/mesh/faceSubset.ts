import type { FaceTessellation } from './TriMesh';

/**
 * The triangles of the faces `keep` marks (keep[faceId] = 1), with only their vertices, renumbered
 * in order. Face ids stay the body's (face[N]).
 */
export function keepFaces(t: FaceTessellation, keep: Uint8Array): FaceTessellation {
  const T = t.indices.length / 3;
  const V = t.positions.length / 3;
  const renumbered = new Int32Array(V).fill(-1);
  let triangles = 0, vertices = 0;
  for (let i = 0; i < T; i++) {
    if (keep[t.faceIds[i]!] !== 1) continue;
    triangles++;
    for (let k = 0; k < 3; k++) {
      const v = t.indices[3 * i + k]!;
      if (renumbered[v] === -1) renumbered[v] = vertices++;
    }
  }
  const positions = new Float64Array(3 * vertices), uvs = new Float64Array(2 * vertices);
  for (let v = 0; v < V; v++) {
    const to = renumbered[v]!;
    if (to < 0) continue;
    positions.set(t.positions.subarray(3 * v, 3 * v + 3), 3 * to);
    uvs.set(t.uvs.subarray(2 * v, 2 * v + 2), 2 * to);
  }
  const indices = new Uint32Array(3 * triangles), faceIds = new Uint32Array(triangles);
  for (let i = 0, o = 0; i < T; i++) {
    if (keep[t.faceIds[i]!] !== 1) continue;
    for (let k = 0; k < 3; k++) indices[3 * o + k] = renumbered[t.indices[3 * i + k]!]!;
    faceIds[o++] = t.faceIds[i]!;
  }
  return { positions, indices, faceIds, uvs, deflection: t.deflection };
}
