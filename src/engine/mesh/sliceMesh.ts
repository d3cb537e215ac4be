import type { Vec3 } from '../math/vec3';
import type { TriMesh } from './TriMesh';

/**
 * An orthonormal frame for section planes perpendicular to `axis`: in-plane coordinates are
 * (p . u, p . v) and the station level is p . axis; u x v = axis, so a profile seen from +axis is
 * drawn the right way round.
 */
export interface PlaneFrame {
  axis: Vec3;
  u: Vec3;
  v: Vec3;
}

/**
 * The frame for a unit axis: u is the world axis least aligned with `axis`, made perpendicular to
 * it (axis z gives u = x, v = y; axis x gives u = y, v = z).
 */
export function planeFrame(axis: Vec3): PlaneFrame {
  const abs = axis.map(Math.abs);
  let k = 0;
  if (abs[1]! < abs[k]!) k = 1;
  if (abs[2]! < abs[k]!) k = 2;
  const seed: Vec3 = [0, 0, 0];
  seed[k] = 1;
  const d = axis[k]!;
  const raw: Vec3 = [seed[0] - d * axis[0], seed[1] - d * axis[1], seed[2] - d * axis[2]];
  const l = Math.hypot(...raw);
  const u: Vec3 = [raw[0] / l, raw[1] / l, raw[2] / l];
  const v: Vec3 = [axis[1] * u[2] - axis[2] * u[1], axis[2] * u[0] - axis[0] * u[2], axis[0] * u[1] - axis[1] * u[0]];
  return { axis, u, v };
}

/** Lowest and highest p . axis over the vertices that triangles use ([Infinity, -Infinity] when empty). */
export function meshExtent(mesh: TriMesh, axis: Vec3): [number, number] {
  const p = mesh.positions;
  const idx = mesh.indices;
  const used = new Uint8Array(p.length / 3);
  for (let t = 0; t < idx.length; t++) used[idx[t]!] = 1;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0, o = 0; i < used.length; i++, o += 3) {
    if (!used[i]) continue;
    const h = p[o]! * axis[0] + p[o + 1]! * axis[1] + p[o + 2]! * axis[2];
    if (h < lo) lo = h;
    if (h > hi) hi = h;
  }
  return [lo, hi];
}

/**
 * Where the mesh crosses each plane p . axis = levels[k] (levels ascending): per level, a flat list
 * of in-plane segments x1, y1, x2, y2.
 *
 * A vertex counts as below a plane when its level is strictly lower, otherwise as above (a
 * symbolic perturbation: the plane sits an infinitesimal below its level). So a vertex exactly on
 * the plane is never crossed twice, a triangle lying in the plane gives nothing and its
 * neighbours give its rim, and the crossing on an edge is computed from the edge's below-vertex to
 * its above-vertex: both triangles that share an edge produce bit-identical points, which chaining
 * then joins exactly.
 */
export function sliceMesh(mesh: TriMesh, frame: PlaneFrame, levels: readonly number[]): Float64Array[] {
  const { axis, u, v } = frame;
  const p = mesh.positions;
  const idx = mesh.indices;
  const n = p.length / 3;
  const h = new Float64Array(n);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const px = p[o]!, py = p[o + 1]!, pz = p[o + 2]!;
    h[i] = px * axis[0] + py * axis[1] + pz * axis[2];
    x[i] = px * u[0] + py * u[1] + pz * u[2];
    y[i] = px * v[0] + py * v[1] + pz * v[2];
  }
  const out: number[][] = levels.map(() => []);
  const L = levels.length;
  if (L === 0) return [];
  const first = levels[0]!, last = levels[L - 1]!;
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]!, b = idx[t + 1]!, c = idx[t + 2]!;
    const ha = h[a]!, hb = h[b]!, hc = h[c]!;
    const hmin = Math.min(ha, hb, hc), hmax = Math.max(ha, hb, hc);
    // Crossed by level c iff hmin < c <= hmax.
    if (hmax < first || hmin >= last) continue;
    let k = lowerBoundAbove(levels, hmin);
    for (; k < L; k++) {
      const level = levels[k]!;
      if (level > hmax) break;
      const seg = out[k]!;
      const ba = ha < level, bb = hb < level, bc = hc < level;
      // The lone vertex on its side and the other two, so both crossings share that vertex.
      if (ba === bb) {
        crossing(seg, c, a, bc, h, x, y, level);
        crossing(seg, c, b, bc, h, x, y, level);
      } else if (ba === bc) {
        crossing(seg, b, c, bb, h, x, y, level);
        crossing(seg, b, a, bb, h, x, y, level);
      } else {
        crossing(seg, a, b, ba, h, x, y, level);
        crossing(seg, a, c, ba, h, x, y, level);
      }
    }
  }
  return out.map((s) => Float64Array.from(s));
}

/** First index whose level is strictly above `value`. */
function lowerBoundAbove(levels: readonly number[], value: number): number {
  let lo = 0, hi = levels.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (levels[mid]! > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Appends the crossing on edge (lone, other): always interpolated from the below end. */
function crossing(out: number[], lone: number, other: number, loneBelow: boolean, h: Float64Array, x: Float64Array, y: Float64Array, level: number): void {
  const below = loneBelow ? lone : other;
  const above = loneBelow ? other : lone;
  const hb = h[below]!, ha = h[above]!;
  if (ha === level) {
    out.push(x[above]!, y[above]!);
    return;
  }
  const s = (level - hb) / (ha - hb);
  const xb = x[below]!, yb = y[below]!;
  out.push(xb + s * (x[above]! - xb), yb + s * (y[above]! - yb));
}
