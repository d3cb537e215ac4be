import { createExactHit } from '../exact/ExactReference';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import type { PointSet } from './bodySamples';
import { chebyshevFit } from './chebyshev';
import { canonical, fitCircle2d, fitCylinder, fitPlane, frameOf, principalFrame } from './leastSquares';
import { featureKind, type NominalAccess } from './nominalFaces';

/**
 * Straightness (ASME Y14.5-2018 §8.4.1, ISO 1101 §18.1), on the scan samples of a feature's faces:
 *
 * - surface line elements, zone `width`: each line element must lie between two parallel lines
 *   `tolerance` apart in the plane through it normal to the surface. A cylinder's (or cone's) line
 *   elements run along its axis, a plane's along the callout's direction (the PMI's line when it
 *   names one, else the face's longest extent). The samples are cut into strips along that
 *   direction, each strip one element, read by its minimum zone (a linear Chebyshev programme, the
 *   strip's shape across itself (up to a parabola) taken out); the worst element is the reading.
 * - the derived median line of a cylinder, zone `diameter`: the centres of cross-sections
 *   (least-squares circles, ISO 12180's associated circle) must lie in a cylinder of that diameter;
 *   the smallest such cylinder, minimax over the section centres.
 * - per unit length (`perLength`, "0.2/15"): every portion of an element of that length, the worst
 *   over every window (each window starting at a sample, the windows that add a sample only).
 */
export interface StraightnessSpec {
  faces: number[];
  zone: 'width' | 'diameter' | 'sphericalDiameter';
  perLength: number | null;
  /** The element direction a PMI line gives (a line edge the callout names), unit; null when none. */
  direction: Vec3 | null;
  minSamples: number;
}

export type StraightnessReading = { actual: number; method: string } | { reason: string };

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const at = (p: ArrayLike<number>, i: number): Vec3 => [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];
const round4 = (x: number) => Number(x.toPrecision(4));

/** Strips (line elements) of a scan: at most this many across the feature. */
const MAX_ELEMENTS = 72;
/** Samples per element aimed at (the strip count is the samples over this, within 4..MAX_ELEMENTS). */
const SAMPLES_PER_ELEMENT = 60;
/** Cross-sections for the derived median line, each this share of the height thick. */
const SECTIONS = 15;
const SECTION_SHARE = 0.02;
/** Directions of the polygonal norm in the median line's minimax (a 2N-gon: within 1 - cos(pi/2N) of the circle). */
const DIRECTIONS = 32;

