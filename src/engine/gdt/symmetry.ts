import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import type { PointSet } from './bodySamples';
import type { DatumFeature } from './datumFrame';
import { fitPlane } from './leastSquares';
import { indicesOn, type NominalAccess } from './nominalFaces';
import type { Reading } from './revolution';

/** Cells per side of the grid that pairs the two sides' samples (opposed elements). */
const GRID = 12;
/** A datum plane within about 1 degree of the feature's sides is the one the symmetry is to. */
const PARALLEL_COS = Math.cos(Math.PI / 180);

/**
 * Symmetry (ASME Y14.5-2009 7.7.2, ISO 1101 18.14): the median points of the feature's opposed
 * elements (a slot's or tab's two sides) within two planes centred on the datum plane (usually a
 * centre plane). The sides' samples in the datum frame are binned on a grid across the datum plane;
 * in each cell holding both sides, the median point's distance from the datum plane is the mean of
 * the two sides' mean distances. Symmetry: twice the largest. The datum plane is the frame's plane
 * parallel to the sides (the width datum's centre plane), whichever its place: NIST FTC 10 gives
 * A|J, a base face first and the centre plane second.
 */
export function symmetry(nominal: NominalAccess, pts: PointSet, mapped: Float64Array, [ga, gb]: [number[], number[]], features: DatumFeature[]): Reading {
  const sideNormal = fitPlane(nominal.nodes(ga).points)?.normal;
  const datum = features.find((f) => f.kind === 'plane' && sideNormal !== undefined && Math.abs(dot(normalize(f.normal), sideNormal)) > PARALLEL_COS);
  if (!datum || datum.kind !== 'plane') return { reason: "symmetry needs a datum plane parallel to the feature's sides (usually the centre plane of a width datum); the frame has none" };
  const n = normalize(datum.normal); 
  const e1 = normalize(cross(n, Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const e2 = cross(n, e1);
  const samples = [indicesOn(pts, nominal, ga), indicesOn(pts, nominal, gb)];
  const at = (i: number): Vec3 => [mapped[3 * i]! - datum.point[0], mapped[3 * i + 1]! - datum.point[1], mapped[3 * i + 2]! - datum.point[2]];
  let u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
  for (const side of samples)
    for (const i of side) {
      const p = at(i);
      const u = dot(p, e1), v = dot(p, e2);
      [u0, u1, v0, v1] = [Math.min(u0, u), Math.max(u1, u), Math.min(v0, v), Math.max(v1, v)];
    }
  const cell = (p: Vec3) => {
    const cu = Math.min(GRID - 1, Math.floor(((dot(p, e1) - u0) / Math.max(u1 - u0, 1e-300)) * GRID));
    const cv = Math.min(GRID - 1, Math.floor(((dot(p, e2) - v0) / Math.max(v1 - v0, 1e-300)) * GRID));
    return cu * GRID + cv;
  };
  const sums = samples.map(() => ({ s: new Float64Array(GRID * GRID), k: new Int32Array(GRID * GRID) }));
  samples.forEach((side, k) => {
    for (const i of side) {
      const p = at(i);
      const c = cell(p);
      sums[k]!.s[c]! += dot(p, n);
      sums[k]!.k[c]!++;
    }
  });
  let worst = -Infinity, cells = 0;
  for (let c = 0; c < GRID * GRID; c++) {
    const [a, b] = sums as [(typeof sums)[0], (typeof sums)[0]];
    if (!a.k[c] || !b.k[c]) continue;
    cells++;
    worst = Math.max(worst, Math.abs((a.s[c]! / a.k[c]! + b.s[c]! / b.k[c]!) / 2));
  }
  if (cells === 0) return { reason: 'the two sides have no samples opposite each other' };
  return { actual: 2 * worst, method: `twice the largest distance of the median points (midway between the two sides' mean distances, in ${cells} cells of a ${GRID} x ${GRID} grid across the datum plane) from the datum plane, in the datum frame` };
}
