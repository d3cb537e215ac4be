import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import { solveLinear } from '../math/solveLinear';

/**
 * Datum features and the datum reference frame they build (ASME Y14.5-2018 ch. 4, ISO 5459), in
 * precedence order: the primary fixes what it can, the secondary what is left of the rotations and
 * translations, the tertiary the rest. Degrees of freedom no datum constrains stay as the fallback
 * frame has them (the scene's axes and origin: the scan's placement from its alignment).
 */
export type DatumFeature =
  | { kind: 'plane'; normal: Vec3; point: Vec3 }
  | { kind: 'axis'; direction: Vec3; point: Vec3 }
  | { kind: 'point'; point: Vec3 };

export interface Frame {
  origin: Vec3;
  /** Unit axes x, y, z (right-handed). */
  axes: [Vec3, Vec3, Vec3];
  /** A datum fixed the rotation about z (else x comes from the fallback: the rotation is free). */
  clocked?: boolean;
  /** A datum fixed z (else it is the fallback's: every rotation is free). */
  oriented?: boolean;
  /** Unit directions along which the datums fix the origin (independent; none to three). */
  located?: Vec3[];
}

export const WORLD: Frame = { origin: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] };

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const reject = (v: Vec3, u: Vec3): Vec3 => sub(v, scale(u, dot(v, u)));

export function buildFrame(features: readonly DatumFeature[], fallback: Frame = WORLD): Frame {
  let z: Vec3 | null = null;
  let x: Vec3 | null = null;
  /** Origin constraints o . d = v. */
  const rows: { d: Vec3; v: number }[] = [];
  /** A previous axis's point in the plane across z: a later axis clocks x toward it. */
  let axisPoint: Vec3 | null = null;
  const constrain = (d: Vec3, p: Vec3) => {
    const l = Math.hypot(...d);
    if (l > 1e-9) rows.push({ d: scale(d, 1 / l), v: dot(d, p) / l });
  };
  for (const f of features) {
    if (f.kind === 'plane') {
      if (!z) {
        z = normalize(f.normal);
        constrain(z, f.point);
      } else if (!x) {
        const d = reject(f.normal, z);
        if (Math.hypot(...d) < 1e-9) continue; // parallel to the primary: it adds nothing
        x = normalize(d);
        // The origin lies on the plane itself: a plane leaning on the primary (a 3-2-1 of fitted
        // planes) meets it where the faces meet, whichever of its points is given. A simulated
        // secondary or tertiary is already perpendicular to the earlier datums (evaluate.ts).
        constrain(f.normal, f.point);
      } else {
        constrain(f.normal, f.point);
      }
    } else if (f.kind === 'axis') {
      if (!z) {
        z = normalize(f.direction);
        const [u, w] = inPlane(z, fallback);
        constrain(u, f.point);
        constrain(w, f.point);
        axisPoint = f.point;
      } else if (!axisPoint && !x) {
        // An axis after a plane (the usual A plane | B bore): it locates the origin across z.
        const [u, w] = inPlane(z, fallback);
        constrain(u, f.point);
        constrain(w, f.point);
        axisPoint = f.point;
      } else if (!x && axisPoint) {
        // A second axis clocks the frame: x points from the first axis toward it.
        const d = reject(sub(f.point, axisPoint), z);
        if (Math.hypot(...d) > 1e-9) x = normalize(d);
      } else if (x) {
        // A tertiary axis (A|B|C with C a hole) fixes the origin across its own direction; what the
        // earlier datums fixed already stays theirs (independent()). Before, an axis after two
        // planes fixed nothing, so C's translation was left free.
        const [u, w] = inPlane(normalize(f.direction), fallback);
        constrain(u, f.point);
        constrain(w, f.point);
      }
    } else {
      for (const d of fallback.axes) constrain(d, f.point);
    }
  }
  const clocked = x !== null, oriented = z !== null;
  z ??= fallback.axes[2];
  if (!x) {
    let d = reject(fallback.axes[0], z);
    if (Math.hypot(...d) < 1e-6) d = reject(fallback.axes[1], z);
    x = normalize(d);
  }
  const y = cross(z, x);
  const kept = independent(rows);
  return { origin: solveOrigin(kept, fallback.origin), axes: [x, y, z], clocked, oriented, located: kept.map((r) => r.d) };
}

function inPlane(z: Vec3, fallback: Frame): [Vec3, Vec3] {
  let u = reject(fallback.axes[0], z);
  if (Math.hypot(...u) < 1e-6) u = reject(fallback.axes[1], z);
  u = normalize(u);
  return [u, cross(z, u)];
}

/** The constraints independent of earlier ones (a later one inside the span of those kept is dropped), three at most. */
function independent(rows: { d: Vec3; v: number }[]): { d: Vec3; v: number }[] {
  const kept: { d: Vec3; v: number }[] = [];
  for (const r of rows) {
    if (kept.length === 3) break;
    // Independent of those kept: its direction leaves a component outside their span.
    let rest = r.d;
    const basis: Vec3[] = [];
    for (const k of kept) {
      let b = k.d;
      for (const q of basis) b = reject(b, q);
      basis.push(normalize(b));
    }
    for (const q of basis) rest = reject(rest, q);
    if (Math.hypot(...rest) > 1e-6) kept.push(r);
  }
  return kept;
}

/** The point nearest `start` meeting the independent constraints `kept`. */
function solveOrigin(kept: { d: Vec3; v: number }[], start: Vec3): Vec3 {
  if (kept.length === 0) return start;
  // o = start + D^T l with D D^T l = v - D start.
  const A = kept.map((a) => kept.map((b) => dot(a.d, b.d)));
  const b = kept.map((r) => r.v - dot(r.d, start));
  const l = solveLinear(A, b)!;
  let o = start;
  kept.forEach((r, i) => (o = add(o, scale(r.d, l[i]!))));
  return o;
}

/** Coordinates of p in the frame. */
export function toFrame(f: Frame, p: Vec3): Vec3 {
  const d = sub(p, f.origin);
  return [dot(d, f.axes[0]), dot(d, f.axes[1]), dot(d, f.axes[2])];
}

/** The point with frame coordinates c. */
export function fromFrame(f: Frame, c: Vec3): Vec3 {
  return add(f.origin, add(scale(f.axes[0], c[0]), add(scale(f.axes[1], c[1]), scale(f.axes[2], c[2]))));
}

/** The rigid map that carries the actual datum frame onto the nominal one: a point of the scan seen where the nominal's datums would put it. */
export function frameMap(actual: Frame, nominal: Frame): (p: Vec3) => Vec3 {
  return (p) => fromFrame(nominal, toFrame(actual, p));
}

/** A direction carried by the same map. */
export function frameMapDirection(actual: Frame, nominal: Frame): (d: Vec3) => Vec3 {
  return (d) => {
    const c: Vec3 = [dot(d, actual.axes[0]), dot(d, actual.axes[1]), dot(d, actual.axes[2])];
    return add(scale(nominal.axes[0], c[0]), add(scale(nominal.axes[1], c[1]), scale(nominal.axes[2], c[2])));
  };
}
