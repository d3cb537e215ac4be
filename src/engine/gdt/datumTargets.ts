import { createExactHit, type ExactHit } from '../exact/ExactReference';
import { cross, dot, normalize, type Vec3 } from '../math/vec3';
import type { PointSet } from './bodySamples';
import type { DatumFeature } from './datumFrame';
import { fitCircle2d, frameOf } from './leastSquares';
import { flatnessZone } from './minimumZone';
import type { NominalAccess } from './nominalFaces';

/**
 * Datums defined by datum targets (ASME Y14.5-2018 ch. 7, ISO 5459): points, lines and areas of the
 * part that the datum feature simulators touch, placed by basic dimensions (NIST CTC 2's A by three
 * points, FTC 6's J by two lines, G by a circular curve, CTC 5's C by a rectangle). Each target is
 * read at stations (a point: one; a line: 8 along it; a rectangle: 5 x 5; a circle: 1 + 8 + 16; a
 * circular curve: 24 round it), and at each station the scan's deviation from the nominal along the
 * nominal's outward normal (a plane fitted to the deviations of the scan samples nearest it, read
 * at the station: the scan surface there, free of the surface's curvature). The contacts then make
 * the datum feature the way the simulators would: a plane resting on its high points (one side),
 * the centre plane between two sides whose targets face each other (a width: CTC 2's B, FTC 6's J),
 * or the axis of a contact circle (a circular curve). docs/gdt.md, "Datum targets".
 */
export interface DatumTarget {
  id: string;
  kind: string;
  /** In mm, in the nominal's coordinates. */
  origin?: Vec3 | undefined;
  /** The target's placement z (a circle's axis) and x (a line's run, a rectangle's length). */
  normal?: Vec3 | undefined;
  direction?: Vec3 | undefined;
  length?: number | undefined;
  width?: number | undefined;
  diameter?: number | undefined;
  /** The sizes' numbers in the coordinates' unit, when the file names another unit for them (read_pmi). */
  inCoordinateUnit?: { length?: number; width?: number; diameter?: number } | undefined;
}

/** The orientation the earlier datums of a frame have fixed: the primary's direction z, the secondary's x. */
export interface Fixed {
  z: Vec3 | null;
  x: Vec3 | null;
}

export type Resolve = (nominal: Fixed, actual: Fixed) => { nominal: DatumFeature; actual: DatumFeature } | string;

export interface TargetDatum {
  nominal: DatumFeature | null;
  actual: DatumFeature | null;
  /** Scan samples read at the stations. */
  samples: number;
  reason?: string;
  /** How the targets were read, when not as the file names them. */
  note?: string;
  /** The feature on the nominal and the scan as the datum's place in a frame constrains it. */
  resolve?: Resolve;
}

/** One station of a target: its nominal point, outward normal, and the scan's deviation there along it. */
interface Station {
  t: Vec3;
  n: Vec3;
  d: number;
}

/** Scan samples whose fit gives the deviation at a station. */
const NEAREST = 12;
/** A station whose nearest samples reach farther than this share of its face's size is not read. */
const REACH = 0.25;

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const reject = (v: Vec3, u: Vec3): Vec3 => sub(v, scale(u, dot(v, u)));
const at = (p: ArrayLike<number>, i: number): Vec3 => [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!];
const len = (v: Vec3) => Math.hypot(...v);
const mean = (ps: Vec3[]): Vec3 => scale(ps.reduce(add, [0, 0, 0]), 1 / ps.length);

/** The target kinds simulated, as AP242 names them. */
const KINDS = ['point', 'line', 'rectangle', 'circle', 'circular curve'];

