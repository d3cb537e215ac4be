import { createExactHit, FootKind, type ExactReference } from '../exact/ExactReference';
import type { ExactGeometry } from '../exact/geometry';
import type { PointSet } from './bodySamples';

/**
 * The nominal's face borders as segments (xyz xyz): each edge's polyline, seams left out (a seam is
 * inside its face: a periodic surface's parameter wraps there, the surface does not end).
 */
export function borderSegments(geometry: ExactGeometry): Float64Array {
  const out: number[] = [];
  for (const e of geometry.edges) {
    if (!e || !e.points || e.points.length < 6) continue;
    if (e.faces.length === 2 && e.faces[0] === e.faces[1]) continue;
    for (let k = 0; k + 5 < e.points.length; k += 3) out.push(e.points[k]!, e.points[k + 1]!, e.points[k + 2]!, e.points[k + 3]!, e.points[k + 4]!, e.points[k + 5]!);
  }
  return Float64Array.from(out);
}

/**
 * Scan samples split by the nominal's faces: each sample goes to the face its exact nearest point
 * lies on, unless that point is on an edge or vertex of the nominal, within `margin` of an edge
 * other than a seam (a border sample can belong to either face, and a scan rounds every edge), or farther than
 * `maxDistance` from the nominal (no counterpart: noise, fixtures, another part).
 */
export interface FaceSplit {
  /** Per sample: its face index, or -1 when left out. */
  face: Int32Array;
  /** Per sample: signed distance from its nominal face (positive outside the material), NaN when left out. */
  deviation: Float64Array;
  assigned: number;
  border: number;
  far: number;
}

/**
 * A sample whose own normal (a mesh's, a cloud's when it has them) is more than 60 degrees off its
 * nearest face's is left out with the border samples: it lies on another face. A scan placed a
 * quarter millimetre off put a hole's wall samples on the flat face around it (NIST FTC 6, turned
 * 0.05 degrees: its flatness 0.254 read 0.16 for a perfect scan). Sign-blind, so an inside-out
 * scan keeps its samples.
 */
const NORMAL_AGREEMENT = 0.5;

export function splitByFaces(ref: ExactReference, samples: PointSet, edgeSegments: ArrayLike<number>, margin: number, maxDistance: number, near = edgeProximity(edgeSegments, margin)): FaceSplit {
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
    if (hit.kind !== FootKind.face || hit.face < 0 || near(hit.x, hit.y, hit.z)) {
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
  return { face, deviation, assigned, border, far };
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