export function evaluateStraightness(nominal: NominalAccess, pts: PointSet, spec: StraightnessSpec): StraightnessReading {
  const kind = featureKind(nominal, spec.faces);
  if (spec.zone === 'sphericalDiameter') return { reason: 'a straightness zone is a width or a diameter, not a sphere' };
  const nodes = nominal.nodes(spec.faces);
  if (kind === 'cylinder' || kind === 'cone') {
    const axisFit = fitCylinder(nodes.points, nodes.normals);
    if (!axisFit) return { reason: 'no axis fits the nominal faces' };
    const axis = axisFit.axis;
    if (spec.direction && Math.abs(dot(spec.direction, axis)) < Math.cos((1 * Math.PI) / 180)) {
      return { reason: `the callout's line is ${round4((Math.acos(Math.min(1, Math.abs(dot(spec.direction, axis)))) * 180) / Math.PI)} degrees off the ${kind}'s axis: the line elements of a surface of revolution run along its axis` };
    }
    if (spec.zone === 'diameter') {
      if (kind !== 'cylinder') return { reason: 'a derived median line (diameter zone) is read on a cylinder; these faces are a cone' };
      if (spec.perLength !== null) return { reason: 'a derived median line per unit length is not evaluated (docs/gdt.md, "Not supported")' };
      return medianLine(pts, axisFit.origin, axis, spec.minSamples);
    }
    // Elements along the axis: t the height, s the arc across (radius times angle), z the radial distance.
    const [e1, e2] = frameOf(axis);
    const n = pts.count;
    const t = new Float64Array(n), ang = new Float64Array(n), z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const d = sub(at(pts.points, i), axisFit.origin);
      t[i] = dot(d, axis);
      const u = dot(d, e1), v = dot(d, e2);
      ang[i] = Math.atan2(v, u);
      z[i] = Math.hypot(u, v);
    }
    const s = unwrapAngles(ang, axisFit.radius);
    return lineElements(t, s, z, spec, `line elements along the ${kind}'s axis`);
  }
  if (kind === 'plane') {
    if (spec.zone === 'diameter') return { reason: 'a diameter zone applies to a derived median line (a cylinder), not to a plane\'s line elements' };
    const plane = fitPlane(nodes.points);
    if (!plane) return { reason: 'the nominal faces span no plane' };
    const nn = plane.normal;
    let dir: Vec3;
    let said: string;
    if (spec.direction) {
      const inPlane = sub(spec.direction, scale(nn, dot(spec.direction, nn)));
      if (Math.hypot(...inPlane) < 0.5) return { reason: "the callout's line does not run along the plane" };
      dir = normalize(inPlane);
      said = "along the callout's line";
    } else {
      // The PMI gives no direction: the face's longest extent (the nominal nodes' first principal axis).
      const pf = principalFrame(nodes.points);
      const first = pf.vectors[pf.values.indexOf(Math.max(...pf.values))]!;
      dir = canonical(normalize(sub(first, scale(nn, dot(first, nn)))));
      said = "along the face's longest extent (the PMI gives no direction)";
    }
    const across = cross(nn, dir);
    const n = pts.count;
    const t = new Float64Array(n), s = new Float64Array(n), z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const d = sub(at(pts.points, i), plane.origin);
      t[i] = dot(d, dir);
      s[i] = dot(d, across);
      z[i] = dot(d, nn);
    }
    const r = lineElements(t, s, z, spec, `line elements ${said}, direction (${dir.map((x) => round4(x + 0)).join(', ')})`);
    return r;
  }
  return { reason: `straightness is read on cylinders, cones and planes; these faces are ${kind}` };
}

const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];

/**
 * Angles about the axis as arc lengths (radius times angle), measured from the widest gap between
 * samples so that a partial cylinder is one run and a whole one is cut where it has no samples.
 */
function unwrapAngles(ang: Float64Array, radius: number): Float64Array {
  const sorted = Float64Array.from(ang).sort();
  let gapAt = sorted.length ? sorted[0]! + 2 * Math.PI : 0, widest = -1;
  for (let i = 0; i < sorted.length; i++) {
    const next = i + 1 < sorted.length ? sorted[i + 1]! : sorted[0]! + 2 * Math.PI;
    if (next - sorted[i]! > widest) [widest, gapAt] = [next - sorted[i]!, next];
  }
  return Float64Array.from(ang, (a) => radius * ((((a - gapAt) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)));
}

/**
 * The worst line element: samples (t along, s across, z normal to the surface) cut into equal
 * strips across, each read by minimumZoneOfElement (per window of `perLength` when given).
 */
function lineElements(t: Float64Array, s: Float64Array, z: Float64Array, spec: StraightnessSpec, what: string): StraightnessReading {
  const n = t.length;
  const strips = Math.max(1, Math.min(MAX_ELEMENTS, Math.floor(n / SAMPLES_PER_ELEMENT)));
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    lo = Math.min(lo, s[i]!);
    hi = Math.max(hi, s[i]!);
  }
  const width = (hi - lo) / strips || 1;
  const members: number[][] = Array.from({ length: strips }, () => []);
  for (let i = 0; i < n; i++) members[Math.min(strips - 1, Math.floor((s[i]! - lo) / width))]!.push(i);
  const need = Math.max(spec.minSamples, 8);
  let worst = -1, worstAt = -1, read = 0, windows = 0;
  members.forEach((idx, k) => {
    if (idx.length < need) return;
    idx.sort((a, b) => t[a]! - t[b]!);
    read++;
    let w: number;
    if (spec.perLength !== null && t[idx[idx.length - 1]!]! - t[idx[0]!]! > spec.perLength) {
      const r = worstWindow(idx, t, s, z, spec.perLength);
      w = r.width;
      windows += r.windows;
    } else w = elementZone(idx, t, s, z);
    if (w > worst) [worst, worstAt] = [w, k];
  });
  if (read === 0) return { reason: `no line element has ${need} samples (${n} samples in ${strips} strips)` };
  const per = spec.perLength !== null ? `, per unit length ${round4(spec.perLength)}: the worst of ${windows} windows of that length along the elements (an element shorter than it read whole)` : '';
  return {
    actual: worst,
    method: `minimum zone of each line element (two parallel lines), ${what}: ${read} elements of ${strips} strips across the feature (${round4(width)} wide, each strip's shape across itself, up to a parabola, taken out)${per}; the worst: strip ${worstAt + 1}`,
  };
}

