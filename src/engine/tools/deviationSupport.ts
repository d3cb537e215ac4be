import { z } from 'zod';
import { BrepscopeError, checkCancelled } from '../errors';
import { createExactDeviation, ExactReference } from '../exact/ExactReference';
import { exactExtent } from '../exact/extent';
import type { ExactGeometry } from '../exact/geometry';
import { sampleExactSurface } from '../exact/sampleExact';
import { requireKernel, type OC } from '../kernel';
import { boxDiagonal, type Box3, type Vec3 } from '../math/vec3';
import { meshBox } from '../mesh/meshProperties';
import { beyondOpenBoundary, buildOpenBoundary, type OpenBoundary } from '../mesh/openBoundary';
import { buildPseudoNormals, type PseudoNormals } from '../mesh/pseudoNormals';
import { sampleSurface, type SurfaceSamples } from '../mesh/sampleSurface';
import { createSignedDeviation, deviationReferenceOf, REACH_FACTOR, REACH_FLOOR, signedDeviation, TIE_FACTOR, TIE_SLACK, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import { buildBvh, type TriangleBvh } from '../mesh/TriangleBvh';
import type { FaceTessellation, TriMesh } from '../mesh/TriMesh';
import { buildFastWinding, type FastWinding } from '../mesh/windingNumber';
import type { Body, BrepBody, SurfaceBody } from '../scene/Body';
import { referenceBody, surfaceBody } from '../scene/pointsBody';
import { extractExactGeometry, type KernelFaceSurfaces } from '../scene/exactGeometry';
import { pairKey } from '../scene/Scene';
import { getTessellation, shapeDiagonal } from '../scene/tessellation';
import type { ToolContext } from './defineTool';
import { kernelFor } from './kernelFor';
import { percentile } from './statistics';

/** measure_deviation's default sample count per direction (spec); deviation_heatmap's statistics use it too. */
export const DEFAULT_DEVIATION_SAMPLES = 20000;

/** Default deflection of the deviation tools: 0.5 % of the from-body's bounding-box diagonal (spec). */
export const DEFLECTION_RATIO = 0.005;

export const signModeSchema = z
  .enum(['robust', 'nearest'])
  .default('robust')
  .describe(
    'robust (default): reference triangles facing against the sample are rejected, the nearest survivor within reach gives the sign, samples without one are ambiguous; nearest: the nearest triangle wins whatever it is',
  );

export type SurfaceMode = 'exact' | 'tessellated';

export const surfaceSchema = z
  .enum(['exact', 'tessellated'])
  .default('exact')
  .describe(
    "exact (default): a BREP body is measured on its exact faces (samples on the faces, distances, foot points, normals and signs from the faces; the tessellation at deflection only finds candidates); tessellated: a BREP body is measured as its tessellation at deflection (the spec's behaviour). An STL body is its own exact surface either way",
  );

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

export const maxDistanceSchema = z
  .number()
  .positive()
  .finite()
  .optional()
  .describe(
    'Maximum search distance: a sample farther than this from the reference has no counterpart there (no data), as has one whose nearest point lies beyond an open mesh reference\'s boundary; no-data samples are counted (noDataSamples) and left out of every figure. Default max(10 x the median distance, 5% of the from-body bounding-box diagonal), per direction',
  );

/** The default maximum search distance: max(MEDIAN_FACTOR x median distance, DIAGONAL_SHARE x from-body diagonal) (docs/deviation.md, "No data"). */
export const MAX_DISTANCE_MEDIAN_FACTOR = 10;
export const MAX_DISTANCE_DIAGONAL_SHARE = 0.05;

/**
 * The triangles a deviation tool measures a body by: a BREP body's tessellation at `deflection`
 * (cached per body and deflection), an STL body's own triangles (deflection does not apply).
 * EMPTY_MESH when there are no triangles or they have no area.
 */
export function surfaceMesh(oc: OC | undefined, body: Body, deflection: number): TriMesh {
  return measuredSurface(oc, body, deflection).mesh;
}

/**
 * A body's triangles as a deviation tool measures them (see surfaceMesh), named so that the query
 * structures built on them are cached on the body: `key` says which triangles (an STL's own, or a
 * tessellation at one deflection).
 */
export interface MeasuredSurface {
  body: SurfaceBody;
  mesh: TriMesh;
  key: string;
}

export function measuredSurface(oc: OC | undefined, anyBody: Body, deflection: number): MeasuredSurface {
  const body = surfaceBody(anyBody, 'deviation', 'a surface');
  const s = body.kind === 'mesh' ? surfaceOf(body) : surfaceOf(body, getTessellation(requireKernel(oc, 'deviation'), body, deflection));
  if (s.mesh.indices.length === 0) {
    throw new BrepscopeError('EMPTY_MESH', `body '${body.bodyId}' has no triangles${body.kind === 'brep' ? ' (its shape has no faces to tessellate)' : ''}`);
  }
  return s;
}

/** An STL body's own triangles, or a BREP body's tessellation (`mesh`, made by getTessellation). */
export function surfaceOf(body: SurfaceBody, tessellation?: TriMesh & { deflection: number }): MeasuredSurface {
  if (body.kind === 'mesh') return { body, mesh: body.mesh, key: 'mesh' };
  if (!tessellation) throw new Error('deviation: a BREP body is measured through a tessellation');
  return { body, mesh: tessellation, key: `tessellation@${tessellation.deflection}` };
}

interface MeshQueries {
  box?: Box3;
  bvh?: TriangleBvh;
  pseudoNormals?: PseudoNormals;
  reference?: DeviationReference;
  winding?: FastWinding;
  boundary?: OpenBoundary;
  samples: Map<number, SurfaceSamples>;
  /** A BREP tessellation's exact reference and exact-surface samples (the tessellation is per body and deflection). */
  exact?: ExactReference;
  exactSamples?: Map<number, SurfaceSamples>;
}

/**
 * Query structures of a measured surface, built on first use and kept in its body's cache, so they
 * live exactly as long as the body does and a second tool call on the same bodies (histogram,
 * heat map) skips the build.
 */
function queriesOf(s: MeasuredSurface): MeshQueries {
  return s.body.cache.get(`queries:${s.key}`, () => ({ samples: new Map() }));
}

export function meshBoxOf(s: MeasuredSurface): Box3 {
  const q = queriesOf(s);
  q.box ??= meshBox(s.mesh);
  return q.box;
}

export function meshBvh(s: MeasuredSurface): TriangleBvh {
  const q = queriesOf(s);
  q.bvh ??= buildBvh(s.mesh);
  return q.bvh;
}

/** Keeps a BVH of the surface's mesh built elsewhere (a mesh worker's, in shared memory), as meshBvh would build it. */
export function keepMeshBvh(s: MeasuredSurface, bvh: TriangleBvh): void {
  queriesOf(s).bvh ??= bvh;
}

/** Angle-weighted pseudo-normals (and the welded vertex ids they carry), shared with the reference. */
export function meshPseudoNormals(s: MeasuredSurface): PseudoNormals {
  const q = queriesOf(s);
  q.pseudoNormals ??= buildPseudoNormals(s.mesh);
  return q.pseudoNormals;
}

/** The surface prepared as a deviation reference (BVH, pseudo-normals, diagonal). */
export function deviationReference(s: MeasuredSurface): DeviationReference {
  const q = queriesOf(s);
  q.reference ??= deviationReferenceOf(meshBvh(s), meshPseudoNormals(s));
  return q.reference;
}

/** The surface's open boundary (edges used by one triangle), for the no-data rule. */
export function meshOpenBoundary(s: MeasuredSurface): OpenBoundary {
  const q = queriesOf(s);
  q.boundary ??= buildOpenBoundary(meshPseudoNormals(s));
  return q.boundary;
}

export function fastWinding(s: MeasuredSurface): FastWinding {
  const q = queriesOf(s);
  q.winding ??= buildFastWinding(meshBvh(s));
  return q.winding;
}

/**
 * A BREP body's exact geometry as plain data (src/engine/exact), read once per body and kept in
 * its cache. Faces whose surface has no JS form keep kernel adaptors, freed with the entry.
 */
interface BodyGeometry {
  geometry: ExactGeometry;
  kernelSurfaces: KernelFaceSurfaces | null;
  dispose(): void;
}

export function exactGeometryOf(oc: OC, body: BrepBody): BodyGeometry {
  return body.cache.get('exactGeometry', () => {
    const { geometry, kernelSurfaces } = extractExactGeometry(oc, body.shape);
    return { geometry, kernelSurfaces, dispose: () => kernelSurfaces?.delete() };
  });
}

/** A BREP body's exact deviation reference at a deflection (its tessellation finds candidate faces). */
export function exactReference(oc: OC, body: BrepBody, deflection: number): ExactReference {
  const s = measuredSurface(oc, body, deflection);
  const q = queriesOf(s);
  if (!q.exact) {
    const { geometry, kernelSurfaces } = exactGeometryOf(oc, body);
    q.exact = new ExactReference({
      geometry,
      mesh: s.mesh as FaceTessellation,
      bvh: meshBvh(s),
      pseudoNormals: meshPseudoNormals(s),
      rules: { tieFactor: TIE_FACTOR, tieSlack: TIE_SLACK, reachFactor: REACH_FACTOR, reachFloor: REACH_FLOOR },
      kernel: kernelSurfaces ?? undefined,
    });
  }
  return q.exact;
}

/** What a deviation tool measures against: a mesh reference, or a BREP body's exact faces. */
export type DeviationTarget = DeviationReference | ExactReference;

/** A BREP body's exact reference in exact mode, else its surface as a mesh reference. */
function exactOrNull(oc: OC | undefined, s: MeasuredSurface, surface: SurfaceMode): ExactReference | null {
  if (s.body.kind !== 'brep' || surface !== 'exact') return null;
  return exactReference(requireKernel(oc, 'deviation'), s.body, (s.mesh as FaceTessellation).deflection);
}

/** The reference of one direction: a BREP body's exact faces in exact mode, otherwise its mesh. */
export function deviationTarget(oc: OC | undefined, s: MeasuredSurface, surface: SurfaceMode): DeviationTarget {
  return exactOrNull(oc, s, surface) ?? deviationReference(s);
}

/**
 * Samples of one body: on a BREP body's exact faces in exact mode (sampleExact.ts), otherwise on
 * its mesh (sampleSurface.ts). EMPTY_MESH for a surface of zero area.
 */
export function deviationSamples(oc: OC | undefined, s: MeasuredSurface, maxSamples: number, surface: SurfaceMode): SurfaceSamples {
  const ref = exactOrNull(oc, s, surface);
  if (!ref) return surfaceSamples(s, maxSamples);
  const q = queriesOf(s);
  q.exactSamples ??= new Map();
  let samples = q.exactSamples.get(maxSamples);
  if (!samples) {
    samples = sampleExactSurface(ref.geometry, ref.mesh, maxSamples, exactGeometryOf(requireKernel(oc, 'deviation'), s.body as BrepBody).kernelSurfaces ?? undefined);
    q.exactSamples.set(maxSamples, samples);
  }
  return nonEmptySamples(samples, s.body.bodyId);
}

/** Lowest and highest projection of a body on a unit axis: exact for a BREP body in exact mode, its mesh's vertices otherwise. */
export function bodyExtent(oc: OC | undefined, s: MeasuredSurface, axis: readonly [number, number, number], surface: SurfaceMode): [number, number] {
  const ref = exactOrNull(oc, s, surface);
  if (ref) return exactExtent(ref.geometry, ref.mesh, axis, exactGeometryOf(requireKernel(oc, 'deviation'), s.body as BrepBody).kernelSurfaces ?? undefined);
  const pos = s.mesh.positions;
  const idx = s.mesh.indices;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < idx.length; i++) {
    const o = 3 * idx[i]!;
    const t = pos[o]! * axis[0] + pos[o + 1]! * axis[1] + pos[o + 2]! * axis[2];
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  return [lo, hi];
}

/** Keeps a mesh's samples computed elsewhere (the host's mesh workers, by sampleSurface on the same mesh) as surfaceSamples would. */
export function keepSurfaceSamples(s: MeasuredSurface, maxSamples: number, samples: SurfaceSamples): void {
  queriesOf(s).samples.set(maxSamples, samples);
}

/** The samples of a body, or EMPTY_MESH when its surface has zero area (nothing to sample). */
export function nonEmptySamples(samples: SurfaceSamples, bodyId: string): SurfaceSamples {
  if (samples.count === 0) throw new BrepscopeError('EMPTY_MESH', `body '${bodyId}' has a surface of zero area: there is nothing to sample`);
  return samples;
}

/** Surface samples of a body's mesh (docs/deviation.md); EMPTY_MESH for a surface of zero area. */
export function surfaceSamples(s: MeasuredSurface, maxSamples: number): SurfaceSamples {
  const q = queriesOf(s);
  let samples = q.samples.get(maxSamples);
  if (!samples) {
    samples = sampleSurface(s.mesh, maxSamples, meshPseudoNormals(s));
    q.samples.set(maxSamples, samples);
  }
  return nonEmptySamples(samples, s.body.bodyId);
}

/**
 * The per-sample deviation of `from`'s samples against `reference`: computed once per pair of
 * surfaces, sample count, sign mode and surface mode, and kept on the from-body (dropped when
 * either body goes), so measure_deviation, deviation_histogram and a later tolerance change share
 * one computation.
 */
export async function directedDeviation(
  ctx: Pick<ToolContext, 'signal' | 'progress' | 'trace'>,
  oc: OC | undefined,
  from: MeasuredSurface,
  maxSamples: number,
  reference: MeasuredSurface,
  mode: SignMode,
  surface: SurfaceMode,
  label: string,
  pacer: Pacer = new Pacer(ctx),
): Promise<DirectedDeviation> {
  const kept = keptDeviation(ctx, from, maxSamples, reference, mode, surface);
  const cached = kept.peek();
  if (cached) return cached;
  const samples = deviationSamples(oc, from, maxSamples, surface);
  const ref = deviationTarget(oc, reference, surface);
  return kept.keep(await measureDirected(samples, ref, mode, pacer, label, referenceBoundary(reference)));
}

/**
 * Where directedDeviation keeps a direction (on the from-body, dropped when either body goes), for
 * a caller that computes it elsewhere (the host's worker threads): `keep` stores it and traces it
 * as computed.
 */
export function keptDeviation(ctx: Pick<ToolContext, 'trace'>, from: MeasuredSurface, maxSamples: number, reference: MeasuredSurface, mode: SignMode, surface: SurfaceMode) {
  const key = pairKey(reference.body, `deviation:${from.key}>${reference.key}:${maxSamples}:${mode}:${surface}`);
  return {
    peek: (): DirectedDeviation | undefined => from.body.cache.peek<DirectedDeviation>(key),
    keep: (d: DirectedDeviation): DirectedDeviation => {
      ctx.trace?.({ kind: 'deviation', what: `${from.body.bodyId}>${reference.body.bodyId}:${key}` });
      return from.body.cache.set(key, d);
    },
  };
}

/**
 * The open boundary the no-data rule tests against: a mesh body's (a scan stops where the scanner
 * did not see). A BREP reference is a CAD model: its exact faces decide distance in exact mode, and
 * its free edges (a sheet model's) are its design, not missing data; maxDistance still applies.
 */
export function referenceBoundary(reference: MeasuredSurface): OpenBoundary | null {
  if (!boundaryTested(reference)) return null;
  return meshOpenBoundary(reference);
}

/** Whether a surface, as the reference, applies the open-boundary test (referenceBoundary; the mesh threads ask this too). */
export function boundaryTested(reference: MeasuredSurface): boolean {
  return reference.body.kind === 'mesh';
}

/**
 * Lets the event loop run (so an abort can arrive) every YIELD_MS of work, but only when the caller
 * can cancel at all: without a signal, long loops run straight through.
 */
const YIELD_MS = 50;
export class Pacer {
  private last = performance.now();
  constructor(private readonly ctx: Pick<ToolContext, 'signal' | 'progress'>) {}

  async tick(done: number, total: number, message: string): Promise<void> {
    checkCancelled(this.ctx);
    if (!this.ctx.signal && !this.ctx.progress) return;
    const now = performance.now();
    if (now - this.last < YIELD_MS) return;
    this.last = now;
    this.ctx.progress?.(done / total, message);
    if (this.ctx.signal) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      checkCancelled(this.ctx);
    }
  }
}

