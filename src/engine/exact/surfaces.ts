import { evaluateCurve, type Curve } from './curves';
import { evaluateNurbsSurface, type NurbsSurface } from './nurbs';

/**
 * A face's underlying surface in plain data, with OCCT's parameterization (ElSLib), so that the
 * (u, v) of a triangulation node or a pcurve is the same point here. `frame` is origin, x, y and z
 * directions (12 numbers); x and y need not make a direct frame with z (gp_Ax3 may be indirect).
 */
export type Surface =
  | { kind: 'plane'; frame: Float64Array }
  | { kind: 'cylinder'; frame: Float64Array; radius: number }
  | { kind: 'cone'; frame: Float64Array; radius: number; semiAngle: number }
  | { kind: 'sphere'; frame: Float64Array; radius: number }
  | { kind: 'torus'; frame: Float64Array; major: number; minor: number }
  | NurbsSurface
  /** S(u, v) = C(u) + v D (Geom_SurfaceOfLinearExtrusion). */
  | { kind: 'extrusion'; curve: Curve; direction: Float64Array }
  /** S(u, v) = C(v) rotated by u about the axis (origin, unit direction) (Geom_SurfaceOfRevolution). */
  | { kind: 'revolution'; curve: Curve; axis: Float64Array }
  /** A surface without a JS form (an offset surface, ...): evaluated and projected by the host's KernelSurfaces. */
  | { kind: 'kernel'; id: number };

/** The host's evaluator for `kernel` surfaces (the kernel itself, where there is one); projection is Newton's here. */
export interface KernelSurfaces {
  /** Writes S, Su, Sv, Suu, Suv, Svv (18 numbers) at (u, v). */
  evaluate(id: number, u: number, v: number, out: Float64Array): void;
}

/** Writes S, Su, Sv, Suu, Suv, Svv (18 numbers) at (u, v). */
export function evaluateSurface(s: Surface, u: number, v: number, out: Float64Array, kernel?: KernelSurfaces): Float64Array {
  switch (s.kind) {
    case 'nurbs':
      return evaluateNurbsSurface(s, u, v, out);
    case 'plane': {
      const F = s.frame;
      for (let d = 0; d < 3; d++) {
        out[d] = F[d]! + u * F[3 + d]! + v * F[6 + d]!;
        out[3 + d] = F[3 + d]!;
        out[6 + d] = F[6 + d]!;
        out[9 + d] = out[12 + d] = out[15 + d] = 0;
      }
      return out;
    }
    case 'cylinder':
    case 'cone':
    case 'sphere':
    case 'torus':
      return evaluateRevolved(s, u, v, out);
    case 'extrusion':
      return evaluateExtrusion(s.curve, s.direction, u, v, out);
    case 'revolution':
      return evaluateRevolution(s.curve, s.axis, u, v, out);
    case 'kernel':
      if (!kernel) throw new Error(`exact: surface ${s.id} needs the kernel to evaluate`);
      kernel.evaluate(s.id, u, v, out);
      return out;
  }
}

/**
 * The elementary surfaces of revolution as O + r(v) (cos u X + sin u Y) + z(v) Z, with the
 * generatrix (r, z) and its derivatives per kind.
 */
function evaluateRevolved(s: Extract<Surface, { kind: 'cylinder' | 'cone' | 'sphere' | 'torus' }>, u: number, v: number, out: Float64Array): Float64Array {
  let r: number, r1: number, r2: number, z: number, z1: number, z2: number;
  switch (s.kind) {
    case 'cylinder':
      r = s.radius;
      r1 = r2 = 0;
      z = v;
      z1 = 1;
      z2 = 0;
      break;
    case 'cone': {
      const sa = Math.sin(s.semiAngle), ca = Math.cos(s.semiAngle);
      r = s.radius + v * sa;
      r1 = sa;
      r2 = 0;
      z = v * ca;
      z1 = ca;
      z2 = 0;
      break;
    }
    case 'sphere': {
      const cv = Math.cos(v), sv = Math.sin(v);
      r = s.radius * cv;
      r1 = -s.radius * sv;
      r2 = -r;
      z = s.radius * sv;
      z1 = s.radius * cv;
      z2 = -z;
      break;
    }
    case 'torus': {
      const cv = Math.cos(v), sv = Math.sin(v);
      r = s.major + s.minor * cv;
      r1 = -s.minor * sv;
      r2 = -s.minor * cv;
      z = s.minor * sv;
      z1 = s.minor * cv;
      z2 = -z;
      break;
    }
  }
  const F = s.frame;
  const cu = Math.cos(u), su = Math.sin(u);
  for (let d = 0; d < 3; d++) {
    const radial = cu * F[3 + d]! + su * F[6 + d]!;
    const tangent = -su * F[3 + d]! + cu * F[6 + d]!;
    const axial = F[9 + d]!;
    out[d] = F[d]! + r * radial + z * axial;
    out[3 + d] = r * tangent;
    out[6 + d] = r1 * radial + z1 * axial;
    out[9 + d] = -r * radial;
    out[12 + d] = r1 * tangent;
    out[15 + d] = r2 * radial + z2 * axial;
  }
  return out;
}

