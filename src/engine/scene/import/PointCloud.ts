import type { CloudPositions } from '../../points/cloudPositions';

/**
 * A point cloud as a scanner or CMM writes it (PLY with vertices and no faces, `.xyz .pts .txt .csv`):
 * positions in file order, and the normals when the file has them. Positions are float64 like every
 * position in the engine, except a binary PLY's float32 (or smaller) coordinates, kept as float32:
 * every value is the file's own exactly, and a 5-million-point scan then takes the file's 12 bytes a
 * point rather than 24 (issue 22: memory within 2x the raw data). A placed cloud is float64.
 * It becomes a `points` body (PointsBody); what each tool does with one is in docs/point-clouds.md.
 */
export interface PointCloud {
  /** x, y, z per point. */
  positions: CloudPositions;
  /** nx, ny, nz per point, as the file gave them (not normalized). */
  normals?: Float32Array | undefined;
  /** r, g, b (0..255) per point, when the file has colours. */
  colors?: Uint8Array | undefined;
  count: number;
}
