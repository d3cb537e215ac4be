import { isolatedSamples } from './isolatedSamples';
import { createExactHit, FootKind, type ExactReference } from '../exact/ExactReference';
import type { ExactGeometry } from '../exact/geometry';
import type { FaceTessellation } from '../mesh/TriMesh';
import type { PointSet } from './bodySamples';

/**
 * The nominal's face borders as segments (xyz xyz): each edge's polyline, seams left out (a seam is
 * inside its face: a periodic surface's parameter wraps there, the surface does not end).
 */
export function borderSegments(geometry: ExactGeometry): Float64Array {
  const out: number[] = [];
  for (const e of geometry.edges) {
    if (!isBorder(e)) continue;
    for (let k = 0; k + 5 < e.points.length; k += 3) out.push(e.points[k]!, e.points[k + 1]!, e.points[k + 2]!, e.points[k + 3]!, e.points[k + 4]!, e.points[k + 5]!);
  }
  return Float64Array.from(out);
}

/**
 * A face border: not a seam, and bounding a measured face (an edge only construction surfaces beside
 * the solid have, keptFaces' `outside`, may run across a solid face: it is no border there).
 */
function isBorder(e: ExactGeometry['edges'][number] | undefined): e is ExactGeometry['edges'][number] {
  if (!e || !e.points || e.points.length < 6 || e.outside) return false;
  return !(e.faces.length === 2 && e.faces[0] === e.faces[1]);
}

/**
 * The border test of the split, (x, y, z, face) => near a border: within `margin` of an edge, but
 * on a face narrower than four margins within a quarter of its width of its own edges. A fillet of
 * radius 0.1 (NIST FTC 11's, 0.16 wide) lies wholly within the default margin (0.09) of its two
 * edges: the margin left it no sample at all, and its radius was `pass: null`. Its middle half now
 * counts. The width is 2 area / perimeter (the inradius of a disk or a square, the width of a strip).
 */
export function borderTest(geometry: ExactGeometry, mesh: FaceTessellation, margin: number): (x: number, y: number, z: number, face: number) => boolean {
  const near = edgeProximity(borderSegments(geometry), margin);
  const narrow = narrowFaces(geometry, mesh, margin);
  if (narrow.size === 0) return (x, y, z) => near(x, y, z);
  const own = new Map<number, (x: number, y: number, z: number) => boolean>();
  return (x, y, z, face) => {
    if (!near(x, y, z)) return false;
    const m = narrow.get(face);
    if (m === undefined) return true;
    let test = own.get(face);
    if (!test) own.set(face, (test = edgeProximity(faceBorder(geometry, face), m)));
    return test(x, y, z);
  };
}

/** Faces whose width (2 area / perimeter) is below 4 margins, with their own margin: a quarter of it. */
function narrowFaces(geometry: ExactGeometry, mesh: FaceTessellation, margin: number): Map<number, number> {
  const area = new Float64Array(geometry.faces.length);
  const p = mesh.positions, t = mesh.indices;
  for (let k = 0; k < mesh.faceIds.length; k++) {
    const a = 3 * t[3 * k]!, b = 3 * t[3 * k + 1]!, c = 3 * t[3 * k + 2]!;
    const u = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!], v = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
    area[mesh.faceIds[k]!]! += 0.5 * Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!);
  }
  const perimeter = new Float64Array(geometry.faces.length);
  for (const e of geometry.edges) {
    if (!isBorder(e)) continue;
    let len = 0;
    for (let k = 0; k + 5 < e.points.length; k += 3) len += Math.hypot(e.points[k + 3]! - e.points[k]!, e.points[k + 4]! - e.points[k + 1]!, e.points[k + 5]! - e.points[k + 2]!);
    for (const f of new Set(e.faces)) perimeter[f]! += len;
  }
  const out = new Map<number, number>();
  for (let f = 0; f < area.length; f++) {
    const width = perimeter[f]! > 0 ? (2 * area[f]!) / perimeter[f]! : Infinity;
    if (area[f]! > 0 && width < 4 * margin) out.set(f, width / 4);
  }
  return out;
}

/** One face's border segments (xyz xyz). */
function faceBorder(geometry: ExactGeometry, face: number): Float64Array {
  const out: number[] = [];
  for (const i of geometry.faces[face]?.edges ?? []) {
    const e = geometry.edges[i];
    if (!isBorder(e)) continue;
    for (let k = 0; k + 5 < e.points.length; k += 3) out.push(...e.points.subarray(k, k + 6));
  }
  return Float64Array.from(out);
}

/**
 * Scan samples split by the nominal's faces: each sample goes to the face its exact nearest point
 * lies on, unless that point is on an edge or vertex of the nominal, within `margin` of an edge
 * other than a seam (a border sample can belong to either face, and a scan rounds every edge), or farther than
 * `maxDistance` from the nominal (no counterpart: noise, fixtures, another part), or isolated: no
 * neighbour on its face agrees with its deviation (a spike, a stray point: isolatedSamples.ts).
 */