/** The datum of `label` from its targets: stations read on the scan, and how to make its feature in a frame. */
export function establishTargets(nominal: NominalAccess, actualOn: (faces: number[]) => PointSet, label: string, given: DatumTarget[]): TargetDatum {
  const targets = [...given];
  const fail = (reason: string, samples = 0): TargetDatum => ({ nominal: null, actual: null, samples, reason: `datum ${label}: ${reason}` });
  const odd = targets.find((t) => !KINDS.includes(t.kind));
  if (odd) return fail(`target ${odd.id} is a '${odd.kind}' target, which is not simulated (point, line, rectangle, circle and circular curve targets are)`);
  const circular = targets.filter((t) => t.kind === 'circular curve');
  if (circular.length && circular.length < targets.length) return fail(`its targets mix circular curves (${circular.map((t) => t.id).join(', ')}) with ${targets.filter((t) => t.kind !== 'circular curve').map((t) => `${t.id} (${t.kind})`).join(', ')}: not simulated`);

  const reader = stationReader(nominal, actualOn);
  const perTarget: Station[][] = [];
  const notes: string[] = [];
  const readAll = (t: DatumTarget): Station[] | string => {
    const places = stationsOf(t);
    if (typeof places === 'string') return places;
    const read: Station[] = [];
    for (const p of places) {
      const s = reader.read(p);
      if (typeof s === 'string') return `target ${t.id} (${t.kind}): ${s}`;
      read.push(s);
    }
    return read;
  };
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    let read = readAll(t);
    // Sizes named in one unit and written in the coordinates' (FTC 6): taken so when only they fit the part.
    if (typeof read === 'string' && t.inCoordinateUnit) {
      const again = readAll({ ...t, ...t.inCoordinateUnit });
      if (typeof again !== 'string') {
        notes.push(`target ${t.id}: its sizes read in the coordinates' unit (${describeSizes(t.inCoordinateUnit)} mm); in the unit the file names (${describeSizes(t)} mm) ${read.replace(/^target \S+ \([^)]*\): /, '')}`);
        targets[k] = { ...t, ...t.inCoordinateUnit };
        read = again;
      }
    }
    if (typeof read === 'string') return fail(read, reader.used());
    perTarget.push(read);
  }
  const resolve = circular.length ? circleAxis(label, targets, perTarget) : contactPlanes(label, perTarget.flat());
  const primary = resolve({ z: null, x: null }, { z: null, x: null });
  const note = notes.length ? { note: notes.join('; ') } : {};
  // A datum that cannot be a primary (two points, one line) may still serve as a secondary or tertiary.
  return typeof primary === 'string' ? { nominal: null, actual: null, samples: reader.used(), resolve, ...note } : { nominal: primary.nominal, actual: primary.actual, samples: reader.used(), resolve, ...note };
}

const describeSizes = (t: { length?: number | undefined; width?: number | undefined; diameter?: number | undefined }) =>
  (['length', 'width', 'diameter'] as const).filter((k) => t[k] !== undefined).map((k) => `${k} ${round(t[k]!)}`).join(', ');

/** The points a target is read at (mm), or why it cannot be. Ends and edges are avoided: a station there could read the next face. */
function stationsOf(t: DatumTarget): Vec3[] | string {
  const o = t.origin;
  if (!o) return `target ${t.id} (${t.kind}) has no location in the file`;
  if (t.kind === 'point') return [o];
  const need = (what: string) => `target ${t.id} (${t.kind}) has no ${what} in the file`;
  if (t.kind === 'line') {
    if (!t.direction) return need('direction');
    if (!(t.length! > 0)) return need('length');
    const u = normalize(t.direction);
    return Array.from({ length: 8 }, (_, k) => add(o, scale(u, (t.length! * (k + 0.5)) / 8)));
  }
  if (!t.normal) return need('normal (placement z)');
  const z = normalize(t.normal);
  if (t.kind === 'rectangle') {
    if (!t.direction) return need('direction');
    if (!(t.length! > 0) || !(t.width! > 0)) return need('length and width');
    const u = normalize(reject(t.direction, z)), v = cross(z, u);
    const out: Vec3[] = [];
    for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) out.push(add(o, add(scale(u, t.length! * ((i + 0.5) / 5 - 0.5)), scale(v, t.width! * ((j + 0.5) / 5 - 0.5)))));
    return out;
  }
  if (!(t.diameter! > 0)) return need('diameter');
  const [e1, e2] = frameOf(z);
  const ring = (r: number, n: number) => Array.from({ length: n }, (_, k) => {
    const a = (2 * Math.PI * (k + 0.5)) / n;
    return add(o, add(scale(e1, r * Math.cos(a)), scale(e2, r * Math.sin(a))));
  });
  const r = t.diameter! / 2;
  return t.kind === 'circle' ? [o, ...ring(r / 2, 8), ...ring(0.9 * r, 16)] : ring(r, 24);
}

