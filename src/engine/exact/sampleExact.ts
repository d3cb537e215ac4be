import type { SurfaceSamples } from '../mesh/sampleSurface';
import type { FaceTessellation } from '../mesh/TriMesh';
import type { ExactGeometry } from './geometry';
import { evaluateSurface, unitNormal, type KernelSurfaces } from './surfaces';
import { boundaryEdges } from './chordError';
import { insideTrim, nearestOnTrim } from './trim';

// Roberts' R2 sequence (as in sampleSurface.ts).
const PHI2 = 1.324717957244746;
const R2_A = 1 / PHI2;
const R2_B = 1 / (PHI2 * PHI2);

/** Gauss points of degree 2 on a triangle (barycentric), equal weights. */
const GAUSS: readonly (readonly [number, number, number])[] = [
  [2 / 3, 1 / 6, 1 / 6],
  [1 / 6, 2 / 3, 1 / 6],
  [1 / 6, 1 / 6, 2 / 3],
];

/**
 * Samples on a BREP body's exact faces, area-proportional, each with the face's exact outward
 * normal (docs/deviation.md, "Sampling"):
 *
 * 1. The tessellation's triangles partition each face's (u, v) domain; triangle t stands for the
 *    surface patch over its (u, v) triangle, whose area A_t is integrated exactly to second order
 *    (|Su x Sv| at three Gauss points times the (u, v) area). Along a curved face boundary the
 *    strip between the trim and a boundary chord in (u, v) (where BRepMesh's boundary nodes are
 *    joined by (u, v) segments a curved pcurve leaves) is added to (where the trim bulges out) or
 *    taken from (where it curves in) the triangle's area, as a parabolic segment (2/3 x chord x
 *    bulge, the bulge measured on the surface), so that each face receives its share of the samples.
 * 2. maxSamples points are spread in proportion to A_t by systematic sampling: the k-th sample
 *    falls in the triangle whose cumulative area interval holds (k + 1/2) x total / maxSamples, so
 *    there are exactly maxSamples samples (fewer only for a surface of zero area).
 * 3. Inside its triangle a sample's (u, v) is the triangle's centroid when it is the only one there,
 *    otherwise the next point of the R2 low-discrepancy sequence folded into the triangle; a (u, v)
 *    that falls outside the face's trims (a chord cutting across a concave boundary) moves to the
 *    centroid. The sample is S(u, v), never a point on a chord. Deterministic.
 */
