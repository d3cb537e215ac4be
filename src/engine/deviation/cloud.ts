import { BrepscopeError } from '../errors';
import type { OC } from '../kernel';
import { boxDiagonal, pointsBox, type Box3 } from '../math/vec3';
import { symmetricEigen3 } from '../math/symmetricEigen';
import type { SignMode } from '../mesh/signedDeviation';
import type { SurfaceSamples } from '../mesh/sampleSurface';
import { PointTree } from '../points/PointTree';
import type { Body, PointsBody, SurfaceBody } from '../scene/Body';
import type { CloudPositions } from '../points/cloudPositions';
import { referenceBody } from '../scene/pointsBody';
import { pairKey } from '../scene/Scene';
import type { ToolContext } from '../context';
import { cloudAreaSamples, copyCloudPoint } from './cloudAreaSamples';
import { DEFLECTION_RATIO, type SurfaceMode } from './defaults';
import { measureDirected, type DirectedDeviation } from './measure';
import { Pacer } from './pacer';
import { deviationSamples } from './samples';
import { deviationTarget } from './structures';
import { measuredSurface, type MeasuredSurface } from './surfaces';
import { kernelFor } from '../context';
import { percentile } from './statistics';

/**
 * Point clouds in the deviation tools (docs/point-clouds.md). A cloud is only ever the measured
 * side: each point is a sample of the scanned surface. Against the part (fromToTo) every point is
 * measured like a surface sample, signed by the side of the part's exact surface it lies on. The part
 * against the cloud (toToFrom) measures the part's samples against a local plane fitted to the
 * nearest cloud points; a part sample with no cloud point within the search distance lies where the
 * scan has no data and is left out of every figure (noDataSamples).
 */

/** Cloud points a local plane is fitted to (toToFrom). */
export const CLOUD_NEIGHBOURS = 8;
/**
 * The plane fit is trusted while the points' spread across it is under this share of their spread
 * along it (a flat patch, noise included); across an edge or a corner the nearest point is used.
 */
const PLANARITY = 0.25;
/** Points the cloud's spacing is estimated from (stride over the cloud). */
const SPACING_PROBES = 2000;
/** Default search distance = SEARCH_FACTOR x (p95 of the cloud's distance to the part + the cloud's median spacing). */
export const SEARCH_FACTOR = 3;

/** Both bodies of a cloud comparison: the cloud, the part with a surface, and the deflection. */
export interface CloudComparison {
  from: PointsBody;
  reference: SurfaceBody;
  oc: OC | undefined;
  deflection: number;
  refSurface: MeasuredSurface;
}

/**
 * The bodies of a deviation tool: a surface reference is required (a cloud there is refused with
 * POINT_CLOUD_REFERENCE); `cloud` is set when the from-body is a point cloud. Default deflection:
 * 0.5% of the from-body's box diagonal, the cloud's box for a cloud.
 */
export async function cloudComparison(ctx: ToolContext, from: Body, referenceId: string, deflectionArg: number | undefined, tool: string, role: string): Promise<CloudComparison | null> {
  const reference = referenceBody(ctx.scene.get(referenceId), tool, role);
  if (from.kind !== 'points') return null;
  const oc = await kernelFor(ctx, [reference]);
  const deflection = deflectionArg ?? DEFLECTION_RATIO * cloudDiagonal(from);
  return { from, reference, oc, deflection, refSurface: measuredSurface(oc, reference, deflection) };
}

export function cloudBox(body: PointsBody): Box3 {
  return body.cache.get('box', () => pointsBox(body.cloud.positions, body.cloud.count));
}

export function cloudDiagonal(body: PointsBody): number {
  const d = boxDiagonal(cloudBox(body));
  if (!(d > 0) || !Number.isFinite(d)) throw new BrepscopeError('EMPTY_MESH', `body '${body.bodyId}' has no extent: its ${body.cloud.count} point(s) coincide`);
  return d;
}

export function cloudTree(body: PointsBody): PointTree {
  return body.cache.get('pointTree', () => new PointTree(body.cloud.positions, body.cloud.count));
}

/**
 * The cloud's points stride-subsampled: all of them up to maxSamples, else every stride-th
 * (stride = ceil(n / maxSamples)), as the spec subsamples: the points a heat map colours (display_mesh
 * draws every stride-th point) and alignment's ICP samples. The deviation figures take
 * density-compensated samples instead (cloudAreaSamples.ts). A sample's normal is the file's normal
 * (normalized) when the cloud has them, else zero.
 */
