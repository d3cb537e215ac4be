import { z } from 'zod';
import { BrepscopeError } from '../errors';
import { createExactHit } from '../exact/ExactReference';
import { apply, compose, IDENTITY, rotationAngle, rotationAxis, rotationDistance, toMatrix4, type Matrix4, type Rigid } from '../math/rigid';
import type { OC } from '../kernel';
import { boxDiagonal, type Vec3 } from '../math/vec3';
import { closestPoint, createHit } from '../mesh/closestPoint';
import { cloudMoments, principalCandidates, surfaceMoments, type Moments } from '../mesh/principalFrames';
import { icp, MIN_PAIRS, rmsDistance, type IcpResult, type IcpSettings, type NearestFoot } from '../mesh/rigidIcp';
import { placementSummary, type PlacementSummary } from '../scene/describeBody';
import { placeBody } from '../scene/placement';
import type { Body, SurfaceBody } from '../scene/Body';
import { cloudBox, cloudDiagonal, cloudSamples } from '../deviation/cloud';
import { defineTool } from './defineTool';
import type { SurfaceMode } from '../deviation/defaults';
import { Pacer } from '../deviation/pacer';
import { meshBoxOf } from '../deviation/queries';
import { surfaceSamples } from '../deviation/samples';
import { surfaceSchema } from '../deviation/schemas';
import { deviationTarget, meshBvh, meshPseudoNormals } from '../deviation/structures';
import { defaultDeflection, measuredSurface, type MeasuredSurface } from '../deviation/surfaces';
import { kernelFor } from '../context';
import { bodyIdSchema } from './schemas';
import { warning, type ToolWarning } from '../warnings';

export const ALIGN_MODES = ['bestFit', 'preAlign', 'fine'] as const;
export type AlignMode = (typeof ALIGN_MODES)[number];

const schema = z
  .strictObject({
    movingBodyId: bodyIdSchema.describe('The body that moves (e.g. the scan)'),
    fixedBodyId: bodyIdSchema.describe('The body it is aligned to (e.g. the CAD part); it does not move'),
    mode: z
      .enum(ALIGN_MODES)
      .default('bestFit')
      .describe('bestFit (default): global pre-alignment (every principal-axes candidate, each refined by a short ICP) then fine ICP; preAlign: the global step only; fine: ICP from where the moving body stands now'),
    apply: z.boolean().default(false).describe("true: move the moving body's placement by the result (composed with its current placement; the file is never changed); false (default): report only"),
    maxIterations: z.int().min(1).max(1000).default(50).describe('Fine ICP iterations at most'),
    convergenceThreshold: z
      .number()
      .positive()
      .finite()
      .optional()
      .describe('ICP stops when an iteration moves no kept sample by more than this length (model units). Default 1e-6 x the fixed body\'s box diagonal'),
    sampleCount: z.int().min(10).max(200000).default(5000).describe("Samples of the moving body used for ICP (deterministic): surface samples of a mesh or BREP, a point cloud's points stride-subsampled"),
    overlap: z
      .number()
      .gt(0)
      .max(1)
      .default(0.9)
      .describe('Share of the samples kept each iteration, nearest first (trimmed ICP): lower it for a scan that covers parts the fixed body lacks (CloudCompare: final overlap). Default 0.9'),
    maxCorrespondenceDistance: z.number().positive().finite().optional().describe('Pairs farther apart than this are dropped before trimming (model units). Default: none'),
    deflection: z.number().positive().finite().optional().describe('Tessellation deflection for BREP bodies (candidate search and the global step). Default 0.5% of the fixed body\'s box diagonal'),
    surface: surfaceSchema,
  })
  .refine((a) => a.movingBodyId !== a.fixedBodyId, { path: ['fixedBodyId'], message: 'fixedBodyId must differ from movingBodyId' });

/** How the global step chose its start (bestFit and preAlign). */
export interface PreAlignment {
  /** Candidate frames tried (the 24 ways to match the principal axes). */
  candidates: number;
  /** Trimmed RMS of the best candidate after its short ICP. */
  bestResidual: number;
  /** Trimmed RMS of the best candidate that ends in a different pose; null when every candidate ends in the best pose. */
  runnerUpResidual: number | null;
  /** runnerUp / best: near 1 means the part's shape does not decide the pose (symmetry). */
  ambiguity: number | null;
}

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
  warnings: ToolWarning[];
}

