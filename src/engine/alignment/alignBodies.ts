import { BrepscopeError } from '../errors';
import { warning, type ToolWarning, type WarningCode } from '../warnings';
import { unitMismatchWarning } from '../scene/unitMismatch';
import { apply, compose, IDENTITY, rotationAngle, rotationAxis, rotationDistance, toMatrix4, type Matrix4, type Rigid } from '../math/rigid';
import { boxDiagonal, type Vec3 } from '../math/vec3';
import { placementSummary, type PlacementSummary } from '../scene/describeBody';
import { placeBody } from '../scene/placement';
import type { Body, BrepBody, SurfaceBody } from '../scene/Body';
import type { SurfaceMode } from '../deviation/defaults';
import { Pacer } from '../deviation/pacer';
import { meshBoxOf } from '../deviation/queries';
import { exactOrNull } from '../deviation/structures';
import { bodyDiagonal, defaultDeflection, measuredSurface, type MeasuredSurface } from '../deviation/surfaces';
import { faceSplitter, MAX_DISTANCE, nominalAccess } from '../gdt/nominalAccess';
import { scanDensifier } from '../gdt/scanDensify';
import { scanSurface } from '../gdt/scanSurface';
import { requireKernel } from '../kernel';
import { kernelFor, type ToolContext } from '../context';
import { datumAlignment, parseFaceIds, type DatumSpec, type ConstraintResidual } from './datums';
import { exactFoot, onFaces, triangleFoot } from './feet';
import { AMBIGUOUS_RATIO, globalStep, symmetryAxisIndex, type PreAlignment } from './globalStep';
import { createFoot, icp, rmsDistance, trimmedRms, type IcpResult, type IcpSettings, type NearestFoot } from './icp';
import { movingSamples } from './movingSamples';
import { samePose } from './poseScores';
import { principalAxes, surfaceMoments } from './principalFrames';
import { nearSymmetries, resolveSymmetry, type ScoredPose, type Turn } from './symmetries';
import { surfaceSamples } from '../deviation/samples';

export const ALIGN_MODES = ['bestFit', 'preAlign', 'fine'] as const;
export type AlignMode = (typeof ALIGN_MODES)[number];
export const ALIGN_METHODS = ['bestFit', '3-2-1', 'datums', 'localBestFit'] as const;
export type AlignMethod = (typeof ALIGN_METHODS)[number];