/** Every window of `length` along one element (sorted by t) that starts at a sample and adds one; the widest zone. */
function worstWindow(idx: number[], t: Float64Array, s: Float64Array, z: Float64Array, length: number): { width: number; windows: number } {
  let worst = 0, windows = 0, end = 0, lastEnd = -1;
  for (let a = 0; a < idx.length; a++) {
    while (end + 1 < idx.length && t[idx[end + 1]!]! - t[idx[a]!]! <= length) end++;
    if (end === lastEnd) continue; // a subset of the window before
    lastEnd = end;
    if (end - a + 1 < 3) continue;
    windows++;
    worst = Math.max(worst, elementZone(idx.slice(a, end + 1), t, s, z));
    if (end === idx.length - 1) break;
  }
  return { width: worst, windows };
}

/**
 * Minimum zone of one element's samples: z = a t + b s + c s^2 + d in the Chebyshev (minimax)
 * sense, the terms in s taking out the strip's shape across itself (a strip has some width, and
 * the surface may curve across it: a cylinder, a tessellated one's facets); the zone's width
 * between the two lines is the minimax's 2 max|residual| times cos(atan a). Re-linearised about
 * the element's direction (rotated by atan a in the t-z plane) until it stops moving: the fixed
 * point is the true narrowest strip of parallel lines.
 */
function elementZone(idx: number[], t: Float64Array, s: Float64Array, z: Float64Array): number {
  const m = idx.length;
  const tt = new Float64Array(m), zz = new Float64Array(m), ss = new Float64Array(m);
  let mt = 0, mz = 0, ms = 0;
  for (let j = 0; j < m; j++) {
    mt += t[idx[j]!]! / m;
    mz += z[idx[j]!]! / m;
    ms += s[idx[j]!]! / m;
  }
  // A strip one sample column wide (a plane scanned on a grid) has no slope across to take out.
  let sLo = Infinity, sHi = -Infinity, tLo = Infinity, tHi = -Infinity;
  for (const i of idx) {
    sLo = Math.min(sLo, s[i]!);
    sHi = Math.max(sHi, s[i]!);
    tLo = Math.min(tLo, t[i]!);
    tHi = Math.max(tHi, t[i]!);
  }
  const k = sHi - sLo > 1e-9 * (tHi - tLo) ? 4 : 2;
  let angle = 0, best = Infinity;
  for (let round = 0; round < 6; round++) {
    const c = Math.cos(angle), sn = Math.sin(angle);
    for (let j = 0; j < m; j++) {
      const dt = t[idx[j]!]! - mt, dz = z[idx[j]!]! - mz;
      tt[j] = dt * c + dz * sn;
      zz[j] = -dt * sn + dz * c;
      ss[j] = s[idx[j]!]! - ms;
    }
    const fit = chebyshevFit(m, k, (j, i) => (j === 0 ? tt[i]! : j === k - 1 ? 1 : j === 1 ? ss[i]! : ss[i]! * ss[i]!), zz);
    if (!fit) break;
    const a = fit.x[0]!;
    const w = (2 * fit.t) / Math.sqrt(1 + a * a);
    best = Math.min(best, w);
    if (Math.abs(a) < 1e-14) break;
    angle += Math.atan(a);
  }
  // No programme settled (fewer distinct points than unknowns): the spread across the element's chord.
  return Number.isFinite(best) ? best : chordSpread(idx, t, z);
}

