import { createExactHit, type ExactReference } from '../exact/ExactReference';
import { apply, applyToPoints, compose, IDENTITY, rotate, rotationAngle, rotationOfVector, type Rigid } from '../math/rigid';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import { chebyshevFit } from './chebyshev';
import type { Frame } from './datumFrame';

/**
 * A profile zone the datums do not hold in every degree of freedom floats in the others (ASME
 * Y14.5-2018 ch. 11, ISO 1660): a profile with no datum controls form only, one to datum A alone
 * (a composite profile's lower segment) form and orientation to A, its location along A's plane
 * free. Read where the scan stands, such a profile read the scan's placement (a CTC 4 scan turned
 * 0.3 degrees: 1.29 to D against 0.2); here the samples are moved by the free motions to the
 * placement of least largest distance (the minimax, as the zone's width is decided by its worst
 * sample), solved as linear Chebyshev problems re-linearised on the exact faces.
 */

/** The rigid motions a datum reference frame leaves free: unit translation directions and rotation axes. */
export interface Freedom {
  translations: Vec3[];
  rotations: Vec3[];
  /**
   * The point free rotations turn about when datums hold some translation: on the datum axis that
   * holds it (the frame's origin). A|B with B a bore leaves the turn about B free, not a turn about
   * the feature read (which would move it across B's located directions). Absent when every
   * translation is free: then any point serves and the samples' centre is the best conditioned.
   */
  pivot?: Vec3;
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const reject = (v: Vec3, u: Vec3): Vec3 => sub(v, scale(u, dot(v, u)));
const AXES: Vec3[] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/** What the datums of `frame` (the nominal's) leave free: translations across the directions they locate, rotations they do not fix. */
export function freeMotions(frame: Frame): Freedom {
  const fixed: Vec3[] = [];
  for (const d of frame.located ?? []) {
    let r = d;
    for (const q of fixed) r = reject(r, q);
    if (Math.hypot(...r) > 1e-6) fixed.push(normalize(r));
  }
  const translations: Vec3[] = [];
  for (const a of AXES) {
    let r = a;
    for (const q of [...fixed, ...translations]) r = reject(r, q);
    if (Math.hypot(...r) > 1e-6) translations.push(normalize(r));
  }
  const rotations = !frame.oriented ? [...frame.axes] : frame.clocked ? [] : [frame.axes[2]];
  return fixed.length ? { translations, rotations, pivot: frame.origin } : { translations, rotations };
}

/** The largest distance of the samples from the nominal faces, as placed (`placed`) and with the zone floated (`floated`). */
export interface FloatedZone {
  placed: number;
  floated: number;
  /** The free motion that floated it: its translation's length and its rotation in degrees. */
  shift: number;
  turnDegrees: number;
  /** Whether any free motion moves the samples across the faces (a plane's own slide and spin do not). */
  movable: boolean;
}

/** Rows the linear programme reads at once; more samples are taken by their largest distances and a stride. */
const WORKING_ROWS = 3000;
const ROUNDS = 6;

/**
 * Floats the samples `points` (n, in the nominal's frame) by the free motions to their least
 * largest distance from the nominal faces. Never worse than as placed: a motion is kept only when
 * the largest distance over every sample falls.
 */
export function floatZone(ref: ExactReference, points: Float64Array, n: number, free: Freedom): FloatedZone {
  const hit = createExactHit();
  const signed = new Float64Array(n), normals = new Float64Array(3 * n);
  const measure = (p: Float64Array): number => {
    let worst = 0;
    for (let i = 0; i < n; i++) {
      ref.nearest(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!, hit);
      signed[i] = (p[3 * i]! - hit.x) * hit.nx + (p[3 * i + 1]! - hit.y) * hit.ny + (p[3 * i + 2]! - hit.z) * hit.nz;
      normals[3 * i] = hit.nx;
      normals[3 * i + 1] = hit.ny;
      normals[3 * i + 2] = hit.nz;
      worst = Math.max(worst, hit.distance);
    }
    return worst;
  };
  const placed = measure(points);
  const none: FloatedZone = { placed, floated: placed, shift: 0, turnDegrees: 0, movable: false };
  if (n === 0 || free.translations.length + free.rotations.length === 0 || placed === 0) return none;

  // The motion kept so far, applied to the samples as placed (steps compose; no drift from moving moved points).
  let total: Rigid = IDENTITY, best = points, bestWorst = placed, movable = false;
  for (let round = 0; round < ROUNDS; round++) {
    const step = minimaxStep(best, workingRows(signed, n), signed, normals, free);
    if (step === 'fixed') break;
    movable = true;
    if (!step) break;
    const next = compose(step, total);
    const moved = applyToPoints(next, points.subarray(0, 3 * n));
    const worst = measure(moved);
    if (!(worst < bestWorst * (1 - 1e-9))) break;
    const gain = bestWorst - worst;
    [total, best, bestWorst] = [next, moved, worst];
    if (gain < 1e-6 * worst) break;
  }
  // How far the samples' centroid moved, and the turn.
  const c = centroid(points, n), moved = apply(total, ...c);
  return { placed, floated: bestWorst, shift: Math.hypot(moved[0] - c[0], moved[1] - c[1], moved[2] - c[2]), turnDegrees: (rotationAngle(total.r) * 180) / Math.PI, movable };
}

function centroid(points: Float64Array, n: number): Vec3 {
  const c: Vec3 = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) c[a]! += points[3 * i + a]! / n;
  return c;
}