/** Per-sample results of one direction. */
export interface DirectedDeviation {
  samples: SurfaceSamples;
  /** Unsigned distance to the nearest reference surface. */
  distance: Float64Array;
  /** Signed distance; NaN for an ambiguous sample. */
  signed: Float64Array;
  /** 1 where the sample's nearest reference point lies on an open mesh reference's boundary and the sample beyond it (beyondOpenBoundary). */
  beyond: Uint8Array;
}

const CHUNK = 2048;

export async function measureDirected(
  samples: SurfaceSamples,
  ref: DeviationTarget,
  mode: SignMode,
  pacer: Pacer,
  label: string,
  boundary: OpenBoundary | null = null,
): Promise<DirectedDeviation> {
  const n = samples.count;
  const out = { distance: new Float64Array(n), signed: new Float64Array(n), beyond: new Uint8Array(n) };
  const scratch = { r: createSignedDeviation(), x: createExactDeviation() };
  for (let start = 0; start < n; start += CHUNK) {
    await pacer.tick(start, n, label);
    measureRange(samples, ref, mode, boundary, start, Math.min(n, start + CHUNK), out, scratch);
  }
  return { samples, ...out };
}

type PerSample = Omit<DirectedDeviation, 'samples'>;

/** Samples [start, end) against the reference, written into `out` at the same indices: every direction's loop. */
function measureRange(
  samples: SurfaceSamples,
  ref: DeviationTarget,
  mode: SignMode,
  boundary: OpenBoundary | null,
  start: number,
  end: number,
  out: PerSample,
  { r, x }: { r: ReturnType<typeof createSignedDeviation>; x: ReturnType<typeof createExactDeviation> },
): void {
  const p = samples.points;
  const nrm = samples.normals;
  const { distance, signed, beyond } = out;
  const exact = ref instanceof ExactReference ? ref : null;
  for (let i = start; i < end; i++) {
    const o = 3 * i;
    if (exact) {
      exact.signed(p[o]!, p[o + 1]!, p[o + 2]!, nrm[o]!, nrm[o + 1]!, nrm[o + 2]!, mode, x);
      distance[i] = x.distance;
      signed[i] = x.signed;
    } else {
      signedDeviation(ref as DeviationReference, p[o]!, p[o + 1]!, p[o + 2]!, nrm[o]!, nrm[o + 1]!, nrm[o + 2]!, mode, r);
      distance[i] = r.distance;
      signed[i] = r.signed;
      if (boundary && beyondOpenBoundary(boundary, r.nearest, p[o]!, p[o + 1]!, p[o + 2]!)) beyond[i] = 1;
    }
  }
}