/**
 * Reads stations on the scan: the station's foot on the nominal (its face and outward normal), the
 * NEAREST scan samples on that face, each sample's signed distance from the nominal, and those
 * distances fitted by a plane over the station's tangent plane, read at the station (on a tilted
 * flat, exact; on a curved face, free of its curvature).
 */
function stationReader(nominal: NominalAccess, actualOn: (faces: number[]) => PointSet) {
  const hit = createExactHit(), foot = createExactHit();
  const onFace = new Map<number, PointSet>();
  const size = new Map<number, number>();
  let used = 0;
  const faceSize = (f: number) => {
    let s = size.get(f);
    if (s === undefined) {
      const nodes = nominal.nodes([f]);
      const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < nodes.count; i++) for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k]!, nodes.points[3 * i + k]!);
        hi[k] = Math.max(hi[k]!, nodes.points[3 * i + k]!);
      }
      size.set(f, (s = nodes.count ? len(sub(hi, lo)) : 0));
    }
    return s;
  };
  const read = (p: Vec3): Station | string => {
    nominal.ref.nearest(p[0], p[1], p[2], hit);
    if (hit.face < 0) return 'no face of the nominal near it';
    const t: Vec3 = [hit.x, hit.y, hit.z], n = normalize([hit.nx, hit.ny, hit.nz]);
    const off = len(sub(p, t));
    if (off > 1e-3 * (1 + faceSize(hit.face))) return `it lies ${round(off)} mm off the nominal's surface`;
    let pts = onFace.get(hit.face);
    if (!pts) onFace.set(hit.face, (pts = actualOn([hit.face])));
    const [e1, e2] = frameOf(n);
    // The nearest samples (a partial selection: stations are few, samples many). Nearest in space, not
    // across the normal alone: across a hole the far wall lies right behind the station.
    const best: { i: number; r: number }[] = [];
    for (let i = 0; i < pts.count; i++) {
      const r = len(sub(at(pts.points, i), t));
      if (best.length < NEAREST) best.push({ i, r });
      else if (r < best[best.length - 1]!.r) best[best.length - 1] = { i, r };
      else continue;
      best.sort((a, b) => a.r - b.r);
    }
    if (best.length < 3) return `${pts.count} scan samples on face[${hit.face}], where it lies`;
    if (best[best.length - 1]!.r > REACH * faceSize(hit.face)) return `the scan samples on face[${hit.face}] nearest it are ${round(best[best.length - 1]!.r)} mm away`;
    used += best.length;
    const rows = best.map(({ i }) => {
      const s = at(pts.points, i);
      const dev = deviation(nominal, s, foot);
      const d = sub(s, t);
      return { u: dot(d, e1), v: dot(d, e2), dev };
    });
    return { t, n, d: fitAtOrigin(rows) };
  };
  return { read, used: () => used };
}

/** Signed distance of a scan sample from the nominal (positive outside the material). */
function deviation(nominal: NominalAccess, s: Vec3, foot: ExactHit): number {
  nominal.ref.nearest(s[0], s[1], s[2], foot);
  return (s[0] - foot.x) * foot.nx + (s[1] - foot.y) * foot.ny + (s[2] - foot.z) * foot.nz;
}

/**
 * dev = a + b u + c v by least squares, read at (0, 0). Samples along one line (a narrow face) fit
 * dev = a + b s along it; samples at one spot, their mean.
 */
