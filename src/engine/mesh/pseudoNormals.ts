import { hypot3 } from '../math/hypot3';
import { buildEdgeMap } from './edgeMap';
import { weldVertexIds } from './weld';
import { Feature } from './closestPointOnTriangle';
import type { MeshHit } from './closestPoint';
import type { TriMesh } from './TriMesh';

/**
 * Angle-weighted pseudo-normals (Baerentzen & Aanaes, "Signed distance computation using the angle
 * weighted pseudonormal", IEEE TVCG 2005). For a closed, consistently wound 2-manifold, the sign of
 * (p - c) . n, with c the nearest point and n the pseudo-normal of the feature c lies on (face
 * normal, edge normal = sum of the two face normals, vertex normal = sum of incident face normals
 * weighted by their corner angles), is the correct inside/outside sign even where plain face normals
 * disagree (a point diagonal from a cube corner).
 *
 * Corners are welded by exact coordinates first: BREP tessellations repeat vertices on face
 * boundaries, and a vertex that is not shared would give each face its own "vertex normal". A mesh
 * marked distinctPositions (an STL, welded when parsed) skips that step.
 */
export interface PseudoNormals {
  /** Unit face normal per triangle (zero for a zero-area triangle). */
  faceNormals: Float64Array;
  /** Per triangle: edge ids of edges ab, bc, ca. */
  triangleEdges: Uint32Array;
  /** Per edge: half-edges using it, those of collapsed triangles included, saturated at 255 (EdgeMap.corners). */
  edgeCorners: Uint8Array;
  /** Per edge: sum of the unit normals of the triangles using it (not normalised: only signs are read). */
  edgeNormals: Float64Array;
  /** Per triangle: welded vertex id of corners a, b, c (the mesh's own indices when its positions are distinct). */
  triangleVertices: Uint32Array;
  /** Per welded vertex: angle-weighted sum of incident unit face normals. */
  vertexNormals: Float64Array;
}

export function buildPseudoNormals(mesh: TriMesh): PseudoNormals {
  const idx = mesh.indices;
  const pos = mesh.positions;
  const T = idx.length / 3;
  let triangleVertices: Uint32Array;
  let W: number;
  if (mesh.distinctPositions) {
    // Welding would map every vertex to itself.
    triangleVertices = idx;
    W = pos.length / 3;
  } else {
    const weld = weldVertexIds(pos);
    W = weld.count;
    triangleVertices = new Uint32Array(3 * T);
    for (let i = 0; i < 3 * T; i++) triangleVertices[i] = weld.ids[idx[i]!]!;
  }

  const faceNormals = new Float64Array(3 * T);
  const vertexNormals = new Float64Array(3 * W);
  for (let t = 0; t < T; t++) {
    const a = idx[3 * t]! * 3, b = idx[3 * t + 1]! * 3, c = idx[3 * t + 2]! * 3;
    const ax = pos[a]!, ay = pos[a + 1]!, az = pos[a + 2]!;
    const bx = pos[b]!, by = pos[b + 1]!, bz = pos[b + 2]!;
    const cx = pos[c]!, cy = pos[c + 1]!, cz = pos[c + 2]!;
    const ux = bx - ax, uy = by - ay, uz = bz - az;
    const vx = cx - ax, vy = cy - ay, vz = cz - az;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = hypot3(nx, ny, nz);
    if (!(len > 0)) continue;
    // The angle at a shares the face normal's cross product; b's and c's are computed from their
    // own edges, as cornerAngle always did, so the weights are unchanged to the last bit.
    const angleA = Math.atan2(len, ux * vx + uy * vy + uz * vz);
    const angleB = cornerAngle(bx, by, bz, cx, cy, cz, ax, ay, az);
    const angleC = cornerAngle(cx, cy, cz, ax, ay, az, bx, by, bz);
    nx /= len;
    ny /= len;
    nz /= len;
    faceNormals[3 * t] = nx;
    faceNormals[3 * t + 1] = ny;
    faceNormals[3 * t + 2] = nz;
    let w = triangleVertices[3 * t]! * 3;
    vertexNormals[w] = vertexNormals[w]! + angleA * nx;
    vertexNormals[w + 1] = vertexNormals[w + 1]! + angleA * ny;
    vertexNormals[w + 2] = vertexNormals[w + 2]! + angleA * nz;
    w = triangleVertices[3 * t + 1]! * 3;
    vertexNormals[w] = vertexNormals[w]! + angleB * nx;
    vertexNormals[w + 1] = vertexNormals[w + 1]! + angleB * ny;
    vertexNormals[w + 2] = vertexNormals[w + 2]! + angleB * nz;
    w = triangleVertices[3 * t + 2]! * 3;
    vertexNormals[w] = vertexNormals[w]! + angleC * nx;
    vertexNormals[w + 1] = vertexNormals[w + 1]! + angleC * ny;
    vertexNormals[w + 2] = vertexNormals[w + 2]! + angleC * nz;
  }

  const { triangleEdges, count: E, corners: edgeCorners } = buildEdgeMap(triangleVertices, W);
  const edgeNormals = new Float64Array(3 * E);
  for (let t = 0; t < T; t++) {
    const fx = faceNormals[3 * t]!, fy = faceNormals[3 * t + 1]!, fz = faceNormals[3 * t + 2]!;
    for (let k = 0; k < 3; k++) {
      const e = triangleEdges[3 * t + k]! * 3;
      edgeNormals[e] = edgeNormals[e]! + fx;
      edgeNormals[e + 1] = edgeNormals[e + 1]! + fy;
      edgeNormals[e + 2] = edgeNormals[e + 2]! + fz;
    }
  }
  return { faceNormals, triangleEdges, edgeCorners, edgeNormals, triangleVertices, vertexNormals };
}

