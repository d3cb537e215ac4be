import { exactExtent } from '../exact/extent';
import { sampleExactSurface } from '../exact/sampleExact';
import { requireKernel, type OC } from '../kernel';
import { sampleSurface, type SurfaceSamples } from '../mesh/sampleSurface';
import type { BrepBody } from '../scene/Body';
import type { SurfaceMode } from './defaults';
import { nonEmptySamples } from './nonEmptySamples';
import { queriesOf } from './queries';
import { exactGeometryOf, exactOrNull, meshPseudoNormals } from './structures';
import type { MeasuredSurface } from './surfaces';

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
