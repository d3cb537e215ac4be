import { createExactHit, FootKind } from '../exact/ExactReference';
import { closestPoint, createHit } from '../mesh/closestPoint';
import type { FaceTessellation } from '../mesh/TriMesh';
import type { MeasuredSurface } from '../deviation/surfaces';
import { deviationTarget, meshBvh, meshPseudoNormals } from '../deviation/structures';
import type { NearestFoot } from './icp';

/** Nearest points on a surface's triangles, with the triangle's normal. */
export function triangleFoot(s: MeasuredSurface): NearestFoot {
  const bvh = meshBvh(s);
  const pn = meshPseudoNormals(s);
  const normal = new Float64Array(3);
  const hit = createHit();
  const faceIds = (s.mesh as Partial<FaceTessellation>).faceIds;
  return (x, y, z, out) => {
    closestPoint(bvh, x, y, z, hit);
    if (hit.triangle < 0) return false;
    out.x = hit.x;
    out.y = hit.y;
    out.z = hit.z;
    pn.faceNormal(hit.triangle, normal);
    out.nx = normal[0]!;
    out.ny = normal[1]!;
    out.nz = normal[2]!;
    out.face = faceIds ? faceIds[hit.triangle]! : -1;
    return true;
  };
}

/** Nearest points on a BREP body's exact faces (the deviation tools' machinery), with the face's normal there. */
export function exactFoot(oc: Parameters<typeof deviationTarget>[0], s: MeasuredSurface): NearestFoot {
  const ref = deviationTarget(oc, s, 'exact');
  if (!('nearest' in ref)) throw new Error('align_bodies: an exact reference was expected');
  const hit = createExactHit();
  return (x, y, z, out) => {
    ref.nearest(x, y, z, hit);
    if (hit.face < 0) return false;
    out.x = hit.x;
    out.y = hit.y;
    out.z = hit.z;
    out.nx = hit.nx;
    out.ny = hit.ny;
    out.nz = hit.nz;
    out.face = hit.face;
    out.interior = hit.kind === FootKind.face;
    return true;
  };
}


/**
 * A nearest-foot restricted to chosen faces (a local best fit): a sample pairs only when its
 * nearest point on the whole body lies inside one of them (not on its edges), so the samples of
 * other faces are not pulled onto the chosen ones.
 */
export function onFaces(nearest: NearestFoot, faces: ReadonlySet<number>): NearestFoot {
  return (x, y, z, out) => nearest(x, y, z, out) && out.interior && faces.has(out.face);
}
