import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../kernel';
import { applyToPoints, isIdentity, rotate, type Rigid } from '../math/rigid';
import type { TriMesh } from '../mesh/TriMesh';
import type { PointCloud } from './import/PointCloud';
import type { Body, Placement } from './Body';
import { foldLocations } from './locationFreeShape';
import type { Scene } from './Scene';

/**
 * Places a body in the scene (null, or an identity motion: as read from its file). The file's
 * geometry is kept; the placed geometry is built once here and every tool reads it:
 * - a mesh body's positions (and the normals a scan file carried) moved by the placement;
 * - a BREP body's shape with the placement folded into its geometry (BRepBuilderAPI_Transform with
 *   copy, after the file's own locations are folded), not a TopLoc location: our WASM build's
 *   BRepExtrema is wrong on located edges (locationFreeShape.ts), and a shape without locations is
 *   what every kernel tool already expects.
 * Everything derived from the old position goes: the body's caches (tessellations, BVHs, exact
 * geometry, samples, deviations) and what other bodies derived against it.
 */
export function placeBody(oc: OC | undefined, scene: Scene, body: Body, placement: Placement | null): void {
  const next = placement && !isIdentity(placement.motion) ? placement : null;
  if (body.kind === 'mesh') {
    body.place(next, next ? placedMesh(body.sourceMesh, next.motion) : undefined);
  } else if (body.kind === 'points') {
    body.place(next, next ? placedCloud(body.sourceCloud, next.motion) : undefined);
  } else {
    if (next && !oc) throw new Error('placeBody: a BREP body needs the kernel');
    body.place(next, next ? placedShape(oc!, body.sourceShape, next.motion) : undefined);
  }
  scene.forgetPartner(body);
}

/** The cloud moved by `motion` (positions and any normals; colours shared). */
export function placedCloud(cloud: PointCloud, motion: Rigid): PointCloud {
  const placed: PointCloud = { positions: applyToPoints(motion, cloud.positions), count: cloud.count };
  if (cloud.colors) placed.colors = cloud.colors;
  if (cloud.normals) {
    const n = cloud.normals;
    const out = new Float32Array(n.length);
    for (let i = 0; i < n.length; i += 3) {
      const [x, y, z] = rotate(motion, n[i]!, n[i + 1]!, n[i + 2]!);
      out[i] = x;
      out[i + 1] = y;
      out[i + 2] = z;
    }
    placed.normals = out;
  }
  return placed;
}

/** The mesh moved by `motion` (positions and any per-vertex normals; indices and colours shared). */
export function placedMesh(mesh: TriMesh, motion: Rigid): TriMesh {
  const placed: TriMesh = { positions: applyToPoints(motion, mesh.positions), indices: mesh.indices };
  if (mesh.colors) placed.colors = mesh.colors;
  if (mesh.normals) {
    const n = mesh.normals;
    const out = new Float32Array(n.length);
    for (let i = 0; i < n.length; i += 3) out.set(rotate(motion, n[i]!, n[i + 1]!, n[i + 2]!), i);
    placed.normals = out;
  }
  return placed;
}

/** A new shape: `shape` with its locations folded in, then its geometry moved by `motion` (the caller deletes it). */
export function placedShape(oc: OC, shape: TopoDS_Shape, motion: Rigid): TopoDS_Shape {
  return withKernel(oc, (own) => {
    const bare = own(foldLocations(oc, shape));
    const trsf = own(new oc.gp_Trsf_1());
    const R = motion.r, t = motion.t;
    trsf.SetValues(R[0]!, R[1]!, R[2]!, t[0]!, R[3]!, R[4]!, R[5]!, t[1]!, R[6]!, R[7]!, R[8]!, t[2]!);
    return own(new oc.BRepBuilderAPI_Transform_2(bare, trsf, true)).Shape();
  });
}
