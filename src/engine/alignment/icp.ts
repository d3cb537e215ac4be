import { apply, compose, rotationOfVector, type Rigid } from '../math/rigid';

/** The nearest point of the fixed surface to a query point, with the surface's unit normal there. */
export interface Foot {
  x: number;
  y: number;
  z: number;
  nx: number;
  ny: number;
  nz: number;
  /** face[N] of a BREP fixed body the foot lies on; -1 when not known (a mesh). */
  face: number;
  /** false when the foot lies on an edge or a vertex of the face (exact faces only). */
  interior: boolean;
}

export function createFoot(): Foot {
  return { x: NaN, y: NaN, z: NaN, nx: 0, ny: 0, nz: 0, face: -1, interior: true };
}

/** Writes the fixed surface's nearest point to p into `out`; false when there is none. */
export type NearestFoot = (px: number, py: number, pz: number, out: Foot) => boolean;

export interface IcpSettings {
  maxIterations: number;
  /** Stop when an iteration moves no kept sample by more than this length (or no longer lowers the trimmed RMS). */
  convergence: number;
  /** Share of the samples kept each iteration, nearest first (trimmed ICP, Chetverikov et al. 2002). */
  overlap: number;
  /** Pairs farther apart than this are dropped before trimming. */
  maxDistance: number;
  /**
   * Fit a common signed offset beside the motion (a scan uniformly thicker or thinner than the part):
   * pairs are trimmed about the median signed distance, not about zero, and the solve has a seventh
   * unknown, the offset, whenever the kept normals tell it apart from a translation. Without it a
   * uniformly offset scan slides so that the faces on one side fit at zero and the trimming drops
   * the other side's (seen: 0.098 mm along a flange's axis).
   */
  offset?: boolean;
}

export interface IcpResult {
  /** The motion found: samples (as given) to the fixed surface. */
  motion: Rigid;
  iterations: number;
  converged: boolean;
  /** RMS point-to-surface distance of the kept pairs at the final pose. */
  trimmedRms: number;
  /** Kept pairs / samples at the final pose. */
  overlapUsed: number;
  /** Fewer than MIN_PAIRS pairs were left: the motion is the last good one. */
  starved: boolean;
  /** The common signed offset fitted (settings.offset); 0 otherwise or where the normals do not decide it. */
  offset: number;
}

/** A 6-parameter solve needs at least this many constraints. */
export const MIN_PAIRS = 6;

/** Lets a caller cancel between iterations (and report progress). */
export type IcpTick = (iteration: number) => Promise<void> | void;

/**
 * Point-to-plane ICP (Chen & Medioni 1992) with Low's linearisation (2004): each iteration pairs
 * every sample, moved by the current motion, with its nearest point on the fixed surface, drops
 * pairs beyond maxDistance, keeps the nearest `overlap` share of the samples, and solves the 6x6
 * least-squares system for the small rotation (about the kept samples' centroid) and translation
 * that minimise the squared distances to the tangent planes. The small rotation is applied as the
 * exact rotation of its vector, so the motion stays rigid. Deterministic: samples in order, ties
 * in the trimming broken by sample index.
 */
export async function icp(points: Float64Array, start: Rigid, nearest: NearestFoot, settings: IcpSettings, tick?: IcpTick): Promise<IcpResult> {
  const n = points.length / 3;
  const pairs = new PairBuffer(n);
  let motion = start;
  let converged = false;
  let starved = false;
  let iterations = 0;
  let previousRms = Infinity;
  let offset = 0;
  for (; iterations < settings.maxIterations; ) {
    await tick?.(iterations);
    const kept = pairs.collect(points, motion, nearest, settings);
    if (kept < MIN_PAIRS) {
      starved = true;
      break;
    }
    // Noise makes the trimmed set change a little every iteration, so the step never reaches zero:
    // an iteration that no longer lowers the trimmed RMS has reached the noise floor.
    const rms = settings.offset ? pairs.offsetRms(kept, offset) : pairs.rms(kept);
    if (iterations > 0 && !(rms < previousRms)) {
      converged = true;
      break;
    }
    previousRms = rms;
    const step = pairs.solve(kept, settings.offset === true);
    if (!step) {
      starved = true;
      break;
    }
    offset = step.offset;
    iterations++;
    motion = compose(step.motion, motion);
    if (step.displacement <= settings.convergence) {
      converged = true;
      break;
    }
  }
  const kept = pairs.collect(points, motion, nearest, settings);
  return { motion, iterations, converged, trimmedRms: pairs.rms(kept), overlapUsed: kept / n, starved: starved || kept < MIN_PAIRS, offset };
}

/** RMS distance of every sample (moved by `motion`) to its nearest fixed point; pairs beyond maxDistance count at their distance too. */
export function rmsDistance(points: Float64Array, motion: Rigid, nearest: NearestFoot): number {
  const foot = createFoot();
  let sum = 0, count = 0;
  for (let i = 0; i < points.length; i += 3) {
    const [x, y, z] = apply(motion, points[i]!, points[i + 1]!, points[i + 2]!);
    if (!nearest(x, y, z, foot)) continue;
    sum += (x - foot.x) ** 2 + (y - foot.y) ** 2 + (z - foot.z) ** 2;
    count++;
  }
  return count ? Math.sqrt(sum / count) : NaN;
}