/**
 * One direction's per-sample arrays in shared memory, measured by two threads at once: each claims
 * the next SHARED_CHUNK samples (Atomics.add on `next`) until none is left, and writes its results
 * at their indices. Every sample is measured by the same function as in measureDirected, so the
 * arrays are the serial ones whoever measured which chunk.
 */
export interface SharedOutput extends PerSample {
  /** [0]: the first sample not yet claimed. */
  next: Int32Array;
}

export const SHARED_CHUNK = 256;

export function sharedOutput(count: number): SharedOutput {
  return {
    next: new Int32Array(new SharedArrayBuffer(4)),
    distance: new Float64Array(new SharedArrayBuffer(8 * count)),
    signed: new Float64Array(new SharedArrayBuffer(8 * count)),
    beyond: new Uint8Array(new SharedArrayBuffer(count)),
  };
}

/** Measures claimed chunks of a shared direction until none is left (SharedOutput). */
export async function measureClaimed(samples: SurfaceSamples, ref: DeviationReference, mode: SignMode, boundary: OpenBoundary | null, out: SharedOutput, pacer?: Pacer, label = ''): Promise<void> {
  const n = samples.count;
  const scratch = { r: createSignedDeviation(), x: createExactDeviation() };
  for (;;) {
    const start = Atomics.add(out.next, 0, SHARED_CHUNK);
    if (start >= n) return;
    measureRange(samples, ref, mode, boundary, start, Math.min(n, start + SHARED_CHUNK), out, scratch);
    await pacer?.tick(start, n, label);
  }
}

