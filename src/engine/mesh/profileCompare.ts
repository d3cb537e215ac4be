import { insideLoop, polylineLength, segmentCount } from './profile2d';
import type { Polyline2 } from './sliceChain';

/**
 * Comparing two section profiles in their station plane: the angular outer envelope, raw
 * point-to-profile distances, and the best-fit shape residual (shapeL2). See docs/cross-sections.md.
 */

/** Angular bins of the outer envelope: 0.5 degree. */
export const ENVELOPE_BINS = 720;

/** Samples spread over the candidate's curves in profile mode, by arc length. */
export const PROFILE_SAMPLES = 2048;

/** Samples on the reference's main profile fitted onto the candidate's for shapeL2. */
export const SHAPE_SAMPLES = 512;

/** Flat segment list x1, y1, x2, y2 of the given curves (closed ones with their closing segment). */
export function segmentsOf(lines: readonly Polyline2[]): Float64Array {
  let total = 0;
  for (const l of lines) total += Math.max(0, segmentCount(l));
  const out = new Float64Array(4 * total);
  let o = 0;
  for (const line of lines) {
    const p = line.points;
    const n = p.length / 2;
    const m = segmentCount(line);
    for (let i = 0; i < m; i++) {
      const j = (i + 1) % n;
      out[o++] = p[2 * i]!;
      out[o++] = p[2 * i + 1]!;
      out[o++] = p[2 * j]!;
      out[o++] = p[2 * j + 1]!;
    }
  }
  return out;
}

/** Per angular bin around a centre: the farthest crossing of the ray with any curve, NaN where the ray meets none. */
interface RadialEnvelope {
  radius: Float64Array;
  /** |cos| of the angle between the ray and the normal of the segment it met farthest out. */
  cosine: Float64Array;
  /** That segment's unit normal, turned to face away from the centre (the outline's outward normal there). */
  normalX: Float64Array;
  normalY: Float64Array;
}

/**
 * The outer envelope of curves seen from (cx, cy): for each bin's central direction, the largest
 * distance at which the ray crosses a segment. Exact for the polylines (not a vertex histogram),
 * so a coarse straight edge and a dense scan give the same envelope. Each segment visits only the
 * bins its angular span covers.
 */
export function radialEnvelope(segments: Float64Array, cx: number, cy: number, bins = ENVELOPE_BINS): RadialEnvelope {
  const radius = new Float64Array(bins).fill(Number.NaN);
  const cosine = new Float64Array(bins).fill(Number.NaN);
  const normalX = new Float64Array(bins).fill(Number.NaN);
  const normalY = new Float64Array(bins).fill(Number.NaN);
  const step = (2 * Math.PI) / bins;
  for (let s = 0; s < segments.length; s += 4) {
    const ax = segments[s]! - cx, ay = segments[s + 1]! - cy;
    const bx = segments[s + 2]! - cx, by = segments[s + 3]! - cy;
    const ex = bx - ax, ey = by - ay;
    const len = Math.hypot(ex, ey);
    if (!(len > 0)) continue;
    const tb = Math.atan2(by, bx);
    let ta = Math.atan2(ay, ax);
    let span = tb - ta;
    if (span > Math.PI) span -= 2 * Math.PI;
    else if (span < -Math.PI) span += 2 * Math.PI;
    // A segment through the centre has no direction-wise envelope of its own; its ends are covered by its neighbours.
    if (Math.abs(Math.abs(span) - Math.PI) < 1e-12) continue;
    if (span < 0) {
      ta = tb;
      span = -span;
    }
    if (ta < 0) ta += 2 * Math.PI;
    // Bins whose centre angle (k + 0.5) step lies in [ta, ta + span].
    const kFirst = Math.ceil(ta / step - 0.5);
    const kLast = Math.floor((ta + span) / step - 0.5);
    const nx = -ey / len, ny = ex / len;
    for (let kk = kFirst; kk <= kLast; kk++) {
      const k = ((kk % bins) + bins) % bins;
      const theta = (kk + 0.5) * step;
      const dx = Math.cos(theta), dy = Math.sin(theta);
      // Ray r (dx, dy) meets a + s e: r (dx, dy) - s e = a.
      const det = -dx * ey + dy * ex;
      if (det === 0) continue;
      const r = (-ax * ey + ay * ex) / det;
      if (!(r >= 0)) continue;
      const old = radius[k]!;
      if (!(r <= old)) {
        radius[k] = r;
        const c = nx * dx + ny * dy;
        cosine[k] = Math.abs(c);
        const out = c < 0 ? -1 : 1;
        normalX[k] = out * nx;
        normalY[k] = out * ny;
      }
    }
  }
  return { radius, cosine, normalX, normalY };
}

