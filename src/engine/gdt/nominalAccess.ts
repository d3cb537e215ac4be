import type { ExactReference } from '../exact/ExactReference';
import type { OC } from '../kernel';
import type { BrepBody } from '../scene/Body';
import { bodyPoints, type PointSet } from './bodySamples';
import type { NominalAccess } from './nominalFaces';
import { solidsBesideOf } from '../scene/solidsBeside';
import { supplementalFaces } from './supplementalFaces';
import { borderTest, splitByFaces, type FaceSplit } from './faceSplit';

/** Share of the nominal's diagonal: the default border margin of the face split (docs/gdt.md, rule 1). */
export const BORDER_MARGIN = 0.001;
/** Share of the nominal's diagonal: samples farther than this from the nominal are left out. */
export const MAX_DISTANCE = 0.02;
/** Share of the nominal's diagonal: the least a sample must differ from its neighbours to be left out as isolated (isolatedSamples.ts). */
export const ISOLATED_FLOOR = 1e-4;

/** The nominal's exact faces and their nodes (cached per face set), as the evaluation and the datum simulation read them. */
export function nominalAccess(oc: OC, body: BrepBody, ref: ExactReference): NominalAccess {
  const cache = new Map<string, PointSet>();
  return {
    ref,
    nodes: (faces) => {
      const key = [...faces].sort((a, b) => a - b).join(',');
      let set = cache.get(key);
      if (!set) cache.set(key, (set = bodyPoints(oc, body, 1e9, faces.map((f) => `face[${f}]`))));
      return set;
    },
    surfaceKind: (f) => ref.geometry.faces[f]?.surface.kind ?? 'unknown',
    supplemental: supplementalFaces(ref, solidsBesideOf(oc, body)?.solidFace ?? null),
  };
}

/**
 * The face split evaluate_gdt and align_bodies' datum alignment both use: the same margins give the
 * same samples on a datum's faces, hence the same datum. `diagonal` is the nominal's (bodyDiagonal).
 */
export function faceSplitter(ref: ExactReference, diagonal: number, margin = BORDER_MARGIN * diagonal, maxDistance = MAX_DISTANCE * diagonal, dropIsolated = true): (set: PointSet) => FaceSplit {
  // The edge grid once: the split runs again on each datum alignment round and each densified face set.
  const near = borderTest(ref.geometry, ref.mesh, margin);
  const isolatedFloor = dropIsolated ? ISOLATED_FLOOR * diagonal : null;
  return (set) => splitByFaces(ref, set, margin, maxDistance, near, isolatedFloor);
}
