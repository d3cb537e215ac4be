import { createExactHit, FootKind, type ExactReference } from '../exact/ExactReference';
import { applyToPoints, rotate, type Rigid } from '../math/rigid';
import { sampleSurface } from '../mesh/sampleSurface';
import type { TriMesh } from '../mesh/TriMesh';
import { concatSets, select, type PointSet } from './bodySamples';
import type { FaceSplit } from './faceSplit';
import type { NominalAccess } from './nominalFaces';
import { regionMember } from './supplementalFaces';

/**
 * A face set (a characteristic's feature, a datum) with fewer scan samples than this gets more,
 * drawn from the scan near its faces (docs/gdt.md, `maxSamples`). A few hundred: a least-squares
 * axis from 300 points moves by about a tenth of what it does from 30.
 */
export const MIN_FEATURE_SAMPLES = 300;

/** The scan as a surface to draw more samples from: its triangles (a mesh, a BREP's tessellation), or its points (a cloud). */
export type ScanSurface =
  | { kind: 'mesh'; mesh: TriMesh; /** A BREP scan: each sample moved onto its exact face. */ exact?: ExactReference }
  | { kind: 'points'; /** Every point of the cloud (with unit normals if it has them), read when first needed. */ cloud: () => PointSet };

/** The scan samples on some faces, more drawn when they are few; `added` counts the samples drawn. */
export interface Densifier {
  (faces: number[], have: PointSet): PointSet;
  added(): number;
}

/**
 * Draws more scan samples for a face set that has fewer than `target`. The scan (placed by
 * `motion`, the alignment applied to the base samples) is sampled by area over its triangles that
 * reach into the faces' box grown by `reach` (the split's largest distance: no farther sample could
 * land on them), and the samples the split puts on the faces are kept. Those are area-uniform over
 * the faces (uniform over a region covering them, then restricted), as are the base samples, so the
 * union is too and the fits weigh every part of the faces alike. A cloud gives every point in the
 * box that lands on the faces (the base took every n-th). At most `budget` samples drawn in all
 * (a cloud's: kept), and 20 times the target for one face set.
 */