/** align_bodies' arguments after the schema's defaults. */
export interface AlignArgs {
  movingBodyId: string;
  fixedBodyId: string;
  mode: AlignMode;
  method: AlignMethod;
  datums?: DatumSpec[] | undefined;
  faces?: string[] | undefined;
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
export type { ScoredPose } from './symmetries';
export type { ConstraintResidual, DatumSpec } from './datums';

/** What became of the alignment: proposed (or applied), or the start kept. */
export type AlignOutcome = 'aligned' | 'alreadyAligned' | 'noBetterPose';

/** SYMMETRIC_PART, ALREADY_ALIGNED, NO_BETTER_POSE, NOT_CONVERGED, OUT_OF_REACH, POOR_FIT (warnings.ts). */
export type AlignWarning = ToolWarning;

/** A rigid motion as the result reports it. */
export interface PoseSummary {
  transform: Matrix4;
  rotationAngleDegrees: number;
  rotationAxis: Vec3 | null;
  translation: Vec3;
}

export interface EquivalentPose extends PoseSummary {
  /** Trimmed RMS at the pose (global step, fine surface). */
  residual: number;
  /** Per-face coverage score (1: every face as well covered as at any pose). */
  featureScore: number;
}

export interface AlignResult extends PoseSummary {
  movingBodyId: string;
  fixedBodyId: string;
  mode: AlignMode;
  method: AlignMethod;
  /** aligned: the motion is proposed (applied with apply: true); alreadyAligned / noBetterPose: nothing better than where the body stands was found, the motion is the identity. */
  outcome: AlignOutcome;
  /** RMS distance of every sample to the fixed surface before and after (untrimmed). */
  rmsBefore: number;
  rmsAfter: number;
  /** RMS over the nearest `overlap` share of the samples, at the start and at the final pose. */
  trimmedRmsBefore: number;
  trimmedRmsAfter: number;
  /** The common signed offset of the scan fitted beside the motion (outward positive); 0 when not fitted. */
  signedOffset: number;
  iterations: number;
  /** Share of the samples kept as pairs at the final pose. */
  overlap: number;
  converged: boolean;
  samples: number;
  /** What the fixed body was paired with: its exact faces (BREP, exact) or triangles. */
  surface: SurfaceMode;
  deflection: number;
  preAlignment: PreAlignment | null;
  /** Several poses fit equally (a symmetric part): the one nearest the current pose was taken. */
  ambiguous: boolean;
  /** The poses that fit equally well, nearest the current pose first (the chosen one first); empty when the pose is decided. Each is the motion from where the body stands. */
  equivalentPoses: EquivalentPose[];
  /** The pose found but not proposed (outcome alreadyAligned or noBetterPose), with its RMS; null otherwise. */
  rejected: (PoseSummary & { rmsAfter: number; trimmedRmsAfter: number }) | null;
  /** Datum (3-2-1) or local best-fit alignments: what each constraint left (per datum, per chosen face). */
  constraints: ConstraintResidual[];
  applied: boolean;
  /** The moving body's placement after the call (file to scene); null when it stands as read. */
  placement: PlacementSummary | null;
  warnings: AlignWarning[];
}

/** Other families of tied poses (a nut turned over) fitted and listed besides the fine fit's. */
const MAX_OTHER_FAMILIES = 3;
/** A tied start within this of a pose of a family already listed belongs to it (a family's poses are 30 degrees or more apart). */
const SAME_FAMILY_DEGREES = 10;

/** Samples of the fixed body its own symmetries are found with. */
const SYMMETRY_SAMPLES = 1500;
/** Residual above this share of the fixed diagonal: probably not a match. */
const POOR_FIT_DIAGONAL = 0.02;
/** Samples the datum method may draw near datum faces that got few (evaluate_gdt's default maxSamples). */
const DENSIFY_BUDGET = 50000;
/** A result must lower the RMS by this share (trimmed or untrimmed, neither rising) to be proposed: less is within the noise of the fit itself. */
const BETTER_BY = 0.005;

/**
 * Registers the moving body onto the fixed one (align_bodies): global step (the current pose one
 * of its candidates), then the method's fit: best fit (point-to-plane ICP with a common signed
 * offset, on the tessellation then on the exact faces), 3-2-1 datums or a best fit on chosen
 * faces. A result that is not better than where the body stands is not proposed.
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
  const method = args.method;
  const exactRef = exactOrNull(oc, fixedSurface, args.surface);
  const datumFaces = method === '3-2-1' || method === 'datums' ? checkedDatums(args.datums, method) : null;
  const localFaces = method === 'localBestFit' ? parseFaceIds(args.faces, 'faces', exactRef?.geometry.faces.length ?? null) : null;
  if (datumFaces && !exactRef) {
    throw new BrepscopeError('INVALID_ARGUMENT', `align_bodies: method '${method}' fits datums on the fixed body's exact faces: fixedBodyId must be a BREP body and surface 'exact'`);
  }
  if (localFaces && !exactRef && fixed.kind !== 'brep') {
    throw new BrepscopeError('INVALID_ARGUMENT', `align_bodies: method 'localBestFit' restricts the fit to faces face[N] of a BREP fixed body; '${fixed.bodyId}' has no faces`);
  }
  const datums = datumFaces ? datumFaces.map((d) => ({ ...d, index: parseFaceIds([d.face], 'datums', exactRef!.geometry.faces.length)[0]! })) : null;
  const { points, count, moments, even } = movingSamples(oc, moving, deflection, args.sampleCount, diagonal);
  const settings: IcpSettings = {
    maxIterations: args.maxIterations,
    convergence: args.convergenceThreshold ?? 1e-6 * diagonal,
    overlap: args.overlap,
    maxDistance: args.maxCorrespondenceDistance ?? Infinity,
  };
  const coarse = triangleFoot(fixedSurface);
  const exact = exactRef !== null;
  const fine: NearestFoot = exact ? exactFoot(oc, fixedSurface) : coarse;
  const pacer = new Pacer(ctx);
  const warnings: AlignWarning[] = [];
  const warn = (code: WarningCode, message: string) => warnings.push(warning(code, message));

  let start: Rigid = IDENTITY;
  let preAlignment: PreAlignment | null = null;
  let equivalents: ScoredPose[] = [];
  let symmetryTurns: Turn[] = [];
  let tiedStarts: Rigid[] = [];
  if (args.mode !== 'fine') {
    const fixedMoments = surfaceMoments(fixedSurface.mesh);
    const symmetries = (): Turn[] => {
      const a = symmetryAxisIndex(fixedMoments);
      if (a < 0) return [];
      const axis = principalAxes(fixedMoments).axes[a as 0 | 2];
      // The fixed body's own symmetries: once per body and deflection.
      const key = `alignSymmetries:${fixedSurface.key}`;
      return fixed.cache.get(key, () => nearSymmetries(fixedSamples(fixedSurface), axis, fixedMoments.centroid, coarse, diagonal, fixed.kind === 'brep' ? deflection : 0));
    };
    const global = await globalStep({ movingMoments: moments, fixedMoments, even, coarse, settings, diagonal, pacer });
    preAlignment = global.summary;
    symmetryTurns = symmetries();
    tiedStarts = global.tied;
    // With turns about an axis, the fine fit starts from the best residual (a start in a wrong turn
    // of a keyed part can leave the keyway's coverage undecided) and the symmetry resolution takes
    // the nearest of all tied families' poses; without, the tied start nearest the current pose.
    start = symmetryTurns.length > 0 ? global.motion : global.tied[0]!;
  }
  const tick = (iteration: number) => pacer.tick(iteration, settings.maxIterations, 'fine ICP');
  const fineSettings: IcpSettings = { ...settings, offset: true };
  /** Point-to-plane ICP from `from`: against the tessellation (fast), then against the exact faces from there (a few iterations). */
  const fit = async (from: Rigid, near: NearestFoot, nearFine: NearestFoot): Promise<IcpResult> => {
    let r = await icp(points, from, near, fineSettings, tick);
    if (exact) {
      const onTessellation = r.iterations;
      r = await icp(points, r.motion, nearFine, fineSettings, tick);
      r.iterations += onTessellation;
    }
    return r;
  };
  let result: IcpResult;
  let constraints: ConstraintResidual[] = [];
  if (args.mode === 'preAlign' && method === 'bestFit') {
    result = await icp(points, start, fine, { ...settings, maxIterations: 0 });
  } else if (localFaces) {
    const chosen = new Set(localFaces);
    result = await fit(start, onFaces(coarse, chosen), onFaces(fine, chosen));
  } else {
    result = args.mode === 'preAlign' ? await icp(points, start, fine, { ...settings, maxIterations: 0 }) : await fit(start, coarse, fine);
  }
  // A symmetric part: the fine fit's pose or one of its turns, told apart by the faces' coverage;
  // where they tie, the one nearest where the body stands. Without turns about an axis, distinct
  // poses the global step found tied (an assembly that a half turn fits but for its brackets' bosses
  // and bolts, which trimming drops) are fitted and told apart the same way, instead of taking the
  // one nearest where the body stands untried.
  let toldApart = false;
  if ((symmetryTurns.length > 0 || tiedStarts.length > 1) && args.mode === 'bestFit' && !result.starved) {
    await pacer.tick(0, 1, 'symmetric poses');
    const near = localFaces ? onFaces(coarse, new Set(localFaces)) : coarse;
    const nearFine = localFaces ? onFaces(fine, new Set(localFaces)) : fine;
    // A part symmetric in a second way (a nut turned over): the global step's tied starts that are
    // no turn of the fine fit's pose are other families; each gets its own fine fit and turns.
    const bases = [result.motion];
    const listed = (m: Rigid) => bases.some((b) => [b, ...symmetryTurns.map((t) => compose(t.motion, b))].some((f) => (rotationDistance(f.r, m.r) * 180) / Math.PI < SAME_FAMILY_DEGREES));
    let extraIterations = 0;
    for (const m of tiedStarts) {
      if (bases.length > MAX_OTHER_FAMILIES) break;
      if (listed(m)) continue;
      const other = await fit(m, near, nearFine);
      extraIterations += other.iterations;
      if (!other.starved && !listed(other.motion)) bases.push(other.motion);
    }
    const resolved = await resolveSymmetry(points, bases, symmetryTurns, nearFine, settings, diagonal, moments.centroid);
    if (resolved.length > 1) equivalents = resolved;
    toldApart = symmetryTurns.length === 0 && bases.length > 1 && resolved.length === 1;
    if (!samePose(resolved[0]!.motion, result.motion, moments.centroid, diagonal)) {
      const iterations = result.iterations + extraIterations;
      result = await fit(resolved[0]!.motion, near, nearFine);
      result.iterations += iterations;
    } else {
      result.iterations += extraIterations;
    }
  }
  // Poses the global step could not tell apart that the fine fits and the faces' coverage did are no ambiguity left.
  const nearlySymmetric = !toldApart && preAlignment !== null && preAlignment.ambiguity !== null && preAlignment.ambiguity < AMBIGUOUS_RATIO;
  if (equivalents.length > 1 || nearlySymmetric) {
    const how =
      equivalents.length > 1
        ? `${equivalents.length} poses fit equally by residual and by every face's coverage; the one nearest where the body stands was taken (equivalentPoses lists them)`
        : symmetryTurns.length > 0
          ? `the fixed body's faces told the poses apart (the chosen one covers them best)`
          : `the alignment may be one of several equivalent ones`;
    const residuals = preAlignment?.runnerUpResidual != null ? ` (residual ${fmt(preAlignment.runnerUpResidual)} against ${fmt(preAlignment.bestResidual)})` : '';
    warn('SYMMETRIC_PART', `symmetric or nearly symmetric part: a different pose fits almost as well${residuals}; ${how}`);
  }
  if (args.mode !== 'preAlign' && !result.converged) warn('NOT_CONVERGED', `fine ICP did not converge in ${settings.maxIterations} iterations (maxIterations)`);
  if (result.starved) warn('OUT_OF_REACH', `fewer than 6 pairs within maxCorrespondenceDistance${localFaces ? ' on the chosen faces' : ''}: the fixed body is out of reach; the result is not an alignment`);
  let motion = result.motion;
  if (datums) {
    const fixedDiagonal = bodyDiagonal(oc, fixed);
    const kernel = requireKernel(oc, 'align_bodies');
    const nominal = nominalAccess(kernel, fixed as BrepBody, exactRef!), split = faceSplitter(exactRef!, fixedDiagonal);
    const scan = method === 'datums' ? scanSurface(kernel, moving) : null;
    const densifyAt = scan ? (placed: Rigid) => scanDensifier(scan, placed, nominal, split, MAX_DISTANCE * fixedDiagonal, DENSIFY_BUDGET) : undefined;
    const context = { nominal, split, geometry: exactRef!.geometry, diagonal: fixedDiagonal, ...(densifyAt ? { densifyAt } : {}) };
    const d = datumAlignment(points, motion, context, datums, method === 'datums' ? 'datums' : '3-2-1');
    motion = d.motion;
    constraints = d.residuals;
  } else if (localFaces) {
    constraints = faceResiduals(points, motion, fine, localFaces);
  }
  const rmsBefore = rmsDistance(points, IDENTITY, fine);
  const trimmedRmsBefore = trimmedRms(points, IDENTITY, fine, settings);
  let rmsAfter = rmsDistance(points, motion, fine);
  let trimmedRmsAfter = trimmedRms(points, motion, fine, settings);
  if (trimmedRmsAfter > POOR_FIT_DIAGONAL * diagonal) {
    warn('POOR_FIT', `residual ${fmt(trimmedRmsAfter)} is above ${POOR_FIT_DIAGONAL * 100}% of the fixed body's diagonal: the bodies may not match`);
  }
  const units = unitMismatchWarning({ body: moving, diagonal: pointsDiagonal(points) }, { body: fixed, diagonal }, { rms: trimmedRmsAfter });
  if (units) warnings.push(units);

