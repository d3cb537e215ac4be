/**
 * Vertex coordinates: float32 where every coordinate of the file is a float32 (a binary STL, a PLY
 * of floats), float64 otherwise (a kernel tessellation, text files). Either way each stored value
 * is exactly the file's, and every computation reads it into a float64 (a JavaScript number).
 */
export type Positions = Float64Array | Float32Array;

/**
 * A triangle mesh as flat typed arrays: the engine's currency for everything mesh-shaped (STL
 * bodies, BREP tessellations).
 */
export interface TriMesh {
  /** x, y, z per vertex. */
  positions: Positions;
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

/**
 * The coordinates as float32 when every one of them is exactly a float32 (half the memory, the same
 * values), else the array itself. -0 stays -0 (Math.fround keeps it).
 */
export function compactPositions(positions: Positions): Positions {
  if (positions instanceof Float32Array) return positions;
  for (let i = 0; i < positions.length; i++) {
    if (Math.fround(positions[i]!) !== positions[i]!) return positions;
  }
  return positions.buffer instanceof SharedArrayBuffer ? sharedFloat32(positions) : Float32Array.from(positions);
}

function sharedFloat32(positions: Float64Array): Float32Array {
  const out = new Float32Array(new SharedArrayBuffer(4 * positions.length));
  out.set(positions);
  return out;
}