export function sampleExactSurface(geometry: ExactGeometry, mesh: FaceTessellation, maxSamples: number, kernel?: KernelSurfaces): SurfaceSamples {
  if (!(maxSamples >= 1) || !Number.isInteger(maxSamples)) throw new Error('sampleExactSurface: maxSamples must be a positive integer.');
  const idx = mesh.indices, uvs = mesh.uvs;
  const T = idx.length / 3;
  const sev = new Float64Array(18);
  const near = new Float64Array(2);
  const boundary = boundaryEdges(mesh);
  const areas = new Float64Array(T);
  let area = 0;
  for (let t = 0; t < T; t++) {
    const face = geometry.faces[mesh.faceIds[t]!]!;
    const a = idx[3 * t]!, b = idx[3 * t + 1]!, c = idx[3 * t + 2]!;
    const ua = uvs[2 * a]!, va = uvs[2 * a + 1]!, ub = uvs[2 * b]!, vb = uvs[2 * b + 1]!, uc = uvs[2 * c]!, vc = uvs[2 * c + 1]!;
    const uvArea = 0.5 * Math.abs((ub - ua) * (vc - va) - (uc - ua) * (vb - va));
    let jacobian = 0;
    for (const [wa, wb, wc] of GAUSS) {
      evaluateSurface(face.surface, wa * ua + wb * ub + wc * uc, wa * va + wb * vb + wc * vc, sev, kernel);
      jacobian += Math.hypot(sev[4]! * sev[8]! - sev[5]! * sev[7]!, sev[5]! * sev[6]! - sev[3]! * sev[8]!, sev[3]! * sev[7]! - sev[4]! * sev[6]!) / 3;
    }
    let at = jacobian * uvArea;
    if (face.trim) {
      const corners = [a, b, c];
      for (let k = 0; k < 3; k++) {
        if (!boundary[3 * t + k]) continue;
        const i = corners[k]!, j = corners[(k + 1) % 3]!, o = corners[(k + 2) % 3]!;
        const um = 0.5 * (uvs[2 * i]! + uvs[2 * j]!), vm = 0.5 * (uvs[2 * i + 1]! + uvs[2 * j + 1]!);
        nearestOnTrim(face.trim, um, vm, near);
        // The strip lies between the (u, v) chord and the trim: its width is measured on the surface.
        evaluateSurface(face.surface, near[0]!, near[1]!, sev, kernel);
        const bx = sev[0]!, by = sev[1]!, bz = sev[2]!;
        evaluateSurface(face.surface, um, vm, sev, kernel);
        const bulge = Math.hypot(bx - sev[0]!, by - sev[1]!, bz - sev[2]!);
        const pos = mesh.positions;
        const chord = Math.hypot(pos[3 * j]! - pos[3 * i]!, pos[3 * j + 1]! - pos[3 * i + 1]!, pos[3 * j + 2]! - pos[3 * i + 2]!);
        // Outward when the true boundary lies on the other side of the chord from the opposite corner.
        const eu = uvs[2 * j]! - uvs[2 * i]!, ev = uvs[2 * j + 1]! - uvs[2 * i + 1]!;
        const sideCorner = eu * (uvs[2 * o + 1]! - uvs[2 * i + 1]!) - ev * (uvs[2 * o]! - uvs[2 * i]!);
        const sideTrue = eu * (near[1]! - uvs[2 * i + 1]!) - ev * (near[0]! - uvs[2 * i]!);
        at += (sideCorner * sideTrue < 0 ? 1 : -1) * (2 / 3) * chord * bulge;
      }
    }
    areas[t] = Number.isFinite(at) && at > 0 ? at : 0;
    area += areas[t]!;
  }
  const count = area > 0 ? maxSamples : 0;
  const points = new Float64Array(3 * count);
  const normals = new Float64Array(3 * count);
  const nrm = new Float64Array(3);
  // Sample k sits at (k + 1/2) step along the cumulative area; triangle t gets those in its interval.
  const step = area / Math.max(count, 1);
  const perTriangle = new Uint32Array(T);
  let cumulative = 0, assigned = 0, lastWithArea = -1;
  for (let t = 0; t < T; t++) {
    if (!(areas[t]! > 0)) continue;
    const k = Math.max(0, Math.ceil((cumulative + areas[t]!) / step - 0.5) - Math.ceil(cumulative / step - 0.5));
    cumulative += areas[t]!;
    perTriangle[t] = k;
    assigned += k;
    lastWithArea = t;
  }
  // Rounding in the running sum can leave the total one off; the last triangle absorbs it.
  if (lastWithArea >= 0) perTriangle[lastWithArea] = Math.max(0, perTriangle[lastWithArea]! + count - assigned);
  let s = 0;
  for (let t = 0; t < T; t++) {
    const k = perTriangle[t]!;
    if (k === 0) continue;
    const face = geometry.faces[mesh.faceIds[t]!]!;
    const a = idx[3 * t]!, b = idx[3 * t + 1]!, c = idx[3 * t + 2]!;
    const ua = uvs[2 * a]!, va = uvs[2 * a + 1]!, ub = uvs[2 * b]!, vb = uvs[2 * b + 1]!, uc = uvs[2 * c]!, vc = uvs[2 * c + 1]!;
    const cu = (ua + ub + uc) / 3, cv = (va + vb + vc) / 3;
    for (let j = 0; j < k; j++) {
      let u = cu, v = cv;
      if (k > 1) {
        let x = (0.5 + (j + 1) * R2_A) % 1;
        let y = (0.5 + (j + 1) * R2_B) % 1;
        if (x + y > 1) {
          x = 1 - x;
          y = 1 - y;
        }
        u = ua + x * (ub - ua) + y * (uc - ua);
        v = va + x * (vb - va) + y * (vc - va);
        if (face.trim && !insideTrim(face.trim, u, v)) {
          u = cu;
          v = cv;
        }
      }
      evaluateSurface(face.surface, u, v, sev, kernel);
      points[3 * s] = sev[0]!;
      points[3 * s + 1] = sev[1]!;
      points[3 * s + 2] = sev[2]!;
      unitNormal(face.surface, sev, u, v, cu, cv, nrm, kernel);
      const sign = face.reversed ? -1 : 1;
      normals[3 * s] = sign * nrm[0]!;
      normals[3 * s + 1] = sign * nrm[1]!;
      normals[3 * s + 2] = sign * nrm[2]!;
      s++;
    }
  }
  if (s !== count) throw new Error(`sampleExactSurface: internal count mismatch (${s} of ${count}).`);
  return { count, points, normals, candidates: count, stride: 1, vertexCandidates: 0, area };
}
