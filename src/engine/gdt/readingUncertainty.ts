import { solveLinear } from '../math/solveLinear';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import { select, type PointSet } from './bodySamples';
import { frameOf, type CylinderFit, type PlaneFit, type Points, type SphereFit } from './leastSquares';

/**
 * How far a size read from a least-squares fit can be trusted, from the fit itself: the residuals'
 * variance times the size's entry of the parameters' covariance (J^T J)^-1 (Gauss-Newton at the
 * solution). A hole seen all round reads its radius to about sigma / sqrt(n); one seen on a narrow arc
 * much worse, since its centre and radius trade off (NIST FTC 7's 6.35 holes on a line-of-sight
 * cloud: 0.006 to 0.009 on noise 0.01, against 0.001 seen all round). Reported expanded (k = 2,
 * about 95 % for normal noise) as `uncertainty`, so a verdict within it of a limit says the scan
 * cannot prove it (ISO 14253-1's zone of neither conformance nor nonconformance proven).
 *
 * What it leaves out: noise correlated between neighbouring points (a real scanner's), and any
 * systematic error (the scanner's calibration, a cloud drawn on a tessellation's chords). It is a
 * lower bound of the reading's uncertainty, stated as such.
 */
export const COVERAGE_FACTOR = 2;

const at = (p: Points, i: number): Vec3 => [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/**
 * Each point once: a mesh scan's triangle corners repeat every vertex about six times, which would
 * count one measurement six times and shrink the estimate by sqrt(6).
 */
export function distinctPoints(p: Points): Float64Array {
  const seen = new Set<string>();
  const out: number[] = [];
  for (let i = 0; 3 * i + 2 < p.length; i++) {
    const key = `${p[3 * i]},${p[3 * i + 1]},${p[3 * i + 2]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!);
  }
  return Float64Array.from(out);
}

/**
 * The standard error of parameter 0 of a least-squares fit from its Jacobian's rows (one per point)
 * and residuals: sqrt(s^2 (J^T J)^-1_00), s^2 the residuals' sum of squares over n - p. Null with no
 * more points than parameters or a singular J^T J (the data do not fix the parameters).
 */
function firstParameterError(rows: number[][], residuals: number[]): number | null {
  const n = rows.length, p = rows[0]?.length ?? 0;
  if (n <= p || p === 0) return null;
  const jtj = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    for (let a = 0; a < p; a++) for (let b = a; b < p; b++) jtj[a]![b]! += r[a]! * r[b]!;
    ss += residuals[i]! ** 2;
  }
  for (let a = 0; a < p; a++) for (let b = 0; b < a; b++) jtj[a]![b] = jtj[b]![a]!;
  const e0 = new Array<number>(p).fill(0);
  e0[0] = 1;
  const column = solveLinear(jtj, e0);
  if (!column || !(column[0]! > 0)) return null;
  return Math.sqrt((ss / (n - p)) * column[0]!);
}

/**
 * Standard error of a fitted cylinder's radius over five parameters: radius, the axis' shift (2)
 * and tilt (2) about the points' mid height. A point's residual moves by -1 with the radius, by
 * -u.e with a shift along e and by -h u.e with a tilt toward e (u: the point's radial direction, h:
 * its height along the axis).
 */
export function cylinderRadiusError(points: Points, fit: CylinderFit): number | null {
  const n = Math.floor(points.length / 3);
  const [e1, e2] = frameOf(normalize(fit.axis));
  let mid = 0;
  for (let i = 0; i < n; i++) mid += dot(sub(at(points, i), fit.origin), fit.axis);
  mid /= n;
  const rows: number[][] = [], residuals: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = sub(at(points, i), fit.origin);
    const h = dot(d, fit.axis);
    const radialPart: Vec3 = [d[0] - h * fit.axis[0], d[1] - h * fit.axis[1], d[2] - h * fit.axis[2]];
    const r = Math.hypot(...radialPart);
    if (!(r > 0)) continue;
    const u1 = dot(radialPart, e1) / r, u2 = dot(radialPart, e2) / r, t = h - mid;
    rows.push([-1, -u1, -u2, -t * u1, -t * u2]);
    residuals.push(r - fit.radius);
  }
  return firstParameterError(rows, residuals);
}

/** Standard error of a fitted sphere's radius over four parameters: radius and centre (3). */
export function sphereRadiusError(points: Points, fit: SphereFit): number | null {
  const n = Math.floor(points.length / 3);
  const rows: number[][] = [], residuals: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = sub(at(points, i), fit.center);
    const r = Math.hypot(...d);
    if (!(r > 0)) continue;
    rows.push([-1, -d[0] / r, -d[1] / r, -d[2] / r]);
    residuals.push(r - fit.radius);
  }
  return firstParameterError(rows, residuals);
}

/**
 * Standard error of a distance read as the mean distance of side b's points from side a's
 * least-squares plane: b's mean, plus where a's plane lies under b's centroid, which its offset and
 * its two tilts (about a's centroid, along its in-plane principal directions) decide.
 */
export function planeDistanceError(a: Points, plane: PlaneFit, b: Points): number | null {
  const na = Math.floor(a.length / 3), nb = Math.floor(b.length / 3);
  if (na <= 3 || nb <= 1) return null;
  const n = plane.normal;
  const [e1] = frameOf(n);
  const e2 = cross(n, e1);
  let ssa = 0, s11 = 0, s12 = 0, s22 = 0;
  for (let i = 0; i < na; i++) {
    const d = sub(at(a, i), plane.origin);
    const x = dot(d, e1), y = dot(d, e2);
    ssa += dot(d, n) ** 2;
    s11 += x * x;
    s12 += x * y;
    s22 += y * y;
  }
  let mean = 0;
  const centroidB: Vec3 = [0, 0, 0];
  for (let i = 0; i < nb; i++) {
    const q = at(b, i);
    mean += dot(sub(q, plane.origin), n);
    for (let k = 0; k < 3; k++) centroidB[k] = centroidB[k]! + q[k]! / nb;
  }
  mean /= nb;
  let ssb = 0;
  for (let i = 0; i < nb; i++) ssb += (dot(sub(at(b, i), plane.origin), n) - mean) ** 2;
  const det = s11 * s22 - s12 * s12;
  if (!(det > 0)) return null;
  // The plane's height under b's centroid: offset + x t1 + y t2, with (t1, t2) ~ s^2 S^-1.
  const c = sub(centroidB, plane.origin);
  const x = dot(c, e1), y = dot(c, e2);
  const tilt = (x * x * s22 - 2 * x * y * s12 + y * y * s11) / det;
  const varA = ssa / (na - 3), varB = ssb / (nb - 1);
  return Math.sqrt(varA * (1 / na + tilt) + varB / nb);
}

/** The expanded uncertainty of a reading `scale` times a standard error (a diameter: 2 x the radius'). */
export function expanded(standardError: number | null, scale = 1): number | undefined {
  return standardError === null || !Number.isFinite(standardError) ? undefined : COVERAGE_FACTOR * scale * standardError;
}

/** Groups of the delete-a-group jackknife: each replicate leaves out a tenth of the samples. */
const JACKKNIFE_GROUPS = 10;

/**
 * The fewest samples a jackknife replicate reads a face set from: a set the reading took (at least
 * `minSamples`) loses at most a tenth, rounded up, so a drill point read from its 13 samples still
 * gets its uncertainty, where those few samples matter most.
 */
export function replicateMinSamples(minSamples: number): number {
  return Math.max(1, minSamples - Math.ceil(minSamples / JACKKNIFE_GROUPS));
}

/**
 * The standard error of a reading no closed form covers (a size between fitted features: bore to
 * bore, a plane to an axis or a circle's centre, a circle where two fitted faces meet, a cone's
 * angle; a blend's radius), by the delete-a-group jackknife: the samples dealt into ten groups, the
 * reading repeated without each, se^2 = (G - 1) / G x the sum of the replicates' squared
 * deviations from their mean. A mesh scan's samples on one triangle go to one group (they share
 * the corners the curved fits read). Null when a replicate cannot be read (too few samples left).
 */
export function jackknifeError(read: (on: (faces: number[]) => PointSet) => number | null, actualOn: (faces: number[]) => PointSet): number | null {
  const sets = new Map<string, { set: PointSet; group: Uint8Array }>();
  const grouped = (faces: number[]) => {
    const key = faces.join(',');
    let entry = sets.get(key);
    if (!entry) {
      const set = actualOn(faces);
      entry = { set, group: sampleGroups(set) };
      sets.set(key, entry);
    }
    return entry;
  };
  const values: number[] = [];
  for (let g = 0; g < JACKKNIFE_GROUPS; g++) {
    const v = read((faces) => {
      const { set, group } = grouped(faces);
      const keep: number[] = [];
      for (let i = 0; i < set.count; i++) if (group[i] !== g) keep.push(i);
      return select(set, keep);
    });
    if (v === null || !Number.isFinite(v)) return null;
    values.push(v);
  }
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(((JACKKNIFE_GROUPS - 1) / JACKKNIFE_GROUPS) * values.reduce((s, v) => s + (v - mean) ** 2, 0));
}

/** Each sample's jackknife group: by position in the set, or by its triangle's first corner where it has corners. */
function sampleGroups(set: PointSet): Uint8Array {
  const group = new Uint8Array(set.count);
  const byCorner = new Map<string, number>();
  for (let i = 0; i < set.count; i++) {
    if (!set.corners) {
      group[i] = i % JACKKNIFE_GROUPS;
      continue;
    }
    const key = `${set.corners[9 * i]},${set.corners[9 * i + 1]},${set.corners[9 * i + 2]}`;
    let g = byCorner.get(key);
    if (g === undefined) byCorner.set(key, (g = byCorner.size % JACKKNIFE_GROUPS));
    group[i] = g;
  }
  return group;
}