function fitAtOrigin(rows: { u: number; v: number; dev: number }[]): number {
  const n = rows.length;
  const mu = rows.reduce((a, r) => a + r.u, 0) / n, mv = rows.reduce((a, r) => a + r.v, 0) / n, md = rows.reduce((a, r) => a + r.dev, 0) / n;
  let suu = 0, suv = 0, svv = 0, sud = 0, svd = 0;
  for (const r of rows) {
    const u = r.u - mu, v = r.v - mv, d = r.dev - md;
    suu += u * u;
    suv += u * v;
    svv += v * v;
    sud += u * d;
    svd += v * d;
  }
  const det = suu * svv - suv * suv, big = suu + svv;
  if (big <= 1e-24) return md;
  if (det > 1e-8 * big * big) {
    const b = (sud * svv - svd * suv) / det, c = (svd * suu - sud * suv) / det;
    return md - b * mu - c * mv;
  }
  // Along the samples' line: its direction, the slope along it.
  const a = 0.5 * Math.atan2(2 * suv, suu - svv), cu = Math.cos(a), cv = Math.sin(a);
  const sss = rows.reduce((acc, r) => acc + ((r.u - mu) * cu + (r.v - mv) * cv) ** 2, 0);
  const ssd = rows.reduce((acc, r) => acc + ((r.u - mu) * cu + (r.v - mv) * cv) * (r.dev - md), 0);
  return md - (ssd / sss) * (mu * cu + mv * cv);
}

/**
 * A plane (all stations facing one way) or the centre plane of two sides facing each other (a
 * width), from the stations' contacts. Each side's simulator moves along its normal as the earlier
 * datums leave it (primary: its own normal; secondary: across the primary's direction, turning about
 * it; tertiary: along what is left) and rests on the side's high points. Targets at different
 * heights (CTC 2's B1 and B2 on two steps of one side) are read from the side's mean plane: the
 * simulator carries the steps at their basic heights.
 */
function contactPlanes(label: string, stations: Station[]): Resolve {
  const first = stations[0]!.n;
  const sides = [stations.filter((s) => dot(s.n, first) > 0), stations.filter((s) => dot(s.n, first) <= 0)].filter((g) => g.length > 0);
  const normals = sides.map((g) => normalize(mean(g.map((s) => s.n))));
  // One side, or two facing each other; targets on faces at right angles (a corner) are neither.
  const scattered = sides.some((g, k) => g.some((s) => dot(s.n, normals[k]!) < Math.SQRT1_2)) || (sides.length === 2 && dot(normals[0]!, normals[1]!) > -0.2);
  if (scattered) return () => `datum ${label}: its targets lie on faces facing more ways than one side or two opposed sides; not simulated`;
  return (nominalFixed, actualFixed) => {
    const out: DatumFeature[] = [];
    for (const [fixed, actual] of [[nominalFixed, false], [actualFixed, true]] as const) {
      const planes: { m: Vec3; p: Vec3 }[] = [];
      for (let k = 0; k < sides.length; k++) {
        const side = simulateSide(sides[k]!, normals[k]!, fixed, actual);
        if (typeof side === 'string') return `datum ${label}: ${side}`;
        planes.push(side);
      }
      if (planes.length === 1) {
        out.push({ kind: 'plane', normal: planes[0]!.m, point: planes[0]!.p });
        continue;
      }
      // The centre plane: the points as far from one side as from the other (a slot's or a V's bisector).
      const [a, b] = planes as [{ m: Vec3; p: Vec3 }, { m: Vec3; p: Vec3 }];
      const d = sub(a.m, b.m), l = len(d);
      if (l < 1e-6) return `datum ${label}: its targets' two sides face the same way`;
      const m = scale(d, 1 / l), k = (dot(a.m, a.p) - dot(b.m, b.p)) / l;
      const c = mean(stations.map((s) => s.t));
      out.push({ kind: 'plane', normal: m, point: add(c, scale(m, k - dot(m, c))) });
    }
    return { nominal: out[0]!, actual: out[1]! };
  };
}