export interface FaceSplit {
  /** Per sample: its face index, or -1 when left out. */
  face: Int32Array;
  /** Per sample: signed distance from its nominal face (positive outside the material), NaN when left out. */
  deviation: Float64Array;
  assigned: number;
  border: number;
  far: number;
  /** Samples left out as isolated (isolatedSamples.ts). */
  isolated: number;
}

/**
 * A sample whose own normal (a mesh's, a cloud's when it has them) is more than 60 degrees off its
 * nearest face's is left out with the border samples: it lies on another face. A scan placed a
 * quarter millimetre off put a hole's wall samples on the flat face around it (NIST FTC 6, turned
 * 0.05 degrees: its flatness 0.254 read 0.16 for a perfect scan). Sign-blind, so an inside-out
 * scan keeps its samples.
 */
const NORMAL_AGREEMENT = 0.5;

export function splitByFaces(
  ref: ExactReference,
  samples: PointSet,
  margin: number,
  maxDistance: number,
  near = borderTest(ref.geometry, ref.mesh, margin),
  /** The least difference from its neighbours that may leave a sample out as isolated; null keeps every sample. */
  isolatedFloor: number | null = null,
): FaceSplit {
  const n = samples.count;
  const face = new Int32Array(n).fill(-1);
  const deviation = new Float64Array(n).fill(NaN);
  const hit = createExactHit();
  let assigned = 0, border = 0, far = 0;
  const p = samples.points, normals = samples.normals;
  for (let i = 0; i < n; i++) {
    const x = p[3 * i]!, y = p[3 * i + 1]!, z = p[3 * i + 2]!;
    ref.nearest(x, y, z, hit);
    if (!(hit.distance <= maxDistance)) {
      far++;
      continue;
    }
    if (hit.kind !== FootKind.face || hit.face < 0 || near(hit.x, hit.y, hit.z, hit.face)) {
      border++;
      continue;
    }
    if (normals && Math.abs(normals[3 * i]! * hit.nx + normals[3 * i + 1]! * hit.ny + normals[3 * i + 2]! * hit.nz) < NORMAL_AGREEMENT) {
      border++;
      continue;
    }
    face[i] = hit.face;
    deviation[i] = (x - hit.x) * hit.nx + (y - hit.y) * hit.ny + (z - hit.z) * hit.nz;
    assigned++;
  }
  let isolated = 0;
  if (isolatedFloor !== null) {
    const iso = isolatedSamples(p, face, deviation, isolatedFloor);
    for (let i = 0; i < n; i++) {
      if (!iso.isolated[i]) continue;
      face[i] = -1;
      deviation[i] = NaN;
    }
    assigned -= iso.count;
    isolated = iso.count;
  }
  return { face, deviation, assigned, border, far, isolated };
}

/**
 * A test "is this point within `margin` of an edge polyline": the polylines densified to points
 * margin / 4 apart in a hash grid of cell `margin`; a point is near when one of those points in the
 * 27 cells about it is within margin (off by at most margin / 8 from the true polyline distance).
 */
export function edgeProximity(segments: ArrayLike<number>, margin: number): (x: number, y: number, z: number) => boolean {
  if (!(margin > 0) || segments.length === 0) return () => false;
  const cells = new Map<string, number[]>();
  const key = (i: number, j: number, k: number) => `${i},${j},${k}`;
  const put = (x: number, y: number, z: number) => {
    const id = key(Math.floor(x / margin), Math.floor(y / margin), Math.floor(z / margin));
    let list = cells.get(id);
    if (!list) cells.set(id, (list = []));
    list.push(x, y, z);
  };
  for (let s = 0; s + 5 < segments.length; s += 6) {
    const ax = segments[s]!, ay = segments[s + 1]!, az = segments[s + 2]!;
    const bx = segments[s + 3]!, by = segments[s + 4]!, bz = segments[s + 5]!;
    const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay, bz - az) / (margin / 4)));
    for (let t = 0; t <= steps; t++) put(ax + ((bx - ax) * t) / steps, ay + ((by - ay) * t) / steps, az + ((bz - az) * t) / steps);
  }
  const m2 = margin * margin;
  return (x, y, z) => {
    const ci = Math.floor(x / margin), cj = Math.floor(y / margin), ck = Math.floor(z / margin);
    for (let i = ci - 1; i <= ci + 1; i++)
      for (let j = cj - 1; j <= cj + 1; j++)
        for (let k = ck - 1; k <= ck + 1; k++) {
          const list = cells.get(key(i, j, k));
          if (!list) continue;
          for (let q = 0; q < list.length; q += 3) {
            const dx = list[q]! - x, dy = list[q + 1]! - y, dz = list[q + 2]! - z;
            if (dx * dx + dy * dy + dz * dz < m2) return true;
          }
        }
    return false;
  };
}
