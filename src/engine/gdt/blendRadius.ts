import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import { solveLinear } from '../math/solveLinear';
import type { PointSet } from './bodySamples';
import { fitCylinderFrom, fitSphere } from './leastSquares';
import type { NominalAccess } from './nominalFaces';
import { blendSection, fitTangentArc, tangentArcResidual } from './tangentArc';
import { cornerFit, cylinderResidual, sphereResidual, torusResidual } from './vertexQuadrature';

/**
 * Radii of blends: a fillet around a round edge is a torus (NIST FTC 11's R1.5 and R0.1), and a
 * fillet chain mixes cylinders (along straight edges), tori (along arcs) and spheres (at corners:
 * NIST FTC 6's R3.175 on 30 faces). A CMM or GOM user fits each blend face with its own kind and
 * reads its radius; so here: each face of the callout on its own samples, a fillet's short arc
 * (a cylinder or a torus' tube under 150 degrees, tangent to its neighbours) as the arc tangent to
 * the nominal's neighbours (tangentArc.ts: one parameter, steady on a noisy scan where a free fit
 * of a quarter circle is not), a rolling ball's corner sphere held tangent to its walls likewise,
 * other cylinders by least squares from the nominal axis, other spheres by least squares, tori by
 * least squares from the nominal torus (fitTorus); the result is the face whose radius departs
 * most from its nominal.
 */
export interface TorusFit {
  center: Vec3;
  axis: Vec3;
  major: number;
  minor: number;
  rms: number;
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];

/** Most points a torus fit reads (every n-th beyond). */
const MAX_TORUS_POINTS = 4000;

/**
 * Least-squares torus (geometric distances: |sqrt((rho - R)^2 + h^2) - r|, rho and h the point's
 * distance from the axis and height along it) by Levenberg-Marquardt over the centre (3), the axis
 * tilt (2), the major and the minor radius, from a start (the nominal torus). A fillet's points
 * cover a short arc of the tube's section, where a free fit trades its centre and radii; started
 * on the nominal, with the points all around the axis, it converges to the section's circle.
 */
