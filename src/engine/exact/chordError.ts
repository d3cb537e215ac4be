import type { FaceTessellation } from '../mesh/TriMesh';
import type { ExactGeometry } from './geometry';
import { evaluateSurface, type KernelSurfaces } from './surfaces';
import { nearestOnTrim } from './trim';

/**
 * Margin on the sampled chord error. Between its corners (which lie on the surface) the gap
 * between a triangle and its surface patch is, to second order, a quadratic form of the
 * barycentric coordinates that vanishes at the corners; its largest value over the triangle is at
 * most 4/3 of its largest value at the edge midpoints, which are among the samples. 1.5 leaves
 * room for the higher-order terms.
 */
export const CHORD_ERROR_MARGIN = 1.5;

/** Barycentric samples: edge midpoints, centroid, and the three points halfway to the centroid. */
const SAMPLES: readonly (readonly [number, number, number])[] = [
  [0.5, 0.5, 0],
  [0, 0.5, 0.5],
  [0.5, 0, 0.5],
  [1 / 3, 1 / 3, 1 / 3],
  [2 / 3, 1 / 6, 1 / 6],
  [1 / 6, 2 / 3, 1 / 6],
  [1 / 6, 1 / 6, 2 / 3],
];

/**
 * For each triangle of a BREP tessellation, a bound on how far the exact surface it stands for can
 * be from it, measured rather than assumed (BRepMesh can exceed the requested deflection several
 * times over): the largest distance between the surface point S(uv) and the triangle point with
 * the same barycentric coordinates over SAMPLES, times CHORD_ERROR_MARGIN, plus how far the
 * corners themselves are from the surface (edge nodes lie on the 3D edge curve, which may stray from
 * the surface by the edge's tolerance). Along a face boundary the exact boundary curve can bulge
 * beyond the boundary chord; that sliver is measured too, at the point of the trim nearest to the
 * chord's midpoint in (u, v).
 *
 * This is an upper bound on the distance from any point of the triangle's surface patch to the
 * triangle, so distance-to-triangle minus it is a lower bound on the distance to that patch.
 */
export function measureChordErrors(geometry: ExactGeometry, mesh: FaceTessellation, kernel?: KernelSurfaces): Float64Array {
  const T = mesh.indices.length / 3;
  const out = new Float64Array(T);
  const idx = mesh.indices, pos = mesh.positions, uvs = mesh.uvs;
  const sev = new Float64Array(18);
  const near = new Float64Array(2);
  const boundary = boundaryEdges(mesh);
  for (let t = 0; t < T; t++) {
    const face = geometry.faces[mesh.faceIds[t]!]!;
    const a = idx[3 * t]!, b = idx[3 * t + 1]!, c = idx[3 * t + 2]!;
    const corners = [a, b, c];
    let nodeGap = 0;
    for (const k of corners) {
      evaluateSurface(face.surface, uvs[2 * k]!, uvs[2 * k + 1]!, sev, kernel);
      nodeGap = Math.max(nodeGap, Math.hypot(sev[0]! - pos[3 * k]!, sev[1]! - pos[3 * k + 1]!, sev[2]! - pos[3 * k + 2]!));
    }
    let sag = 0;
    for (const [wa, wb, wc] of SAMPLES) sag = Math.max(sag, gap(face.surface, wa, wb, wc, a, b, c));
    // Boundary chords: the exact boundary between two nodes, against the chord's midpoint.
    for (let k = 0; k < 3; k++) {
      if (!boundary[3 * t + k] || !face.trim) continue;
      const i = corners[k]!, j = corners[(k + 1) % 3]!;
      const um = 0.5 * (uvs[2 * i]! + uvs[2 * j]!), vm = 0.5 * (uvs[2 * i + 1]! + uvs[2 * j + 1]!);
      nearestOnTrim(face.trim, um, vm, near);
      evaluateSurface(face.surface, near[0]!, near[1]!, sev, kernel);
      const mx = 0.5 * (pos[3 * i]! + pos[3 * j]!), my = 0.5 * (pos[3 * i + 1]! + pos[3 * j + 1]!), mz = 0.5 * (pos[3 * i + 2]! + pos[3 * j + 2]!);
      sag = Math.max(sag, Math.hypot(sev[0]! - mx, sev[1]! - my, sev[2]! - mz));
    }
    out[t] = CHORD_ERROR_MARGIN * sag + nodeGap + geometry.tolerance;
  }
  return out;

  function gap(surface: ExactGeometry['faces'][number]['surface'], wa: number, wb: number, wc: number, a: number, b: number, c: number): number {
    const u = wa * uvs[2 * a]! + wb * uvs[2 * b]! + wc * uvs[2 * c]!;
    const v = wa * uvs[2 * a + 1]! + wb * uvs[2 * b + 1]! + wc * uvs[2 * c + 1]!;
    evaluateSurface(surface, u, v, sev, kernel);
    const x = wa * pos[3 * a]! + wb * pos[3 * b]! + wc * pos[3 * c]!;
    const y = wa * pos[3 * a + 1]! + wb * pos[3 * b + 1]! + wc * pos[3 * c + 1]!;
    const z = wa * pos[3 * a + 2]! + wb * pos[3 * b + 2]! + wc * pos[3 * c + 2]!;
    return Math.hypot(sev[0]! - x, sev[1]! - y, sev[2]! - z);
  }
}

/**
 * Per triangle corner k, whether edge (k, k + 1) is used by no other triangle: a face boundary
 * (BRepMesh does not share nodes between faces, so node pairs identify edges within a face).
 */
export function boundaryEdges(mesh: FaceTessellation): Uint8Array {
  const idx = mesh.indices;
  const n = idx.length;
  const out = new Uint8Array(n);
  const uses = new Map<number, number>();
  const V = mesh.positions.length / 3;
  const key = (i: number, j: number) => (i < j ? i * V + j : j * V + i);
  for (let e = 0; e < n; e++) {
    const t = e - (e % 3);
    const k = key(idx[e]!, idx[t + ((e % 3) + 1) % 3]!);
    uses.set(k, (uses.get(k) ?? 0) + 1);
  }
  for (let e = 0; e < n; e++) {
    const t = e - (e % 3);
    if (uses.get(key(idx[e]!, idx[t + ((e % 3) + 1) % 3]!)) === 1) out[e] = 1;
  }
  return out;
}