export function cloudSamples(body: PointsBody, maxSamples: number): SurfaceSamples {
  return body.cache.get(`samples:${maxSamples}`, () => {
    const { positions, normals, count } = body.cloud;
    const stride = Math.max(1, Math.ceil(count / maxSamples));
    const n = Math.ceil(count / stride);
    const points = new Float64Array(3 * n);
    const nrm = new Float64Array(3 * n);
    for (let j = 0, i = 0; j < n; j++, i += stride) copyCloudPoint(positions, normals, i, points, nrm, j);
    return { count: n, points, normals: nrm, candidates: count, stride, vertexCandidates: count, area: 0 };
  });
}

/**
 * The sign rule a cloud is measured with: without normals the robust rule has nothing to compare
 * the reference's facing with, so the nearest point of the reference decides (its exact surface
 * gives the side); with normals, the requested rule.
 */
export function cloudSignMode(body: PointsBody, requested: SignMode): SignMode {
  return body.cloud.normals ? requested : 'nearest';
}

/**
 * Which of a cloud's points are measured: `area` the density-compensated samples every figure is
 * computed from (cloudAreaSamples.ts), `display` the stride-subsampled points a heat map colours.
 */
export type CloudSampling = 'area' | 'display';

/** The cloud's points against the part's surface: the fromToTo direction. */
export async function cloudToSurface(
  ctx: Pick<ToolContext, 'signal' | 'progress' | 'trace'>,
  c: CloudComparison,
  maxSamples: number,
  mode: SignMode,
  surface: SurfaceMode,
  label: string,
  pacer: Pacer = new Pacer(ctx),
  sampling: CloudSampling = 'area',
): Promise<DirectedDeviation> {
  const key = pairKey(c.reference, `deviation:cloud>${c.refSurface.key}:${maxSamples}:${mode}:${surface}:${sampling}`);
  const cached = c.from.cache.peek<DirectedDeviation>(key);
  if (cached) return cached;
  const samples = sampling === 'area' ? cloudAreaSamples(c.from, maxSamples, () => cloudTree(c.from)) : cloudSamples(c.from, maxSamples);
  const ref = deviationTarget(c.oc, c.refSurface, surface);
  ctx.trace?.({ kind: 'deviation', what: `${c.from.bodyId}>${c.reference.bodyId}:${key}` });
  return c.from.cache.set(key, await measureDirected(samples, ref, cloudSignMode(c.from, mode), pacer, label));
}

/** Neighbours looked at for a point's nearest distinct one (coincident copies skipped). */
const SPACING_NEIGHBOURS = 8;

/**
 * Median distance from a point of the cloud to its nearest other point at a different position
 * (over SPACING_PROBES points). Coincident copies are skipped: a cloud made of a tessellation's
 * vertices, or scans merged without thinning, repeats points, and a spacing of 0 would shrink the
 * default search distance to nothing (every part sample no data).
 */
export function cloudSpacing(body: PointsBody): number {
  return body.cache.get('spacing', () => {
    const tree = cloudTree(body);
    const p = body.cloud.positions;
    const n = body.cloud.count;
    if (n < 2) return 0;
    const stride = Math.max(1, Math.floor(n / SPACING_PROBES));
    const out = new Uint32Array(SPACING_NEIGHBOURS);
    const d: number[] = [];
    for (let i = 0; i < n; i += stride) {
      const found = tree.kNearest(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!, SPACING_NEIGHBOURS, out, i);
      for (let k = 0; k < found; k++) {
        const j = out[k]!;
        const gap = Math.hypot(p[3 * j]! - p[3 * i]!, p[3 * j + 1]! - p[3 * i + 1]!, p[3 * j + 2]! - p[3 * i + 2]!);
        if (gap > 0) {
          d.push(gap);
          break;
        }
      }
    }
    return d.length ? percentile(Float64Array.from(d).sort(), 0.5) : 0;
  });
}

/**
 * The default search distance of the part-against-cloud direction: SEARCH_FACTOR x (p95 of the
 * cloud's distances to the part + the cloud's median point spacing). A part sample where the scan
 * has points lies within about the scan's deviation plus the gap between points of its nearest
 * cloud point; three times that leaves room for noise and sparse patches, while a region the scan
 * did not reach is usually farther.
 */
export function defaultSearchDistance(body: PointsBody, forward: DirectedDeviation): number {
  const sorted = Float64Array.from(forward.distance).sort();
  return SEARCH_FACTOR * (percentile(sorted, 0.95) + cloudSpacing(body));
}

/**
 * The part's samples against the cloud: the toToFrom direction. For each sample, the
 * CLOUD_NEIGHBOURS nearest cloud points; none within `maxDistance` makes the sample no data.
 * Otherwise the distance is to the plane fitted to them (least squares) when they are flat enough
 * (PLANARITY), else to the nearest point. Signed: positive when the part's sample is outside the
 * cloud (the cloud lies behind the sample's outward normal), as for any reference; ambiguous (NaN)
 * where the sample has no normal.
 */
