/**
 * A triangle mesh as flat typed arrays: the engine's currency for everything mesh-shaped (STL
 * bodies, BREP tessellations). Positions are float64 so that an STL's float32 coordinates and a
 * kernel tessellation's doubles are both held exactly.
 */
export interface TriMesh {
  /** x, y, z per vertex. */
  positions: Float64Array;
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  indices: Uint32Array;
  /**
   * Set by producers that weld (parseStl): no two vertices have the same coordinates (and none is
   * -0), so welding by coordinates would map every vertex to itself and can be skipped. Absent
   * means unknown; a copy of the arrays should drop it unless it keeps them as they are.
   */
  distinctPositions?: true;
  /** Per-vertex normals a scan file carried (PLY, OBJ): kept for display; tools use the triangles. */
  normals?: Float32Array | undefined;
  /** Per-vertex r, g, b (0..255) a scan file carried (PLY, OBJ): kept for display. */
  colors?: Uint8Array | undefined;
}

/** A BREP tessellation: a TriMesh whose triangles remember the face (face[N]) they came from. */
export interface FaceTessellation extends TriMesh {
  /** Per triangle, the 0-based face index in TopExp.MapShapes order. */
  faceIds: Uint32Array;
  /** u v per vertex on its face's surface (Poly_Triangulation UV nodes; NaN where BRepMesh gave none). */
  uvs: Float64Array;
  deflection: number;
}

export function triangleCount(mesh: TriMesh): number {
  return mesh.indices.length / 3;
}

export function vertexCount(mesh: TriMesh): number {
  return mesh.positions.length / 3;
}