/**
 * Which samples of a direction have a measured counterpart (docs/deviation.md, "No data"): a
 * sample beyond an open mesh reference's boundary, or farther than maxDistance from the reference,
 * has none. The one rule of every deviation figure: records, histograms, sections, heat maps and
 * point clouds go through it.
 */
export interface Coverage {
  /** 1 for a no-data sample. */
  noData: Uint8Array<ArrayBuffer>;
  noDataSamples: number;
  /** The maximum search distance applied: the argument, else defaultMaxDistance. */
  maxDistance: number;
}

export function coverageOf(distance: Float64Array, beyond: Uint8Array, maxDistance: number | undefined, diagonal: number): Coverage {
  const limit = maxDistance ?? defaultMaxDistance(distance, beyond, diagonal);
  const noData = new Uint8Array(distance.length);
  let count = 0;
  for (let i = 0; i < distance.length; i++) {
    if (beyond[i] || !(distance[i]! <= limit)) {
      noData[i] = 1;
      count++;
    }
  }
  return { noData, noDataSamples: count, maxDistance: limit };
}

/**
 * max(10 x the median distance of the samples inside the reference's boundary, 5% of the from-body's
 * diagonal): generous on purpose, so that it never hides a defect a reviewer would want to see; the
 * boundary test does most of the work on open scans.
 */