export async function surfaceToCloud(
  ctx: Pick<ToolContext, 'signal' | 'progress' | 'trace'>,
  c: CloudComparison,
  maxSamples: number,
  maxDistance: number,
  surface: SurfaceMode,
  label: string,
  pacer: Pacer = new Pacer(ctx),
): Promise<DirectedDeviation> {
  const key = pairKey(c.from, `deviation:${c.refSurface.key}>cloud:${maxSamples}:${maxDistance}:${surface}`);
  const cached = c.reference.cache.peek<DirectedDeviation>(key);
  if (cached) return cached;
  const samples = deviationSamples(c.oc, c.refSurface, maxSamples, surface);
  const tree = cloudTree(c.from);
  ctx.trace?.({ kind: 'deviation', what: `${c.reference.bodyId}>${c.from.bodyId}:${key}` });
  const n = samples.count;
  const distance = new Float64Array(n);
  const signed = new Float64Array(n);
  const noData = new Uint8Array(n);
  const p = samples.points, nrm = samples.normals;
  const cp = c.from.cloud.positions;
  const near = new Uint32Array(CLOUD_NEIGHBOURS);
  const cov = new Array<number>(9);
  for (let i = 0; i < n; i++) {
    if ((i & 1023) === 0) await pacer.tick(i, n, label);
    const x = p[3 * i]!, y = p[3 * i + 1]!, z = p[3 * i + 2]!;
    const k = tree.kNearest(x, y, z, CLOUD_NEIGHBOURS, near);
    const j0 = near[0]!;
    const d0 = Math.hypot(cp[3 * j0]! - x, cp[3 * j0 + 1]! - y, cp[3 * j0 + 2]! - z);
    if (k === 0 || d0 > maxDistance) {
      noData[i] = 1;
      distance[i] = NaN;
      signed[i] = NaN;
      continue;
    }
    // Offset of the cloud from the sample, along the sample's outward normal: positive = cloud outside.
    let along: number;
    let dist: number;
    const plane = k >= 3 ? fitPlane(cp, near, k, cov) : null;
    if (plane) {
      const { cx, cy, cz, mx, my, mz } = plane;
      const h = (cx - x) * mx + (cy - y) * my + (cz - z) * mz;
      dist = Math.abs(h);
      const facing = mx * nrm[3 * i]! + my * nrm[3 * i + 1]! + mz * nrm[3 * i + 2]!;
      along = facing === 0 ? NaN : h * Math.sign(facing);
    } else {
      dist = d0;
      along = (cp[3 * j0]! - x) * nrm[3 * i]! + (cp[3 * j0 + 1]! - y) * nrm[3 * i + 1]! + (cp[3 * j0 + 2]! - z) * nrm[3 * i + 2]!;
      along = along === 0 && dist > 0 ? NaN : along;
    }
    distance[i] = dist;
    signed[i] = along === along ? (along > 0 ? -dist : dist) : NaN;
  }
  // `beyond`: no cloud point within the search distance; the coverage step counts it as no data.
  return c.reference.cache.set(key, { samples, distance, signed, beyond: noData });
}

/** Least-squares plane through points `idx[0..k)`: centroid and unit normal; null when they are not flat (PLANARITY). */
function fitPlane(p: CloudPositions, idx: Uint32Array, k: number, cov: number[]): { cx: number; cy: number; cz: number; mx: number; my: number; mz: number } | null {
  let cx = 0, cy = 0, cz = 0;
  for (let j = 0; j < k; j++) {
    const o = 3 * idx[j]!;
    cx += p[o]!;
    cy += p[o + 1]!;
    cz += p[o + 2]!;
  }
  cx /= k;
  cy /= k;
  cz /= k;
  let xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
  for (let j = 0; j < k; j++) {
    const o = 3 * idx[j]!;
    const dx = p[o]! - cx, dy = p[o + 1]! - cy, dz = p[o + 2]! - cz;
    xx += dx * dx;
    xy += dx * dy;
    xz += dx * dz;
    yy += dy * dy;
    yz += dy * dz;
    zz += dz * dz;
  }
  cov.splice(0, 9, xx, xy, xz, xy, yy, yz, xz, yz, zz);
  const { values, vectors } = symmetricEigen3(cov);
  if (!(values[1] > 0) || values[0] > PLANARITY * PLANARITY * values[1]) return null;
  const [mx, my, mz] = vectors[0];
  return { cx, cy, cz, mx, my, mz };
}

/** Lowest and highest projection of the cloud's points on a unit axis. */
export function cloudExtent(body: PointsBody, axis: readonly [number, number, number]): [number, number] {
  const p = body.cloud.positions;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < p.length; i += 3) {
    const t = p[i]! * axis[0] + p[i + 1]! * axis[1] + p[i + 2]! * axis[2];
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  return [lo, hi];
}
