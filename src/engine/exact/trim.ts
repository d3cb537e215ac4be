/**
 * A face's trimmed domain in its surface's (u, v) space: the boundary polygons of every pcurve
 * (outer and inner wires, seam edges on both sides, degenerate edges at poles), tested by the
 * even-odd rule, which needs no wire orientation. Segments are binned into rows of v so a test
 * reads only the segments its horizontal ray can cross.
 */
export interface TrimRegion {
  /** u0 v0 u1 v1 per segment. */
  segments: Float64Array;
  uMin: number;
  uMax: number;
  vMin: number;
  vMax: number;
  rowHeight: number;
  /** rowStart[r] .. rowStart[r + 1] index rowSegments for row r. */
  rowStart: Uint32Array;
  rowSegments: Uint32Array;
}

/** Bins the segments (u0 v0 u1 v1 each) into about sqrt(n) rows; null when there are none. */
export function buildTrim(segments: Float64Array): TrimRegion | null {
  const n = segments.length / 4;
  if (n === 0) return null;
  let uMin = Infinity, uMax = -Infinity, vMin = Infinity, vMax = -Infinity;
  for (let s = 0; s < n; s++) {
    for (const k of [0, 2]) {
      const u = segments[4 * s + k]!, v = segments[4 * s + k + 1]!;
      if (u < uMin) uMin = u;
      if (u > uMax) uMax = u;
      if (v < vMin) vMin = v;
      if (v > vMax) vMax = v;
    }
  }
  const rows = Math.max(1, Math.min(4096, Math.ceil(2 * Math.sqrt(n))));
  const rowHeight = vMax > vMin ? (vMax - vMin) / rows : 1;
  const rowOf = (v: number) => Math.min(rows - 1, Math.max(0, Math.floor((v - vMin) / rowHeight)));
  const counts = new Uint32Array(rows + 1);
  for (let s = 0; s < n; s++) {
    const v0 = segments[4 * s + 1]!, v1 = segments[4 * s + 3]!;
    for (let r = rowOf(Math.min(v0, v1)); r <= rowOf(Math.max(v0, v1)); r++) counts[r + 1]!++;
  }
  for (let r = 0; r < rows; r++) counts[r + 1]! += counts[r]!;
  const rowStart = counts.slice();
  const fill = counts.slice(0, rows);
  const rowSegments = new Uint32Array(rowStart[rows]!);
  for (let s = 0; s < n; s++) {
    const v0 = segments[4 * s + 1]!, v1 = segments[4 * s + 3]!;
    for (let r = rowOf(Math.min(v0, v1)); r <= rowOf(Math.max(v0, v1)); r++) rowSegments[fill[r]!++] = s;
  }
  return { segments, uMin, uMax, vMin, vMax, rowHeight, rowStart, rowSegments };
}

/** Whether (u, v) lies inside the trimmed domain (even-odd crossings of a ray toward +u). */
export function insideTrim(t: TrimRegion, u: number, v: number): boolean {
  if (!(v >= t.vMin && v <= t.vMax && u >= t.uMin && u <= t.uMax)) return false;
  const rows = t.rowStart.length - 1;
  const r = Math.min(rows - 1, Math.max(0, Math.floor((v - t.vMin) / t.rowHeight)));
  const seg = t.segments;
  let inside = false;
  for (let k = t.rowStart[r]!; k < t.rowStart[r + 1]!; k++) {
    const o = 4 * t.rowSegments[k]!;
    const v0 = seg[o + 1]!, v1 = seg[o + 3]!;
    // Half-open in v, so a ray through a shared segment end counts once.
    if (v0 > v === v1 > v) continue;
    const u0 = seg[o]!, u1 = seg[o + 2]!;
    const x = u0 + ((v - v0) * (u1 - u0)) / (v1 - v0);
    if (x > u) inside = !inside;
  }
  return inside;
}

/**
 * The point of the trim boundary nearest to (u, v) in parameter space, searching rows outward
 * from v's. Writes u, v to out; returns the parametric distance.
 */
export function nearestOnTrim(t: TrimRegion, u: number, v: number, out: Float64Array): number {
  const seg = t.segments;
  const rows = t.rowStart.length - 1;
  const r0 = Math.min(rows - 1, Math.max(0, Math.floor((v - t.vMin) / t.rowHeight)));
  let best = Infinity;
  for (let ring = 0; ring < rows; ring++) {
    // Rows ring away from r0 are at least (ring - 1) row heights from v.
    if (ring > 1 && (ring - 1) * t.rowHeight > Math.sqrt(best)) break;
    for (const r of ring === 0 ? [r0] : [r0 - ring, r0 + ring]) {
      if (r < 0 || r >= rows) continue;
      for (let k = t.rowStart[r]!; k < t.rowStart[r + 1]!; k++) {
        const o = 4 * t.rowSegments[k]!;
        const u0 = seg[o]!, v0 = seg[o + 1]!, du = seg[o + 2]! - u0, dv = seg[o + 3]! - v0;
        const len2 = du * du + dv * dv;
        let s = len2 > 0 ? ((u - u0) * du + (v - v0) * dv) / len2 : 0;
        s = s < 0 ? 0 : s > 1 ? 1 : s;
        const x = u0 + s * du, y = v0 + s * dv;
        const d = (x - u) ** 2 + (y - v) ** 2;
        if (d < best) {
          best = d;
          out[0] = x;
          out[1] = y;
        }
      }
    }
  }
  return Math.sqrt(best);
}
