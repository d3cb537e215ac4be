/**
 * The size of a curved feature on a mesh scan, read from its triangles' corners rather than from
 * area samples on the triangles' interiors. A triangle's interior is a chord of a curved surface:
 * a least-squares diameter of area samples on a hole reads small by about two thirds of the chord
 * sag (NIST FTC 7 and 9, perfect tessellations at 0.005 mm: 6.35 mm holes read 6.3486 to 6.3495,
 * and sizes whose nominal is the lower limit failed). The corners are the points the mesh was
 * made through: a tessellation's lie on the surface, a scanner's are its measured points (GOM and
 * PolyWorks fit elements to them). Each area sample stands for its triangle's three corners, so
 * a triangle counts by its area as before (a vertex quadrature of the same integral), and a
 * feature whose triangles span it rim to rim (a CAD tessellation's cylinder has vertices on its
 * rims only, which the face split's border margin keeps area samples away from) is read from them.
 *
 * A coarse scan's triangle can reach past the feature's rim onto the next face: corners farther
 * than CORNER_SPREAD RMS from the area samples' own fit are left out, and again from the corners'
 * own fit (cornerFit). Without corners (a cloud, a BREP scan) or with too few kept, null: the
 * caller reads the area samples.
 */
import type { PointSet } from './bodySamples';

/** Residuals beyond this many RMS of the area samples' fit: a corner off the feature. */
const CORNER_SPREAD = 4;
/** A feature is read from its corners only while at least this share of them is kept. */
const KEPT_SHARE = 0.5;

/**
 * A fit of a set's corners instead of its area samples: `area` is the samples' own fit, `fit` fits
 * a point set, `residual` gives a fit's signed distance function and `size` its scale (a radius).
 * Corners far from the area fit are left out first (a triangle reaching over a rim); the corners'
 * fit is then made again without those far from it (its own RMS, not the chords'), since the area
 * fit's bound, wide enough for the chord sag, can let a few in. Null when the set has no corners or
 * too few stay.
 */
export function cornerFit<F>(set: PointSet, area: F, fit: (points: PointSet) => F | null, residual: (f: F) => (x: number, y: number, z: number) => number, size: number): { fit: F; corners: number; points: Float64Array } | null {
  const first = cornerPoints(set, set.points, set.count, residual(area), size);
  const once = first && fit(first);
  if (!first || !once) return null;
  const second = cornerPoints(set, first.points, first.count, residual(once), size);
  const twice = second && fit(second);
  return twice ? { fit: twice, corners: second.count, points: second.points } : { fit: once, corners: first.count, points: first.points };
}

/**
 * The corners of a set's samples (each with its sample's normal) within CORNER_SPREAD RMS of the
 * residuals of `reference` points (the area samples, or the corners of a first fit), at least a
 * millionth of `size` (a noise-free scan's corners all lie on the surface).
 */
function cornerPoints(set: PointSet, reference: Float64Array, count: number, residual: (x: number, y: number, z: number) => number, size: number): PointSet | null {
  const corners = set.corners;
  if (!corners || set.count === 0 || count === 0) return null;
  let sum = 0;
  for (let i = 0; i < count; i++) sum += residual(reference[3 * i]!, reference[3 * i + 1]!, reference[3 * i + 2]!) ** 2;
  const bound = Math.max(CORNER_SPREAD * Math.sqrt(sum / count), 1e-6 * size);
  const points: number[] = [], normals: number[] = [];
  for (let i = 0; i < set.count; i++) {
    for (let c = 0; c < 3; c++) {
      const o = 9 * i + 3 * c;
      const x = corners[o]!, y = corners[o + 1]!, z = corners[o + 2]!;
      if (!(Math.abs(residual(x, y, z)) <= bound)) continue;
      points.push(x, y, z);
      if (set.normals) normals.push(set.normals[3 * i]!, set.normals[3 * i + 1]!, set.normals[3 * i + 2]!);
    }
  }
  const kept = points.length / 3;
  if (kept < KEPT_SHARE * 3 * set.count) return null;
  return { points: Float64Array.from(points), normals: set.normals ? Float64Array.from(normals) : undefined, count: kept };
}

const dot3 = (a: readonly number[], x: number, y: number, z: number) => a[0]! * x + a[1]! * y + a[2]! * z;

/** The signed distance from a cylinder (outward: away from the axis). */
export function cylinderResidual(f: { origin: readonly number[]; axis: readonly number[]; radius: number }): (x: number, y: number, z: number) => number {
  const [ox, oy, oz] = f.origin as [number, number, number];
  return (x, y, z) => {
    const dx = x - ox, dy = y - oy, dz = z - oz, h = dot3(f.axis, dx, dy, dz);
    return Math.sqrt(Math.max(0, dx * dx + dy * dy + dz * dz - h * h)) - f.radius;
  };
}

/** The signed distance from a cone given by its apex, its axis toward its widening and its half-angle. */
export function coneResidual(f: { apex: readonly number[]; axis: readonly number[]; halfAngle: number }): (x: number, y: number, z: number) => number {
  const [ax, ay, az] = f.apex as [number, number, number];
  const c = Math.cos(f.halfAngle), s = Math.sin(f.halfAngle);
  return (x, y, z) => {
    const dx = x - ax, dy = y - ay, dz = z - az, h = dot3(f.axis, dx, dy, dz);
    return Math.sqrt(Math.max(0, dx * dx + dy * dy + dz * dz - h * h)) * c - h * s;
  };
}

/** The signed distance from a torus (centre, axis, major and minor radius): from the tube's surface. */
export function torusResidual(f: { center: readonly number[]; axis: readonly number[]; major: number; minor: number }): (x: number, y: number, z: number) => number {
  const [cx, cy, cz] = f.center as [number, number, number];
  return (x, y, z) => {
    const dx = x - cx, dy = y - cy, dz = z - cz, h = dot3(f.axis, dx, dy, dz);
    return Math.hypot(Math.sqrt(Math.max(0, dx * dx + dy * dy + dz * dz - h * h)) - f.major, h) - f.minor;
  };
}

/** The signed distance from a sphere. */
export function sphereResidual(f: { center: readonly number[]; radius: number }): (x: number, y: number, z: number) => number {
  return (x, y, z) => Math.hypot(x - f.center[0]!, y - f.center[1]!, z - f.center[2]!) - f.radius;
}
