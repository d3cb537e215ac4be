import { BrepscopeError } from '../errors';
import { createExactHit, type ExactReference } from '../exact/ExactReference';
import type { OC } from '../kernel';
import type { Vec3 } from '../math/vec3';
import { closestPoint, createHit } from '../mesh/closestPoint';
import { triangleSetGap } from '../mesh/meshGap';
import type { Body, MeshBody, PointsBody, SurfaceBody } from '../scene/Body';
import { cloudTree } from './cloud';
import type { ToolContext } from '../context';
import { Pacer } from './pacer';
import { exactReference, meshBvhOver } from './structures';
import { defaultDeflection, surfaceOf } from './surfaces';

/** measure_distance's answer when a point cloud takes part: the gap and the pair of points that give it. */
export interface CloudGap {
  distance: number;
  pointOnFrom: Vec3;
  pointOnTo: Vec3;
}

/**
 * The minimum gap between a point cloud and another body: the smallest distance from one of the
 * cloud's points to the other body's exact surface (a BREP body's faces, an STL's triangles) or, for
 * two clouds, between a point of each. Every point counts (no subsampling). A point inside a
 * solid counts by its distance to the surface: a cloud encloses nothing, so there is no overlap to
 * report as 0.
 */
export async function cloudGap(ctx: Pick<ToolContext, 'signal' | 'progress' | 'meshWorkers'>, oc: OC | undefined, from: Body, to: Body): Promise<CloudGap> {
  const pacer = new Pacer(ctx);
  if (from.kind === 'points' && to.kind === 'points') return cloudToCloud(pacer, from, to);
  if (from.kind === 'points') return cloudToSurface(pacer, ctx, oc, from, to as SurfaceBody, false);
  if (to.kind === 'points') return cloudToSurface(pacer, ctx, oc, to, from, true);
  throw new Error('cloudGap: one of the bodies must be a point cloud');
}

async function cloudToCloud(pacer: Pacer, from: PointsBody, to: PointsBody): Promise<CloudGap> {
  // The smaller cloud queries the larger one's tree.
  const swap = from.cloud.count > to.cloud.count;
  const [a, b] = swap ? [to, from] : [from, to];
  const tree = cloudTree(b);
  const p = a.cloud.positions, q = b.cloud.positions;
  let best = Infinity, bi = -1, bj = -1;
  for (let i = 0; i < a.cloud.count; i++) {
    if ((i & 4095) === 0) await pacer.tick(i, a.cloud.count, 'measure_distance');
    const hit = tree.nearest(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!, best);
    if (hit.index >= 0 && hit.distance < best) {
      best = hit.distance;
      bi = i;
      bj = hit.index;
    }
  }
  const pa: Vec3 = [p[3 * bi]!, p[3 * bi + 1]!, p[3 * bi + 2]!];
  const pb: Vec3 = [q[3 * bj]!, q[3 * bj + 1]!, q[3 * bj + 2]!];
  return { distance: best, pointOnFrom: swap ? pb : pa, pointOnTo: swap ? pa : pb };
}

/**
 * Cloud against a surface. A BREP body: its tessellation (at the deviation tools' default
 * deflection) rules out a point whose distance to the triangles, less the largest chord error,
 * cannot beat the best so far; the rest are projected on the exact faces. An STL: its triangles.
 */
async function cloudToSurface(pacer: Pacer, ctx: Pick<ToolContext, 'meshWorkers'>, oc: OC | undefined, cloud: PointsBody, body: SurfaceBody, cloudIsTo: boolean): Promise<CloudGap> {
  let exact: ExactReference | null = null;
  let bvh;
  if (body.kind === 'brep') {
    if (!oc) throw new Error('cloudGap: a BREP body needs the kernel');
    exact = exactReference(oc, body, defaultDeflection(oc, body));
    bvh = exact.bvh;
  } else {
    if (body.mesh.indices.length === 0) throw new BrepscopeError('EMPTY_MESH', `measure_distance: body '${body.bodyId}' has no triangles`);
    bvh = await meshBvhOver(surfaceOf(body), ctx.meshWorkers?.subtreeThreads);
  }
  const slack = exact ? exact.maxError : 0;
  const hit = createHit();
  const xhit = createExactHit();
  const p = cloud.cloud.positions;
  let best = Infinity, bi = -1;
  const foot: Vec3 = [NaN, NaN, NaN];
  for (let i = 0; i < cloud.cloud.count; i++) {
    if ((i & 1023) === 0) await pacer.tick(i, cloud.cloud.count, 'measure_distance');
    const x = p[3 * i]!, y = p[3 * i + 1]!, z = p[3 * i + 2]!;
    closestPoint(bvh, x, y, z, hit, { maxDistance: best + slack });
    if (hit.triangle < 0) continue;
    let d = hit.distance, fx = hit.x, fy = hit.y, fz = hit.z;
    if (exact) {
      exact.nearest(x, y, z, xhit);
      d = xhit.distance;
      fx = xhit.x;
      fy = xhit.y;
      fz = xhit.z;
    }
    if (d < best) {
      best = d;
      bi = i;
      foot[0] = fx;
      foot[1] = fy;
      foot[2] = fz;
    }
  }
  const point: Vec3 = [p[3 * bi]!, p[3 * bi + 1]!, p[3 * bi + 2]!];
  return { distance: best, pointOnFrom: cloudIsTo ? foot : point, pointOnTo: cloudIsTo ? point : foot };
}

/**
 * The minimum gap between two STL bodies' facet shells (what BRepExtrema gives for them), found on
 * their triangles without the kernel: the smaller mesh's triangles search the larger one's tree.
 * 0 where they touch or cross; a shell inside another is as far as their nearest facets.
 */
export async function meshGap(ctx: Pick<ToolContext, 'signal' | 'progress' | 'meshWorkers'>, from: MeshBody, to: MeshBody): Promise<CloudGap> {
  for (const b of [from, to]) {
    if (b.mesh.indices.length === 0) throw new BrepscopeError('EMPTY_MESH', `measure_distance: body '${b.bodyId}' has no triangles`);
  }
  const pacer = new Pacer(ctx);
  const swap = from.mesh.indices.length > to.mesh.indices.length;
  const [a, b] = swap ? [to, from] : [from, to];
  const bvh = await meshBvhOver(surfaceOf(b), ctx.meshWorkers?.subtreeThreads);
  const gap = await triangleSetGap(a.mesh, bvh, (done, total) => pacer.tick(done, total, 'measure_distance'));
  return { distance: gap.distance, pointOnFrom: swap ? gap.pointOnB : gap.pointOnA, pointOnTo: swap ? gap.pointOnA : gap.pointOnB };
}
