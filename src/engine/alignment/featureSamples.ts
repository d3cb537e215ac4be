import { hypot3 } from '../math/hypot3';
import { buildPseudoNormals, type PseudoNormals } from '../mesh/pseudoNormals';
import { r2Barycentric, triangleAreas, type SurfaceSamples } from '../mesh/sampleSurface';
import type { TriMesh } from '../mesh/TriMesh';

/**
 * The points ICP pairs on a moving mesh: its welded vertices first, then points inside the triangles
 * too large for their corners. Deviation statistics sample by area (mesh/sampleSurface.ts, issue 33);
 * alignment does not want that: a scan's tessellation is densest at its features (bolt holes, a
 * keyway, fillets), and those are what pin a nearly symmetric part's spin. Area-uniform samples put
 * few points on a flange's holes, and the fine fit of a six-hole bolt circle then stalled 3.3 degrees
 * off in 2 of 20 seeded motions (alignFlange.test.ts). The rule (the deviation tools' before issue 33):
 *
 * 1. Candidates are every welded vertex used by a triangle of nonzero area (in order of first use),
 *    with its angle-weighted normal, then points inside the triangles, with the triangle's normal.
 * 2. Each triangle gets floor(A_t / a0) inside points, a0 = total area / B, with B the budget left
 *    after the vertices (maxSamples - V when there are V < maxSamples welded vertices, otherwise
 *    maxSamples), so that a coarse mesh fills maxSamples without a stride. A triangle smaller than
 *    a0 is covered by its corners (a welded mesh has about half a vertex per triangle); a large one
 *    (a coarse planar face of a BREP tessellation) gets points in proportion to its area, so the
 *    surface is covered and not only the corners of big triangles. A dense scan gets no inside
 *    points at all: its vertices already cover it.
 * 3. Inside points of one triangle: its centroid when there is one, otherwise the first k points
 *    of the R2 low-discrepancy sequence (Roberts 2018) folded into the triangle. Deterministic.
 * 4. maxSamples is honoured by stride: with n candidates, stride = max(1, ceil(n / maxSamples)),
 *    and candidates 0, stride, 2 stride ... are kept (the origin's rule, applied to this set).
 */
export function featureDenseSamples(mesh: TriMesh, maxSamples: number, pseudoNormals?: PseudoNormals): SurfaceSamples {
  if (!(maxSamples >= 1) || !Number.isInteger(maxSamples)) throw new Error('featureDenseSamples: maxSamples must be a positive integer.');
  const pn = pseudoNormals ?? buildPseudoNormals(mesh);
  const idx = mesh.indices;
  const pos = mesh.positions;
  const T = idx.length / 3;
  const tv = pn.triangleVertices;
  const W = pn.vertexCount;
  const n3 = new Float64Array(3);

  // Each pass is a function of its own: the whole call runs once per mesh, so V8 compiles each
  // loop on the fly, and a loop after another in one function would start without feedback.
  const { areas, area } = triangleAreas(idx, pos);
  const vertexOf = new Int32Array(W).fill(-1);
  const order = new Uint32Array(W);
  const V = firstUses(idx, tv, areas, vertexOf, order);
  const inside = new Uint32Array(T);
  const I = area > 0 ? insideCounts(areas, (V < maxSamples ? maxSamples - V : maxSamples) / area, inside) : 0;
  const n = V + I;
  const stride = Math.max(1, Math.ceil(n / maxSamples));
  const count = Math.ceil(n / stride);
  const points = new Float64Array(3 * count);
  const normals = new Float64Array(3 * count);

  let s = 0;
  for (let i = 0; i < V; i += stride) {
    const w = order[i]!;
    const v = 3 * vertexOf[w]!;
    points[3 * s] = pos[v]!;
    points[3 * s + 1] = pos[v + 1]!;
    points[3 * s + 2] = pos[v + 2]!;
    pn.vertexNormal(w, n3);
    const nx = n3[0]!, ny = n3[1]!, nz = n3[2]!;
    const len = hypot3(nx, ny, nz);
    if (len > 0) {
      normals[3 * s] = nx / len;
      normals[3 * s + 1] = ny / len;
      normals[3 * s + 2] = nz / len;
    }
    s++;
  }

  const uv = new Float64Array(2);
  let ordinal = V; // candidate number of the current triangle's first inside point
  for (let t = 0; t < T; t++) {
    const k = inside[t]!;
    if (k === 0) continue;
    let j = (stride - (ordinal % stride)) % stride;
    ordinal += k;
    if (j >= k) continue;
    const a = idx[3 * t]! * 3, b = idx[3 * t + 1]! * 3, c = idx[3 * t + 2]! * 3;
    const ax = pos[a]!, ay = pos[a + 1]!, az = pos[a + 2]!;
    const ux = pos[b]! - ax, uy = pos[b + 1]! - ay, uz = pos[b + 2]! - az;
    const vx = pos[c]! - ax, vy = pos[c + 1]! - ay, vz = pos[c + 2]! - az;
    pn.faceNormal(t, n3);
    const nx = n3[0]!, ny = n3[1]!, nz = n3[2]!;
    for (; j < k; j += stride) {
      if (k === 1) uv.fill(1 / 3);
      else r2Barycentric(j + 1, uv);
      const u = uv[0]!, v = uv[1]!;
      points[3 * s] = ax + u * ux + v * vx;
      points[3 * s + 1] = ay + u * uy + v * vy;
      points[3 * s + 2] = az + u * uz + v * vz;
      normals[3 * s] = nx;
      normals[3 * s + 1] = ny;
      normals[3 * s + 2] = nz;
      s++;
    }
  }
  if (s !== count) throw new Error(`featureDenseSamples: internal count mismatch (${s} of ${count}).`);
  return { count, points, normals, candidates: n, stride, vertexCandidates: V, area };
}


/**
 * Welded vertices of nonzero-area triangles, first use first, into `order`; `vertexOf` keeps one
 * mesh index each (-1 for a vertex not used). Returns how many.
 */
function firstUses(idx: Uint32Array, tv: Uint32Array, areas: Float64Array, vertexOf: Int32Array, order: Uint32Array): number {
  let V = 0;
  for (let t = 0; t < areas.length; t++) {
    if (!(areas[t]! > 0)) continue;
    for (let k = 0; k < 3; k++) {
      const w = tv[3 * t + k]!;
      if (vertexOf[w]! < 0) {
        vertexOf[w] = idx[3 * t + k]!;
        order[V++] = w;
      }
    }
  }
  return V;
}

/** Inside points per triangle, floor(area x perArea), into `inside`; returns their sum. */
function insideCounts(areas: Float64Array, perArea: number, inside: Uint32Array): number {
  let I = 0;
  for (let t = 0; t < areas.length; t++) {
    const k = Math.floor(areas[t]! * perArea);
    inside[t] = k;
    I += k;
  }
  return I;
}