export function defaultMaxDistance(distance: Float64Array, beyond: Uint8Array, diagonal: number): number {
  const inside = distance.filter((_, i) => !beyond[i]).sort();
  const median = inside.length ? inside[Math.round((inside.length - 1) / 2)]! : 0;
  return Math.max(MAX_DISTANCE_MEDIAN_FACTOR * median, MAX_DISTANCE_DIAGONAL_SHARE * diagonal);
}

/** A direction's coverage under the call's maxDistance (NO_COVERAGE when no sample has a counterpart). */
export function directedCoverage(d: DirectedDeviation, maxDistance: number | undefined, diagonal: number, what: string): Coverage {
  const c = coverageOf(d.distance, d.beyond, maxDistance, diagonal);
  if (c.noDataSamples === d.distance.length) {
    throw new BrepscopeError(
      'NO_COVERAGE',
      `${what}: none of the ${d.distance.length} samples has a counterpart on the reference (each lies beyond its open boundary or farther than maxDistance ${c.maxDistance}): the bodies do not overlap${maxDistance !== undefined ? ', or maxDistance is too small' : ''}`,
    );
  }
  return c;
}

/** The spec's directed deviation record. */
export interface DirectedRecord {
  max: number;
  rms: number;
  mean: number;
  p95: number;
  signedMean: number | null;
  signedMin: number | null;
  signedMax: number | null;
  worstPoint: Vec3;
  /** Covered samples (those with a counterpart on the reference): every figure above is over them. */
  samples: number;
  signedSamples: number;
  ambiguousSamples: number;
  ambiguousFraction: number;
  /** Samples without a counterpart (beyond an open mesh reference's boundary, or farther than maxDistance): in no figure. */
  noDataSamples: number;
  /** The maximum search distance applied (the argument, or the default from the data). */
  maxDistance: number;
}

