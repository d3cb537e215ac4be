import { systematicCounts, type SurfaceSamples } from '../mesh/sampleSurface';
import { PointTree } from '../points/PointTree';
import type { PointsBody } from '../scene/Body';
import type { CloudPositions } from '../points/cloudPositions';

/**
 * A point cloud's deviation samples, density-compensated (docs/point-clouds.md, "Samples by area").
 * A cloud has no area, and a scanner's density is uneven (overlapping passes, distance to the
 * sensor, a part turned more often one way): every point counted once would weight the figures by
 * where the scanner lingered. Each point stands instead for the area around it, estimated from its
 * neighbours, so the figures estimate the surface integral as a mesh's area samples do:
 *
 * 1. Candidates: every point up to CANDIDATES_PER_SAMPLE x maxSamples, else every stride-th
 *    (a stride keeps the density's shape: the estimate below is relative).
 * 2. A candidate's area: the squared distance to its AREA_NEIGHBOURS-th nearest other candidate
 *    (pi r^2 / k is the area the k nearest points cover on a surface; the constant cancels), asked
 *    of at most DENSITY_PROBES candidates spread through the k-d tree (neighbourAreas).
 * 3. N = min(maxSamples, candidates) samples by systematic sampling over the cumulative area in
 *    file order (mesh/sampleSurface.ts, rule 1): a candidate gets round(N C(i+1) / A) -
 *    round(N C(i) / A) copies, C(i) the area before it. A sparse patch's points are repeated, a
 *    dense patch's thinned. Deterministic; exactly maxSamples where the cloud has that many points.
 *
 * Where every candidate's area is 0 (each point repeated more than AREA_NEIGHBOURS times at one
 * position) they count equally.
 */
export const CANDIDATES_PER_SAMPLE = 4;
export const AREA_NEIGHBOURS = 10;
/** At most this many points ask for their neighbours (neighbourAreas). */
export const DENSITY_PROBES = 250_000;

/** `ownTree`: the cloud's k-d tree over all its points (cached on the body), used when every point is a candidate. */
export function cloudAreaSamples(body: PointsBody, maxSamples: number, ownTree: () => PointTree, probes = DENSITY_PROBES): SurfaceSamples {
  return body.cache.get(`areaSamples:${maxSamples}:${probes}`, () => {
    const { positions, normals, count } = body.cloud;
    const stride = Math.max(1, Math.ceil(count / (CANDIDATES_PER_SAMPLE * maxSamples)));
    const m = Math.ceil(count / stride);
    // All points: the cloud's own tree (kept for the part-against-cloud direction); else the candidates'.
    const candidates = stride === 1 ? positions : strided(positions, m, stride);
    const tree = stride === 1 ? ownTree() : new PointTree(candidates, m);
    const weights = neighbourAreas(tree, candidates, m, probes);
    let total = 0;
    for (let i = 0; i < m; i++) total += weights[i]!;
    if (!(total > 0) || !Number.isFinite(total)) {
      weights.fill(1);
      total = m;
    }
    const copies = new Uint32Array(m);
    const n = systematicCounts(weights, total, Math.min(maxSamples, m), copies);
    const points = new Float64Array(3 * n);
    const nrm = new Float64Array(3 * n);
    for (let c = 0, s = 0; c < m; c++) {
      const i = c * stride;
      for (let k = copies[c]!; k > 0; k--, s++) copyCloudPoint(positions, normals, i, points, nrm, s);
    }
    return { count: n, points, normals: nrm, candidates: m, stride, vertexCandidates: 0, area: 0 };
  });
}

/** Point `i` of the cloud into sample `s`: its position, and its normal (unit length) where the file has one. */
export function copyCloudPoint(positions: CloudPositions, normals: ArrayLike<number> | null | undefined, i: number, points: Float64Array, nrm: Float64Array, s: number): void {
  points[3 * s] = positions[3 * i]!;
  points[3 * s + 1] = positions[3 * i + 1]!;
  points[3 * s + 2] = positions[3 * i + 2]!;
  if (!normals) return;
  const x = normals[3 * i]!, y = normals[3 * i + 1]!, z = normals[3 * i + 2]!;
  const len = Math.hypot(x, y, z);
  if (len > 0) {
    nrm[3 * s] = x / len;
    nrm[3 * s + 1] = y / len;
    nrm[3 * s + 2] = z / len;
  }
}

function strided(p: CloudPositions, m: number, stride: number): Float64Array {
  const out = new Float64Array(3 * m);
  for (let c = 0, i = 0; c < m; c++, i += stride) {
    out[3 * c] = p[3 * i]!;
    out[3 * c + 1] = p[3 * i + 1]!;
    out[3 * c + 2] = p[3 * i + 2]!;
  }
  return out;
}

/**
 * Squared distance from each point to its AREA_NEIGHBOURS-th nearest other point (rule 2), asked at
 * most `probes` times: at every s-th point in the tree's order (s = ceil(m / probes)), the points
 * between taking the value of the probe before them. The tree's order keeps a subtree's points
 * together, so they lie in one small patch where the density hardly changes; 5M queries would cost
 * 10 s of CPU on the every-point bench case, 250,000 cost 0.5 s.
 */
function neighbourAreas(tree: PointTree, p: CloudPositions, m: number, probes: number): Float64Array {
  const areas = new Float64Array(m);
  const k = Math.min(AREA_NEIGHBOURS, m - 1);
  if (k < 1) return areas;
  const near = new Uint32Array(k);
  const step = Math.max(1, Math.ceil(m / probes));
  // In the tree's order, each query starts near the last one's points: memory stays warm (4 times
  // fewer cycles than in file order on 5M points).
  const order = tree.order;
  let area = 0;
  for (let o = 0; o < m; o++) {
    const i = order[o]!;
    if (o % step === 0) {
      const x = p[3 * i]!, y = p[3 * i + 1]!, z = p[3 * i + 2]!;
      const found = tree.kNearest(x, y, z, k, near, i);
      const j = near[found - 1]!;
      const dx = p[3 * j]! - x, dy = p[3 * j + 1]! - y, dz = p[3 * j + 2]! - z;
      area = dx * dx + dy * dy + dz * dz;
    }
    areas[i] = area;
  }
  return areas;
}