function chordSpread(idx: number[], t: Float64Array, z: Float64Array): number {
  const a = idx[0]!, b = idx[idx.length - 1]!;
  const dt = t[b]! - t[a]!, dz = z[b]! - z[a]!, len = Math.hypot(dt, dz) || 1;
  let lo = Infinity, hi = -Infinity;
  for (const i of idx) {
    const d = (-(t[i]! - t[a]!) * dz + (z[i]! - z[a]!) * dt) / len;
    lo = Math.min(lo, d);
    hi = Math.max(hi, d);
  }
  return hi - lo;
}

/**
 * Derived median line of a cylinder: SECTIONS cross-sections across the nominal axis (each
 * SECTION_SHARE of the samples' height thick, the first and last at the ends), each with samples all
 * round (no gap over 90 degrees), its least-squares circle's centre; then the line nearest all centres
 * in the minimax sense (a linear programme on the distance seen from DIRECTIONS directions), and the
 * diameter of the cylinder about that line through the farthest centre.
 */
function medianLine(pts: PointSet, origin: Vec3, axis: Vec3, minSamples: number): StraightnessReading {
  const [e1, e2] = frameOf(axis);
  const n = pts.count;
  const h = new Float64Array(n), u = new Float64Array(n), v = new Float64Array(n);
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const d = sub(at(pts.points, i), origin);
    h[i] = dot(d, axis);
    u[i] = dot(d, e1);
    v[i] = dot(d, e2);
    lo = Math.min(lo, h[i]!);
    hi = Math.max(hi, h[i]!);
  }
  const half = (SECTION_SHARE / 2) * (hi - lo);
  const centres: [number, number, number][] = [];
  for (let k = 0; k < SECTIONS; k++) {
    const mid = lo + half + (k * (hi - lo - 2 * half)) / (SECTIONS - 1);
    const uv: number[] = [], angles: number[] = [];
    let hm = 0;
    for (let i = 0; i < n; i++) {
      if (Math.abs(h[i]! - mid) > half) continue;
      uv.push(u[i]!, v[i]!);
      hm += h[i]!;
    }
    const m = uv.length / 2;
    if (m < Math.max(minSamples, 8)) continue;
    const c = fitCircle2d(uv);
    if (!c) continue;
    for (let j = 0; j < m; j++) angles.push(Math.atan2(uv[2 * j + 1]! - c.cv, uv[2 * j]! - c.cu));
    angles.sort((a, b) => a - b);
    let gap = angles[0]! + 2 * Math.PI - angles[m - 1]!;
    for (let j = 1; j < m; j++) gap = Math.max(gap, angles[j]! - angles[j - 1]!);
    if (gap > Math.PI / 2) continue;
    centres.push([c.cu, c.cv, hm / m]);
  }
  if (centres.length < 3) return { reason: `${centres.length} cross-sections with samples all round (at least 3 needed for a median line)` };
  // The line (x0 + tx h, y0 + ty h) about the centres' mean height: first a minimax of their offset
  // seen along DIRECTIONS directions (a polygonal norm, within 0.12% of the distance), then rounds
  // seeing each centre along a narrowing fan about its own offset from the best line so far (the
  // distance linearised there); a line is kept when the true largest distance falls.
  const hc = centres.reduce((a, c) => a + c[2], 0) / centres.length;
  const offset = (c: [number, number, number], x: number[]): [number, number] => [c[0] - x[0]! - x[2]! * (c[2] - hc), c[1] - x[1]! - x[3]! * (c[2] - hc)];
  // Across the line, not across the axis: the line leans by (tx, ty).
  const distance = (c: [number, number, number], x: number[]): number => {
    const dir = normalize([x[2]!, x[3]!, 1]);
    const [du, dv] = offset(c, x);
    const along = du * dir[0] + dv * dir[1];
    return Math.hypot(du - along * dir[0], dv - along * dir[1], -along * dir[2]);
  };
  const solve = (rows: { c: [number, number, number]; phi: number }[]): number[] | null => {
    const fit = chebyshevFit(rows.length, 4, (j, r) => {
      const { c, phi } = rows[r]!;
      const cs = Math.cos(phi), sn = Math.sin(phi), dh = c[2] - hc;
      return [cs, sn, dh * cs, dh * sn][j]!;
    }, Float64Array.from(rows, ({ c, phi }) => c[0] * Math.cos(phi) + c[1] * Math.sin(phi)));
    return fit ? fit.x : null;
  };
  const polygon = centres.flatMap((c) => Array.from({ length: DIRECTIONS }, (_, k) => ({ c, phi: (k * Math.PI) / DIRECTIONS })));
  let x = solve(polygon);
  if (!x) return { reason: 'the section centres fix no line' };
  const worst = (x: number[]) => Math.max(...centres.map((c) => distance(c, x)));
  let far = worst(x);
  for (let round = 0; round < 40; round++) {
    // A fan of three directions about each centre's own offset, narrowing each round: the offset
    // seen within cos(delta) of its length, and the line held across it as well.
    const delta = (Math.PI / DIRECTIONS) * 0.7 ** (round + 1);
    const rows = centres.flatMap((c) => {
      const [du, dv] = offset(c, x!);
      if (!(Math.hypot(du, dv) > 1e-9 * (far + 1e-300))) return polygon.filter((p) => p.c === c);
      const phi = Math.atan2(dv, du);
      return [{ c, phi }, { c, phi: phi - delta }, { c, phi: phi + delta }];
    });
    const next = solve(rows);
    if (!next) continue;
    const f = worst(next);
    if (f < far) [x, far] = [next, f];
  }
  return {
    actual: 2 * far,
    method: `derived median line: the least-squares circle centres of ${centres.length} cross-sections across the axis (each ${SECTION_SHARE * 100}% of the height thick, the outer ones at the ends), the smallest cylinder about a line containing them (a minimax line, its diameter measured exactly)`,
  };
}