const cev = new Float64Array(9);

function evaluateExtrusion(c: Curve, D: Float64Array, u: number, v: number, out: Float64Array): Float64Array {
  evaluateCurve(c, u, cev);
  for (let d = 0; d < 3; d++) {
    out[d] = cev[d]! + v * D[d]!;
    out[3 + d] = cev[3 + d]!;
    out[6 + d] = D[d]!;
    out[9 + d] = cev[6 + d]!;
    out[12 + d] = out[15 + d] = 0;
  }
  return out;
}

/**
 * Writes R(u) w (order 0) or its first or second u-derivative into out[o..o+2], R(u) the rotation
 * by u about the unit axis A (Rodrigues): R(u) w = w_par + cos u w_perp + sin u (A x w).
 */
function rotated(wx: number, wy: number, wz: number, A: Float64Array, cu: number, su: number, order: 0 | 1 | 2, out: Float64Array, o: number): void {
  const ax = A[3]!, ay = A[4]!, az = A[5]!;
  const dot = wx * ax + wy * ay + wz * az;
  const px = wx - dot * ax, py = wy - dot * ay, pz = wz - dot * az;
  const cx = ay * wz - az * wy, cy = az * wx - ax * wz, cz = ax * wy - ay * wx;
  // Coefficients of (w_par, w_perp, A x w) for R, R', R''.
  const kp = order === 0 ? 1 : 0;
  const kc = order === 0 ? cu : order === 1 ? -su : -cu;
  const ks = order === 0 ? su : order === 1 ? cu : -su;
  out[o] = kp * dot * ax + kc * px + ks * cx;
  out[o + 1] = kp * dot * ay + kc * py + ks * cy;
  out[o + 2] = kp * dot * az + kc * pz + ks * cz;
}

/** S(u, v) = O + R(u) (C(v) - O), axis = origin then unit direction. */
function evaluateRevolution(c: Curve, axis: Float64Array, u: number, v: number, out: Float64Array): Float64Array {
  evaluateCurve(c, v, cev);
  const cu = Math.cos(u), su = Math.sin(u);
  const wx = cev[0]! - axis[0]!, wy = cev[1]! - axis[1]!, wz = cev[2]! - axis[2]!;
  rotated(wx, wy, wz, axis, cu, su, 0, out, 0);
  out[0] = out[0]! + axis[0]!;
  out[1] = out[1]! + axis[1]!;
  out[2] = out[2]! + axis[2]!;
  rotated(wx, wy, wz, axis, cu, su, 1, out, 3); // Su
  rotated(cev[3]!, cev[4]!, cev[5]!, axis, cu, su, 0, out, 6); // Sv
  rotated(wx, wy, wz, axis, cu, su, 2, out, 9); // Suu
  rotated(cev[3]!, cev[4]!, cev[5]!, axis, cu, su, 1, out, 12); // Suv
  rotated(cev[6]!, cev[7]!, cev[8]!, axis, cu, su, 0, out, 15); // Svv
  return out;
}

/**
 * The point of an elementary surface nearest to p, in closed form, on the full (untrimmed)
 * surface: writes (u, v) to out and returns true; false for other kinds (use Newton). u (and a
 * torus's v) are in (-pi, pi]: the caller moves them into the face's period. A point on the axis
 * (or at a sphere's centre) keeps uStart, since every u is then equally near.
 *
 * With `other`, the surface's other local minimum instead, where it has one: a cone's line in the
 * mirrored half-plane, a torus's far circle (false for planes, cylinders and spheres, and for
 * non-elementary kinds). A trimmed face can hold that one while the nearest lies outside its trims.
 */