export function scanDensifier(
  scan: ScanSurface,
  motion: Rigid,
  nominal: NominalAccess,
  split: (set: PointSet) => FaceSplit,
  reach: number,
  budget: number,
  target = MIN_FEATURE_SAMPLES,
): Densifier {
  let drawn = 0, added = 0;
  // The scan placed by the motion, made when a face set first needs samples (most evaluations: none).
  let placed: Float64Array | undefined, cloud: PointSet | undefined;
  // A cloud's points' faces by the split (UNSPLIT until a face set's box first holds the point).
  let pointFace: Int32Array | undefined;
  const cloudOf = (read: () => PointSet) => (cloud ??= read());
  const scanPlaced = (): Float64Array => {
    if (placed) return placed;
    if (scan.kind === 'mesh') return (placed = applyToPoints(motion, scan.mesh.positions));
    const c = cloudOf(scan.cloud);
    return (placed = applyToPoints(motion, c.points.subarray(0, 3 * c.count)));
  };
  const cache = new Map<string, PointSet>();

  // Whether a point the split put on face `face` (-1: left out) is on the faces. Construction
  // faces (supplementalFaces.ts) stand for regions of the solid faces under them.
  const landsOn = (faces: number[]) => {
    const { member } = regionMember(nominal.supplemental, faces);
    return (face: number, p: ArrayLike<number>, i: number) => face >= 0 && member(face, p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!);
  };
  const onFaces = (set: PointSet, faces: number[]): PointSet => {
    const s = split(set), on = landsOn(faces);
    const keep: number[] = [];
    for (let i = 0; i < set.count; i++) if (on(s.face[i]!, set.points, i)) keep.push(i);
    return select(set, keep);
  };

  const draw = (faces: number[]): PointSet | null => {
    const box = facesBox(nominal, faces, reach);
    if (!box) return null;
    const moved = scanPlaced();
    if (scan.kind === 'points') {
      // Every point of the box that lands on the faces. A point's face is found once for the whole
      // evaluation (a pattern's or a datum's box can hold most of the part), and the budget counts
      // the points kept: it bounded the box's points before, so the first face set whose box held
      // the part took the whole budget and the callouts read after it got nothing (NIST FTC 9 on a
      // cloud: holes with 124 samples read alone had 11 in the whole evaluation, not evaluated).
      const all = cloudOf(scan.cloud);
      const faceOf = (pointFace ??= new Int32Array(all.count).fill(UNSPLIT));
      const box0: number[] = [];
      for (let i = 0; i < all.count; i++) if (inside(moved, i, box)) box0.push(i);
      // A box holding more points than the budget: every n-th of them, so that finding their
      // faces costs no more than the budget's worth of nearest-point queries a face set.
      const stride = Math.max(1, Math.ceil(box0.length / budget));
      const inBox = stride === 1 ? box0 : box0.filter((_, j) => j % stride === 0);
      const fresh = inBox.filter((i) => faceOf[i] === UNSPLIT);
      if (fresh.length > 0) {
        const s = split(selectMoved(moved, all.normals, motion, fresh));
        fresh.forEach((i, j) => (faceOf[i] = s.face[j]!));
      }
      const lands = landsOn(faces);
      const on = inBox.filter((i) => lands(faceOf[i]!, moved, i));
      // At most 20 times the target for one face set, as a mesh draws.
      const every = Math.max(1, Math.ceil(on.length / Math.max(1, Math.min(20 * target, budget - drawn))));
      const pick = on.filter((_, j) => j % every === 0);
      drawn += pick.length;
      return selectMoved(moved, all.normals, motion, pick);
    }
    const { member } = regionMember(nominal.supplemental, faces);
    const hit = createExactHit();
    const sub = trianglesOver(scan.mesh, moved, box, (x, y, z) => {
      nominal.ref.nearest(x, y, z, hit);
      return hit.kind === FootKind.face && hit.distance <= reach && member(hit.face, hit.x, hit.y, hit.z);
    });
    if (!sub) return null;
    // Start with twice the target (the triangles reach past the faces' edges), then as many as the
    // share that landed on them asks for, at most 20 times the target for one face set.
    const most = Math.min(20 * target, budget - drawn);
    let k = Math.min(2 * target, most);
    let got: PointSet | null = null;
    for (let round = 0; round < 2 && k > 0; round++) {
      got = onFaces(sampleMoved(sub, k, scan.exact, motion), faces);
      drawn += k;
      if (got.count >= target) break;
      const more = Math.min(Math.ceil((1.2 * k * target) / Math.max(1, got.count)), most, budget - drawn);
      if (more <= k) break;
      k = more;
    }
    return got;
  };

  const densify = ((faces: number[], have: PointSet): PointSet => {
    if (have.count >= target || drawn >= budget || faces.length === 0) return have;
    const key = [...faces].sort((a, b) => a - b).join(',');
    let more = cache.get(key);
    if (!more) cache.set(key, (more = draw(faces) ?? { points: new Float64Array(0), normals: undefined, count: 0 }));
    if (scan.kind === 'points') {
      // The cloud's points in the box include the base's: the larger set, not both.
      if (more.count <= have.count) return have;
      added += more.count - have.count;
      return more;
    }
    added += more.count;
    return concatSets(have, more);
  }) as Densifier;
  densify.added = () => added;
  return densify;
}

const UNSPLIT = -2;

type Box = { min: [number, number, number]; max: [number, number, number] };

function facesBox(nominal: NominalAccess, faces: number[], reach: number): Box | null {
  const nodes = nominal.nodes(faces);
  if (nodes.count === 0) return null;
  const min: [number, number, number] = [Infinity, Infinity, Infinity], max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < nodes.count; i++)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, nodes.points[3 * i + k]! - reach);
      max[k] = Math.max(max[k]!, nodes.points[3 * i + k]! + reach);
    }
  return { min, max };
}

function inside(p: Float64Array, i: number, b: Box): boolean {
  for (let k = 0; k < 3; k++) {
    const v = p[3 * i + k]!;
    if (v < b.min[k]! || v > b.max[k]!) return false;
  }
  return true;
}

/** Barycentric points inside a triangle tested against the faces: the centroid and one near each corner. */
const PROBES = [[1 / 3, 1 / 3, 1 / 3], [0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]];

