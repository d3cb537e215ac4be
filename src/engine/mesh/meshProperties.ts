import type { TriMesh } from './TriMesh';
import type { Box3, Vec3 } from '../math/vec3';

interface MeshMassProperties {
  /** Signed enclosed volume (divergence theorem); meaningful only for a closed, consistently wound mesh. */
  volume: number;
  area: number;
  /** Volume centroid (solid of uniform density). */
  volumeCentroid: Vec3;
  /** Area centroid (uniform shell). */
  areaCentroid: Vec3;
  /** Inertia tensor of the solid about its volume centroid, row-major 3x3 (unit density). */
  volumeInertia: number[];
  /** Inertia tensor of the uniform shell about its area centroid, row-major 3x3 (unit area density). */
  areaInertia: number[];
}

/**
 * Exact mass properties of a triangle mesh: solid integrals by signed tetrahedra from the origin
 * (Eberly, "Polyhedral Mass Properties", 2002 formulation via canonical tetrahedron covariance),
 * shell integrals by triangle second moments. Coordinates are shifted to the box centre first so
 * that far-from-origin scans do not lose digits.
 */
export function meshMassProperties(mesh: TriMesh): MeshMassProperties {
  const p = mesh.positions;
  const idx = mesh.indices;
  const [ox, oy, oz] = boxCentre(meshBox(mesh));
  let vol = 0;
  let area = 0;
  let vx = 0, vy = 0, vz = 0; // first moments of volume
  let ax = 0, ay = 0, az = 0; // first moments of area
  // Second moments about the shifted origin: xx, yy, zz, xy, yz, zx.
  const cv = [0, 0, 0, 0, 0, 0];
  const ca = [0, 0, 0, 0, 0, 0];
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]! * 3, b = idx[t + 1]! * 3, c = idx[t + 2]! * 3;
    const x0 = p[a]! - ox, y0 = p[a + 1]! - oy, z0 = p[a + 2]! - oz;
    const x1 = p[b]! - ox, y1 = p[b + 1]! - oy, z1 = p[b + 2]! - oz;
    const x2 = p[c]! - ox, y2 = p[c + 1]! - oy, z2 = p[c + 2]! - oz;
    // Signed volume of the tetrahedron (origin, v0, v1, v2) times 6.
    const det = x0 * (y1 * z2 - z1 * y2) - y0 * (x1 * z2 - z1 * x2) + z0 * (x1 * y2 - y1 * x2);
    const v = det / 6;
    vol += v;
    vx += (v * (x0 + x1 + x2)) / 4;
    vy += (v * (y0 + y1 + y2)) / 4;
    vz += (v * (z0 + z1 + z2)) / 4;
    // Tetrahedron second moments: integral of x_i x_j = v/20 * (sum_k a_i a_j + sum over pairs), with the origin as 4th vertex.
    cv[0]! += (v / 10) * (x0 * x0 + x1 * x1 + x2 * x2 + x0 * x1 + x1 * x2 + x2 * x0);
    cv[1]! += (v / 10) * (y0 * y0 + y1 * y1 + y2 * y2 + y0 * y1 + y1 * y2 + y2 * y0);
    cv[2]! += (v / 10) * (z0 * z0 + z1 * z1 + z2 * z2 + z0 * z1 + z1 * z2 + z2 * z0);
    cv[3]! += (v / 20) * (2 * (x0 * y0 + x1 * y1 + x2 * y2) + x0 * y1 + x1 * y0 + x1 * y2 + x2 * y1 + x2 * y0 + x0 * y2);
    cv[4]! += (v / 20) * (2 * (y0 * z0 + y1 * z1 + y2 * z2) + y0 * z1 + y1 * z0 + y1 * z2 + y2 * z1 + y2 * z0 + y0 * z2);
    cv[5]! += (v / 20) * (2 * (z0 * x0 + z1 * x1 + z2 * x2) + z0 * x1 + z1 * x0 + z1 * x2 + z2 * x1 + z2 * x0 + z0 * x2);
    // Triangle area and its moments: integral of x_i x_j = A/12 * (sum a_i a_j + (sum a_i)(sum a_j)).
    const ux = x1 - x0, uy = y1 - y0, uz = z1 - z0;
    const wx = x2 - x0, wy = y2 - y0, wz = z2 - z0;
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    const A = 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
    area += A;
    const sx = x0 + x1 + x2, sy = y0 + y1 + y2, sz = z0 + z1 + z2;
    ax += (A * sx) / 3;
    ay += (A * sy) / 3;
    az += (A * sz) / 3;
    ca[0]! += (A / 12) * (x0 * x0 + x1 * x1 + x2 * x2 + sx * sx);
    ca[1]! += (A / 12) * (y0 * y0 + y1 * y1 + y2 * y2 + sy * sy);
    ca[2]! += (A / 12) * (z0 * z0 + z1 * z1 + z2 * z2 + sz * sz);
    ca[3]! += (A / 12) * (x0 * y0 + x1 * y1 + x2 * y2 + sx * sy);
    ca[4]! += (A / 12) * (y0 * z0 + y1 * z1 + y2 * z2 + sy * sz);
    ca[5]! += (A / 12) * (z0 * x0 + z1 * x1 + z2 * x2 + sz * sx);
  }
  const vc: Vec3 = vol !== 0 ? [vx / vol, vy / vol, vz / vol] : [0, 0, 0];
  const ac: Vec3 = area !== 0 ? [ax / area, ay / area, az / area] : [0, 0, 0];
  return {
    volume: vol,
    area,
    volumeCentroid: [vc[0] + ox, vc[1] + oy, vc[2] + oz],
    areaCentroid: [ac[0] + ox, ac[1] + oy, ac[2] + oz],
    volumeInertia: inertiaAboutCentroid(cv, vol, vc),
    areaInertia: inertiaAboutCentroid(ca, area, ac),
  };
}

/** Second moments about the origin -> inertia tensor about the centroid (parallel-axis theorem). */
function inertiaAboutCentroid(c: number[], mass: number, g: Vec3): number[] {
  const [xx, yy, zz, xy, yz, zx] = c as [number, number, number, number, number, number];
  const cxx = xx - mass * g[0] * g[0];
  const cyy = yy - mass * g[1] * g[1];
  const czz = zz - mass * g[2] * g[2];
  const cxy = xy - mass * g[0] * g[1];
  const cyz = yz - mass * g[1] * g[2];
  const czx = zx - mass * g[2] * g[0];
  return [cyy + czz, -cxy, -czx, -cxy, cxx + czz, -cyz, -czx, -cyz, cxx + cyy];
}

/** Axis-aligned box of the vertices that triangles use. */
export function meshBox(mesh: TriMesh): Box3 {
  const p = mesh.positions;
  const idx = mesh.indices;
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let t = 0; t < idx.length; t++) {
    const o = idx[t]! * 3;
    for (let k = 0; k < 3; k++) {
      const v = p[o + k]!;
      if (v < min[k]!) min[k] = v;
      if (v > max[k]!) max[k] = v;
    }
  }
  return { min, max };
}

function boxCentre(b: Box3): Vec3 {
  if (!Number.isFinite(b.min[0])) return [0, 0, 0];
  return [(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2];
}
