import type { Vec3 } from './vec3';

/** A 4x4 matrix as four rows of four (row-major), as inspect_assembly and align_bodies report placements. */
export type Matrix4 = [number[], number[], number[], number[]];

/** A rigid motion x -> R x + t: `r` the rotation, row-major (9 numbers), `t` the translation. */
export interface Rigid {
  readonly r: readonly number[];
  readonly t: readonly number[];
}

export const IDENTITY: Rigid = { r: [1, 0, 0, 0, 1, 0, 0, 0, 1], t: [0, 0, 0] };

/** `a` after `b`: x -> a(b(x)). */
export function compose(a: Rigid, b: Rigid): Rigid {
  const A = a.r, B = b.r;
  const r: number[] = new Array<number>(9);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) r[3 * i + j] = A[3 * i]! * B[j]! + A[3 * i + 1]! * B[3 + j]! + A[3 * i + 2]! * B[6 + j]!;
  }
  const [x, y, z] = rotate(a, b.t[0]!, b.t[1]!, b.t[2]!);
  return { r, t: [x + a.t[0]!, y + a.t[1]!, z + a.t[2]!] };
}

export function invert(a: Rigid): Rigid {
  const R = a.r;
  const r = [R[0]!, R[3]!, R[6]!, R[1]!, R[4]!, R[7]!, R[2]!, R[5]!, R[8]!];
  const inv: Rigid = { r, t: [0, 0, 0] };
  const [x, y, z] = rotate(inv, a.t[0]!, a.t[1]!, a.t[2]!);
  return { r, t: [-x, -y, -z] };
}

/** R v (no translation). */
export function rotate(a: Rigid, x: number, y: number, z: number): Vec3 {
  const R = a.r;
  return [R[0]! * x + R[1]! * y + R[2]! * z, R[3]! * x + R[4]! * y + R[5]! * z, R[6]! * x + R[7]! * y + R[8]! * z];
}

/** R p + t. */
export function apply(a: Rigid, x: number, y: number, z: number): Vec3 {
  const [u, v, w] = rotate(a, x, y, z);
  return [u + a.t[0]!, v + a.t[1]!, w + a.t[2]!];
}

/** x, y, z triples moved by `a` into a new array. */
export function applyToPoints(a: Rigid, points: ArrayLike<number>, out: Float64Array = new Float64Array(points.length)): Float64Array {
  const R = a.r;
  const r0 = R[0]!, r1 = R[1]!, r2 = R[2]!, r3 = R[3]!, r4 = R[4]!, r5 = R[5]!, r6 = R[6]!, r7 = R[7]!, r8 = R[8]!;
  const tx = a.t[0]!, ty = a.t[1]!, tz = a.t[2]!;
  for (let i = 0; i < points.length; i += 3) {
    const x = points[i]!, y = points[i + 1]!, z = points[i + 2]!;
    out[i] = r0 * x + r1 * y + r2 * z + tx;
    out[i + 1] = r3 * x + r4 * y + r5 * z + ty;
    out[i + 2] = r6 * x + r7 * y + r8 * z + tz;
  }
  return out;
}

/** Rotation by `angle` radians about the unit `axis` (Rodrigues). */
export function axisAngle(axis: readonly number[], angle: number): number[] {
  const [x, y, z] = [axis[0]!, axis[1]!, axis[2]!];
  const c = Math.cos(angle), s = Math.sin(angle), k = 1 - c;
  return [c + x * x * k, x * y * k - z * s, x * z * k + y * s, y * x * k + z * s, c + y * y * k, y * z * k - x * s, z * x * k - y * s, z * y * k + x * s, c + z * z * k];
}

/**
 * The rotation of a small-angle vector w (axis w/|w|, angle |w|): the exact rotation a linearised
 * solve's (alpha, beta, gamma) stands for.
 */
export function rotationOfVector(wx: number, wy: number, wz: number): number[] {
  const angle = Math.hypot(wx, wy, wz);
  return angle > 0 ? axisAngle([wx / angle, wy / angle, wz / angle], angle) : [...IDENTITY.r];
}

/** The rotation's angle in radians, [0, pi]; accurate at small angles too (from the skew part and the trace). */
export function rotationAngle(r: readonly number[]): number {
  const s = 0.5 * Math.hypot(r[7]! - r[5]!, r[2]! - r[6]!, r[3]! - r[1]!);
  const c = 0.5 * (r[0]! + r[4]! + r[8]! - 1);
  return Math.atan2(s, c);
}

