/**
 * Which part of a triangle a closest point lies on. Edges are named by the corners they join, in
 * the triangle's own corner order (a = corner 0, b = corner 1, c = corner 2), so that the sign
 * rule can pick the matching pseudo-normal.
 */
export const Feature = {
  face: 0,
  edgeAB: 1,
  edgeBC: 2,
  edgeCA: 3,
  vertexA: 4,
  vertexB: 5,
  vertexC: 6,
} as const;
export type Feature = (typeof Feature)[keyof typeof Feature];

/**
 * Closest point on triangle (a, b, c) to p, by Voronoi regions (Ericson, Real-Time Collision
 * Detection, 5.1.5). Corners are read from `tri` at `o` (ax ay az bx by bz cx cy cz) so that BVH
 * leaves can pass their contiguous corner block without copying. Writes x, y, z, feature to `out`
 * and returns the squared distance. The barycentric branch tests are exact sign tests on dot
 * products, so the feature reported is the one whose region holds p.
 */
export function closestPointOnTriangle(
  tri: Float32Array | Float64Array,
  o: number,
  px: number,
  py: number,
  pz: number,
  out: Float64Array,
): number {
  const ax = tri[o]!, ay = tri[o + 1]!, az = tri[o + 2]!;
  const bx = tri[o + 3]!, by = tri[o + 4]!, bz = tri[o + 5]!;
  const cx = tri[o + 6]!, cy = tri[o + 7]!, cz = tri[o + 8]!;
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return put(out, ax, ay, az, Feature.vertexA, px, py, pz);

  const bpx = px - bx, bpy = py - by, bpz = pz - bz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return put(out, bx, by, bz, Feature.vertexB, px, py, pz);

  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return put(out, ax + v * abx, ay + v * aby, az + v * abz, Feature.edgeAB, px, py, pz);
  }

  const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return put(out, cx, cy, cz, Feature.vertexC, px, py, pz);

  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return put(out, ax + w * acx, ay + w * acy, az + w * acz, Feature.edgeCA, px, py, pz);
  }

  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return put(out, bx + w * (cx - bx), by + w * (cy - by), bz + w * (cz - bz), Feature.edgeBC, px, py, pz);
  }

  // Inside the face region: project onto the plane. The projection is accurate on slivers, where
  // the barycentric weights vb / (va + vb + vc) would divide rounding noise by a tiny area.
  const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
  const n2 = nx * nx + ny * ny + nz * nz;
  // Collinear corners (to rounding) have no plane; their closest point is on an edge.
  if (!(n2 > 1e-24 * (abx * abx + aby * aby + abz * abz) * (acx * acx + acy * acy + acz * acz))) {
    return closestOnDegenerate(tri, o, px, py, pz, out);
  }
  const h = (apx * nx + apy * ny + apz * nz) / n2;
  return put(out, px - h * nx, py - h * ny, pz - h * nz, Feature.face, px, py, pz);
}

function put(out: Float64Array, x: number, y: number, z: number, feature: number, px: number, py: number, pz: number): number {
  out[0] = x;
  out[1] = y;
  out[2] = z;
  out[3] = feature;
  const dx = px - x, dy = py - y, dz = pz - z;
  return dx * dx + dy * dy + dz * dz;
}

const edgeScratch = new Float64Array(4);

function closestOnDegenerate(tri: Float32Array | Float64Array, o: number, px: number, py: number, pz: number, out: Float64Array): number {
  let best = Infinity;
  const edges: readonly (readonly [number, number, number])[] = [
    [0, 3, Feature.edgeAB],
    [3, 6, Feature.edgeBC],
    [6, 0, Feature.edgeCA],
  ];
  for (const [i, j, feature] of edges) {
    const d = closestOnSegment(tri, o + i, o + j, px, py, pz, edgeScratch);
    if (d < best) {
      best = d;
      out[0] = edgeScratch[0]!;
      out[1] = edgeScratch[1]!;
      out[2] = edgeScratch[2]!;
      out[3] = feature;
    }
  }
  return best;
}

function closestOnSegment(tri: Float32Array | Float64Array, i: number, j: number, px: number, py: number, pz: number, out: Float64Array): number {
  const ax = tri[i]!, ay = tri[i + 1]!, az = tri[i + 2]!;
  const ex = tri[j]! - ax, ey = tri[j + 1]! - ay, ez = tri[j + 2]! - az;
  const len2 = ex * ex + ey * ey + ez * ez;
  let t = len2 > 0 ? ((px - ax) * ex + (py - ay) * ey + (pz - az) * ez) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return put(out, ax + t * ex, ay + t * ey, az + t * ez, 0, px, py, pz);
}
