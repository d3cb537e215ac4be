import { z } from 'zod';
import { BrepscopeError } from '../errors';
import type { OC } from '../kernel';
import { boxDiagonal, type Box3, type Vec3 } from '../math/vec3';
import { meshBox } from '../mesh/meshProperties';
import { buildPseudoNormals, type PseudoNormals } from '../mesh/pseudoNormals';
import { sampleSurface, type SurfaceSamples } from '../mesh/sampleSurface';
import { createSignedDeviation, signedDeviation, type DeviationReference, type SignMode } from '../mesh/signedDeviation';
import { buildBvh, type TriangleBvh } from '../mesh/TriangleBvh';
import type { TriMesh } from '../mesh/TriMesh';
import { buildFastWinding, type FastWinding } from '../mesh/windingNumber';
import type { Body } from '../scene/Body';
import { getTessellation, shapeDiagonal } from '../scene/tessellation';
import type { ToolContext } from './defineTool';
import { percentile } from './statistics';

/** Default deflection of the deviation tools: 0.5 % of the from-body's bounding-box diagonal (spec). */
export const DEFLECTION_RATIO = 0.005;

export const signModeSchema = z
  .enum(['robust', 'nearest'])
  .default('robust')
  .describe(
    'robust (default): reference triangles facing against the sample are rejected, the nearest survivor within reach gives the sign, samples without one are ambiguous; nearest: the nearest triangle wins whatever it is',
  );

/** The kernel, loaded only when a BREP body is involved: mesh-only work never waits for it. */
export async function kernelFor(ctx: ToolContext, bodies: Body[]): Promise<OC | undefined> {
  return bodies.some((b) => b.kind === 'brep') ? ctx.kernel() : undefined;
}

function requireKernel(oc: OC | undefined): OC {
  if (!oc) throw new Error('deviation: a BREP body needs the kernel');
  return oc;
}

/** The spec's default deflection for a from-body; EMPTY_MESH when the body has no extent. */
export function defaultDeflection(oc: OC | undefined, from: Body): number {
  const diagonal = from.kind === 'mesh' ? (from.mesh.indices.length ? boxDiagonal(meshBoxOf(from.mesh)) : 0) : shapeDiagonal(requireKernel(oc), from);
  if (!(diagonal > 0) || !Number.isFinite(diagonal)) {
    throw new BrepscopeError('EMPTY_MESH', `body '${from.bodyId}' has no extent: there is no surface to sample`);
  }
  return DEFLECTION_RATIO * diagonal;
}

/**
 * The triangles a deviation tool measures a body by: a BREP body's tessellation at `deflection`
 * (cached per body and deflection), an STL body's own triangles (deflection does not apply).
 * EMPTY_MESH when there are no triangles or they have no area.
 */
export function surfaceMesh(oc: OC | undefined, body: Body, deflection: number): TriMesh {
  const mesh = body.kind === 'mesh' ? body.mesh : getTessellation(requireKernel(oc), body, deflection);
  if (mesh.indices.length === 0) {
    throw new BrepscopeError('EMPTY_MESH', `body '${body.bodyId}' has no triangles${body.kind === 'brep' ? ' (its shape has no faces to tessellate)' : ''}`);
  }
  return mesh;
}

interface MeshQueries {
  box?: Box3;
  bvh?: TriangleBvh;
  pseudoNormals?: PseudoNormals;
  reference?: DeviationReference;
  winding?: FastWinding;
  samples: Map<number, SurfaceSamples>;
}

/**
 * Query structures per mesh, built on first use. Keyed weakly by the mesh object (an STL body's
 * mesh, or a BREP body's cached tessellation), so they live exactly as long as the body does and a
 * second tool call on the same bodies (histogram, heat map) skips the build.
 */
const queries = new WeakMap<TriMesh, MeshQueries>();

function queriesOf(mesh: TriMesh): MeshQueries {
  let q = queries.get(mesh);
  if (!q) {
    q = { samples: new Map() };
    queries.set(mesh, q);
  }
  return q;
}

export function meshBoxOf(mesh: TriMesh): Box3 {
  const q = queriesOf(mesh);
  q.box ??= meshBox(mesh);
  return q.box;
}

export function meshBvh(mesh: TriMesh): TriangleBvh {
  const q = queriesOf(mesh);
  q.bvh ??= buildBvh(mesh);
  return q.bvh;
}

