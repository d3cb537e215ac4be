import { BrepscopeError } from '../errors';
import { requireKernel, type OC } from '../kernel';
import { boxDiagonal } from '../math/vec3';
import type { FaceTessellation, TriMesh } from '../mesh/TriMesh';
import type { Body, BrepBody, SurfaceBody } from '../scene/Body';
import { keepFaces } from '../mesh/faceSubset';
import { solidsBesideOf } from '../scene/solidsBeside';
import { referenceBody, surfaceBody } from '../scene/pointsBody';
import { getTessellation, shapeDiagonal } from '../scene/tessellation';
import { kernelFor, type ToolContext } from '../context';
import { DEFLECTION_RATIO, type SurfaceMode } from './defaults';
import { warning, type ToolWarning } from '../warnings';
import { meshBoxOf, type MeasuredSurface } from './queries';

/** The spec's default deflection for a from-body; EMPTY_MESH when the body has no extent. */
export function defaultDeflection(oc: OC | undefined, from: SurfaceBody): number {
  return DEFLECTION_RATIO * bodyDiagonal(oc, from);
}

/** A from-body's bounding-box diagonal (BRepBndLib box for BREP, vertex box for a mesh); EMPTY_MESH when it has no extent. */
export function bodyDiagonal(oc: OC | undefined, from: SurfaceBody): number {
  const diagonal = from.kind === 'mesh' ? (from.mesh.indices.length ? boxDiagonal(meshBoxOf(surfaceOf(from))) : 0) : shapeDiagonal(requireKernel(oc, 'deviation'), from);
  if (!(diagonal > 0) || !Number.isFinite(diagonal)) {
    throw new BrepscopeError('EMPTY_MESH', `body '${from.bodyId}' has no extent: there is no surface to sample`);
  }
  return diagonal;
}

/**
 * The triangles a deviation tool measures a body by: a BREP body's tessellation at `deflection`
 * (cached per body and deflection), an STL body's own triangles (deflection does not apply).
 * EMPTY_MESH when there are no triangles or they have no area.
 */
export function surfaceMesh(oc: OC | undefined, body: Body, deflection: number): TriMesh {
  return measuredSurface(oc, body, deflection).mesh;
}

export type { MeasuredSurface } from './queries';

export function measuredSurface(oc: OC | undefined, anyBody: Body, deflection: number): MeasuredSurface {
  const body = surfaceBody(anyBody, 'deviation', 'a surface');
  const s = body.kind === 'mesh' ? surfaceOf(body) : surfaceOf(body, measuredTessellation(requireKernel(oc, 'deviation'), body, deflection));
  if (s.mesh.indices.length === 0) {
    throw new BrepscopeError('EMPTY_MESH', `body '${body.bodyId}' has no triangles${body.kind === 'brep' ? ' (its shape has no faces to tessellate)' : ''}`);
  }
  return s;
}

/**
 * The tessellation a BREP body is measured by: its faces', or its closed solids' alone when open
 * surfaces stand beside them (solidsBeside.ts), cached per deflection.
 */
export function measuredTessellation(oc: OC, body: BrepBody, deflection: number): FaceTessellation & { deflection: number } {
  const whole = getTessellation(oc, body, deflection);
  const beside = solidsBesideOf(oc, body);
  if (!beside) return whole;
  return body.cache.get(`solidsTessellation@${deflection}`, () => keepFaces(whole, beside.solidFace));
}

/** That a BREP body is measured as its closed solids, open surfaces beside them left out; null otherwise. */
export function solidsOnlyWarning(oc: OC | undefined, body: Body): ToolWarning | null {
  if (body.kind !== 'brep' || !oc) return null;
  const beside = solidsBesideOf(oc, body);
  if (!beside) return null;
  return warning(
    'OPEN_SURFACES_BESIDE_SOLIDS',
    `body '${body.bodyId}' is measured as its ${beside.solids} closed solid(s): ${beside.outside} face(s) of open surfaces beside them (construction geometry) are left out of its samples, its reference surface and its heat map`,
  );
}

/**
 * Vertices of a BREP body's drawn tessellation that lie on faces outside its closed solids (drawn,
 * not measured: a heat map leaves them uncoloured); null when every face is measured.
 */
export function verticesOutsideSolids(oc: OC | undefined, body: Body, mesh: TriMesh): Uint8Array | null {
  const faceIds = (mesh as Partial<FaceTessellation>).faceIds;
  if (body.kind !== 'brep' || !faceIds) return null;
  const beside = solidsBesideOf(requireKernel(oc, 'deviation'), body);
  if (!beside) return null;
  const outside = new Uint8Array(mesh.positions.length / 3);
  for (let t = 0; t < faceIds.length; t++) {
    if (beside.solidFace[faceIds[t]!] === 1) continue;
    for (let k = 0; k < 3; k++) outside[mesh.indices[3 * t + k]!] = 1;
  }
  return outside;
}

/** An STL body's own triangles, or a BREP body's tessellation (`mesh`, made by getTessellation). */
export function surfaceOf(body: SurfaceBody, tessellation?: TriMesh & { deflection: number }): MeasuredSurface {
  if (body.kind === 'mesh') return { body, mesh: body.mesh, key: 'mesh' };
  if (!tessellation) throw new Error('deviation: a BREP body is measured through a tessellation');
  return { body, mesh: tessellation, key: `tessellation@${tessellation.deflection}` };
}

/**
 * The common start of every deviation tool: both bodies, the kernel when a BREP is involved, the
 * deflection (default 0.5% of the from-body's box diagonal), both surfaces at that deflection and
 * the surface mode (exact unless the caller asked for the tessellations).
 */
export async function comparedSurfaces(ctx: ToolContext, fromBodyId: string, referenceBodyId: string, deflectionArg: number | undefined, surface: SurfaceMode = 'exact', tool = 'deviation') {
  const from = surfaceBody(ctx.scene.get(fromBodyId), tool, 'a surface to sample (a point cloud can be measured with measure_deviation or deviation_histogram as fromBodyId)');
  const reference = referenceBody(ctx.scene.get(referenceBodyId), tool, 'referenceBodyId');
  const oc = await kernelFor(ctx, [from, reference]);
  const diagonal = bodyDiagonal(oc, from);
  const deflection = deflectionArg ?? DEFLECTION_RATIO * diagonal;
  const fromSurface = measuredSurface(oc, from, deflection);
  const refSurface = measuredSurface(oc, reference, deflection);
  return { from, reference, oc, deflection, diagonal, surface, fromSurface, refSurface, fromMesh: fromSurface.mesh, refMesh: refSurface.mesh };
}
