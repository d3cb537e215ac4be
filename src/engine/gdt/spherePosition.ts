import type { Vec3 } from '../math/vec3';
import type { PointSet } from './bodySamples';
import type { FeatureProbe, Freedom } from './floatingZone';
import { fitSphere } from './leastSquares';
import { facesInward, type NominalAccess } from './nominalFaces';
import { cornerFit, sphereResidual } from './vertexQuadrature';

/**
 * A spherical feature's position (NIST FTC 6's two S-diameter 31.75 balls to D|B|C): its centre, a
 * point, within a spherical zone about the true position (ASME Y14.5-2018 10.6.3, S-diameter
 * zones), so the reading is twice the distance between the scan's least-squares centre, in the
 * datum frame, and the nominal sphere's centre, fitted as its size is (a mesh scan's corners).
 */
export interface SphereCentres {
  nominal: Vec3;
  /** The scan's centre in the scan's own coordinates (the caller maps it into the datum frame). */
  actual: Vec3;
  /** The scan's least-squares diameter: the size a material-condition bonus is read from. */
  actualDiameter: number;
  /** A spherical socket (the part's outward normals point at the centre), not a ball. */
  internal: boolean;
  /** The mesh scan's triangle corners the sphere was fitted to (0: its samples). */
  corners: number;
}

export function sphereCentres(nominal: NominalAccess, faces: number[], pts: PointSet): SphereCentres | { reason: string } {
  const surfaces = faces.map((f) => nominal.ref.geometry.faces[f]?.surface);
  const first = surfaces[0];
  if (!first || first.kind !== 'sphere' || !('frame' in first)) return { reason: 'the faces are not spherical' };
  const centre: Vec3 = [first.frame[0]!, first.frame[1]!, first.frame[2]!];
  const apart = (s: (typeof surfaces)[number]) => !s || s.kind !== 'sphere' || !('frame' in s) || Math.hypot(s.frame[0]! - centre[0], s.frame[1]! - centre[1], s.frame[2]! - centre[2]) > 1e-6 * (1 + first.radius);
  if (surfaces.some(apart)) return { reason: 'the spherical faces named do not share one centre: not one spherical feature' };
  const area = fitSphere(pts.points);
  if (!area) return { reason: 'no sphere fits the scan samples' };
  // A mesh scan's corners, as its size is read (vertexQuadrature.ts): on a cap, unequal chord sag
  // would also move the centre a little (0.0009 on NIST FTC 6's perfect scan, 0.0000 from corners).
  const corners = cornerFit(pts, area, (q) => fitSphere(q.points), sphereResidual, area.radius);
  const fit = corners?.fit ?? area;
  return { nominal: centre, actual: fit.center, actualDiameter: 2 * fit.radius, internal: facesInward(nominal, nominal.nodes(faces), (p) => [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]]), corners: corners?.corners ?? 0 };
}

/**
 * A point's probe for a floating zone (floatingZone.ts reads axes and planes): the centre's radial
 * distances from two perpendicular lines through the true position, which together are its
 * distance in every direction.
 */
export function pointProbe(point: Vec3, truePosition: Vec3): FeatureProbe {
  return {
    parts: [
      { ends: [point, point], origin: truePosition, axis: [0, 0, 1] },
      { ends: [point, point], origin: truePosition, axis: [1, 0, 0] },
    ],
  };
}

/**
 * The point moved by the free translations to its nearest to the true position: what is left is
 * its offset across them, exactly. The pattern float's minimax (floatFeatures) reads a point
 * through directions, where a fixed offset along one leaves the others slack: a ball 0.01 off in
 * x, free in x, and 0.015 off in z, held, read 0.044 instead of 0.03. A lone feature takes the
 * better of the two; free rotations are left to the minimax.
 */
export function floatPoint(point: Vec3, truePosition: Vec3, free: Freedom): Vec3 {
  const basis: Vec3[] = [];
  for (const t of free.translations) {
    let v: Vec3 = [t[0], t[1], t[2]];
    for (const b of basis) {
      const k = v[0] * b[0] + v[1] * b[1] + v[2] * b[2];
      v = [v[0] - k * b[0], v[1] - k * b[1], v[2] - k * b[2]];
    }
    const l = Math.hypot(...v);
    if (l > 1e-9) basis.push([v[0] / l, v[1] / l, v[2] / l]);
  }
  let d: Vec3 = [point[0] - truePosition[0], point[1] - truePosition[1], point[2] - truePosition[2]];
  for (const b of basis) {
    const k = d[0] * b[0] + d[1] * b[1] + d[2] * b[2];
    d = [d[0] - k * b[0], d[1] - k * b[1], d[2] - k * b[2]];
  }
  return [truePosition[0] + d[0], truePosition[1] + d[1], truePosition[2] + d[2]];
}