/**
 * Points evenly spaced by arc length over the curves (each curve gets its share of `count`, at
 * least its end points), as interleaved x, y.
 */
export function resample(lines: readonly Polyline2[], count: number): Float64Array {
  const lengths = lines.map(polylineLength);
  const total = lengths.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return new Float64Array(0);
  const out: number[] = [];
  lines.forEach((line, li) => {
    const len = lengths[li]!;
    if (!(len > 0)) return;
    const p = line.points;
    const n = p.length / 2;
    const m = segmentCount(line);
    const k = Math.max(line.closed ? 3 : 2, Math.round((count * len) / total));
    // Closed: k points at (i + 0.5) len / k; open: both ends included.
    const spacing = line.closed ? len / k : len / (k - 1);
    let target = line.closed ? spacing / 2 : 0;
    let walked = 0;
    let emitted = 0;
    for (let i = 0; i < m && emitted < k; i++) {
      const j = (i + 1) % n;
      const x0 = p[2 * i]!, y0 = p[2 * i + 1]!;
      const sx = p[2 * j]! - x0, sy = p[2 * j + 1]! - y0;
      const sl = Math.hypot(sx, sy);
      while (emitted < k && target <= walked + sl + 1e-12 * len) {
        const f = sl > 0 ? Math.min(1, (target - walked) / sl) : 0;
        out.push(x0 + f * sx, y0 + f * sy);
        emitted++;
        target += spacing;
      }
      walked += sl;
    }
    if (!line.closed && emitted < k) out.push(p[2 * (n - 1)]!, p[2 * (n - 1) + 1]!);
  });
  return Float64Array.from(out);
}

/** The nearest point of a segment set: its position and the segment. */
interface SegmentHit {
  distance: number;
  x: number;
  y: number;
  segment: number;
}

/**
 * A uniform grid over 2D segments for nearest-segment queries: rings of cells are searched
 * outward until no unvisited cell can be closer than the best hit. A query outside the grid
 * starts from its projection q onto the grid box; for any point x of the (convex) box,
 * |p - x|^2 >= |p - q|^2 + |q - x|^2, which keeps the ring bound a lower bound.
 */
export class SegmentGrid {
  readonly segments: Float64Array;
  private readonly minX: number;
  private readonly minY: number;
  private readonly cell: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly start: Uint32Array;
  private readonly items: Uint32Array;

  constructor(segments: Float64Array) {
    this.segments = segments;
    const count = segments.length / 4;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < segments.length; i += 2) {
      const x = segments[i]!, y = segments[i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    if (count === 0) {
      minX = minY = maxX = maxY = 0;
    }
    const w = Math.max(maxX - minX, 1e-300), h = Math.max(maxY - minY, 1e-300);
    // About two segments per cell for a curve; at most 256 cells a side.
    const target = Math.max(1, Math.sqrt(count));
    this.cell = Math.max(w, h) / Math.min(256, Math.max(1, Math.ceil(target)));
    this.minX = minX;
    this.minY = minY;
    this.nx = Math.min(256, Math.max(1, Math.ceil(w / this.cell)));
    this.ny = Math.min(256, Math.max(1, Math.ceil(h / this.cell)));
    const cells = this.nx * this.ny;
    const counts = new Uint32Array(cells + 1);
    const visit = (s: number, fn: (c: number) => void) => {
      const x1 = segments[4 * s]!, y1 = segments[4 * s + 1]!, x2 = segments[4 * s + 2]!, y2 = segments[4 * s + 3]!;
      const i0 = this.cx(Math.min(x1, x2)), i1 = this.cx(Math.max(x1, x2));
      const j0 = this.cy(Math.min(y1, y2)), j1 = this.cy(Math.max(y1, y2));
      for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) fn(j * this.nx + i);
    };
    for (let s = 0; s < count; s++) visit(s, (c) => counts[c + 1]!++);
    for (let c = 0; c < cells; c++) counts[c + 1]! += counts[c]!;
    this.start = counts;
    const fill = counts.slice(0, cells);
    this.items = new Uint32Array(counts[cells]!);
    for (let s = 0; s < count; s++) visit(s, (c) => (this.items[fill[c]!++] = s));
  }

