import type { Polyline2, SectionCurves } from './sliceChain';

/** Plane geometry of section profiles (polylines in a station plane's u, v coordinates). */

/** Shoelace area: positive for a counter-clockwise loop. */
export function signedArea(loop: Polyline2): number {
  const p = loop.points;
  const n = p.length / 2;
  if (n < 3) return 0;
  // Relative to the first point, so that far-from-origin profiles keep their digits.
  const ox = p[0]!, oy = p[1]!;
  let twice = 0;
  for (let i = 1; i < n - 1; i++) {
    const ax = p[2 * i]! - ox, ay = p[2 * i + 1]! - oy;
    const bx = p[2 * i + 2]! - ox, by = p[2 * i + 3]! - oy;
    twice += ax * by - ay * bx;
  }
  return twice / 2;
}

/** Centroid of the region a loop encloses (the vertex mean for a degenerate loop). */
export function areaCentroid(loop: Polyline2): [number, number] {
  const p = loop.points;
  const n = p.length / 2;
  const ox = p[0]!, oy = p[1]!;
  let twice = 0, cx = 0, cy = 0;
  for (let i = 1; i < n - 1; i++) {
    const ax = p[2 * i]! - ox, ay = p[2 * i + 1]! - oy;
    const bx = p[2 * i + 2]! - ox, by = p[2 * i + 3]! - oy;
    const c = ax * by - ay * bx;
    twice += c;
    cx += (ax + bx) * c;
    cy += (ay + by) * c;
  }
  if (Math.abs(twice) < 1e-300) return lengthCentroid([loop]) ?? [ox, oy];
  return [ox + cx / (3 * twice), oy + cy / (3 * twice)];
}

/** Number of segments of a polyline (a closed one has its closing segment). */
export function segmentCount(line: Polyline2): number {
  const n = line.points.length / 2;
  return line.closed ? n : n - 1;
}

export function polylineLength(line: Polyline2): number {
  const p = line.points;
  const m = segmentCount(line);
  const n = p.length / 2;
  let len = 0;
  for (let i = 0; i < m; i++) {
    const j = (i + 1) % n;
    len += Math.hypot(p[2 * j]! - p[2 * i]!, p[2 * j + 1]! - p[2 * i + 1]!);
  }
  return len;
}

/** Arc-length-weighted centroid of curves (independent of how densely they are sampled); null when they have no length. */
export function lengthCentroid(lines: readonly Polyline2[]): [number, number] | null {
  let total = 0, cx = 0, cy = 0;
  for (const line of lines) {
    const p = line.points;
    const n = p.length / 2;
    const m = segmentCount(line);
    for (let i = 0; i < m; i++) {
      const j = (i + 1) % n;
      const l = Math.hypot(p[2 * j]! - p[2 * i]!, p[2 * j + 1]! - p[2 * i + 1]!);
      total += l;
      cx += (l * (p[2 * i]! + p[2 * j]!)) / 2;
      cy += (l * (p[2 * i + 1]! + p[2 * j + 1]!)) / 2;
    }
  }
  return total > 0 ? [cx / total, cy / total] : null;
}

/** Even-odd point-in-polygon test against one loop. */
export function insideLoop(loop: Polyline2, x: number, y: number): boolean {
  const p = loop.points;
  const n = p.length / 2;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const yi = p[2 * i + 1]!, yj = p[2 * j + 1]!;
    if (yi > y !== yj > y) {
      const xi = p[2 * i]!, xj = p[2 * j]!;
      if (x < xi + ((y - yi) * (xj - xi)) / (yj - yi)) inside = !inside;
    }
  }
  return inside;
}

interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function bounds(line: Polyline2): Bounds {
  const p = line.points;
  const b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (let i = 0; i < p.length; i += 2) {
    const x = p[i]!, y = p[i + 1]!;
    if (x < b.minX) b.minX = x;
    if (x > b.maxX) b.maxX = x;
    if (y < b.minY) b.minY = y;
    if (y > b.maxY) b.maxY = y;
  }
  return b;
}

/** What one body's section at one station looks like. */
export interface SectionProfile {
  curves: SectionCurves;
  /** Per loop, how many other loops enclose it (0: an outer boundary, 1: a hole, ...). */
  depth: number[];
  /** Unsigned enclosed area per loop. */
  area: number[];
  /**
   * The profile compared: the largest outer loop, else the longest open path; null when the plane
   * missed the body.
   */
  main: Polyline2 | null;
  /** True when the main profile is an open path (the body has no closed loop here). */
  open: boolean;
  /** Sum of every curve's length. */
  length: number;
}

/**
 * Loop nesting by even-odd containment (a loop's depth is the number of loops around it) and the
 * main profile. Containment is tested with one vertex of the inner loop, after a box check.
 */
export function describeSection(curves: SectionCurves): SectionProfile {
  const { loops, paths } = curves;
  const area = loops.map((l) => Math.abs(signedArea(l)));
  const boxes = loops.map(bounds);
  const depth = loops.map((loop, i) => {
    const bi = boxes[i]!;
    let d = 0;
    for (let j = 0; j < loops.length; j++) {
      if (j === i || area[j]! <= area[i]!) continue;
      const bj = boxes[j]!;
      if (bi.minX < bj.minX || bi.maxX > bj.maxX || bi.minY < bj.minY || bi.maxY > bj.maxY) continue;
      if (insideLoop(loops[j]!, loop.points[0]!, loop.points[1]!)) d++;
    }
    return d;
  });
  let main: Polyline2 | null = null;
  let best = -1;
  for (let i = 0; i < loops.length; i++) {
    if (depth[i] === 0 && area[i]! > best) {
      best = area[i]!;
      main = loops[i]!;
    }
  }
  let open = false;
  if (!main) {
    let longest = -1;
    for (const path of paths) {
      const l = polylineLength(path);
      if (l > longest) {
        longest = l;
        main = path;
      }
    }
    open = main !== null;
  }
  let length = 0;
  for (const line of [...loops, ...paths]) length += polylineLength(line);
  return { curves, depth, area, main, open, length };
}

/** Every curve of a section, loops first. */
export function allCurves(profile: SectionProfile): Polyline2[] {
  return [...profile.curves.loops, ...profile.curves.paths];
}
