import { createExactHit } from '../exact/ExactReference';
import { dot, type Vec3 } from '../math/vec3';
import type { DatumFeature, Frame } from './datumFrame';
import { fitCircle2d } from './leastSquares';
import type { NominalAccess } from './nominalFaces';

/** What an evaluator found: the actual value and how, or why there is none. */
export type Reading = { actual: number; method: string } | { reason: string };

/** Circular elements (sections) a circular runout or coaxiality reads: up to this many, spread over the feature. */
const SECTIONS = 15;
/** A section's thickness, as a share of the feature's extent along the binning coordinate. */
const SECTION_SHARE = 0.02;
/** A section counts when its samples leave no gap wider than this around the axis (radians). */
const MAX_GAP = Math.PI / 2;
/**
 * A circular element of a feature that is not a whole turn (an arc face, a sector of a face across
 * the axis) is the part of the circle the feature has: its section counts when it covers this share
 * of the angle the feature's samples cover. On a whole turn this is the MAX_GAP rule.
 */
const ARC_SHARE = 1 - MAX_GAP / (2 * Math.PI);

/**
 * The datum axis of a reference (ASME Y14.5 ch. 12, ISO 1101 runout and coaxiality): the nominal
 * frame's z through its origin, when one of the datums is an axis (A, A-B, or a face A with a bore B:
 * the frame puts z along A's normal and the origin on B's axis).
 */
function datumAxis(frame: Frame, features: DatumFeature[]): { o: Vec3; z: Vec3; x: Vec3; y: Vec3 } | null {
  if (!features.some((f) => f.kind === 'axis')) return null;
  return { o: frame.origin, z: frame.axes[2], x: frame.axes[0], y: frame.axes[1] };
}

interface Polar {
  h: Float64Array;
  rho: Float64Array;
  angle: Float64Array;
  u: Float64Array;
  v: Float64Array;
}

function polar(mapped: Float64Array, n: number, a: { o: Vec3; z: Vec3; x: Vec3; y: Vec3 }): Polar {
  const out: Polar = { h: new Float64Array(n), rho: new Float64Array(n), angle: new Float64Array(n), u: new Float64Array(n), v: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const d: Vec3 = [mapped[3 * i]! - a.o[0], mapped[3 * i + 1]! - a.o[1], mapped[3 * i + 2]! - a.o[2]];
    const u = dot(d, a.x), v = dot(d, a.y);
    out.h[i] = dot(d, a.z);
    out.u[i] = u;
    out.v[i] = v;
    out.rho[i] = Math.hypot(u, v);
    out.angle[i] = Math.atan2(v, u);
  }
  return out;
}

/** Sample indices of each section along `coord` (SECTIONS slices, SECTION_SHARE thick) that holds enough samples all around the axis. */
function sections(coord: Float64Array, angle: Float64Array, minSamples: number, maxGap = MAX_GAP): number[][] {
  let lo = Infinity, hi = -Infinity;
  for (const c of coord) [lo, hi] = [Math.min(lo, c), Math.max(hi, c)];
  const half = 0.5 * SECTION_SHARE * (hi - lo);
  const out: number[][] = [];
  for (let s = 0; s < SECTIONS; s++) {
    const mid = lo + ((s + 0.5) * (hi - lo)) / SECTIONS;
    const idx: number[] = [];
    for (let i = 0; i < coord.length; i++) if (Math.abs(coord[i]! - mid) <= half) idx.push(i);
    if (idx.length >= Math.max(minSamples, 8) && largestGap(idx.map((i) => angle[i]!)) <= maxGap) out.push(idx);
  }
  return out;
}

function largestGap(angles: number[]): number {
  const a = angles.sort((p, q) => p - q);
  let gap = a[0]! + 2 * Math.PI - a[a.length - 1]!;
  for (let i = 1; i < a.length; i++) gap = Math.max(gap, a[i]! - a[i - 1]!);
  return gap;
}