/** All rows, or the largest distances and a stride over the rest. */
function workingRows(signed: Float64Array, n: number): ArrayLike<number> {
  if (n <= WORKING_ROWS) return Int32Array.from({ length: n }, (_, i) => i);
  const byDistance = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => Math.abs(signed[b]!) - Math.abs(signed[a]!));
  const take = new Set<number>(byDistance.subarray(0, WORKING_ROWS / 2));
  const stride = n / (WORKING_ROWS / 2);
  for (let k = 0; k < WORKING_ROWS / 2; k++) take.add(Math.floor(k * stride));
  return Int32Array.from(take);
}

/**
 * One linearised minimax step: min over the free motion m of max |s_i + n_i . m(p_i)| on the rows,
 * m(p) = t + w x (p - c).
 */
function minimaxStep(points: Float64Array, rows: ArrayLike<number>, signed: Float64Array, normals: Float64Array, free: Freedom): Rigid | 'fixed' | null {
  const m = rows.length;
  const centre: Vec3 = [0, 0, 0];
  for (let k = 0; k < m; k++) for (let a = 0; a < 3; a++) centre[a]! += points[3 * rows[k]! + a]! / m;
  const point = (k: number): Vec3 => [points[3 * rows[k]!]!, points[3 * rows[k]! + 1]!, points[3 * rows[k]! + 2]!];
  const normal = (k: number): Vec3 => [normals[3 * rows[k]!]!, normals[3 * rows[k]! + 1]!, normals[3 * rows[k]! + 2]!];
  return solveMinimax(m, centre, free, point, normal, (k) => signed[rows[k]!]!);
}

/**
 * The free motion (rotations about the freedom's pivot, else the samples' centre) minimising max_k |y_k + d_k . m(p_k)|: row k reads the change of
 * y_k as the point p_k moves along d_k. Motions that change no row (a plane's own slide and spin, a
 * cylinder's) are dropped, so the programme is never degenerate: 'fixed' when none is left, null
 * when the programme does not settle.
 */
export function solveMinimax(m: number, samplesCentre: Vec3, free: Freedom, point: (k: number) => Vec3, along: (k: number) => Vec3, y: (k: number) => number): Rigid | 'fixed' | null {
  const centre = free.pivot ?? samplesCentre;
  const motions: { kind: 't' | 'r'; axis: Vec3 }[] = [...free.translations.map((axis) => ({ kind: 't' as const, axis })), ...free.rotations.map((axis) => ({ kind: 'r' as const, axis }))];
  // Column j over the rows: the change of each row per unit of motion j.
  const columns = motions.map(({ kind, axis }) => {
    const c = new Float64Array(m);
    for (let k = 0; k < m; k++) c[k] = kind === 't' ? dot(along(k), axis) : dot(axis, cross(sub(point(k), centre), along(k)));
    return c;
  });
  // Keep the independent columns, each scaled to unit RMS (Gram-Schmidt on copies decides).
  const kept: number[] = [], scales: number[] = [], basis: Float64Array[] = [];
  columns.forEach((c, j) => {
    const rms = Math.sqrt(c.reduce((s, v) => s + v * v, 0) / m);
    if (!(rms > 1e-9)) return;
    const r = c.map((v) => v / rms);
    for (const b of basis) {
      const d = r.reduce((s, v, k) => s + v * b[k]!, 0) / m;
      for (let k = 0; k < m; k++) r[k]! -= d * b[k]!;
    }
    const left = Math.sqrt(r.reduce((s, v) => s + v * v, 0) / m);
    if (left < 1e-6) return;
    basis.push(r.map((v) => v / left));
    kept.push(j);
    scales.push(rms);
  });
  if (kept.length === 0) return 'fixed';
  const target = Float64Array.from({ length: m }, (_, k) => y(k));
  // chebyshevFit minimises max |y - A x|: A = -columns, so the residual is y + columns . x.
  const fit = chebyshevFit(m, kept.length, (j, k) => -columns[kept[j]!]![k]! / scales[j]!, target);
  if (!fit) return null;
  const translation: Vec3 = [0, 0, 0], rotation: Vec3 = [0, 0, 0];
  kept.forEach((j, q) => {
    const { kind, axis } = motions[j]!;
    const amount = fit.x[q]! / scales[q]!;
    const to = kind === 't' ? translation : rotation;
    for (let a = 0; a < 3; a++) to[a]! += amount * axis[a]!;
  });
  // The rotation vector taken about the centre, then the translation: x -> R (x - c) + c + t.
  const r = rotationOfVector(rotation[0], rotation[1], rotation[2]);
  const rc = rotate({ r, t: [0, 0, 0] }, ...centre);
  return { r, t: [centre[0] - rc[0] + translation[0], centre[1] - rc[1] + translation[1], centre[2] - rc[2] + translation[2]] };
}