/** The spec's record over the covered samples of a direction (`coverage`, from directedCoverage). */
export function directedRecord(d: DirectedDeviation, coverage: Coverage): DirectedRecord {
  const total = d.distance.length;
  const noData = coverage.noData;
  const n = total - coverage.noDataSamples;
  let max = -Infinity, worst = 0, sum = 0, sumSq = 0;
  let signedCount = 0, signedSum = 0, signedMin = Infinity, signedMax = -Infinity;
  const covered = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < total; i++) {
    if (noData[i]) continue;
    const x = d.distance[i]!;
    covered[k++] = x;
    if (x > max) {
      max = x;
      worst = i;
    }
    sum += x;
    sumSq += x * x;
    const s = d.signed[i]!;
    if (s === s) {
      signedCount++;
      signedSum += s;
      if (s < signedMin) signedMin = s;
      if (s > signedMax) signedMax = s;
    }
  }
  const sorted = covered.sort();
  const p = d.samples.points;
  const has = signedCount > 0;
  const record: DirectedRecord = {
    max,
    rms: Math.sqrt(sumSq / n),
    mean: sum / n,
    p95: percentile(sorted, 0.95),
    signedMean: has ? signedSum / signedCount : null,
    signedMin: has ? signedMin : null,
    signedMax: has ? signedMax : null,
    worstPoint: [p[3 * worst]!, p[3 * worst + 1]!, p[3 * worst + 2]!],
    samples: n,
    signedSamples: signedCount,
    ambiguousSamples: n - signedCount,
    ambiguousFraction: (n - signedCount) / n,
    noDataSamples: coverage.noDataSamples,
    maxDistance: coverage.maxDistance,
  };
  return record;
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