/** RMS over the nearest `settings.overlap` share of the samples (moved by `motion`), as the ICP trims them without an offset. */
export function trimmedRms(points: Float64Array, motion: Rigid, nearest: NearestFoot, settings: IcpSettings): number {
  const pairs = new PairBuffer(points.length / 3);
  return pairs.rms(pairs.collect(points, motion, nearest, { ...settings, offset: false }));
}

/** The pairs of one iteration in typed arrays (no allocation per sample). */
class PairBuffer {
  private readonly moved: Float64Array;
  private readonly foot: Float64Array;
  private readonly normal: Float64Array;
  private readonly dist: Float64Array;
  /** Signed distance along the foot's normal (outward positive); what the trimming ranks in offset mode. */
  private readonly signed: Float64Array;
  private readonly order: Uint32Array;
  private readonly scratch = createFoot();

  constructor(private readonly n: number) {
    this.moved = new Float64Array(3 * n);
    this.foot = new Float64Array(3 * n);
    this.normal = new Float64Array(3 * n);
    this.dist = new Float64Array(n);
    this.signed = new Float64Array(n);
    this.order = new Uint32Array(n);
  }

  /** Pairs every sample; returns how many are kept (their indices first in `order`, nearest first). */
  collect(points: Float64Array, motion: Rigid, nearest: NearestFoot, settings: IcpSettings): number {
    const f = this.scratch;
    let valid = 0;
    for (let i = 0; i < this.n; i++) {
      const o = 3 * i;
      const [x, y, z] = apply(motion, points[o]!, points[o + 1]!, points[o + 2]!);
      this.moved[o] = x;
      this.moved[o + 1] = y;
      this.moved[o + 2] = z;
      if (!nearest(x, y, z, f)) continue;
      const d = Math.hypot(x - f.x, y - f.y, z - f.z);
      if (!(d <= settings.maxDistance)) continue;
      this.foot[o] = f.x;
      this.foot[o + 1] = f.y;
      this.foot[o + 2] = f.z;
      this.normal[o] = f.nx;
      this.normal[o + 1] = f.ny;
      this.normal[o + 2] = f.nz;
      this.dist[i] = d;
      const nn = Math.hypot(f.nx, f.ny, f.nz);
      this.signed[i] = nn > 0 ? ((x - f.x) * f.nx + (y - f.y) * f.ny + (z - f.z) * f.nz) / nn : d;
      this.order[valid++] = i;
    }
    const keep = Math.min(valid, Math.max(MIN_PAIRS, Math.ceil(settings.overlap * this.n)));
    if (keep < valid) {
      // Offset mode ranks pairs by how far they are from the scan's common offset (the median
      // signed distance), so that trimming keeps both sides of a uniformly offset scan.
      const key = settings.offset ? this.offsetKey(valid) : this.dist;
      const sorted = Array.from(this.order.subarray(0, valid)).sort((a, b) => key[a]! - key[b]! || a - b);
      this.order.set(sorted);
    }
    return keep;
  }

  private offsetKey(valid: number): Float64Array {
    const s = this.signed;
    const values = Float64Array.from(this.order.subarray(0, valid), (i) => s[i]!).sort();
    const median = values[valid >> 1]!;
    const key = new Float64Array(this.n);
    for (let k = 0; k < valid; k++) {
      const i = this.order[k]!;
      key[i] = Math.abs(s[i]! - median);
    }
    return key;
  }

  /** RMS of the kept pairs' signed distances about a common offset. */
  offsetRms(kept: number, offset: number): number {
    if (kept === 0) return NaN;
    let s = 0;
    for (let k = 0; k < kept; k++) s += (this.signed[this.order[k]!]! - offset) ** 2;
    return Math.sqrt(s / kept);
  }

  rms(kept: number): number {
    if (kept === 0) return NaN;
    let s = 0;
    for (let k = 0; k < kept; k++) s += this.dist[this.order[k]!]! ** 2;
    return Math.sqrt(s / kept);
  }

