import { apply, applyToPoints, axisAngle, compose, fromMatrix4, rotationDistance, type Matrix4, type Rigid } from '../engine/math/rigid';
import { seededRandom } from '../engine/mesh/generators';
import type { TriMesh } from '../engine/mesh/TriMesh';

/**
 * A seeded random rigid motion: a rotation of up to `maxDegrees` about a uniformly random axis
 * (the angle uniform in [maxDegrees / 3, maxDegrees], so that cases are not near the identity)
 * and a translation in a random direction of length up to `maxTranslation`.
 */
export function randomMotion(seed: number, maxDegrees: number, maxTranslation: number): Rigid {
  const rand = seededRandom(seed);
  const z = 2 * rand() - 1, phi = 2 * Math.PI * rand(), s = Math.sqrt(1 - z * z);
  const axis = [s * Math.cos(phi), s * Math.sin(phi), z];
  const angle = ((maxDegrees / 3 + (2 * maxDegrees / 3) * rand()) * Math.PI) / 180;
  const z2 = 2 * rand() - 1, phi2 = 2 * Math.PI * rand(), s2 = Math.sqrt(1 - z2 * z2);
  const len = maxTranslation * rand();
  return { r: axisAngle(axis, angle), t: [len * s2 * Math.cos(phi2), len * s2 * Math.sin(phi2), len * z2] };
}

export function movedMesh(mesh: TriMesh, motion: Rigid): TriMesh {
  return { positions: applyToPoints(motion, mesh.positions), indices: mesh.indices };
}

/**
 * The mesh without the triangles whose centroids lie beyond a plane normal to `direction`, the
 * plane placed so that `removed` of the triangle area goes: a scan that missed part of the surface.
 */
export function partialMesh(mesh: TriMesh, direction: readonly number[], removed: number): TriMesh {
  const p = mesh.positions, idx = mesh.indices;
  const T = idx.length / 3;
  const key = new Float64Array(T), area = new Float64Array(T);
  let total = 0;
  for (let t = 0; t < T; t++) {
    const a = 3 * idx[3 * t]!, b = 3 * idx[3 * t + 1]!, c = 3 * idx[3 * t + 2]!;
    let k = 0;
    for (let i = 0; i < 3; i++) k += ((p[a + i]! + p[b + i]! + p[c + i]!) / 3) * direction[i]!;
    key[t] = k;
    const u = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
    const v = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
    area[t] = 0.5 * Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!);
    total += area[t]!;
  }
  const order = Array.from({ length: T }, (_, t) => t).sort((a, b) => key[b]! - key[a]!);
  const drop = new Uint8Array(T);
  let gone = 0;
  for (const t of order) {
    if (gone >= removed * total) break;
    drop[t] = 1;
    gone += area[t]!;
  }
  const kept: number[] = [];
  for (let t = 0; t < T; t++) if (!drop[t]) kept.push(idx[3 * t]!, idx[3 * t + 1]!, idx[3 * t + 2]!);
  return { positions: mesh.positions, indices: Uint32Array.from(kept) };
}

/**
 * The cloud without the `removed` share of its points that lie farthest along `direction` (ties
 * by index): a scan that missed part of the surface. For points spread uniformly by area, that
 * share of the surface goes.
 */
export function partialCloud(points: Float64Array, direction: readonly number[], removed: number): Float64Array {
  const n = points.length / 3;
  const key = (i: number) => points[3 * i]! * direction[0]! + points[3 * i + 1]! * direction[1]! + points[3 * i + 2]! * direction[2]!;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => key(a) - key(b) || a - b);
  const kept = order.slice(0, Math.round((1 - removed) * n)).sort((a, b) => a - b);
  const out = new Float64Array(3 * kept.length);
  kept.forEach((i, k) => out.set(points.subarray(3 * i, 3 * i + 3), 3 * k));
  return out;
}

/**
 * How far an alignment's transform is from the truth (the inverse of `moved`, the motion the scan
 * was moved off the part by): the residual rotation in degrees and how far it moves `centre`.
 */
export function alignmentError(transform: Matrix4, moved: Rigid, centre: readonly number[]): { degrees: number; offset: number } {
  const residual = compose(fromMatrix4(transform) as Rigid, moved);
  const p = apply(residual, centre[0]!, centre[1]!, centre[2]!);
  return { degrees: (rotationDistance(residual.r, [1, 0, 0, 0, 1, 0, 0, 0, 1]) * 180) / Math.PI, offset: Math.hypot(p[0] - centre[0]!, p[1] - centre[1]!, p[2] - centre[2]!) };
}

/** The rotation angle of a motion, in degrees. */
export function motionDegrees(m: Rigid): number {
  return (Math.acos(Math.min(1, Math.max(-1, (m.r[0]! + m.r[4]! + m.r[8]! - 1) / 2))) * 180) / Math.PI;
}