/** One side's simulated plane: its normal m and a point of it (the high point), on the nominal (d = 0) or on the scan. */
function simulateSide(stations: Station[], normal: Vec3, fixed: Fixed, actual: boolean): { m: Vec3; p: Vec3 } | string {
  // The direction the simulator moves in: what the earlier datums leave of the side's normal.
  let c = normal;
  if (fixed.z) c = reject(c, fixed.z);
  if (fixed.x) c = reject(c, fixed.x);
  if (len(c) < 1e-6) return "its targets face along the earlier datums' directions: it fixes nothing they leave";
  c = normalize(c);
  const base = mean(stations.map((s) => s.t));
  const pts: Vec3[] = [];
  for (const s of stations) {
    const along = dot(s.n, c);
    if (along < 0.2) return 'a target faces too far from the direction the earlier datums leave it';
    // The contact where the simulator moving along c meets the scan's surface, carried to the side's mean plane.
    const gap = actual ? s.d / along : 0;
    pts.push(add(s.t, scale(c, gap - dot(sub(s.t, base), c))));
  }
  let m = c;
  if (!fixed.z) {
    const zone = pts.length >= 3 && !collinear(pts) ? flatnessZone(pts.flat()) : null;
    if (!zone) return 'a primary datum plane needs targets spanning a plane (3 points not on one line, two lines, or an area)';
    m = dot(zone.normal, c) < 0 ? scale(zone.normal, -1) : zone.normal;
  } else if (!fixed.x) {
    // A secondary turns about the primary's direction to its targets: the least-squares line of the
    // contacts across z (through both of two points).
    const w = normalize(cross(fixed.z, c));
    const u = pts.map((p) => dot(p, w)), v = pts.map((p) => dot(p, c));
    const mu = u.reduce((a, x) => a + x, 0) / u.length, mv = v.reduce((a, x) => a + x, 0) / v.length;
    let suu = 0, suv = 0;
    u.forEach((x, i) => {
      suu += (x - mu) ** 2;
      suv += (x - mu) * (v[i]! - mv);
    });
    if (suu > 1e-12 * (1 + mu * mu)) m = normalize(sub(c, scale(w, suv / suu)));
  }
  let best = -Infinity, p = pts[0]!;
  for (const q of pts) if (dot(q, m) > best) [best, p] = [dot(q, m), q];
  return { m, p };
}

function collinear(pts: Vec3[]): boolean {
  const o = pts[0]!;
  let far = o;
  for (const p of pts) if (len(sub(p, o)) > len(sub(far, o))) far = p;
  const u = sub(far, o);
  if (len(u) === 0) return true;
  const dir = normalize(u);
  return pts.every((p) => len(reject(sub(p, o), dir)) <= 1e-9 * (1 + len(u)));
}

/**
 * The axis of contact circles (circular-curve targets: a ring gauge on a cone or a hole's edge): the
 * centre of each circle's contacts, each station's contact taken where the scan's surface crosses
 * the circle's plane along the station's radius. Its direction is the target's placement z; where
 * it lies across it is the datum (an axis after a plane locates the origin, buildFrame).
 */
function circleAxis(label: string, targets: DatumTarget[], stations: Station[][]): Resolve {
  const axis = normalize(targets[0]!.normal!);
  const [e1, e2] = frameOf(axis);
  const centre = (actual: boolean): Vec3 | string => {
    const centres: Vec3[] = [];
    for (let k = 0; k < targets.length; k++) {
      const o = targets[k]!.origin!;
      const uv: number[] = [];
      for (const s of stations[k]!) {
        const radial = normalize(reject(sub(s.t, o), axis));
        const along = dot(s.n, radial);
        if (Math.abs(along) < 0.2) return `target ${targets[k]!.id}: the surface at the circle is nearly across its radius (a face along the circle's plane): not read`;
        const q = add(s.t, scale(radial, actual ? s.d / along : 0));
        uv.push(dot(sub(q, o), e1), dot(sub(q, o), e2));
      }
      const c = fitCircle2d(uv);
      if (!c) return `target ${targets[k]!.id}: no circle fits its contacts`;
      centres.push(add(o, add(scale(e1, c.cu), scale(e2, c.cv))));
    }
    return mean(centres);
  };
  const nominalCentre = centre(false), actualCentre = centre(true);
  return () => {
    if (typeof nominalCentre === 'string') return `datum ${label}: ${nominalCentre}`;
    if (typeof actualCentre === 'string') return `datum ${label}: ${actualCentre}`;
    return { nominal: { kind: 'axis', direction: axis, point: nominalCentre }, actual: { kind: 'axis', direction: axis, point: actualCentre } };
  };
}

const round = (x: number) => Number(x.toPrecision(3));