  /** The least-squares step over the kept pairs; null when the system is degenerate. */
  solve(kept: number, withOffset: boolean): { motion: Rigid; displacement: number; offset: number } | null {
    const m = this.moved, q = this.foot, nr = this.normal;
    let cx = 0, cy = 0, cz = 0;
    for (let k = 0; k < kept; k++) {
      const o = 3 * this.order[k]!;
      cx += m[o]!;
      cy += m[o + 1]!;
      cz += m[o + 2]!;
    }
    cx /= kept;
    cy /= kept;
    cz /= kept;
    // Unknowns: small rotation (3), translation (3) and, in offset mode, the common offset s
    // (residual n.(p - q) + J x - s).
    const N = 7;
    const A = new Float64Array(N * N);
    const b = new Float64Array(N);
    const row = new Float64Array(N);
    row[6] = -1;
    let radius = 0;
    for (let k = 0; k < kept; k++) {
      const o = 3 * this.order[k]!;
      const px = m[o]! - cx, py = m[o + 1]! - cy, pz = m[o + 2]! - cz;
      radius = Math.max(radius, Math.hypot(px, py, pz));
      let nx = nr[o]!, ny = nr[o + 1]!, nz = nr[o + 2]!;
      const dx = m[o]! - q[o]!, dy = m[o + 1]! - q[o + 1]!, dz = m[o + 2]! - q[o + 2]!;
      if (!(nx * nx + ny * ny + nz * nz > 0)) {
        // No surface normal at the foot: fall back to the pair's own direction (point-to-point along it).
        const d = Math.hypot(dx, dy, dz);
        if (!(d > 0)) continue;
        nx = dx / d;
        ny = dy / d;
        nz = dz / d;
      }
      row[0] = py * nz - pz * ny;
      row[1] = pz * nx - px * nz;
      row[2] = px * ny - py * nx;
      row[3] = nx;
      row[4] = ny;
      row[5] = nz;
      const r = dx * nx + dy * ny + dz * nz;
      for (let i = 0; i < N; i++) {
        b[i] = b[i]! - row[i]! * r;
        for (let j = 0; j <= i; j++) A[N * i + j] = A[N * i + j]! + row[i]! * row[j]!;
      }
    }
    for (let i = 0; i < N; i++) for (let j = 0; j < i; j++) A[N * j + i] = A[N * i + j]!;
    // A symmetric part leaves a direction unconstrained (a cylinder's spin): a tiny damping keeps the
    // solve defined there and moves nothing along it, without biasing constrained directions.
    const rotTrace = A[0]! + A[N + 1]! + A[2 * N + 2]!, transTrace = A[3 * N + 3]! + A[4 * N + 4]! + A[5 * N + 5]!;
    for (let i = 0; i < 3; i++) A[(N + 1) * i] = A[(N + 1) * i]! + 1e-9 * rotTrace + 1e-300;
    for (let i = 3; i < 6; i++) A[(N + 1) * i] = A[(N + 1) * i]! + 1e-9 * transTrace + 1e-300;
    const six = solveSymmetric(sub6(A, N), b.subarray(0, 6), 6);
    if (!six) return null;
    let x: Float64Array = six;
    let offset = 0;
    if (withOffset && offsetDecided(A, N)) {
      const seven = solveSymmetric(A, b, N);
      if (seven) {
        x = seven;
        offset = seven[6]!;
      }
    }
    const r = rotationOfVector(x[0]!, x[1]!, x[2]!);
    // x -> R (x - c) + c + t
    const c = [cx, cy, cz];
    const rc = apply({ r, t: [0, 0, 0] }, cx, cy, cz);
    const t = [c[0]! - rc[0] + x[3]!, c[1]! - rc[1] + x[4]!, c[2]! - rc[2] + x[5]!];
    const angle = Math.hypot(x[0]!, x[1]!, x[2]!);
    return { motion: { r, t }, displacement: angle * radius + Math.hypot(x[3]!, x[4]!, x[5]!), offset };
  }
}

/**
 * Whether the kept normals tell a common offset apart from a translation: the offset's own
 * information left once the six motion unknowns took what they can explain (its Schur complement)
 * is a fair share of its total. A scan of one side of a plate, say, cannot tell a thicker part
 * from a shifted one: there the offset stays 0 and the motion fits the surface (the usual answer).
 */
const OFFSET_DECIDED = 0.05;
function offsetDecided(A: Float64Array, N: number): boolean {
  const ss = A[N * N - 1]!;
  const col = new Float64Array(6);
  for (let i = 0; i < 6; i++) col[i] = A[N * i + 6]!;
  const y = solveSymmetric(sub6(A, N), col, 6);
  if (!y) return false;
  let explained = 0;
  for (let i = 0; i < 6; i++) explained += col[i]! * y[i]!;
  return ss > 0 && (ss - explained) / ss > OFFSET_DECIDED;
}

function sub6(A: Float64Array, N: number): Float64Array {
  const out = new Float64Array(36);
  for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) out[6 * i + j] = A[N * i + j]!;
  return out;
}

/** Cholesky solve of a symmetric positive definite n x n system; null when it is not. */
function solveSymmetric(A: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[n * i + j]!;
      for (let k = 0; k < j; k++) s -= L[n * i + k]! * L[n * j + k]!;
      if (i === j) {
        if (!(s > 0)) return null;
        L[(n + 1) * i] = Math.sqrt(s);
      } else L[n * i + j] = s / L[(n + 1) * j]!;
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= L[n * i + k]! * y[k]!;
    y[i] = s / L[(n + 1) * i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= L[n * k + i]! * x[k]!;
    x[i] = s / L[(n + 1) * i]!;
  }
  return x;
}
