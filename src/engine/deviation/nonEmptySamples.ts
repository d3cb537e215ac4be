import { BrepscopeError } from '../errors';
import type { SurfaceSamples } from '../mesh/sampleSurface';

/** The samples of a body, or EMPTY_MESH when its surface has zero area (nothing to sample). */
export function nonEmptySamples(samples: SurfaceSamples, bodyId: string): SurfaceSamples {
  if (samples.count === 0) throw new BrepscopeError('EMPTY_MESH', `body '${bodyId}' has a surface of zero area: there is nothing to sample`);
  return samples;
}
