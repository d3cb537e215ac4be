import type { FaceTessellation } from '../mesh/TriMesh';
import { evaluateCurve } from './curves';
import type { ExactGeometry } from './geometry';
import { evaluateSurface, type KernelSurfaces } from './surfaces';
import { insideTrim } from './trim';

/**
 * Lowest and highest p . axis over a BREP body's exact faces (axis of unit length). The extreme
 * lies on an edge (a vertex included) or where a face's normal is parallel to the axis; both are
 * found by Newton's method from the tessellation's extreme node (every node lies on the surface, so
 * the tessellation gives a bound the refinement only widens): per edge on C(t) . axis, per face on
 * S(u, v) . axis, keeping a face's stationary point only inside its trims.
 */
export function exactExtent(geometry: ExactGeometry, mesh: FaceTessellation, axis: readonly [number, number, number], kernel?: KernelSurfaces): [number, number] {
  const [ax, ay, az] = axis;
  const pos = mesh.positions;
  let lo = Infinity, hi = -Infinity;
  // Per face, the node with the lowest and the highest projection.
  const F = geometry.faces.length;
  const minNode = new Int32Array(F).fill(-1), maxNode = new Int32Array(F).fill(-1);
  const minVal = new Float64Array(F).fill(Infinity), maxVal = new Float64Array(F).fill(-Infinity);
  const idx = mesh.indices;
  for (let i = 0; i < idx.length; i++) {
    const v = idx[i]!;
    const f = mesh.faceIds[(i / 3) | 0]!;
    const t = pos[3 * v]! * ax + pos[3 * v + 1]! * ay + pos[3 * v + 2]! * az;
    if (t < minVal[f]!) {
      minVal[f] = t;
      minNode[f] = v;
    }
    if (t > maxVal[f]!) {
      maxVal[f] = t;
      maxNode[f] = v;
    }
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  const sev = new Float64Array(18);
  for (let f = 0; f < F; f++) {
    const face = geometry.faces[f]!;
    for (const [node, sign] of [
      [maxNode[f]!, 1],
      [minNode[f]!, -1],
    ] as const) {
      if (node < 0) continue;
      let u = mesh.uvs[2 * node]!, v = mesh.uvs[2 * node + 1]!;
      let converged = false;
      for (let iter = 0; iter < 30; iter++) {
        evaluateSurface(face.surface, u, v, sev, kernel);
        const gu = sign * (sev[3]! * ax + sev[4]! * ay + sev[5]! * az), gv = sign * (sev[6]! * ax + sev[7]! * ay + sev[8]! * az);
        const huu = sign * (sev[9]! * ax + sev[10]! * ay + sev[11]! * az), huv = sign * (sev[12]! * ax + sev[13]! * ay + sev[14]! * az), hvv = sign * (sev[15]! * ax + sev[16]! * ay + sev[17]! * az);
        // A maximum needs a negative definite Hessian; elsewhere the extreme is on the boundary.
        const det = huu * hvv - huv * huv;
        if (!(huu < 0 && det > 0)) break;
        const du = (-gu * hvv + gv * huv) / det, dv = (-gv * huu + gu * huv) / det;
        u += du;
        v += dv;
        const moved = Math.hypot(du * Math.hypot(sev[3]!, sev[4]!, sev[5]!), dv * Math.hypot(sev[6]!, sev[7]!, sev[8]!));
        if (moved < 1e-12 * (1 + geometry.diagonal)) {
          converged = true;
          break;
        }
      }
      if (!converged || u < face.box.u0 || u > face.box.u1 || v < face.box.v0 || v > face.box.v1) continue;
      if (face.trim && !insideTrim(face.trim, u, v)) continue;
      evaluateSurface(face.surface, u, v, sev, kernel);
      const t = sev[0]! * ax + sev[1]! * ay + sev[2]! * az;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
  }
  const cev = new Float64Array(9);
  for (const edge of geometry.edges) {
    const P = edge.points, T = edge.params;
    if (T.length === 0) continue;
    for (const sign of [1, -1] as const) {
      let best = 0, bestVal = -Infinity;
      for (let i = 0; i < T.length; i++) {
        const val = sign * (P[3 * i]! * ax + P[3 * i + 1]! * ay + P[3 * i + 2]! * az);
        if (val > bestVal) {
          bestVal = val;
          best = i;
        }
      }
      let t = T[best]!;
      for (let iter = 0; iter < 30; iter++) {
        evaluateCurve(edge.curve, t, cev);
        const g = sign * (cev[3]! * ax + cev[4]! * ay + cev[5]! * az), h = sign * (cev[6]! * ax + cev[7]! * ay + cev[8]! * az);
        if (!(h < 0)) break;
        const tn = Math.min(edge.t1, Math.max(edge.t0, t - g / h));
        if (Math.abs(tn - t) * Math.hypot(cev[3]!, cev[4]!, cev[5]!) < 1e-12 * (1 + geometry.diagonal)) {
          t = tn;
          break;
        }
        t = tn;
      }
      for (const tt of [t, edge.t0, edge.t1]) {
        evaluateCurve(edge.curve, tt, cev);
        const val = cev[0]! * ax + cev[1]! * ay + cev[2]! * az;
        if (val < lo) lo = val;
        if (val > hi) hi = val;
      }
    }
  }
  return [lo, hi];
}