  // Never worse than the start: a datum alignment may raise the global RMS (that is its point), so
  // only a best fit (global or local) is held to it.
  let outcome: AlignOutcome = 'aligned';
  let rejected: AlignResult['rejected'] = null;
  const heldToStart = !datums;
  const better = rmsAfter <= rmsBefore && trimmedRmsAfter <= trimmedRmsBefore && (rmsAfter < (1 - BETTER_BY) * rmsBefore || trimmedRmsAfter < (1 - BETTER_BY) * trimmedRmsBefore);
  if (heldToStart && !better) {
    outcome = samePose(motion, IDENTITY, moments.centroid, diagonal) ? 'alreadyAligned' : 'noBetterPose';
    rejected = { ...poseSummary(motion), rmsAfter, trimmedRmsAfter };
    warn(
      outcome === 'alreadyAligned' ? 'ALREADY_ALIGNED' : 'NO_BETTER_POSE',
      outcome === 'alreadyAligned'
        ? `the body is already aligned: the best pose found is where it stands (RMS ${fmt(rmsBefore)}, trimmed ${fmt(trimmedRmsBefore)}, not lowered by ${BETTER_BY * 100}%); nothing is proposed`
        : `no better pose was found: the best one (${fmt((rotationAngle(motion.r) * 180) / Math.PI)} degrees away) has RMS ${fmt(rmsAfter)} and trimmed ${fmt(trimmedRmsAfter)} against ${fmt(rmsBefore)} and ${fmt(trimmedRmsBefore)} where the body stands; nothing is proposed`,
    );
    motion = IDENTITY;
    rmsAfter = rmsBefore;
    trimmedRmsAfter = trimmedRmsBefore;
  }