/** Writes the pseudo-normal of the feature `hit` lies on into out[0..2] (not unit length). */
export function pseudoNormalAt(pn: PseudoNormals, triangle: number, feature: Feature, out: Float64Array): Float64Array {
  let src: Float64Array;
  let o: number;
  switch (feature) {
    case Feature.face:
      src = pn.faceNormals;
      o = 3 * triangle;
      break;
    case Feature.edgeAB:
    case Feature.edgeBC:
    case Feature.edgeCA:
      src = pn.edgeNormals;
      o = 3 * pn.triangleEdges[3 * triangle + feature - Feature.edgeAB]!;
      break;
    default:
      src = pn.vertexNormals;
      o = 3 * pn.triangleVertices[3 * triangle + feature - Feature.vertexA]!;
  }
  out[0] = src[o]!;
  out[1] = src[o + 1]!;
  out[2] = src[o + 2]!;
  return out;
}

const nScratch = new Float64Array(3);

/**
 * The side of the reference surface p is on, as the origin defines it: +1 when (p - c) . n >= 0,
 * else -1, with c the hit's closest point and n the pseudo-normal of its feature. A point on the
 * surface is +1.
 */
export function sideOf(pn: PseudoNormals, hit: MeshHit, px: number, py: number, pz: number): 1 | -1 {
  pseudoNormalAt(pn, hit.triangle, hit.feature, nScratch);
  const s = (px - hit.x) * nScratch[0]! + (py - hit.y) * nScratch[1]! + (pz - hit.z) * nScratch[2]!;
  return s >= 0 ? 1 : -1;
}

/** The angle at corner o between its edges to p and q. */
function cornerAngle(ox: number, oy: number, oz: number, px: number, py: number, pz: number, qx: number, qy: number, qz: number): number {
  const ux = px - ox, uy = py - oy, uz = pz - oz;
  const vx = qx - ox, vy = qy - oy, vz = qz - oz;
  // atan2 of |u x v| and u . v keeps accuracy at angles near 0 and pi, where acos does not.
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  return Math.atan2(hypot3(cx, cy, cz), ux * vx + uy * vy + uz * vz);
}