/** Angle-weighted pseudo-normals (and the welded vertex ids they carry), shared with the reference. */
export function meshPseudoNormals(mesh: TriMesh): PseudoNormals {
  const q = queriesOf(mesh);
  q.pseudoNormals ??= buildPseudoNormals(mesh);
  return q.pseudoNormals;
}

/** The mesh prepared as a deviation reference (BVH, pseudo-normals, diagonal). */
export function deviationReference(mesh: TriMesh): DeviationReference {
  const q = queriesOf(mesh);
  if (!q.reference) {
    const bvh = meshBvh(mesh);
    let diagonal = 0;
    if (bvh.nodeCount > 0) {
      const b = bvh.nodeBounds;
      diagonal = Math.hypot(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
    }
    q.reference = { bvh, pseudoNormals: meshPseudoNormals(mesh), diagonal };
  }
  return q.reference;
}

export function fastWinding(mesh: TriMesh): FastWinding {
  const q = queriesOf(mesh);
  q.winding ??= buildFastWinding(meshBvh(mesh));
  return q.winding;
}

/** Surface samples of a body's mesh (docs/deviation.md); EMPTY_MESH for a surface of zero area. */
export function surfaceSamples(mesh: TriMesh, maxSamples: number, bodyId: string): SurfaceSamples {
  const q = queriesOf(mesh);
  let s = q.samples.get(maxSamples);
  if (!s) {
    s = sampleSurface(mesh, maxSamples, meshPseudoNormals(mesh));
    q.samples.set(maxSamples, s);
  }
  if (s.count === 0) throw new BrepscopeError('EMPTY_MESH', `body '${bodyId}' has a surface of zero area: there is nothing to sample`);
  return s;
}

/** Throws CANCELLED when the caller's signal fired. */
export function checkCancelled(ctx: Pick<ToolContext, 'signal'>): void {
  if (ctx.signal?.aborted) throw new BrepscopeError('CANCELLED', 'cancelled by the caller');
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
}

const CHUNK = 2048;

export async function measureDirected(
  samples: SurfaceSamples,
  ref: DeviationReference,
  mode: SignMode,
  pacer: Pacer,
  label: string,
): Promise<DirectedDeviation> {
  const n = samples.count;
  const distance = new Float64Array(n);
  const signed = new Float64Array(n);
  const p = samples.points;
  const nrm = samples.normals;
  const r = createSignedDeviation();
  for (let start = 0; start < n; start += CHUNK) {
    await pacer.tick(start, n, label);
    const end = Math.min(n, start + CHUNK);
    for (let i = start; i < end; i++) {
      const o = 3 * i;
      signedDeviation(ref, p[o]!, p[o + 1]!, p[o + 2]!, nrm[o]!, nrm[o + 1]!, nrm[o + 2]!, mode, r);
      distance[i] = r.distance;
      signed[i] = r.signed;
    }
  }
  return { samples, distance, signed };
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
  samples: number;
  signedSamples: number;
  ambiguousSamples: number;
  ambiguousFraction: number;
}

export function directedRecord(d: DirectedDeviation): DirectedRecord {
  const n = d.distance.length;
  let max = -Infinity, worst = 0, sum = 0, sumSq = 0;
  let signedCount = 0, signedSum = 0, signedMin = Infinity, signedMax = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = d.distance[i]!;
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
  const sorted = Float64Array.from(d.distance).sort();
  const p = d.samples.points;
  const has = signedCount > 0;
  return {
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
  };
}

/**
 * The common start of every deviation tool: both bodies, the kernel when a BREP is involved, the
 * deflection (default 0.5% of the from-body's box diagonal) and both surfaces at that deflection.
 */
export async function comparedSurfaces(ctx: ToolContext, fromBodyId: string, referenceBodyId: string, deflectionArg: number | undefined) {
  const from = ctx.scene.get(fromBodyId);
  const reference = ctx.scene.get(referenceBodyId);
  const oc = await kernelFor(ctx, [from, reference]);
  const deflection = deflectionArg ?? defaultDeflection(oc, from);
  return { from, reference, oc, deflection, fromMesh: surfaceMesh(oc, from, deflection), refMesh: surfaceMesh(oc, reference, deflection) };
}