/**
 * A feature of size's derived feature, for a position floated (a pattern's, or one feature's in what
 * its datums leave free), with its true position: an axis by its ends (a point and unit direction),
 * or a width feature's centre plane by the corners of its extent (a point and unit normal).
 */
export type FeatureProbe = { ends: [Vec3, Vec3]; origin: Vec3; axis: Vec3 } | { corners: Vec3[]; origin: Vec3; normal: Vec3 } | CompoundProbe;

/**
 * A feature located by several derived features at once (a slot's two centre planes, a counterbored
 * hole's two axes): they move together, so each of its parts is a row set of the one programme.
 */
export interface CompoundProbe {
  parts: FeatureProbe[];
}

const RADIAL_DIRECTIONS = 4;

/**
 * The free motion that brings a pattern's derived features (every feature together: a simultaneous
 * requirement) nearest their true positions, minimax. An axis end's radial distance is read through
 * its components along four directions across its axis (an octagon, within 8 % of the circle; the
 * caller measures the result exactly and keeps it only if it is better); a centre plane's distance
 * is linear over the plane, so its largest is at a corner of its extent, each read along the basic
 * normal (exact). Steps re-linearised up to three times; null when nothing moves.
 */
export function floatFeatures(probes: FeatureProbe[], free: Freedom): Rigid | null {
  if (probes.length === 0 || free.translations.length + free.rotations.length === 0) return null;
  let total: Rigid | null = null;
  for (let round = 0; round < 3; round++) {
    const rows: { p: Vec3; u: Vec3; y: number }[] = [];
    const moved = (q: Vec3) => (total ? apply(total, ...q) : q);
    for (const pr of probes.flatMap(leaves)) {
      if ('parts' in pr) continue;
      if ('corners' in pr) {
        for (const corner of pr.corners) {
          const p = moved(corner);
          rows.push({ p, u: pr.normal, y: dot(sub(p, pr.origin), pr.normal) });
        }
        continue;
      }
      const [a, b] = across(pr.axis);
      for (const end of pr.ends) {
        const p = moved(end);
        const v = sub(p, pr.origin);
        for (let k = 0; k < RADIAL_DIRECTIONS; k++) {
          const t = (k * Math.PI) / RADIAL_DIRECTIONS;
          const u: Vec3 = [0, 1, 2].map((i) => Math.cos(t) * a[i]! + Math.sin(t) * b[i]!) as Vec3;
          rows.push({ p, u, y: dot(v, u) });
        }
      }
    }
    const centre: Vec3 = [0, 0, 0];
    for (const r of rows) for (let i = 0; i < 3; i++) centre[i]! += r.p[i]! / rows.length;
    const step = solveMinimax(rows.length, centre, free, (k) => rows[k]!.p, (k) => rows[k]!.u, (k) => rows[k]!.y);
    if (step === 'fixed' || step === null) break;
    total = total ? compose(step, total) : step;
    // A step that moves the centre and turns by nothing worth counting ends the rounds.
    if (Math.hypot(...sub(apply(step, ...centre), centre)) + rotationAngle(step.r) < 1e-12) break;
  }
  return total;
}

const leaves = (p: FeatureProbe): FeatureProbe[] => ('parts' in p ? p.parts.flatMap(leaves) : [p]);

/** Two unit directions across `axis`. */
function across(axis: Vec3): [Vec3, Vec3] {
  const pick: Vec3 = Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const a = normalize(reject(pick, axis));
  return [a, cross(axis, a)];
}

/**
 * The corners of a planar point set's extent (its convex hull in the plane across `normal`; n
 * points, x y z triples): a linear function over the plane, the distance from another plane, is
 * largest at one of them, so they stand for every point in a minimax.
 */
export function extentCorners(points: Float64Array, n: number, normal: Vec3): Vec3[] {
  const [a, b] = across(normal);
  const uv = Array.from({ length: n }, (_, i) => {
    const p: Vec3 = [points[3 * i]!, points[3 * i + 1]!, points[3 * i + 2]!];
    return { i, u: dot(p, a), v: dot(p, b) };
  }).sort((p, q) => p.u - q.u || p.v - q.v);
  if (n < 3) return uv.map(({ i }) => [points[3 * i]!, points[3 * i + 1]!, points[3 * i + 2]!]);
  // Andrew's monotone chain: the lower hull, then the upper.
  type P = (typeof uv)[number];
  const turn = (o: P, p: P, q: P) => (p.u - o.u) * (q.v - o.v) - (p.v - o.v) * (q.u - o.u);
  const half = (list: P[]) => {
    const out: P[] = [];
    for (const q of list) {
      while (out.length >= 2 && turn(out[out.length - 2]!, out[out.length - 1]!, q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  const hull = [...half(uv), ...half([...uv].reverse())];
  return hull.map(({ i }) => [points[3 * i]!, points[3 * i + 1]!, points[3 * i + 2]!]);
}