/**
 * The faces a line edge the PMI names lies on (NIST CTC 5's straightness names a free line drawn on
 * a cylinder, edge[397]) and its direction: the faces bounding it, or, for a free edge, the faces
 * whose exact nearest point to its polyline's points is within 1e-6 of the part's diagonal.
 */
export function lineOnFaces(nominal: NominalAccess, edge: number): { faces: number[]; direction: Vec3 } | { reason: string } {
  const g = nominal.ref.geometry;
  const e = g.edges[edge];
  if (!e) return { reason: `edge[${edge}] is not an edge of the nominal` };
  const p = e.points;
  const k = p.length / 3;
  const a = at(p, 0), b = at(p, k - 1);
  const chord = sub(b, a);
  const len = Math.hypot(...chord);
  if (!(len > 0)) return { reason: `edge[${edge}] is closed or a point` };
  const direction = scale(chord, 1 / len);
  for (let i = 1; i < k - 1; i++) {
    const d = sub(at(p, i), a);
    if (Math.hypot(...sub(d, scale(direction, dot(d, direction)))) > 1e-9 * g.diagonal + e.sag) return { reason: `edge[${edge}] is not a straight line` };
  }
  if (e.faces.length) return { faces: [...new Set(e.faces)], direction };
  const faces = new Set<number>();
  const hit = createExactHit();
  for (let i = 0; i < 9; i++) {
    const q: Vec3 = [a[0] + (chord[0] * (i + 0.5)) / 9, a[1] + (chord[1] * (i + 0.5)) / 9, a[2] + (chord[2] * (i + 0.5)) / 9];
    nominal.ref.nearest(q[0], q[1], q[2], hit);
    if (hit.face >= 0 && hit.distance <= 1e-6 * g.diagonal) faces.add(hit.face);
  }
  return faces.size ? { faces: [...faces], direction } : { reason: `edge[${edge}] lies on no face of the nominal` };
}

/**
 * A characteristic naming line edges gets the faces they lie on (added to its own) and their
 * direction; an edge that gives none leaves `lineReason`.
 */
export function calloutLines<T extends { faces: number[]; edges?: number[]; direction?: Vec3 | null; lineReason?: string }>(nominal: NominalAccess, spec: T): T {
  if (!spec.edges?.length) return spec;
  const faces = new Set(spec.faces);
  let direction: Vec3 | null = null;
  const reasons: string[] = [];
  for (const e of spec.edges) {
    const r = lineOnFaces(nominal, e);
    if ('reason' in r) {
      reasons.push(r.reason);
      continue;
    }
    for (const f of r.faces) faces.add(f);
    direction ??= r.direction;
  }
  return { ...spec, faces: [...faces], direction, ...(reasons.length ? { lineReason: reasons.join('; ') } : {}) };
}