/**
 * Circular and total runout (ASME Y14.5 12.4-12.5, ISO 1101 18.15-18.16): the full indicator
 * movement as the part turns about the datum axis, the indicator normal to the nominal surface.
 * Each sample's reading is its signed distance from the nominal faces in the datum frame; a circular
 * element is a section across the axis (a surface of revolution: by height along the axis; a face
 * across the axis: by radius), its runout the range of its readings; circular runout is the largest
 * over the sections, total runout the range over the whole feature.
 */
export function runout(kind: 'circularRunout' | 'totalRunout', nominal: NominalAccess, mapped: Float64Array, n: number, planar: boolean, frame: Frame, features: DatumFeature[], minSamples: number): Reading {
  const a = datumAxis(frame, features);
  if (!a) return { reason: `${kind} needs a datum axis (a cylindrical datum, a common datum A-B, or a face with a bore)` };
  const hit = createExactHit();
  const reading = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = mapped[3 * i]!, y = mapped[3 * i + 1]!, z = mapped[3 * i + 2]!;
    nominal.ref.nearest(x, y, z, hit);
    reading[i] = (x - hit.x) * hit.nx + (y - hit.y) * hit.ny + (z - hit.z) * hit.nz;
  }
  const range = (idx: Iterable<number>) => {
    let lo = Infinity, hi = -Infinity;
    for (const i of idx) [lo, hi] = [Math.min(lo, reading[i]!), Math.max(hi, reading[i]!)];
    return hi - lo;
  };
  if (kind === 'totalRunout') {
    return { actual: range(reading.keys()), method: `range of the readings normal to the nominal surface over the whole feature, turned about the datum axis (total runout)` };
  }
  const p = polar(mapped, n, a);
  // Runout reads the circular elements the feature has (ASME Y14.5 12.4: each circular element of
  // the feature), so an arc face's elements are arcs; coaxiality, which fits centres, needs turns.
  const covered = 2 * Math.PI - largestGap(Array.from(p.angle));
  const secs = sections(planar ? p.rho : p.h, p.angle, minSamples, 2 * Math.PI - ARC_SHARE * covered);
  if (secs.length === 0) return { reason: 'no circular element (section across the datum axis) holds enough samples over the angle the feature covers' };
  const arc = covered < 2 * Math.PI - MAX_GAP ? `, arcs of about ${Math.round((covered * 180) / Math.PI)} degrees` : '';
  return { actual: Math.max(...secs.map(range)), method: `largest range of the readings normal to the nominal surface over ${secs.length} circular elements (${planar ? 'by radius' : 'by height'} about the datum axis${arc})` };
}

/**
 * Coaxiality (ISO 1101 18.13.2) and concentricity (ASME Y14.5-2009 7.6.4): the derived median line's
 * points (the least-squares circle centres of sections across the datum axis, ISO 12180's
 * associated circle) within a cylinder about the datum axis: twice the largest centre distance.
 * For concentricity (median points of opposed elements) a section's centre stands for its median
 * points: on a round section the farthest median point is as far from the axis as the centre.
 */
export function coaxiality(kind: string, mapped: Float64Array, n: number, frame: Frame, features: DatumFeature[], minSamples: number): Reading {
  const a = datumAxis(frame, features);
  if (!a) return { reason: `${kind} needs a datum axis (a cylindrical datum, or a common datum A-B)` };
  const p = polar(mapped, n, a);
  const secs = sections(p.h, p.angle, minSamples);
  let worst = -Infinity;
  for (const idx of secs) {
    const uv: number[] = [];
    for (const i of idx) uv.push(p.u[i]!, p.v[i]!);
    const c = fitCircle2d(uv);
    if (c) worst = Math.max(worst, Math.hypot(c.cu, c.cv));
  }
  if (worst === -Infinity) return { reason: 'no section across the datum axis holds enough samples all around' };
  return { actual: 2 * worst, method: `twice the largest distance from the datum axis of the least-squares circle centres of ${secs.length} sections across it${kind === 'concentricity' ? ' (a section centre stands for its median points)' : ''}` };
}
