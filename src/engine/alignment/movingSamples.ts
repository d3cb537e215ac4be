import { BrepscopeError } from '../errors';
import type { OC } from '../kernel';
import type { Body } from '../scene/Body';
import { cloudBox, cloudDiagonal, cloudSamples } from '../deviation/cloud';
import { meshPseudoNormals } from '../deviation/structures';
import { measuredSurface } from '../deviation/surfaces';
import { featureDenseSamples } from './featureSamples';
import { MIN_PAIRS } from './icp';
import { cloudMoments, surfaceMoments, type Moments } from './principalFrames';

/** Voxel edge of a cloud's moments and even thinning, as a share of the fixed body's box diagonal. */
export const CLOUD_CELL_DIAGONAL = 0.02;

/**
 * What the moving body is aligned by: its samples (deterministic) and the moments its principal
 * frames come from. A surface: its feature-dense samples (featureSamples.ts) and its area-weighted moments. A point
 * cloud: its points, stride-subsampled to `sampleCount` (as the spec words it), and the moments
 * of its points thinned on a voxel grid (cloudMoments: a cloud has no area to weigh by).
 */
export function movingSamples(oc: OC | undefined, moving: Body, deflection: number, sampleCount: number, diagonal: number): MovingSamples {
  if (moving.kind === 'points') {
    // A cloud whose points coincide (EMPTY_MESH there), or too few to fix six unknowns, has nothing to align.
    cloudDiagonal(moving);
    if (moving.cloud.count < MIN_PAIRS) {
      throw new BrepscopeError('EMPTY_MESH', `body '${moving.bodyId}' has ${moving.cloud.count} points: aligning it takes at least ${MIN_PAIRS} (a rigid motion has six unknowns)`, { bodyId: moving.bodyId });
    }
    const samples = cloudSamples(moving, sampleCount);
    const cloud = moving.cloud;
    const moments = moving.cache.get(`alignMoments:${CLOUD_CELL_DIAGONAL * diagonal}`, () => cloudMoments(cloud.positions, cloud.count, CLOUD_CELL_DIAGONAL * diagonal, cloudBox(moving)));
    return { points: samples.points.subarray(0, 3 * samples.count), count: samples.count, moments, even: moments.representatives };
  }
  const surface = measuredSurface(oc, moving, deflection);
  const samples = surface.body.cache.get(`alignSamples:${surface.key}:${sampleCount}`, () => featureDenseSamples(surface.mesh, sampleCount, meshPseudoNormals(surface)));
  if (samples.count === 0) throw new BrepscopeError('EMPTY_MESH', `body '${moving.bodyId}' has a surface of zero area: there is nothing to align`, { bodyId: moving.bodyId });
  const points = samples.points.subarray(0, 3 * samples.count);
  return { points, count: samples.count, moments: surfaceMoments(surface.mesh), even: points };
}

export interface MovingSamples {
  /** The samples ICP pairs (deterministic). */
  points: Float64Array;
  count: number;
  /** What the principal frames come from. */
  moments: Moments;
  /**
   * Points spread evenly over the body, which the global step scores its candidates with: a
   * surface's samples (uniform by area), a cloud's voxel representatives. A cloud's own points
   * would score a pose by its densely scanned patches only.
   */
  even: Float64Array;
}

