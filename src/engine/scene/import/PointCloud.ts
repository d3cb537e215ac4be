/**
 * A point cloud as a scanner or CMM writes it (PLY with vertices and no faces, `.xyz .pts .txt .csv`):
 * positions in file order, float64 like every position in the engine, and the normals when the
 * file has them. It becomes a `points` body (PointsBody); what each tool does with one is in
 * docs/point-clouds.md.
 */
export interface PointCloud {
  /** x, y, z per point. */
  positions: Float64Array;
  /** nx, ny, nz per point, as the file gave them (not normalized). */
  normals?: Float32Array | undefined;
  /** r, g, b (0..255) per point, when the file has colours. */
  colors?: Uint8Array | undefined;
  count: number;
}
