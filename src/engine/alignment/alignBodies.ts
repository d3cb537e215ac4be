import { BrepscopeError } from '../errors';
import { compose, IDENTITY, rotationAngle, rotationAxis, toMatrix4, type Matrix4, type Rigid } from '../math/rigid';
import { boxDiagonal, type Vec3 } from '../math/vec3';
import { placementSummary, type PlacementSummary } from '../scene/describeBody';
import { placeBody } from '../scene/placement';
import type { Body, SurfaceBody } from '../scene/Body';
import type { SurfaceMode } from '../deviation/defaults';
import { Pacer } from '../deviation/pacer';
import { meshBoxOf } from '../deviation/queries';
import { defaultDeflection, measuredSurface } from '../deviation/surfaces';
import { kernelFor, type ToolContext } from '../context';
import { exactFoot, triangleFoot } from './feet';
import { AMBIGUOUS_RATIO, globalStep, type PreAlignment } from './globalStep';
import { icp, rmsDistance, type IcpResult, type IcpSettings, type NearestFoot } from './icp';
import { movingSamples } from './movingSamples';
import { surfaceMoments } from './principalFrames';

export const ALIGN_MODES = ['bestFit', 'preAlign', 'fine'] as const;
export type AlignMode = (typeof ALIGN_MODES)[number];

/** align_bodies' arguments after the schema's defaults. */
export interface AlignArgs {
  movingBodyId: string;
  fixedBodyId: string;
  mode: AlignMode;
  apply: boolean;
  maxIterations: number;
  convergenceThreshold?: number | undefined;
  sampleCount: number;
  overlap: number;
  maxCorrespondenceDistance?: number | undefined;
  deflection?: number | undefined;
  surface: SurfaceMode;
}

export type { PreAlignment } from './globalStep';

export interface AlignResult {
  movingBodyId: string;
  fixedBodyId: string;
  mode: AlignMode;
  /** The motion found, in scene coordinates: the moving body from where it stands to aligned (4x4 row-major, as inspect_assembly). */
  transform: Matrix4;
  rotationAngleDegrees: number;
  rotationAxis: Vec3 | null;
  translation: Vec3;
  /** RMS distance of every sample to the fixed surface before and after (untrimmed). */
  rmsBefore: number;
  rmsAfter: number;
  /** RMS over the kept (nearest `overlap` share) pairs at the final pose. */
  trimmedRmsAfter: number;
  iterations: number;
  /** Share of the samples kept as pairs at the final pose. */
  overlap: number;
  converged: boolean;
  samples: number;
  /** What the fixed body was paired with: its exact faces (BREP, exact) or triangles. */
  surface: SurfaceMode;
  deflection: number;
  preAlignment: PreAlignment | null;
  applied: boolean;
  /** The moving body's placement after the call (file to scene); null when it stands as read. */
  placement: PlacementSummary | null;
  warnings: string[];
}

/** Residual above this share of the fixed diagonal: probably not a match. */
const POOR_FIT_DIAGONAL = 0.02;

/**
 * Registers the moving body onto the fixed one (align_bodies): global step, fine ICP on the
 * tessellation then on the exact faces, and on request the moving body's placement moved.
 */
