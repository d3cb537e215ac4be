import { hypot3 } from '../math/hypot3';
import { buildPseudoNormals, type PseudoNormals } from './pseudoNormals';
import type { Positions, TriMesh } from './TriMesh';

/**
 * Points spread over a triangle mesh's surface, each with the surface normal there, for deviation
 * measurements. Every figure computed from them estimates a surface integral (an area-weighted
 * mean), so they are area-uniform whatever the mesh's vertex density (docs/deviation.md, "Sampling"):
 *
 * 1. Exactly maxSamples points, allotted by systematic sampling over the cumulative area in
 *    triangle order: triangle t gets round(N C(t+1) / A) - round(N C(t) / A) of them, C(t) the
 *    area of the triangles before t, A the total. So a triangle gets area x N / A points, rounded
 *    with the remainders carried on: a dense scan's small triangles get one point or none in
 *    proportion to their area, a coarse planar face's large ones several.
 * 2. Sample number s (0-based, in triangle order) lies at the (s + 1)-th point of the R2
 *    low-discrepancy sequence (Roberts 2018) folded into its triangle: uniform inside the triangle
 *    over the samples (a centroid would weight the triangles' chord sag by its value at the centroid,
 *    measured +2.6% on a scan's p95), well spread when a triangle gets several. Deterministic.
 * 3. Each point carries its triangle's unit normal.
 */
export interface SurfaceSamples {
  /** Number of samples kept. */
  count: number;
  /** x, y, z per sample. */
  points: Float64Array;
  /** Unit normal per sample (zero where the surface has none, e.g. a vertex whose normals cancel). */
  normals: Float64Array;
  /** Candidates before a stride (the count for area samples). */
  candidates: number;
  stride: number;
  /** Welded vertices among the candidates (they come first; 0 for area samples). */
  vertexCandidates: number;
  /** Total area of the mesh. */
  area: number;
  /** With `corners` asked for: each sample's triangle's three corners (9 numbers a sample). */
  corners?: Float64Array;
}

// Roberts' R2 sequence: fractional parts of j / phi2 and j / phi2^2, phi2 the plastic number.
const PHI2 = 1.324717957244746;
export const R2_A = 1 / PHI2;
export const R2_B = 1 / (PHI2 * PHI2);

export function sampleSurface(mesh: TriMesh, maxSamples: number, pseudoNormals?: PseudoNormals, options: { corners?: boolean } = {}): SurfaceSamples {
  if (!(maxSamples >= 1) || !Number.isInteger(maxSamples)) throw new Error('sampleSurface: maxSamples must be a positive integer.');
  const pn = pseudoNormals ?? buildPseudoNormals(mesh);
  const idx = mesh.indices;
  const pos = mesh.positions;
  const T = idx.length / 3;
  const n3 = new Float64Array(3);

  // Each pass is a function of its own: the whole call runs once per mesh, so V8 compiles each
  // loop on the fly, and a loop after another in one function would start without feedback.
  const { areas, area } = triangleAreas(idx, pos);
  const inside = new Uint32Array(T);
  const count = area > 0 ? systematicCounts(areas, area, maxSamples, inside) : 0;
  const points = new Float64Array(3 * count);
  const normals = new Float64Array(3 * count);
  const corners = options.corners ? new Float64Array(9 * count) : undefined;

  const uv = new Float64Array(2);
  let s = 0;
  for (let t = 0; t < T; t++) {
    const k = inside[t]!;
    if (k === 0) continue;
    const a = idx[3 * t]! * 3, b = idx[3 * t + 1]! * 3, c = idx[3 * t + 2]! * 3;
    const ax = pos[a]!, ay = pos[a + 1]!, az = pos[a + 2]!;
    const ux = pos[b]! - ax, uy = pos[b + 1]! - ay, uz = pos[b + 2]! - az;
    const vx = pos[c]! - ax, vy = pos[c + 1]! - ay, vz = pos[c + 2]! - az;
    pn.faceNormal(t, n3);
    const nx = n3[0]!, ny = n3[1]!, nz = n3[2]!;
    for (let j = 0; j < k; j++) {
      // The R2 point of the sample's own number: uniform inside its triangle whatever the allotment.
      r2Barycentric(s + 1, uv);
      const u = uv[0]!, v = uv[1]!;
      points[3 * s] = ax + u * ux + v * vx;
      points[3 * s + 1] = ay + u * uy + v * vy;
      points[3 * s + 2] = az + u * uz + v * vz;
      normals[3 * s] = nx;
      normals[3 * s + 1] = ny;
      normals[3 * s + 2] = nz;
      if (corners) {
        for (let q = 0; q < 3; q++) {
          corners[9 * s + q] = pos[a + q]!;
          corners[9 * s + 3 + q] = pos[b + q]!;
          corners[9 * s + 6 + q] = pos[c + q]!;
        }
      }
      s++;
    }
  }
  if (s !== count) throw new Error(`sampleSurface: internal count mismatch (${s} of ${count}).`);
  return { count, points, normals, candidates: count, stride: 1, vertexCandidates: 0, area, ...(corners ? { corners } : {}) };
}

/**
 * Points per triangle by systematic sampling over the cumulative area (rule 1), into `inside`;
 * returns their sum, which is n (the last cumulative area is the total itself). Any non-negative
 * weights serve (a cloud's points by the area each stands for: deviation/cloudAreaSamples.ts).
 */
/**
 * The R2 sequence's point number `n` folded into the unit triangle, as barycentric (u, v) into `uv`:
 * low-discrepancy and deterministic, so samples spread evenly over a triangle whatever their count.
 */
export function r2Barycentric(n: number, uv: Float64Array): void {
  let u = (0.5 + n * R2_A) % 1;
  let v = (0.5 + n * R2_B) % 1;
  if (u + v > 1) {
    u = 1 - u;
    v = 1 - v;
  }
  uv[0] = u;
  uv[1] = v;
}

export function systematicCounts(areas: Float64Array, area: number, n: number, inside: Uint32Array): number {
  let cumulative = 0;
  let before = 0;
  let total = 0;
  const last = areas.length - 1;
  for (let t = 0; t <= last; t++) {
    cumulative += areas[t]!;
    const after = t === last ? n : Math.min(n, Math.round((n * cumulative) / area));
    const k = after - before;
    inside[t] = k;
    total += k;
    before = after;
  }
  return total;
}

/** Area per triangle, and their sum in triangle order. */
export function triangleAreas(idx: Uint32Array, pos: Positions): { areas: Float64Array; area: number } {
  const T = idx.length / 3;
  const areas = new Float64Array(T);
  let area = 0;
  for (let t = 0; t < T; t++) {
    const a = idx[3 * t]! * 3, b = idx[3 * t + 1]! * 3, c = idx[3 * t + 2]! * 3;
    const ux = pos[b]! - pos[a]!, uy = pos[b + 1]! - pos[a + 1]!, uz = pos[b + 2]! - pos[a + 2]!;
    const vx = pos[c]! - pos[a]!, vy = pos[c + 1]! - pos[a + 1]!, vz = pos[c + 2]! - pos[a + 2]!;
    const at = 0.5 * hypot3(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    areas[t] = at;
    area += at;
  }
  return { areas, area };
}
