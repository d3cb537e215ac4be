import { displayPointPositions, displayStride } from '../points/displayPoints';
import { withKernel, type OC } from '../kernel';
import { tessellateShape } from '../mesh/tessellate';
import type { FaceTessellation } from '../mesh/TriMesh';
import type { Body, BrepBody } from './Body';

/** Display deflection as a share of the bounding-box diagonal (0.2 %). */
export const DISPLAY_DEFLECTION_RATIO = 0.002;

/** Used when a shape has no extent to measure (an empty compound, a lone vertex). */
const FALLBACK_DEFLECTION = 0.01;

/** Flat arrays a renderer draws; every call returns fresh buffers the caller owns (and may transfer). */
export interface DisplayMesh {
  positions: Float32Array<ArrayBuffer>;
  indices: Uint32Array<ArrayBuffer>;
  /** BREP bodies: per triangle, the 0-based face index (face[N]). */
  faceIds?: Uint32Array<ArrayBuffer>;
  /** Point clouds: `positions` are points to draw as points (no indices); `pointCount` is the cloud's, `positions` may hold every stride-th (points/displayPoints.ts). */
  points?: { pointCount: number; stride: number };
}

/**
 * The body's tessellation at an absolute linear deflection, made once and cached in
 * `body.tessellations` (BRepMesh is slow: never re-mesh in a loop).
 */
export function getTessellation(oc: OC, body: BrepBody, deflection: number): FaceTessellation {
  if (!(deflection > 0) || !Number.isFinite(deflection)) {
    throw new Error(`tessellation: deflection must be a positive finite number, got ${deflection}`);
  }
  const cached = body.tessellations.get(deflection);
  if (cached) return cached;
  const tessellation = tessellateShape(oc, body.shape, deflection);
  body.tessellations.set(deflection, tessellation);
  return tessellation;
}

/** The length of the diagonal of the shape's axis-aligned box (BRepBndLib.Add), 0 when void. */
export function shapeDiagonal(oc: OC, body: BrepBody): number {
  return withKernel(oc, (own) => {
    const box = own(new oc.Bnd_Box_1());
    oc.BRepBndLib.Add(body.shape, box, false);
    if (box.IsVoid()) return 0;
    box.SetGap(0);
    const min = own(box.CornerMin());
    const max = own(box.CornerMax());
    return Math.hypot(max.X() - min.X(), max.Y() - min.Y(), max.Z() - min.Z());
  });
}

/** The linear deflection used to display a BREP body: 0.2 % of its bounding-box diagonal. */
export function displayDeflection(oc: OC, body: BrepBody): number {
  const diagonal = shapeDiagonal(oc, body);
  return diagonal > 0 && Number.isFinite(diagonal) ? diagonal * DISPLAY_DEFLECTION_RATIO : FALLBACK_DEFLECTION;
}

/**
 * Triangles to draw a body. Mesh bodies need no kernel (their own arrays, as float32); BREP bodies
 * are tessellated at the display deflection and the cached tessellation is copied out.
 */
export function displayMesh(oc: OC | undefined, body: Body): DisplayMesh {
  if (body.kind === 'points') {
    const { positions, count } = body.cloud;
    return { positions: displayPointPositions(positions, count), indices: new Uint32Array(0), points: { pointCount: count, stride: displayStride(count) } };
  }
  if (body.kind === 'mesh') {
    return { positions: Float32Array.from(body.mesh.positions), indices: body.mesh.indices.slice() };
  }
  if (!oc) throw new Error('displayMesh: a BREP body needs the kernel');
  const tessellation = getTessellation(oc, body, displayDeflection(oc, body));
  return {
    positions: Float32Array.from(tessellation.positions),
    indices: tessellation.indices.slice(),
    faceIds: tessellation.faceIds.slice(),
  };
}