/**
 * The scan's triangles (in its own coordinates) over the faces, as a compact mesh (null when none):
 * those in the box with a probe point (PROBES) whose nearest nominal point is inside one of the
 * faces. Inside points only: a CAD tessellation's fan triangles reach a hole's rim, or lie along a
 * plate's edge, from across the whole plate, and a point on that edge reads as on the face beyond
 * it; drawing from them put 1 sample in 600 on a hole. The box alone held a narrow face's wide
 * neighbours too (FTC 8's datum B: 1.4% of the samples drawn fell on it). Not drawn from: a
 * triangle straddling the faces' border with no probe on them (only a part near the border, which
 * the border margin mostly leaves out anyway, when the scan's triangles are small against the faces).
 */
function trianglesOver(mesh: TriMesh, moved: Float64Array, b: Box, onFaces: (x: number, y: number, z: number) => boolean): TriMesh | null {
  const idx = mesh.indices;
  const remap = new Map<number, number>();
  const tris: number[] = [];
  for (let t = 0; t < idx.length / 3; t++) {
    const v = [idx[3 * t]!, idx[3 * t + 1]!, idx[3 * t + 2]!];
    let inBox = true;
    for (let k = 0; k < 3 && inBox; k++) {
      const a = moved[3 * v[0]! + k]!, c = moved[3 * v[1]! + k]!, d = moved[3 * v[2]! + k]!;
      if (Math.max(a, c, d) < b.min[k]! || Math.min(a, c, d) > b.max[k]!) inBox = false;
    }
    if (!inBox) continue;
    const over = PROBES.some((w) => {
      const p = (k: number) => w[0]! * moved[3 * v[0]! + k]! + w[1]! * moved[3 * v[1]! + k]! + w[2]! * moved[3 * v[2]! + k]!;
      return onFaces(p(0), p(1), p(2));
    });
    if (!over) continue;
    for (const u of v) {
      let w = remap.get(u);
      if (w === undefined) remap.set(u, (w = remap.size));
      tris.push(w);
    }
  }
  if (tris.length === 0) return null;
  const positions = new Float64Array(3 * remap.size);
  for (const [v, w] of remap) for (let k = 0; k < 3; k++) positions[3 * w + k] = mesh.positions[3 * v + k]!;
  return { positions, indices: Uint32Array.from(tris) };
}

/** k area samples of the sub-mesh (onto the exact faces for a BREP scan), placed by the motion. */
function sampleMoved(sub: TriMesh, k: number, exact: ExactReference | undefined, motion: Rigid): PointSet {
  const raw = sampleSurface(sub, k, undefined, { corners: !exact });
  let points = raw.points, normals = raw.normals, count = raw.count;
  if (exact) {
    const hit = createExactHit();
    const p = new Float64Array(3 * count), nn = new Float64Array(3 * count);
    let n = 0;
    for (let i = 0; i < count; i++) {
      exact.nearest(raw.points[3 * i]!, raw.points[3 * i + 1]!, raw.points[3 * i + 2]!, hit);
      if (hit.face < 0) continue;
      p.set([hit.x, hit.y, hit.z], 3 * n);
      nn.set([hit.nx, hit.ny, hit.nz], 3 * n);
      n++;
    }
    [points, normals, count] = [p.subarray(0, 3 * n), nn.subarray(0, 3 * n), n];
  }
  // A BREP scan's samples are on its exact faces: no chords, no corners.
  const corners = exact || !raw.corners ? undefined : applyToPoints(motion, raw.corners);
  return { points: applyToPoints(motion, points), normals: movedNormals(normals, motion, count), count, ...(corners ? { corners } : {}) };
}

function movedNormals(normals: Float64Array, motion: Rigid, count: number): Float64Array {
  const out = new Float64Array(3 * count);
  for (let i = 0; i < count; i++) out.set(rotate(motion, normals[3 * i]!, normals[3 * i + 1]!, normals[3 * i + 2]!), 3 * i);
  return out;
}

function selectMoved(moved: Float64Array, normals: Float64Array | undefined, motion: Rigid, pick: number[]): PointSet {
  const points = new Float64Array(3 * pick.length);
  const nn = normals ? new Float64Array(3 * pick.length) : undefined;
  pick.forEach((i, j) => {
    points.set(moved.subarray(3 * i, 3 * i + 3), 3 * j);
    if (nn) nn.set(rotate(motion, normals![3 * i]!, normals![3 * i + 1]!, normals![3 * i + 2]!), 3 * j);
  });
  return { points, normals: nn, count: pick.length };
}

