import { BrepscopeError, invalidArgument } from '../errors';
import type { OC } from '../kernel';
import type { Box3 } from '../math/vec3';
import { sampleSurface } from '../mesh/sampleSurface';
import type { FaceTessellation } from '../mesh/TriMesh';
import type { Body, BrepBody } from '../scene/Body';
import { displayDeflection, getTessellation } from '../scene/tessellation';
import { parseEntityId } from '../scene/topology';
import { createExactHit } from '../exact/ExactReference';
import { exactReference } from '../deviation/structures';
import { defaultDeflection, measuredSurface } from '../deviation/surfaces';

/** Points to fit or evaluate, with unit normals where the body has them (else absent). */
export interface PointSet {
  points: Float64Array;
  normals: Float64Array | undefined;
  count: number;
  /**
   * A mesh scan's area samples: the corners of the triangle each sample lies on (9 numbers a
   * sample, placed as the points are), which the size fits of curved features read instead of
   * the chords' interiors (vertexQuadrature.ts).
   */
  corners?: Float64Array | undefined;
}

/**
 * A body's points as fitting input. A BREP body: the nodes of its tessellation (they lie on the
 * exact surface; triangle interiors sag by up to the deflection), with normals averaged from the
 * triangles; `faces` keeps only those faces. A mesh: its surface samples (sampleSurface.ts). A
 * cloud: its points, with the file's normals when it has them. `box` keeps the points inside.
 * At most maxSamples, by stride.
 */
export function bodyPoints(oc: OC | undefined, body: Body, maxSamples: number, faces?: readonly string[], box?: Box3): PointSet {
  if (faces && body.kind !== 'brep') throw invalidArgument(`region.faces needs a BREP body; '${body.bodyId}' is a ${body.kind === 'points' ? 'point cloud' : 'mesh'} (use region.box)`);
  let set: PointSet;
  if (body.kind === 'brep') {
    if (!oc) throw new Error('bodyPoints: a BREP body needs the kernel');
    set = brepNodes(getTessellation(oc, body, displayDeflection(oc, body)), body, faces);
  } else if (body.kind === 'mesh') {
    const s = sampleSurface(body.mesh, Math.max(maxSamples, 1), undefined, { corners: true });
    set = { points: s.points, normals: s.normals, count: s.count, corners: s.corners };
  } else {
    const { positions, normals, count } = body.cloud;
    const pts = Float64Array.from(positions.subarray(0, 3 * count));
    let nn: Float64Array | undefined;
    if (normals) {
      nn = new Float64Array(3 * count);
      for (let i = 0; i < count; i++) {
        const l = Math.hypot(normals[3 * i]!, normals[3 * i + 1]!, normals[3 * i + 2]!);
        if (l > 0) for (let k = 0; k < 3; k++) nn[3 * i + k] = normals[3 * i + k]! / l;
      }
    }
    set = { points: pts, normals: nn, count };
  }
  if (box) set = filter(set, (x, y, z) => x >= box.min[0] && x <= box.max[0] && y >= box.min[1] && y <= box.max[1] && z >= box.min[2] && z <= box.max[2]);
  if (set.count > maxSamples) set = stride(set, Math.ceil(set.count / maxSamples));
  if (set.count === 0) {
    // Without a region, nothing was left out: the surface itself has no points (every triangle degenerate).
    const why = faces || box ? 'has no points in the region asked for' : body.kind === 'mesh' ? 'has a surface of zero area: there is no point to sample' : 'has no points';
    throw new BrepscopeError('EMPTY_MESH', `body '${body.bodyId}' ${why}`);
  }
  return set;
}

function brepNodes(t: FaceTessellation, body: BrepBody, faces?: readonly string[]): PointSet {
  const nv = t.positions.length / 3;
  const faceOfVertex = new Int32Array(nv).fill(-1);
  const normals = new Float64Array(3 * nv);
  for (let tri = 0; tri < t.faceIds.length; tri++) {
    const a = t.indices[3 * tri]!, b = t.indices[3 * tri + 1]!, c = t.indices[3 * tri + 2]!;
    const p = t.positions;
    const ux = p[3 * b]! - p[3 * a]!, uy = p[3 * b + 1]! - p[3 * a + 1]!, uz = p[3 * b + 2]! - p[3 * a + 2]!;
    const vx = p[3 * c]! - p[3 * a]!, vy = p[3 * c + 1]! - p[3 * a + 1]!, vz = p[3 * c + 2]! - p[3 * a + 2]!;
    const n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
    for (const v of [a, b, c]) {
      faceOfVertex[v] = t.faceIds[tri]!;
      for (let k = 0; k < 3; k++) normals[3 * v + k]! += n[k]!;
    }
  }
  let wanted: Set<number> | null = null;
  if (faces) {
    wanted = new Set(faces.map((id) => {
      const e = parseEntityId(id);
      if (e.kind !== 'face') throw invalidArgument(`region.faces takes face ids, not '${id}'`);
      return e.index;
    }));
    const present = new Set(t.faceIds);
    for (const f of wanted) if (!present.has(f)) throw invalidArgument(`body '${body.bodyId}' has no face[${f}] with triangles`);
  }
  const keep: number[] = [];
  for (let v = 0; v < nv; v++) if (faceOfVertex[v]! >= 0 && (!wanted || wanted.has(faceOfVertex[v]!))) keep.push(v);
  const points = new Float64Array(3 * keep.length), nn = new Float64Array(3 * keep.length);
  keep.forEach((v, j) => {
    const l = Math.hypot(normals[3 * v]!, normals[3 * v + 1]!, normals[3 * v + 2]!);
    for (let k = 0; k < 3; k++) {
      points[3 * j + k] = t.positions[3 * v + k]!;
      nn[3 * j + k] = l > 0 ? normals[3 * v + k]! / l : 0;
    }
  });
  return { points, normals: nn, count: keep.length };
}