  get count(): number {
    return this.segments.length / 4;
  }

  private cx(x: number): number {
    return Math.min(this.nx - 1, Math.max(0, Math.floor((x - this.minX) / this.cell)));
  }

  private cy(y: number): number {
    return Math.min(this.ny - 1, Math.max(0, Math.floor((y - this.minY) / this.cell)));
  }

  /** The nearest point on any segment; distance Infinity when there are none. */
  nearest(px: number, py: number, out: SegmentHit = { distance: Infinity, x: 0, y: 0, segment: -1 }): SegmentHit {
    out.distance = Infinity;
    out.segment = -1;
    if (this.count === 0) return out;
    const s = this.segments;
    const ci = this.cx(px), cj = this.cy(py);
    // Distance from the query to its projection on the grid box: add to the ring bound.
    const gx = Math.min(Math.max(px, this.minX), this.minX + this.nx * this.cell);
    const gy = Math.min(Math.max(py, this.minY), this.minY + this.ny * this.cell);
    const outside = Math.hypot(px - gx, py - gy);
    let best2 = Infinity;
    const maxRing = Math.max(this.nx, this.ny);
    for (let ring = 0; ring <= maxRing; ring++) {
      const i0 = ci - ring, i1 = ci + ring, j0 = cj - ring, j1 = cj + ring;
      for (let j = Math.max(0, j0); j <= Math.min(this.ny - 1, j1); j++) {
        const edgeRow = j === j0 || j === j1;
        for (let i = Math.max(0, i0); i <= Math.min(this.nx - 1, i1); i++) {
          if (!edgeRow && i !== i0 && i !== i1) continue;
          const c = j * this.nx + i;
          for (let k = this.start[c]!; k < this.start[c + 1]!; k++) {
            const seg = this.items[k]!;
            const o = 4 * seg;
            const ax = s[o]!, ay = s[o + 1]!, ex = s[o + 2]! - ax, ey = s[o + 3]! - ay;
            const ll = ex * ex + ey * ey;
            let t = ll > 0 ? ((px - ax) * ex + (py - ay) * ey) / ll : 0;
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            const qx = ax + t * ex, qy = ay + t * ey;
            const d2 = (px - qx) * (px - qx) + (py - qy) * (py - qy);
            if (d2 < best2) {
              best2 = d2;
              out.x = qx;
              out.y = qy;
              out.segment = seg;
            }
          }
        }
      }
      // Cells beyond this ring are at least `ring` cells from the query's projection.
      const inner = ring * this.cell;
      if (best2 <= outside * outside + inner * inner) break;
    }
    out.distance = Math.sqrt(best2);
    return out;
  }
}

/**
 * Signed distances of sample points to a reference main profile (profile mode): negative inside a
 * closed reference. An open reference has no inside: there a sample is outside when it lies
 * farther from the station centre than its nearest reference point, and a sample whose nearest
 * reference point is an end of the open path is left out (it lies beyond what the reference
 * covers, like the far side of a part a scan saw from one side). NaN marks a left-out sample.
 * With `nearest` (2 per sample), each sample's nearest reference point is written there.
 */