export function fitTorus(pts: PointSet, start: { center: Vec3; axis: Vec3; major: number; minor: number }): TorusFit | null {
  const every = Math.max(1, Math.ceil(pts.count / MAX_TORUS_POINTS));
  const P: Vec3[] = [];
  for (let i = 0; i < pts.count; i += every) P.push([pts.points[3 * i]!, pts.points[3 * i + 1]!, pts.points[3 * i + 2]!]);
  if (P.length < 8) return null;
  const a0 = normalize(start.axis);
  const e1 = normalize(cross(a0, Math.abs(a0[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])), e2 = cross(a0, e1);
  const shape = (x: number[]) => ({ c: add(start.center, [x[0]!, x[1]!, x[2]!]), a: normalize(add(a0, add(scale(e1, x[3]!), scale(e2, x[4]!)))), R: x[5]!, r: x[6]! });
  const residuals = (x: number[], out: Float64Array) => {
    const { c, a, R, r } = shape(x);
    let s = 0;
    for (let i = 0; i < P.length; i++) {
      const d = sub(P[i]!, c), h = dot(d, a);
      const rho = Math.hypot(...sub(d, scale(a, h)));
      out[i] = Math.hypot(rho - R, h) - r;
      s += out[i]! * out[i]!;
    }
    return s;
  };
  let x = [0, 0, 0, 0, 0, start.major, start.minor];
  const m = P.length, k = 7;
  const res = new Float64Array(m), trial = new Float64Array(m), J = Array.from({ length: k }, () => new Float64Array(m));
  let cost = residuals(x, res), lambda = 1e-3;
  const size = Math.max(start.major, start.minor);
  for (let iter = 0; iter < 100; iter++) {
    for (let j = 0; j < k; j++) {
      const h = 1e-7 * (j < 3 || j > 4 ? size : 1);
      const xp = x.slice();
      xp[j]! += h;
      residuals(xp, J[j]!);
      for (let i = 0; i < m; i++) J[j]![i] = (J[j]![i]! - res[i]!) / h;
    }
    const A = Array.from({ length: k }, (_, a) => Array.from({ length: k }, (_, b) => { let s = 0; for (let i = 0; i < m; i++) s += J[a]![i]! * J[b]![i]!; return s; }));
    const g = Array.from({ length: k }, (_, a) => { let s = 0; for (let i = 0; i < m; i++) s -= J[a]![i]! * res[i]!; return s; });
    let improved = false;
    for (let tries = 0; tries < 12 && !improved; tries++) {
      const step = solveLinear(A.map((row, a) => row.map((v, b) => (a === b ? v * (1 + lambda) + 1e-30 : v))), g);
      if (!step) { lambda *= 10; continue; }
      const xn = x.map((v, j) => v + step[j]!);
      const cn = residuals(xn, trial);
      if (cn < cost) {
        const done = cost - cn < 1e-15 * (1 + cost) || Math.max(...step.map(Math.abs)) < 1e-13 * size;
        x = xn;
        cost = cn;
        res.set(trial);
        lambda = Math.max(lambda / 10, 1e-12);
        improved = true;
        if (done) iter = 100;
      } else lambda *= 10;
    }
    if (!improved) break;
  }
  const { c, a, R, r } = shape(x);
  if (!(r > 0) || !Number.isFinite(r)) return null;
  return { center: c, axis: a, major: R, minor: r, rms: Math.sqrt(cost / m) };
}

const BLEND_KINDS = new Set(['cylinder', 'sphere', 'torus']);

/**
 * A radius (or diameter) on blend faces: each face read on its own samples by its own kind, the
 * worst (farthest from its nominal radius) reported; `onFace` gives a face's samples (more drawn
 * for a face that has few). `radius` is the callout's nominal radius (a
 * torus reads the radius of its two nearest it: a fillet's is the minor). Faces with fewer than
 * `minSamples` samples are left out and named; none read is a reason.
 */
export function blendRadius(nominal: NominalAccess, faces: number[], onFace: (face: number) => PointSet, radius: number | null, minSamples: number): { radius: number; method: string; samples: number } | { reason: string; samples: number } {
  const kinds = faces.map((f) => nominal.surfaceKind(f));
  const other = [...new Set(kinds.filter((k) => !BLEND_KINDS.has(k)))];
  if (other.length) return { reason: `a radius is read on cylindrical, spherical or toroidal faces; these include ${other.join(', ')}`, samples: 0 };
  const read: { face: number; kind: string; value: number; nominal: number; n: number; corners: number }[] = [];
  let samples = 0;
  const skipped: number[] = [];
  for (const f of faces) {
    const s = nominal.ref.geometry.faces[f]!.surface;
    const p = onFace(f);
    samples += p.count;
    if (p.count < minSamples) {
      skipped.push(f);
      continue;
    }
    const fr = 'frame' in s ? s.frame : null;
    const origin: Vec3 = fr ? [fr[0]!, fr[1]!, fr[2]!] : [0, 0, 0], axis: Vec3 = fr ? normalize([fr[9]!, fr[10]!, fr[11]!]) : [0, 0, 1];
    const minor = s.kind === 'torus' && (radius === null || Math.abs(s.minor - radius) <= Math.abs(s.major - radius));
    // A fillet's short arc: held tangent to its neighbours, one parameter (tangentArc.ts).
    const section = s.kind === 'cylinder' || s.kind === 'sphere' || minor ? blendSection(nominal, f) : null;
    if (section) {
      const area = fitTangentArc(section, p);
      const corners = area && cornerFit(p, area, (q) => fitTangentArc(section, q), (t) => tangentArcResidual(section, t.radius), area.radius);
      const t = corners?.fit ?? area;
      const what = s.kind === 'torus' ? 'torus (minor radius) tangent arc' : s.kind === 'sphere' ? 'sphere tangent ball' : 'cylinder tangent arc';
      if (t) read.push({ face: f, kind: what, value: t.radius, nominal: section.radius, n: p.count, corners: corners?.corners ?? 0 });
      continue;
    }
    // A mesh scan's blend: fitted through its triangles' corners, not their chords (vertexQuadrature.ts).
    if (s.kind === 'cylinder') {
      const area = fitCylinderFrom(p.points, axis);
      const corners = area && cornerFit(p, area, (q) => fitCylinderFrom(q.points, axis), cylinderResidual, area.radius);
      const c = corners?.fit ?? area;
      if (c) read.push({ face: f, kind: 'cylinder', value: c.radius, nominal: s.radius, n: p.count, corners: corners?.corners ?? 0 });
    } else if (s.kind === 'sphere') {
      const area = fitSphere(p.points);
      const corners = area && cornerFit(p, area, (q) => fitSphere(q.points), sphereResidual, area.radius);
      const c = corners?.fit ?? area;
      if (c) read.push({ face: f, kind: 'sphere', value: c.radius, nominal: s.radius, n: p.count, corners: corners?.corners ?? 0 });
    } else if (s.kind === 'torus') {
      const start = { center: origin, axis, major: s.major, minor: s.minor };
      const area = fitTorus(p, start);
      const corners = area && cornerFit(p, area, (q) => fitTorus(q, start), torusResidual, area.minor);
      const t = corners?.fit ?? area;
      if (t) read.push({ face: f, kind: minor ? 'torus (minor radius)' : 'torus (major radius)', value: minor ? t.minor : t.major, nominal: minor ? s.minor : s.major, n: p.count, corners: corners?.corners ?? 0 });
    }
  }
  if (read.length === 0) return { reason: `${samples} scan samples: no face of the blend has ${minSamples}${skipped.length ? ` (${skipped.map((f) => `face[${f}]`).join(', ')})` : ''}`, samples };
  const worst = read.reduce((a, b) => (Math.abs(b.value - b.nominal) > Math.abs(a.value - a.nominal) ? b : a));
  const r4 = (v: number) => Number(v.toPrecision(6));
  const cornered = read.reduce((n, r) => n + r.corners, 0);
  const HOW: Record<string, string> = {
    arc: 'a fillet (an arc of a cylinder or a torus under 150 degrees, tangent to its neighbours): least squares of the one arc tangent to the nominal\'s neighbours (ASME Y14.5\'s radius zone: arcs tangent to the adjacent surfaces), its radius the one parameter',
    ball: 'a rolling ball\'s corner (a sphere touching its walls at its patch\'s corners): least squares of the one ball tangent to those walls, its radius the one parameter',
    cylinder: 'cylinder: least squares from the nominal axis',
    sphere: 'sphere: least squares',
    torus: 'torus: least squares (Levenberg-Marquardt from the nominal torus), its minor radius for a fillet',
  };
  const howOf = (kind: string) => HOW[kind.endsWith('tangent arc') ? 'arc' : kind.endsWith('tangent ball') ? 'ball' : kind.split(' ')[0]!]!;
  const how = [...new Set(read.map((r) => howOf(r.kind)))].join('; ');
  const list = read.map((r) => `face[${r.face}] ${r.kind} ${r4(r.value)}`).join(', ');
  return {
    radius: worst.value,
    samples,
    method: `${read.length > 1 ? `blend of ${read.length} faces, each fitted by its kind (${how}): ${list}; reported: the farthest from its nominal, face[${worst.face}]` : `${worst.kind}: ${how}`}${skipped.length ? `; left out (fewer than ${minSamples} samples): ${skipped.map((f) => `face[${f}]`).join(', ')}` : ''}${cornered ? `; fitted through the scan triangles' ${cornered} corners under the samples (not the chords between them)` : ''}`,
  };
}
