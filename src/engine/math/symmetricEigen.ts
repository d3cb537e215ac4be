import type { Vec3 } from './vec3';

/**
 * Eigen-decomposition of a symmetric 3x3 matrix (row-major) by cyclic Jacobi rotations.
 * Returns eigenvalues ascending with their unit eigenvectors (a right-handed frame).
 */
export function symmetricEigen3(m: readonly number[]): { values: Vec3; vectors: [Vec3, Vec3, Vec3] } {
  const a = [
    [m[0]!, m[1]!, m[2]!],
    [m[3]!, m[4]!, m[5]!],
    [m[6]!, m[7]!, m[8]!],
  ] as number[][];
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ] as number[][];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = a[0]![1]! ** 2 + a[0]![2]! ** 2 + a[1]![2]! ** 2;
    const scale = a[0]![0]! ** 2 + a[1]![1]! ** 2 + a[2]![2]! ** 2;
    if (off <= 1e-30 * Math.max(scale, 1e-300)) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = a[p]![q]!;
      if (apq === 0) continue;
      const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k]![p]!, akq = a[k]![q]!;
        a[k]![p] = c * akp - s * akq;
        a[k]![q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p]![k]!, aqk = a[q]![k]!;
        a[p]![k] = c * apk - s * aqk;
        a[q]![k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k]![p]!, vkq = v[k]![q]!;
        v[k]![p] = c * vkp - s * vkq;
        v[k]![q] = s * vkp + c * vkq;
      }
    }
  }
  const order = [0, 1, 2].sort((i, j) => a[i]![i]! - a[j]![j]!);
  const values = order.map((i) => a[i]![i]!) as Vec3;
  const vectors = order.map((i) => [v[0]![i]!, v[1]![i]!, v[2]![i]!] as Vec3) as [Vec3, Vec3, Vec3];
  // The Jacobi rotations give a proper rotation, but sorting the columns may swap two of them (a
  // mirror): the third vector is flipped then, so the frame is right-handed (determinant +1).
  const [x, y, z] = vectors;
  const det = x[0] * (y[1] * z[2] - y[2] * z[1]) - x[1] * (y[0] * z[2] - y[2] * z[0]) + x[2] * (y[0] * z[1] - y[1] * z[0]);
  if (det < 0) vectors[2] = [-z[0], -z[1], -z[2]];
  return { values, vectors };
}