/** The rotation's unit axis (right-hand rule with rotationAngle), null for the identity. */
export function rotationAxis(r: readonly number[]): Vec3 | null {
  const angle = rotationAngle(r);
  if (angle < 1e-12) return null;
  if (Math.PI - angle > 1e-6) {
    const v: Vec3 = [r[7]! - r[5]!, r[2]! - r[6]!, r[3]! - r[1]!];
    const l = Math.hypot(...v);
    return [v[0] / l, v[1] / l, v[2] / l];
  }
  // Near a half turn the skew part vanishes: R + I = 2 a a^T; take its largest column.
  const cols: Vec3[] = [0, 1, 2].map((j) => [r[j]! + (j === 0 ? 1 : 0), r[3 + j]! + (j === 1 ? 1 : 0), r[6 + j]! + (j === 2 ? 1 : 0)] as Vec3);
  const best = cols.reduce((a, b) => (Math.hypot(...b) > Math.hypot(...a) ? b : a));
  const l = Math.hypot(...best);
  return [best[0] / l, best[1] / l, best[2] / l];
}

/** The angle in radians between two rotations (of a^T b). */
export function rotationDistance(a: readonly number[], b: readonly number[]): number {
  const m: number[] = new Array<number>(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j] = a[i]! * b[j]! + a[3 + i]! * b[3 + j]! + a[6 + i]! * b[6 + j]!;
  return rotationAngle(m);
}

/**
 * The nearest rotation to a matrix that is one up to rounding (Gram-Schmidt on the rows, then the
 * third as the cross product of the first two): composing many motions must not drift into a shear.
 */
export function orthonormalized(a: Rigid): Rigid {
  const R = a.r;
  let x: Vec3 = [R[0]!, R[1]!, R[2]!];
  x = scale(x, 1 / Math.hypot(...x));
  let y: Vec3 = [R[3]!, R[4]!, R[5]!];
  const d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  y = [y[0] - d * x[0], y[1] - d * x[1], y[2] - d * x[2]];
  y = scale(y, 1 / Math.hypot(...y));
  const z: Vec3 = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  return { r: [...x, ...y, ...z], t: [...a.t] };
}

function scale(v: Vec3, k: number): Vec3 {
  return [v[0] * k, v[1] * k, v[2] * k];
}

export function isIdentity(a: Rigid): boolean {
  return a.r.every((v, i) => v === IDENTITY.r[i]) && a.t.every((v) => v === 0);
}

const cleanZero = (v: number): number => (v === 0 ? 0 : v);

export function toMatrix4(a: Rigid): Matrix4 {
  const R = a.r, t = a.t;
  return [
    [R[0]!, R[1]!, R[2]!, t[0]!].map(cleanZero),
    [R[3]!, R[4]!, R[5]!, t[1]!].map(cleanZero),
    [R[6]!, R[7]!, R[8]!, t[2]!].map(cleanZero),
    [0, 0, 0, 1],
  ];
}

/** Tolerance on R^T R = I, det R = 1 and the last row for a matrix given as a rigid motion. */
export const RIGID_TOLERANCE = 1e-6;

/**
 * Below this, R^T R = I is taken as met to rounding: the rotation is kept bit for bit. Orthonormalizing
 * is not idempotent in floating point (its result, orthonormalized again, differs in the last bits),
 * so a placement written out (a share link, a restore) and read back would otherwise move.
 */
export const ORTHONORMAL_TO_ROUNDING = 1e-14;

/**
 * A 4x4 row-major matrix as a rigid motion, or why it is not one (a scale, a shear, a mirror, a
 * projective last row). The rotation is made orthonormal, unless it already is to rounding: then it
 * is kept exactly as given.
 */
export function fromMatrix4(m: readonly (readonly number[])[]): Rigid | string {
  if (m.length !== 4 || m.some((row) => row.length !== 4)) return 'must be four rows of four numbers';
  if (m.some((row) => row.some((v) => !Number.isFinite(v)))) return 'must hold finite numbers';
  const last = m[3]!;
  if (Math.abs(last[0]!) > RIGID_TOLERANCE || Math.abs(last[1]!) > RIGID_TOLERANCE || Math.abs(last[2]!) > RIGID_TOLERANCE || Math.abs(last[3]! - 1) > RIGID_TOLERANCE) {
    return 'its last row must be [0, 0, 0, 1]';
  }
  const r = [m[0]![0]!, m[0]![1]!, m[0]![2]!, m[1]![0]!, m[1]![1]!, m[1]![2]!, m[2]![0]!, m[2]![1]!, m[2]![2]!];
  let worst = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d = Math.abs(r[i]! * r[j]! + r[3 + i]! * r[3 + j]! + r[6 + i]! * r[6 + j]! - (i === j ? 1 : 0));
      if (d > RIGID_TOLERANCE) return 'its upper-left 3x3 block must be a rotation (orthonormal columns): scales and shears are not rigid motions';
      worst = Math.max(worst, d);
    }
  }
  const det = r[0]! * (r[4]! * r[8]! - r[5]! * r[7]!) - r[1]! * (r[3]! * r[8]! - r[5]! * r[6]!) + r[2]! * (r[3]! * r[7]! - r[4]! * r[6]!);
  if (det < 0) return 'its rotation has determinant -1: a mirror is not a rigid motion';
  const given: Rigid = { r, t: [m[0]![3]!, m[1]![3]!, m[2]![3]!] };
  return worst <= ORTHONORMAL_TO_ROUNDING ? given : orthonormalized(given);
}