export function projectElementary(s: Surface, px: number, py: number, pz: number, uStart: number, out: Float64Array, other = false): boolean {
  if (other && s.kind !== 'cone' && s.kind !== 'torus') return false;
  if (s.kind === 'nurbs' || s.kind === 'kernel' || s.kind === 'extrusion' || s.kind === 'revolution') return false;
  const F = s.frame;
  const dx = px - F[0]!, dy = py - F[1]!, dz = pz - F[2]!;
  const x = dx * F[3]! + dy * F[4]! + dz * F[5]!;
  const y = dx * F[6]! + dy * F[7]! + dz * F[8]!;
  if (s.kind === 'plane') {
    out[0] = x;
    out[1] = y;
    return true;
  }
  const h = dx * F[9]! + dy * F[10]! + dz * F[11]!;
  const rho = Math.hypot(x, y);
  const phi = rho > 0 ? Math.atan2(y, x) : uStart;
  switch (s.kind) {
    case 'cylinder':
      out[0] = phi;
      out[1] = h;
      return true;
    case 'sphere':
      out[0] = phi;
      out[1] = Math.atan2(h, rho);
      return true;
    case 'torus': {
      // The meridian plane of p cuts the torus in two circles, centred at +-major along p's radial
      // direction; the nearest point lies on one of them. For a ring torus it is always the near
      // one, but on a spindle torus (minor > major: a screw's rounded tip, say) the inner part of
      // the far circle crosses the axis and can be the nearer.
      const r = s.minor;
      const e1 = Math.abs(Math.hypot(rho - s.major, h) - r);
      const e2 = Math.abs(Math.hypot(-rho - s.major, h) - r);
      if (e2 < e1 !== other) {
        out[0] = phi > 0 ? phi - Math.PI : phi + Math.PI;
        out[1] = Math.atan2(h, -rho - s.major);
      } else {
        out[0] = phi;
        out[1] = Math.atan2(h, rho - s.major);
      }
      return true;
    }
    case 'cone': {
      // In the half-plane of p the cone is the line (R + v sin a, v cos a); the mirrored half-plane holds the line through (-rho, h).
      const sa = Math.sin(s.semiAngle), ca = Math.cos(s.semiAngle), R = s.radius;
      const v1 = (rho - R) * sa + h * ca;
      const e1 = (rho - R - v1 * sa) ** 2 + (h - v1 * ca) ** 2;
      const v2 = (-rho - R) * sa + h * ca;
      const e2 = (-rho - R - v2 * sa) ** 2 + (h - v2 * ca) ** 2;
      if (e2 < e1 !== other) {
        out[0] = phi > 0 ? phi - Math.PI : phi + Math.PI;
        out[1] = v2;
      } else {
        out[0] = phi;
        out[1] = v1;
      }
      return true;
    }
  }
}

const sev = new Float64Array(18);

/** Parameter box of a surface for Newton's method; +-Infinity where unbounded or periodic. */
export interface ParameterBox {
  u0: number;
  u1: number;
  v0: number;
  v1: number;
}

/**
 * The evaluation (S, Su, Sv, Suu, Suv, Svv) at the parameters projectNewton returned last: callers
 * read the foot point and normal from it instead of evaluating again.
 */
export const lastProjection = new Float64Array(18);
let evA = new Float64Array(18), evB = new Float64Array(18);

/**
 * The point of a surface nearest to p near (u, v) = (out[0], out[1]), by Newton's method on the
 * gradient of |S - p|^2 / 2 with the full Hessian (Gauss-Newton where it is not positive
 * definite), a step that never increases the distance, and the parameter box as bounds (a
 * coordinate at a bound whose gradient pushes outward stays there). Writes (u, v) to out[0..1]
 * and the evaluation there to lastProjection. Returns false when the result lies on the box
 * boundary (the face's nearest point is then on its boundary, or beyond the surface's extent).
 */
