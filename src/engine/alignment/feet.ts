import { createExactHit } from '../exact/ExactReference';
import { closestPoint, createHit } from '../mesh/closestPoint';
import type { MeasuredSurface } from '../deviation/surfaces';
import { deviationTarget, meshBvh, meshPseudoNormals } from '../deviation/structures';
import type { NearestFoot } from './icp';

/** Nearest points on a surface's triangles, with the triangle's normal. */
export function triangleFoot(s: MeasuredSurface): NearestFoot {
  const bvh = meshBvh(s);
  const pn = meshPseudoNormals(s);
  const normal = new Float64Array(3);
  const hit = createHit();
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
    return true;
  };
}

