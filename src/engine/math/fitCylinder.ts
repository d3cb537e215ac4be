import { solveLinear } from './solveLinear';
import { symmetricEigen3 } from './symmetricEigen';
import { cross, dot, normalize, type Vec3 } from './vec3';

export interface CylinderFit {
  /** A point of the axis: the one nearest the points' centroid. */
  origin: Vec3;
  /** Unit axis direction (its sign is arbitrary). */
  axis: Vec3;
  radius: number;
  /** Largest |distance to the axis - radius| over the points. */
  maxDeviation: number;
  rms: number;
}

/** Normals spanning less than this share of a plane (middle eigenvalue over the sum) mean a flat face, not a cylinder. */
const FLAT = 1e-8;
const MAX_ITERATIONS = 30;

/**
 * Least-squares cylinder through points with their surface normals (geometric distance, Gauss-Newton
 * over axis direction, axis position and radius). Start: the axis is the direction the normals are
 * all perpendicular to (least eigenvector of sum n n^T), the section a Kasa circle fit. Returns null
 * for fewer than 6 points, parallel normals (a plane) or a degenerate section.
 */
export function fitCylinder(points: readonly Vec3[], normals: readonly Vec3[]): CylinderFit | null {
  if (points.length < 6 || normals.length !== points.length) return null;
  const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (const n of normals) for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) m[r * 3 + c]! += n[r]! * n[c]!;
  const { values, vectors } = symmetricEigen3(m);
  const total = values[0] + values[1] + values[2];
  if (!(total > 0) || values[1] / total < FLAT) return null;
  let axis = normalize(vectors[0]);
  const centroid = mean(points);
  const section = circleFit(points.map((p) => planar(p, centroid, axis)));
  if (!section) return null;
  let [e1, e2] = frame(axis);
  let origin = add(centroid, add(scale(e1, section.cx), scale(e2, section.cy)));
  let radius = section.r;

  for (let it = 0; it < MAX_ITERATIONS; it++) {
    // Unknowns: axis tilt along e1, e2; axis shift along e1, e2; radius.
    const jtj = Array.from({ length: 5 }, () => [0, 0, 0, 0, 0]);
    const jtr = [0, 0, 0, 0, 0];
    for (const p of points) {
      const d = sub(p, origin);
      const along = dot(d, axis);
      const w = sub(d, scale(axis, along));
      const rho = Math.hypot(...w);
      if (!(rho > 0)) continue;
      const u = scale(w, 1 / rho);
      const j = [-along * dot(u, e1), -along * dot(u, e2), -dot(u, e1), -dot(u, e2), -1];
      const res = rho - radius;
      for (let a = 0; a < 5; a++) {
        jtr[a]! += j[a]! * res;
        for (let b = 0; b < 5; b++) jtj[a]![b]! += j[a]! * j[b]!;
      }
    }
    const step = solveLinear(jtj, jtr.map((v) => -v));
    if (!step) break;
    axis = normalize(add(axis, add(scale(e1, step[0]!), scale(e2, step[1]!))));
    origin = add(origin, add(scale(e1, step[2]!), scale(e2, step[3]!)));
    radius += step[4]!;
    [e1, e2] = frame(axis);
    origin = sub(origin, scale(axis, dot(sub(origin, centroid), axis)));
    if (Math.hypot(...step) <= 1e-14 * Math.max(1, radius)) break;
  }
  if (!(radius > 0) || !Number.isFinite(radius)) return null;
  let maxDeviation = 0, sum = 0;
  for (const p of points) {
    const e = Math.abs(distanceToAxis(p, origin, axis) - radius);
    maxDeviation = Math.max(maxDeviation, e);
    sum += e * e;
  }
  return { origin, axis, radius, maxDeviation, rms: Math.sqrt(sum / points.length) };
}

export function distanceToAxis(p: Vec3, origin: Vec3, axis: Vec3): number {
  const d = sub(p, origin);
  return Math.hypot(...sub(d, scale(axis, dot(d, axis))));
}

/** Algebraic (Kasa) circle through 2D points, centred coordinates for conditioning. */
function circleFit(pts: [number, number][]): { cx: number; cy: number; r: number } | null {
  const n = pts.length;
  const mx = pts.reduce((s, p) => s + p[0], 0) / n, my = pts.reduce((s, p) => s + p[1], 0) / n;
  // x^2 + y^2 + D x + E y + F = 0 in centred coordinates.
  const a = Array.from({ length: 3 }, () => [0, 0, 0]);
  const b = [0, 0, 0];
  for (const [px, py] of pts) {
    const x = px - mx, y = py - my, z = -(x * x + y * y);
    const row = [x, y, 1];
    for (let i = 0; i < 3; i++) {
      b[i]! += row[i]! * z;
      for (let k = 0; k < 3; k++) a[i]![k]! += row[i]! * row[k]!;
    }
  }
  const s = solveLinear(a, b);
  if (!s) return null;
  const cx = -s[0]! / 2, cy = -s[1]! / 2;
  const r2 = cx * cx + cy * cy - s[2]!;
  if (!(r2 > 0)) return null;
  return { cx: cx + mx, cy: cy + my, r: Math.sqrt(r2) };
}


/** Two unit vectors completing the axis to a right-handed frame. */
function frame(axis: Vec3): [Vec3, Vec3] {
  const helper: Vec3 = Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = normalize(cross(axis, helper));
  return [e1, cross(axis, e1)];
}

function planar(p: Vec3, centroid: Vec3, axis: Vec3): [number, number] {
  const [e1, e2] = frame(axis);
  const d = sub(p, centroid);
  return [dot(d, e1), dot(d, e2)];
}

function mean(points: readonly Vec3[]): Vec3 {
  const s: Vec3 = [0, 0, 0];
  for (const p of points) for (let k = 0; k < 3; k++) s[k] = s[k]! + p[k]!;
  return [s[0] / points.length, s[1] / points.length, s[2] / points.length];
}

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