export function profileDistances(samples: Float64Array, reference: Polyline2, grid: SegmentGrid, cx: number, cy: number, nearest?: Float64Array): Float64Array {
  const n = samples.length / 2;
  const out = new Float64Array(n);
  const hit: SegmentHit = { distance: Infinity, x: 0, y: 0, segment: -1 };
  const p = reference.points;
  const last = p.length - 2;
  const endTolerance = 1e-9 * Math.max(1, Math.abs(p[0]!), Math.abs(p[1]!), Math.abs(p[last]!), Math.abs(p[last + 1]!));
  for (let i = 0; i < n; i++) {
    const px = samples[2 * i]!, py = samples[2 * i + 1]!;
    grid.nearest(px, py, hit);
    if (nearest) {
      nearest[2 * i] = hit.x;
      nearest[2 * i + 1] = hit.y;
    }
    let sign: number;
    if (reference.closed) {
      sign = insideLoop(reference, px, py) ? -1 : 1;
    } else {
      const atEnd =
        Math.hypot(hit.x - p[0]!, hit.y - p[1]!) <= endTolerance || Math.hypot(hit.x - p[last]!, hit.y - p[last + 1]!) <= endTolerance;
      if (atEnd && hit.distance > endTolerance) {
        out[i] = Number.NaN;
        continue;
      }
      sign = (px - hit.x) * (hit.x - cx) + (py - hit.y) * (hit.y - cy) >= 0 ? 1 : -1;
    }
    out[i] = sign * hit.distance;
  }
  return out;
}

/** Result of fitting one point set onto a curve set with a rigid 2D motion. */
interface BestFit {
  /** RMS distance after the fit. */
  rms: number;
  /** Rotation (radians) and translation of the fit. */
  angle: number;
  tx: number;
  ty: number;
  iterations: number;
}

/**
 * Rigid 2D ICP (closest points, then the closed-form Procrustes rotation and translation) of
 * `points` onto the segments in `grid`, starting from the translation (tx0, ty0). Stops when the
 * RMS improves by less than 1e-9 relative or after `maxIterations`.
 */
export function bestFitResidual(points: Float64Array, grid: SegmentGrid, tx0 = 0, ty0 = 0, maxIterations = 60): BestFit {
  const n = points.length / 2;
  if (n === 0 || grid.count === 0) return { rms: Number.NaN, angle: 0, tx: 0, ty: 0, iterations: 0 };
  let angle = 0, tx = tx0, ty = ty0;
  const qx = new Float64Array(n), qy = new Float64Array(n);
  const hit: SegmentHit = { distance: Infinity, x: 0, y: 0, segment: -1 };
  let px0 = 0, py0 = 0;
  for (let i = 0; i < n; i++) {
    px0 += points[2 * i]!;
    py0 += points[2 * i + 1]!;
  }
  px0 /= n;
  py0 /= n;
  const match = (): number => {
    const c = Math.cos(angle), s = Math.sin(angle);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const x = points[2 * i]!, y = points[2 * i + 1]!;
      grid.nearest(c * x - s * y + tx, s * x + c * y + ty, hit);
      qx[i] = hit.x;
      qy[i] = hit.y;
      sum += hit.distance * hit.distance;
    }
    return Math.sqrt(sum / n);
  };
  let rms = match();
  let iterations = 0;
  for (; iterations < maxIterations && rms > 0; iterations++) {
    let mqx = 0, mqy = 0;
    for (let i = 0; i < n; i++) {
      mqx += qx[i]!;
      mqy += qy[i]!;
    }
    mqx /= n;
    mqy /= n;
    let sxx = 0, sxy = 0;
    for (let i = 0; i < n; i++) {
      const ax = points[2 * i]! - px0, ay = points[2 * i + 1]! - py0;
      const bx = qx[i]! - mqx, by = qy[i]! - mqy;
      sxx += ax * bx + ay * by;
      sxy += ax * by - ay * bx;
    }
    const nextAngle = Math.atan2(sxy, sxx);
    const c = Math.cos(nextAngle), s = Math.sin(nextAngle);
    const prev = { angle, tx, ty };
    angle = nextAngle;
    tx = mqx - (c * px0 - s * py0);
    ty = mqy - (s * px0 + c * py0);
    const next = match();
    if (!(next < rms)) {
      // Procrustes on fixed correspondences never raises their cost; a rise means new matches did: keep the better pose.
      ({ angle, tx, ty } = prev);
      match();
      break;
    }
    const gain = rms - next;
    rms = next;
    if (gain <= 1e-9 * Math.max(rms, 1e-300) || gain <= 1e-15) break;
  }
  return { rms, angle, tx, ty, iterations };
}
