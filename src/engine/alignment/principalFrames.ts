import type { Rigid } from '../math/rigid';
import { symmetricEigen3 } from '../math/symmetricEigen';
import { pointsBox, type Box3, type Vec3 } from '../math/vec3';
import type { TriMesh } from '../mesh/TriMesh';

/** First and second moments of a shape: what its principal frame is made of. */
export interface Moments {
  centroid: Vec3;
  /** Covariance about the centroid per unit weight, row-major 3x3. */
  covariance: number[];
}

/** Area-weighted first and second moments of a triangle surface. */
export interface SurfaceMoments extends Moments {
  area: number;
}

/**
 * The surface's area, centroid and covariance, integrated exactly over the triangles
 * (integral of x x^T over a triangle = A/12 (a a^T + b b^T + c c^T + 9 g g^T), g its centroid),
 * so vertex density does not weigh in: a scan's dense patches count by their area only.
 */
export function surfaceMoments(mesh: TriMesh): SurfaceMoments {
  const p = mesh.positions, idx = mesh.indices;
  let area = 0;
  let sx = 0, sy = 0, sz = 0;
  const S = new Float64Array(9);
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t]!, b = 3 * idx[t + 1]!, c = 3 * idx[t + 2]!;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
    const A = 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    if (!(A > 0)) continue;
    const gx = (p[a]! + p[b]! + p[c]!) / 3, gy = (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3, gz = (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3;
    area += A;
    sx += A * gx;
    sy += A * gy;
    sz += A * gz;
    for (let i = 0; i < 3; i++) {
      for (let j = i; j < 3; j++) {
        const g = [gx, gy, gz];
        const m = p[a + i]! * p[a + j]! + p[b + i]! * p[b + j]! + p[c + i]! * p[c + j]! + 9 * g[i]! * g[j]!;
        S[3 * i + j] = S[3 * i + j]! + (A / 12) * m;
      }
    }
  }
  if (!(area > 0)) return { area: 0, centroid: [NaN, NaN, NaN], covariance: new Array<number>(9).fill(NaN) };
  const c: Vec3 = [sx / area, sy / area, sz / area];
  const cov = new Array<number>(9);
  for (let i = 0; i < 3; i++) {
    for (let j = i; j < 3; j++) {
      cov[3 * i + j] = S[3 * i + j]! / area - c[i]! * c[j]!;
      cov[3 * j + i] = cov[3 * i + j]!;
    }
  }
  return { area, centroid: c, covariance: cov };
}

export interface CloudMoments extends Moments {
  /** Occupied voxels. */
  cells: number;
  /** The first point of each occupied voxel, in voxel order: the cloud thinned evenly over its extent. */
  representatives: Float64Array;
}

/**
 * A point cloud's moments, its points thinned on a voxel grid of edge `cell` first: each occupied
 * cell weighs the same, standing at the mean of its points. A cloud has no area to weigh by, and
 * raw point weights let the densely scanned patches pull the centroid and axes their way (a
 * scanner's overlapping passes, a surface seen face-on against one seen edge-on); one weight per
 * cell of a grid finer than the part approximates area weighting wherever the points are closer
 * together than the cell. Where they are sparser than the cell, every point is its own cell and
 * the weights are the points' own. Deterministic: cells in the order their first point comes.
 */