  let applied = false;
  if (args.apply && outcome === 'aligned') {
    const current = moving.placement;
    const prior = current?.setBy.tool === 'align_bodies' ? current.setBy.alignments : 0;
    placeBody(oc, ctx.scene, moving, {
      motion: compose(motion, current?.motion ?? IDENTITY),
      setBy: { tool: 'align_bodies', fixedBodyId: fixed.bodyId, mode: args.mode, method, rmsBefore, rmsAfter, converged: result.converged, alignments: prior + 1 },
    });
    applied = true;
  }
  return {
    movingBodyId: moving.bodyId,
    fixedBodyId: fixed.bodyId,
    mode: args.mode,
    method,
    outcome,
    ...poseSummary(motion),
    rmsBefore,
    rmsAfter,
    trimmedRmsBefore,
    trimmedRmsAfter,
    signedOffset: outcome === 'aligned' && !datums ? result.offset : 0,
    iterations: result.iterations,
    overlap: result.overlapUsed,
    converged: args.mode === 'preAlign' ? true : result.converged,
    samples: count,
    surface: exact ? 'exact' : 'tessellated',
    deflection,
    preAlignment,
    ambiguous: equivalents.length > 1,
    equivalentPoses: equivalents.map((e) => ({ ...poseSummary(e.motion), residual: e.residual, featureScore: e.featureScore })),
    rejected,
    constraints,
    applied,
    placement: placementSummary(moving),
    warnings,
  };
}