export function filter(set: PointSet, test: (x: number, y: number, z: number, i: number) => boolean): PointSet {
  const keep: number[] = [];
  for (let i = 0; i < set.count; i++) if (test(set.points[3 * i]!, set.points[3 * i + 1]!, set.points[3 * i + 2]!, i)) keep.push(i);
  return select(set, keep);
}

export function select(set: PointSet, keep: readonly number[]): PointSet {
  const points = new Float64Array(3 * keep.length);
  const normals = set.normals ? new Float64Array(3 * keep.length) : undefined;
  const corners = set.corners ? new Float64Array(9 * keep.length) : undefined;
  keep.forEach((i, j) => {
    for (let k = 0; k < 3; k++) {
      points[3 * j + k] = set.points[3 * i + k]!;
      if (normals) normals[3 * j + k] = set.normals![3 * i + k]!;
    }
    if (corners) corners.set(set.corners!.subarray(9 * i, 9 * i + 9), 9 * j);
  });
  return { points, normals, count: keep.length, ...(corners ? { corners } : {}) };
}

function stride(set: PointSet, s: number): PointSet {
  const keep: number[] = [];
  for (let i = 0; i < set.count; i += s) keep.push(i);
  return select(set, keep);
}

/**
 * A BREP body read as a scan (evaluate_gdt's actual): points spread over its surface by area (its
 * tessellation sampled, as a mesh scan is) and each moved onto the exact face it lies on, with the
 * exact normal there. Its tessellation nodes would not do: they lie mostly on edges (a border
 * margin leaves them out) and a coarse face has a handful, so a noise-free copy of the nominal read
 * its bores from a dozen points and failed them. The chords' sag (up to the deflection) is gone too.
 */
export function brepScanSamples(oc: OC, body: BrepBody, maxSamples: number): PointSet {
  const s = measuredSurface(oc, body, defaultDeflection(oc, body));
  const ref = exactReference(oc, body, (s.mesh as FaceTessellation).deflection);
  const raw = sampleSurface(s.mesh, Math.max(1, maxSamples));
  const points = new Float64Array(3 * raw.count), normals = new Float64Array(3 * raw.count);
  const hit = createExactHit();
  let n = 0;
  for (let i = 0; i < raw.count; i++) {
    ref.nearest(raw.points[3 * i]!, raw.points[3 * i + 1]!, raw.points[3 * i + 2]!, hit);
    if (hit.face < 0) continue;
    points.set([hit.x, hit.y, hit.z], 3 * n);
    normals.set([hit.nx, hit.ny, hit.nz], 3 * n);
    n++;
  }
  if (n === 0) throw new BrepscopeError('EMPTY_MESH', `body '${body.bodyId}' has no surface to sample`);
  return { points: points.subarray(0, 3 * n), normals: normals.subarray(0, 3 * n), count: n };
}

/** Two sample sets as one (normals kept when both have them). */
export function concatSets(a: PointSet, b: PointSet): PointSet {
  if (b.count === 0) return a;
  const points = new Float64Array(3 * (a.count + b.count));
  points.set(a.points.subarray(0, 3 * a.count));
  points.set(b.points.subarray(0, 3 * b.count), 3 * a.count);
  const normals = a.normals && b.normals ? new Float64Array(3 * (a.count + b.count)) : undefined;
  if (normals) {
    normals.set(a.normals!.subarray(0, 3 * a.count));
    normals.set(b.normals!.subarray(0, 3 * b.count), 3 * a.count);
  }
  let corners: Float64Array | undefined;
  if (a.corners && b.corners) {
    corners = new Float64Array(9 * (a.count + b.count));
    corners.set(a.corners.subarray(0, 9 * a.count));
    corners.set(b.corners.subarray(0, 9 * b.count), 9 * a.count);
  }
  return { points, normals, count: a.count + b.count, ...(corners ? { corners } : {}) };
}