export async function alignBodies(args: AlignArgs, ctx: ToolContext): Promise<AlignResult> {
    const moving = ctx.scene.get(args.movingBodyId);
  const fixed = fixedBody(ctx.scene.get(args.fixedBodyId), moving);
  const oc = await kernelFor(ctx, [moving, fixed]);
  // The fixed body's size, not the moving one's (the deviation tools' rule): a moving mesh's box
  // changes as it turns, and the answer must not depend on where the moving body stands.
  const deflection = args.deflection ?? defaultDeflection(oc, fixed);
  const fixedSurface = measuredSurface(oc, fixed, deflection);
  const diagonal = boxDiagonal(meshBoxOf(fixedSurface));
  if (!(diagonal > 0)) throw new BrepscopeError('EMPTY_MESH', `body '${fixed.bodyId}' has no extent: there is nothing to align to`);
  const { points, count, moments, even } = movingSamples(oc, moving, deflection, args.sampleCount, diagonal);
  const settings: IcpSettings = {
    maxIterations: args.maxIterations,
    convergence: args.convergenceThreshold ?? 1e-6 * diagonal,
    overlap: args.overlap,
    maxDistance: args.maxCorrespondenceDistance ?? Infinity,
  };
  const coarse = triangleFoot(fixedSurface);
  const exact = args.surface === 'exact' && fixed.kind === 'brep';
  const fine: NearestFoot = exact ? exactFoot(oc, fixedSurface) : coarse;
  const pacer = new Pacer(ctx);
  const warnings: string[] = [];

  let start: Rigid = IDENTITY;
  let preAlignment: PreAlignment | null = null;
  let result: IcpResult;
  if (args.mode !== 'fine') {
    const global = await globalStep(moments, surfaceMoments(fixedSurface.mesh), even, coarse, settings, diagonal, pacer);
    start = global.motion;
    preAlignment = global.summary;
    if (preAlignment.ambiguity !== null && preAlignment.ambiguity < AMBIGUOUS_RATIO) {
      warnings.push(
        `symmetric or nearly symmetric part: a different pose fits almost as well (residual ${fmt(preAlignment.runnerUpResidual!)} against ${fmt(preAlignment.bestResidual)}); the alignment may be one of several equivalent ones`,
      );
    }
  }
  if (args.mode === 'preAlign') {
    result = await icp(points, start, fine, { ...settings, maxIterations: 0 });
  } else {
    const tick = (iteration: number) => pacer.tick(iteration, settings.maxIterations, 'fine ICP');
    // Most iterations only need the direction to go: against the tessellation (fast), then
    // against the exact faces from there, which usually takes a few iterations only.
    result = await icp(points, start, coarse, settings, tick);
    if (exact) {
      const onTessellation = result.iterations;
      result = await icp(points, result.motion, fine, settings, tick);
      result.iterations += onTessellation;
    }
    if (!result.converged) warnings.push(`fine ICP did not converge in ${settings.maxIterations} iterations (maxIterations)`);
  }
  if (result.starved) warnings.push(`fewer than 6 pairs within maxCorrespondenceDistance: the fixed body is out of reach; the result is not an alignment`);
  const motion = result.motion;
  const rmsBefore = rmsDistance(points, IDENTITY, fine);
  const rmsAfter = rmsDistance(points, motion, fine);
  if (result.trimmedRms > POOR_FIT_DIAGONAL * diagonal) {
    warnings.push(`residual ${fmt(result.trimmedRms)} is above ${POOR_FIT_DIAGONAL * 100}% of the fixed body's diagonal: the bodies may not match`);
  }

  let applied = false;
  if (args.apply) {
    const current = moving.placement;
    const prior = current?.setBy.tool === 'align_bodies' ? current.setBy.alignments : 0;
    placeBody(oc, ctx.scene, moving, {
      motion: compose(motion, current?.motion ?? IDENTITY),
      setBy: { tool: 'align_bodies', fixedBodyId: fixed.bodyId, mode: args.mode, rmsBefore, rmsAfter, converged: result.converged, alignments: prior + 1 },
    });
    applied = true;
  }
  const axis = rotationAxis(motion.r);
  return {
    movingBodyId: moving.bodyId,
    fixedBodyId: fixed.bodyId,
    mode: args.mode,
    transform: toMatrix4(motion),
    rotationAngleDegrees: (rotationAngle(motion.r) * 180) / Math.PI,
    rotationAxis: axis,
    translation: [motion.t[0]!, motion.t[1]!, motion.t[2]!],
    rmsBefore,
    rmsAfter,
    trimmedRmsAfter: result.trimmedRms,
    iterations: result.iterations,
    overlap: result.overlapUsed,
    converged: args.mode === 'preAlign' ? true : result.converged,
    samples: count,
    surface: exact ? 'exact' : 'tessellated',
    deflection,
    preAlignment,
    applied,
    placement: placementSummary(moving),
    warnings,
  };
}

/**
 * A cloud cannot be the fixed body: point-to-plane ICP pairs each sample with the nearest point of
 * a surface, and a cloud has none. Aligning the part onto the cloud is the same problem the other
 * way round, so the user swaps the roles (the motion found is the inverse).
 */
function fixedBody(body: Body, moving: Body): SurfaceBody {
  if (body.kind !== 'points') return body;
  throw new BrepscopeError(
    'POINT_CLOUD_REFERENCE',
    `align_bodies: body '${body.bodyId}' is a point cloud and cannot be the fixed body: a cloud has no surface to align to. Swap the roles: align the cloud onto the part (movingBodyId '${body.bodyId}', fixedBodyId '${moving.bodyId}'); the motion found is the inverse of the one asked for.`,
    { bodyId: body.bodyId },
  );
}

function fmt(v: number): string {
  return Number(v.toPrecision(3)).toString();
}
