import { exactReference } from '../deviation/structures';
import { defaultDeflection, measuredSurface } from '../deviation/surfaces';
import type { OC } from '../kernel';
import type { FaceTessellation } from '../mesh/TriMesh';
import type { Body } from '../scene/Body';
import { bodyPoints } from './bodySamples';
import type { ScanSurface } from './scanDensify';

/** The scan as a surface to draw more samples from (scanDensify.ts), as its base samples were drawn. */
export function scanSurface(oc: OC, actual: Body): ScanSurface {
  if (actual.kind === 'mesh') return { kind: 'mesh', mesh: actual.mesh };
  if (actual.kind === 'brep') {
    const s = measuredSurface(oc, actual, defaultDeflection(oc, actual));
    return { kind: 'mesh', mesh: s.mesh, exact: exactReference(oc, actual, (s.mesh as FaceTessellation).deflection) };
  }
  return { kind: 'points', cloud: () => bodyPoints(undefined, actual, Number.MAX_SAFE_INTEGER) };
}