export function cloudMoments(positions: Float64Array | Float32Array, count: number, cell: number, box: Box3 = pointsBox(positions, count)): CloudMoments {
  const { min, max } = box;
  // Integer cell coordinates packed in one number: at most 2^17 cells along an axis keeps the key exact.
  const size = Math.max(cell, ...[0, 1, 2].map((k) => (max[k]! - min[k]!) / 2 ** 17));
  const nx = Math.floor((max[0]! - min[0]!) / size) + 1, ny = Math.floor((max[1]! - min[1]!) / size) + 1;
  const cellOf = new Map<number, number>();
  const sums: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < count; i++) {
    const x = positions[3 * i]!, y = positions[3 * i + 1]!, z = positions[3 * i + 2]!;
    const key = Math.floor((x - min[0]!) / size) + nx * (Math.floor((y - min[1]!) / size) + ny * Math.floor((z - min[2]!) / size));
    let c = cellOf.get(key);
    if (c === undefined) {
      c = sums.length / 4;
      cellOf.set(key, c);
      sums.push(0, 0, 0, 0);
      first.push(i);
    }
    sums[4 * c] = sums[4 * c]! + x;
    sums[4 * c + 1] = sums[4 * c + 1]! + y;
    sums[4 * c + 2] = sums[4 * c + 2]! + z;
    sums[4 * c + 3] = sums[4 * c + 3]! + 1;
  }
  const cells = sums.length / 4;
  const representatives = new Float64Array(3 * cells);
  first.forEach((i, k) => representatives.set(positions.subarray(3 * i, 3 * i + 3), 3 * k));
  if (cells === 0) return { centroid: [NaN, NaN, NaN], covariance: new Array<number>(9).fill(NaN), cells, representatives };
  const means = new Float64Array(3 * cells);
  const c: Vec3 = [0, 0, 0];
  for (let k = 0; k < cells; k++) {
    for (let i = 0; i < 3; i++) {
      means[3 * k + i] = sums[4 * k + i]! / sums[4 * k + 3]!;
      c[i] = c[i]! + means[3 * k + i]! / cells;
    }
  }
  const cov = new Array<number>(9).fill(0);
  for (let k = 0; k < cells; k++) {
    for (let i = 0; i < 3; i++) {
      for (let j = i; j < 3; j++) cov[3 * i + j] = cov[3 * i + j]! + ((means[3 * k + i]! - c[i]!) * (means[3 * k + j]! - c[j]!)) / cells;
    }
  }
  for (let i = 0; i < 3; i++) for (let j = 0; j < i; j++) cov[3 * i + j] = cov[3 * j + i]!;
  return { centroid: c, covariance: cov, cells, representatives };
}

/** Principal axes (columns of a right-handed frame, variance ascending) and their variances. */
export function principalAxes(m: Moments): { axes: [Vec3, Vec3, Vec3]; variances: Vec3 } {
  // Right-handed (symmetricEigen3), so that every candidate below is a rotation, not a mirror.
  const { values, vectors } = symmetricEigen3(m.covariance);
  return { axes: vectors, variances: values };
}

/** The 24 proper signed permutations of three axes (the rotations of a cube), identity first. */
const CUBE_ROTATIONS: number[][] = (() => {
  const out: number[][] = [];
  const perms = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [0, 2, 1],
    [2, 1, 0],
    [1, 0, 2],
  ];
  for (const perm of perms) {
    for (let signs = 0; signs < 8; signs++) {
      const m = new Array<number>(9).fill(0);
      for (let i = 0; i < 3; i++) m[3 * i + perm[i]!] = signs & (1 << i) ? -1 : 1;
      const det = m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
      if (det > 0) out.push(m);
    }
  }
  return out;
})();

/**
 * Every rigid motion that maps the moving surface's principal frame onto the fixed one's: each of
 * the 24 ways to match three axes with signs (a mirror excluded), centroid onto centroid. With
 * well separated moments the first four (the sign choices of the axes in order) are the plausible
 * ones; the permutations cover near-equal moments and partial scans whose axes come out in
 * another order.
 *
 * A partial scan's centroid is not the part's: with `shift` > 0 each rotation is also tried with
 * the centroid moved by +-shift standard deviations along each of the fixed body's axes (7
 * positions per rotation, centred first).
 */
export function principalCandidates(moving: Moments, fixed: Moments, shift = 0): Rigid[] {
  const fm = principalAxes(moving).axes;
  const { axes: ff, variances } = principalAxes(fixed);
  const targets: Vec3[] = [fixed.centroid];
  if (shift > 0) {
    for (let a = 2; a >= 0; a--) {
      for (const sign of [1, -1]) {
        const k = sign * shift * Math.sqrt(Math.max(0, variances[a]!));
        targets.push([fixed.centroid[0] + k * ff[a]![0], fixed.centroid[1] + k * ff[a]![1], fixed.centroid[2] + k * ff[a]![2]]);
      }
    }
  }
  const out: Rigid[] = [];
  for (const target of targets) {
    for (const s of CUBE_ROTATIONS) {
      // R = F_fixed S F_moving^T: moving axis j goes to sum_i S[i][j] fixed axis i.
      const r = new Array<number>(9).fill(0);
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          let v = 0;
          for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) v += ff[a]![i]! * s[3 * a + b]! * fm[b]![j]!;
          r[3 * i + j] = v;
        }
      }
      const c = moving.centroid;
      const t = [0, 1, 2].map((i) => target[i]! - (r[3 * i]! * c[0] + r[3 * i + 1]! * c[1] + r[3 * i + 2]! * c[2]));
      out.push({ r, t });
    }
  }
  return out;
}