function fixedSamples(s: MeasuredSurface): Float64Array {
  const samples = surfaceSamples(s, SYMMETRY_SAMPLES);
  return samples.points.subarray(0, 3 * samples.count);
}

function poseSummary(motion: Rigid): PoseSummary {
  return {
    transform: toMatrix4(motion),
    rotationAngleDegrees: (rotationAngle(motion.r) * 180) / Math.PI,
    rotationAxis: rotationAxis(motion.r),
    translation: [motion.t[0]!, motion.t[1]!, motion.t[2]!],
  };
}

function checkedDatums(datums: DatumSpec[] | undefined, method: string): DatumSpec[] {
  if (!datums || datums.length < 1 || datums.length > 3) {
    throw new BrepscopeError('INVALID_ARGUMENT', `align_bodies: method '${method}' needs datums: a primary, a secondary and a tertiary face of the fixed body, e.g. [{"face":"face[3]"},{"face":"face[0]"},{"face":"face[5]"}]`);
  }
  return datums;
}

/** Per chosen face: how many samples it holds at the pose, their RMS and mean signed distance. */
function faceResiduals(points: Float64Array, motion: Rigid, nearest: NearestFoot, faces: number[]): ConstraintResidual[] {
  const sums = new Map(faces.map((f) => [f, { n: 0, s: 0, s2: 0 }]));
  const foot = createFoot();
  for (let i = 0; i < points.length; i += 3) {
    const [x, y, z] = apply(motion, points[i]!, points[i + 1]!, points[i + 2]!);
    if (!nearest(x, y, z, foot) || !foot.interior) continue;
    const acc = sums.get(foot.face);
    if (!acc) continue;
    const d = (x - foot.x) * foot.nx + (y - foot.y) * foot.ny + (z - foot.z) * foot.nz;
    acc.n++;
    acc.s += d;
    acc.s2 += d * d;
  }
  return faces.map((f) => {
    const a = sums.get(f)!;
    return { role: 'face', face: `face[${f}]`, kind: 'surface', points: a.n, form: null, angleDegrees: null, distance: null, rms: a.n ? Math.sqrt(a.s2 / a.n) : null, meanSigned: a.n ? a.s / a.n : null };
  });
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

/** The box diagonal of xyz points. */
function pointsDiagonal(points: Float64Array): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = points[i + k]!;
      if (v < lo[k]!) lo[k] = v;
      if (v > hi[k]!) hi[k] = v;
    }
  }
  return Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
}