export function projectNewton(s: Surface, px: number, py: number, pz: number, box: ParameterBox, out: Float64Array, kernel?: KernelSurfaces): boolean {
  let u = clamp(out[0]!, box.u0, box.u1), v = clamp(out[1]!, box.v0, box.v1);
  let E = evA, Tr = evB;
  evaluateSurface(s, u, v, E, kernel);
  let f = (E[0]! - px) ** 2 + (E[1]! - py) ** 2 + (E[2]! - pz) ** 2;
  let onBound = false;
  for (let iter = 0; iter < 50; iter++) {
    const rx = E[0]! - px, ry = E[1]! - py, rz = E[2]! - pz;
    const sux = E[3]!, suy = E[4]!, suz = E[5]!, svx = E[6]!, svy = E[7]!, svz = E[8]!;
    const gu = rx * sux + ry * suy + rz * suz;
    const gv = rx * svx + ry * svy + rz * svz;
    const guu0 = sux * sux + suy * suy + suz * suz, gvv0 = svx * svx + svy * svy + svz * svz, guv0 = sux * svx + suy * svy + suz * svz;
    let huu = guu0 + rx * E[9]! + ry * E[10]! + rz * E[11]!;
    let huv = guv0 + rx * E[12]! + ry * E[13]! + rz * E[14]!;
    let hvv = gvv0 + rx * E[15]! + ry * E[16]! + rz * E[17]!;
    if (!(huu > 0 && huu * hvv - huv * huv > 0)) {
      huu = guu0;
      huv = guv0;
      hvv = gvv0;
    }
    // Coordinates held at a bound the gradient pushes against are fixed for this step.
    const fixU = (u <= box.u0 && gu > 0) || (u >= box.u1 && gu < 0);
    const fixV = (v <= box.v0 && gv > 0) || (v >= box.v1 && gv < 0);
    let du = 0, dv = 0;
    if (fixU && fixV) {
      onBound = true;
      break;
    } else if (fixU) {
      dv = hvv > 0 ? -gv / hvv : 0;
    } else if (fixV) {
      du = huu > 0 ? -gu / huu : 0;
    } else {
      const det = huu * hvv - huv * huv;
      if (det > 0 && Number.isFinite(det)) {
        du = (-gu * hvv + gv * huv) / det;
        dv = (-gv * huu + gu * huv) / det;
      } else {
        // Degenerate parameterization (a pole): a steepest-descent step scaled by the larger metric term.
        const m = Math.max(guu0, gvv0);
        if (!(m > 0)) break;
        du = -gu / m;
        dv = -gv / m;
      }
    }
    let accepted = false, converged = false;
    for (let halving = 0; halving < 40; halving++) {
      const un = clamp(u + du, box.u0, box.u1), vn = clamp(v + dv, box.v0, box.v1);
      evaluateSurface(s, un, vn, Tr, kernel);
      const fn = (Tr[0]! - px) ** 2 + (Tr[1]! - py) ** 2 + (Tr[2]! - pz) ** 2;
      if (fn <= f) {
        const ddu = un - u, ddv = vn - v;
        const moved = Math.sqrt(Math.max(0, guu0 * ddu * ddu + 2 * guv0 * ddu * ddv + gvv0 * ddv * ddv));
        u = un;
        v = vn;
        f = fn;
        const t = E;
        E = Tr;
        Tr = t;
        accepted = true;
        converged = moved <= 1e-13 * (1 + Math.sqrt(f));
        break;
      }
      du *= 0.5;
      dv *= 0.5;
    }
    if (!accepted || converged) break;
  }
  evA = E;
  evB = Tr;
  out[0] = u;
  out[1] = v;
  lastProjection.set(E);
  if (!onBound) {
    // At a bound with an outward-pushing gradient the minimum is constrained, not a foot.
    const rx = E[0]! - px, ry = E[1]! - py, rz = E[2]! - pz;
    const gu = rx * E[3]! + ry * E[4]! + rz * E[5]!;
    const gv = rx * E[6]! + ry * E[7]! + rz * E[8]!;
    const scale = 1e-9 * (Math.sqrt(f) + 1e-12);
    const nu = Math.hypot(E[3]!, E[4]!, E[5]!), nv = Math.hypot(E[6]!, E[7]!, E[8]!);
    onBound = (u <= box.u0 && gu > scale * nu) || (u >= box.u1 && gu < -scale * nu) || (v <= box.v0 && gv > scale * nv) || (v >= box.v1 && gv < -scale * nv);
  }
  return !onBound;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * Unit normal Su x Sv at (u, v) from an evaluation `e` (S, Su, Sv, ...), written to out; where the
 * parameterization degenerates (a sphere's pole, a cone's apex, a collapsed spline edge) the
 * normal of a point a little way toward (uToward, vToward) is used instead.
 */
export function unitNormal(s: Surface, e: Float64Array, u: number, v: number, uToward: number, vToward: number, out: Float64Array, kernel?: KernelSurfaces): boolean {
  let nx = e[4]! * e[8]! - e[5]! * e[7]!;
  let ny = e[5]! * e[6]! - e[3]! * e[8]!;
  let nz = e[3]! * e[7]! - e[4]! * e[6]!;
  let len = Math.hypot(nx, ny, nz);
  const scale = Math.hypot(e[3]!, e[4]!, e[5]!) * Math.hypot(e[6]!, e[7]!, e[8]!);
  if (!(len > 1e-12 * scale) || !(len > 0)) {
    for (const k of [1e-7, 1e-5, 1e-3]) {
      const uu = u + k * (uToward - u), vv = v + k * (vToward - v);
      if (uu === u && vv === v) continue;
      evaluateSurface(s, uu, vv, sev, kernel);
      nx = sev[4]! * sev[8]! - sev[5]! * sev[7]!;
      ny = sev[5]! * sev[6]! - sev[3]! * sev[8]!;
      nz = sev[3]! * sev[7]! - sev[4]! * sev[6]!;
      len = Math.hypot(nx, ny, nz);
      if (len > 0) break;
    }
    if (!(len > 0)) {
      out[0] = out[1] = out[2] = 0;
      return false;
    }
  }
  out[0] = nx / len;
  out[1] = ny / len;
  out[2] = nz / len;
  return true;
}