/** Samples the global step scores each candidate with, and its short ICP's iterations. */
const GLOBAL_SAMPLES = 150;
const GLOBAL_ITERATIONS = 8;
/** Shifted centroid guesses for partial scans, in standard deviations of the fixed surface. */
const CENTROID_SHIFT = 0.5;
/** The best distinct poses after the short ICP, refined further before the choice. */
const FINALISTS = 4;
const FINALIST_SAMPLES = 500;
const FINALIST_ITERATIONS = 40;
/** Candidates ending within these of the best pose are the same pose. */
const SAME_POSE_DEGREES = 1;
const SAME_POSE_DIAGONAL = 0.005;
/** A different pose within this factor of the best residual makes the global step ambiguous. */
const AMBIGUOUS_RATIO = 1.5;
/** Residual above this share of the fixed diagonal: probably not a match. */
const POOR_FIT_DIAGONAL = 0.02;

export const alignBodies = defineTool({
  name: 'align_bodies',
  description:
    "Register a moving body (a scan: a mesh or a point cloud) to a fixed body (the CAD part, or a mesh; not a point cloud): global pre-alignment on principal axes (all 24 candidate frames, each refined by a short ICP, the lowest trimmed residual wins; symmetric parts are reported) then point-to-plane ICP, against the fixed BREP's exact faces. Returns the rigid motion (4x4 row-major, rotation angle and axis, translation), RMS before and after, iterations, overlap, converged and warnings. apply: true moves the moving body's placement (its file is never changed; every tool then sees it aligned). Deterministic.",
  category: 'scene',
  schema,
  async run(args, ctx): Promise<AlignResult> {
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
    const warnings: ToolWarning[] = [];

    let start: Rigid = IDENTITY;
    let preAlignment: PreAlignment | null = null;
    let result: IcpResult;
    if (args.mode !== 'fine') {
      const global = await globalStep(moments, surfaceMoments(fixedSurface.mesh), even, coarse, settings, diagonal, pacer);
      start = global.motion;
      preAlignment = global.summary;
      if (preAlignment.ambiguity !== null && preAlignment.ambiguity < AMBIGUOUS_RATIO) {
        warnings.push(
          warning('SYMMETRIC_PART', `symmetric or nearly symmetric part: a different pose fits almost as well (residual ${fmt(preAlignment.runnerUpResidual!)} against ${fmt(preAlignment.bestResidual)}); the alignment may be one of several equivalent ones`),
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
      if (!result.converged) warnings.push(warning('NOT_CONVERGED', `fine ICP did not converge in ${settings.maxIterations} iterations (maxIterations)`));
    }
    if (result.starved) warnings.push(warning('OUT_OF_REACH', `fewer than 6 pairs within maxCorrespondenceDistance: the fixed body is out of reach; the result is not an alignment`));
    const motion = result.motion;
    const rmsBefore = rmsDistance(points, IDENTITY, fine);
    const rmsAfter = rmsDistance(points, motion, fine);
    if (result.trimmedRms > POOR_FIT_DIAGONAL * diagonal) {
      warnings.push(warning('POOR_FIT', `residual ${fmt(result.trimmedRms)} is above ${POOR_FIT_DIAGONAL * 100}% of the fixed body's diagonal: the bodies may not match`));
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
  },
});

/**
 * The global step: every principal-axes candidate, refined by a short trimmed ICP on a few hundred
 * samples against the fixed body's triangles; the lowest residual wins (ties: the earlier
 * candidate). The runner-up is the best candidate that ends elsewhere.
 */
async function globalStep(
  movingMoments: Moments,
  fixedMoments: Moments,
  points: Float64Array,
  nearest: NearestFoot,
  settings: IcpSettings,
  diagonal: number,
  pacer: Pacer,
): Promise<{ motion: Rigid; summary: PreAlignment }> {
  const candidates = principalCandidates(movingMoments, fixedMoments, CENTROID_SHIFT);
  const subset = strided(points, GLOBAL_SAMPLES);
  const finalistSamples = strided(points, FINALIST_SAMPLES);
  const short: IcpSettings = { ...settings, maxIterations: GLOBAL_ITERATIONS, convergence: Math.max(settings.convergence, 1e-5 * diagonal) };
  const ends: Candidate[] = [];
  for (const [index, candidate] of candidates.entries()) {
    await pacer.tick(index, candidates.length + FINALISTS, 'pre-alignment');
    const r = await icp(subset, candidate, nearest, short);
    ends.push({ motion: r.motion, residual: r.starved ? Infinity : r.trimmedRms, index });
  }
  const c = movingMoments.centroid;
  const samePose = (a: Candidate, b: Candidate) => {
    const p = apply(a.motion, c[0], c[1], c[2]), q = apply(b.motion, c[0], c[1], c[2]);
    return (rotationDistance(a.motion.r, b.motion.r) * 180) / Math.PI <= SAME_POSE_DEGREES && Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) <= SAME_POSE_DIAGONAL * diagonal;
  };
  // A partial scan's centroid and axes are off the part's, so a short ICP may still be on its way
  // to the right pose: the best few distinct poses get a longer ICP on more samples.
  const finalists: Candidate[] = [];
  for (const e of ranked(ends)) {
    if (finalists.length === FINALISTS || !Number.isFinite(e.residual)) break;
    if (!finalists.some((f) => samePose(f, e))) finalists.push(e);
  }
  const longer: IcpSettings = { ...short, maxIterations: FINALIST_ITERATIONS };
  const refined: Candidate[] = [];
  for (const [k, f] of finalists.entries()) {
    await pacer.tick(candidates.length + k, candidates.length + FINALISTS, 'pre-alignment');
    const r = await icp(finalistSamples, f.motion, nearest, longer);
    refined.push({ motion: r.motion, residual: r.starved ? Infinity : r.trimmedRms, index: f.index });
  }
  const order = ranked(refined);
  const best = order[0] ?? ranked(ends)[0]!;
  const runnerUp = order.find((e) => e !== best && !samePose(e, best));
  const runnerUpResidual = runnerUp && Number.isFinite(runnerUp.residual) ? runnerUp.residual : null;
  // A residual floor (a noise-free part) keeps two near-zero residuals from looking far apart.
  const floor = 1e-4 * diagonal;
  return {
    motion: best.motion,
    summary: {
      candidates: candidates.length,
      bestResidual: best.residual,
      runnerUpResidual,
      ambiguity: runnerUpResidual === null ? null : (runnerUpResidual + floor) / (best.residual + floor),
    },
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

/** Voxel edge of a cloud's moments and even thinning, as a share of the fixed body's box diagonal. */
export const CLOUD_CELL_DIAGONAL = 0.02;

/**
 * What the moving body is aligned by: its samples (deterministic) and the moments its principal
 * frames come from. A surface: its area-uniform samples and its area-weighted moments. A point
 * cloud: its points, stride-subsampled to `sampleCount` as the deviation tools do, and the moments
 * of its points thinned on a voxel grid (cloudMoments: a cloud has no area to weigh by).
 */
function movingSamples(oc: OC | undefined, moving: Body, deflection: number, sampleCount: number, diagonal: number): MovingSamples {
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
  const samples = surfaceSamples(surface, sampleCount);
  const points = samples.points.subarray(0, 3 * samples.count);
  return { points, count: samples.count, moments: surfaceMoments(surface.mesh), even: points };
}

interface MovingSamples {
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

interface Candidate {
  motion: Rigid;
  residual: number;
  index: number;
}

/** Lowest residual first; ties: the earlier candidate (deterministic). */
function ranked(list: Candidate[]): Candidate[] {
  return [...list].sort((a, b) => a.residual - b.residual || a.index - b.index);
}

/** About `count` points of `points` by stride (deterministic). */
function strided(points: Float64Array, count: number): Float64Array {
  const n = points.length / 3;
  const stride = Math.max(1, Math.ceil(n / count));
  const out = new Float64Array(3 * Math.ceil(n / stride));
  for (let i = 0, k = 0; i < n; i += stride, k++) out.set(points.subarray(3 * i, 3 * i + 3), 3 * k);
  return out;
}

/** Nearest points on a surface's triangles, with the triangle's normal. */
function triangleFoot(s: MeasuredSurface): NearestFoot {
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
function exactFoot(oc: Parameters<typeof deviationTarget>[0], s: MeasuredSurface): NearestFoot {
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

function fmt(v: number): string {
  return Number(v.toPrecision(3)).toString();
}
