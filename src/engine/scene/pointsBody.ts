import { BrepscopeError } from '../errors';
import type { Body, PointsBody, SurfaceBody } from './Body';

/**
 * The body a tool that needs a surface or topology works on; a point cloud is refused with
 * POINT_CLOUD_UNSUPPORTED and the reason (`needs`: what the tool needs that a cloud lacks).
 */
export function surfaceBody(body: Body, tool: string, needs: string): SurfaceBody {
  if (body.kind !== 'points') return body;
  throw new BrepscopeError(
    'POINT_CLOUD_UNSUPPORTED',
    `${tool}: body '${body.bodyId}' is a point cloud (${body.cloud.count} points): ${tool} needs ${needs}, which a cloud does not have. ${CLOUD_TOOLS}`,
    { bodyId: body.bodyId, points: body.cloud.count },
  );
}

/** What a cloud can be used for, appended to every refusal so the user knows where to go instead. */
export const CLOUD_TOOLS =
  'A point cloud works with measure_deviation and deviation_histogram (as fromBodyId), deviation_heatmap (as fromBodyId), align_bodies (as movingBodyId), measure_distance and compute_metrics (boundingBox, centerOfMass).';

/** A deviation reference must have a surface: a cloud there is refused, telling the user to swap the roles. */
export function referenceBody(body: Body, tool: string, role: string): SurfaceBody {
  if (body.kind !== 'points') return body;
  throw new BrepscopeError(
    'POINT_CLOUD_REFERENCE',
    `${tool}: body '${body.bodyId}' is a point cloud and cannot be the reference (${role}): a cloud has no surface to measure distances to. Swap the roles: measure the cloud (fromBodyId '${body.bodyId}') against the part; the result's toToFrom direction measures the part against the cloud.`,
    { bodyId: body.bodyId },
  );
}

export function isPoints(body: Body): body is PointsBody {
  return body.kind === 'points';
}
