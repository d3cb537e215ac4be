import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import type { DatumFeature } from './datumFrame';

/** A feature axis: a hole's or a pin's, nominal or fitted on the scan. */
export interface Axis {
  direction: Vec3;
  point: Vec3;
}

/**
 * A datum established by a pattern of parallel holes or pins (ASME Y14.5-2018 4.17, ISO 5459's
 * datum from a group of features): the features together at their basic places. As datum features
 * they give the frame an axis, the pattern's centre (the mean of the axes), and a clocking about it.
 * The clocking is the rotation that best carries the nominal axes onto the scan's (least squares on
 * their offsets from the centres), given to the frame as a second axis that the clocking turns: a
 * frame's second axis sets x toward it (datumFrame.ts). For two holes that is the line through them.
 */
export interface PatternDatum {
  nominal: DatumFeature;
  actual: DatumFeature;
  clock: { nominal: DatumFeature; actual: DatumFeature };
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const reject = (v: Vec3, u: Vec3): Vec3 => sub(v, scale(u, dot(v, u)));

/** Axes this far from parallel (radians) are not one pattern's. */
const PARALLEL = 1e-3;

/** The mean direction, each axis turned to agree with `like`. */
function meanDirection(axes: readonly Axis[], like: Vec3): Vec3 {
  let s: Vec3 = [0, 0, 0];
  for (const a of axes) s = add(s, dot(a.direction, like) < 0 ? scale(a.direction, -1) : a.direction);
  return normalize(s);
}

/** Each axis' point moved along the direction into the plane across it through `through`. */
function inPlane(axes: readonly Axis[], d: Vec3, through: Vec3): Vec3[] {
  return axes.map((a) => sub(a.point, scale(d, dot(sub(a.point, through), d))));
}

function centroid(points: readonly Vec3[]): Vec3 {
  let s: Vec3 = [0, 0, 0];
  for (const p of points) s = add(s, p);
  return scale(s, 1 / points.length);
}

/**
 * The pattern datum of nominal axes and the scan's axes fitted on the same features (same order),
 * or why there is none: fewer than two features, axes not parallel, or all on one line.
 */
export function patternDatum(nominal: readonly Axis[], actual: readonly Axis[]): PatternDatum | string {
  if (nominal.length < 2 || actual.length !== nominal.length) return 'a pattern datum needs two features or more';
  const dn = meanDirection(nominal, nominal[0]!.direction);
  if (nominal.some((a) => Math.abs(dot(normalize(a.direction), dn)) < Math.cos(PARALLEL))) return 'the axes of its features are not parallel';
  const pn = inPlane(nominal, dn, nominal[0]!.point);
  const cn = centroid(pn);
  const offsets = pn.map((p) => sub(p, cn));
  // The feature farthest from the centre clocks the frame: the others may sit on it.
  let k = 0;
  offsets.forEach((o, i) => Math.hypot(...o) > Math.hypot(...offsets[k]!) && (k = i));
  const reach = Math.hypot(...offsets[k]!);
  if (reach < 1e-6 * (1 + Math.hypot(...cn))) return 'its features are on one axis (a common datum axis, not a pattern)';

  const da = meanDirection(actual, dn);
  const pa = inPlane(actual, da, cn);
  const ca = centroid(pa);
  // In-plane bases: u, v across dn; ua, va the same turned onto the scan's plane across da.
  const u = normalize(offsets[k]!), v = cross(dn, u);
  const ua = normalize(reject(u, da)), va = cross(da, ua);
  let sc = 0, ss = 0;
  pa.forEach((p, i) => {
    const o = offsets[i]!, q = sub(p, ca);
    const xn = dot(o, u), yn = dot(o, v), xa = dot(q, ua), ya = dot(q, va);
    sc += xn * xa + yn * ya;
    ss += xn * ya - yn * xa;
  });
  const theta = Math.atan2(ss, sc);
  const clockActual = add(ca, add(scale(ua, reach * Math.cos(theta)), scale(va, reach * Math.sin(theta))));
  return {
    nominal: { kind: 'axis', direction: dn, point: cn },
    actual: { kind: 'axis', direction: da, point: ca },
    clock: { nominal: { kind: 'axis', direction: dn, point: add(cn, offsets[k]!) }, actual: { kind: 'axis', direction: da, point: clockActual } },
  };
}
