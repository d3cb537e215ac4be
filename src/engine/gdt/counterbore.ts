import { dot, type Vec3 } from '../math/vec3';
import { centroid, fitPlane, radial } from './leastSquares';
import { coaxialGroups, cylinderRadius, cylindersAndPlanes, openArc, sizeFeatures, surfaceAxis, type NominalAccess } from './nominalFaces';
import { OPEN_ARC } from './slotPosition';

/**
 * Counterbored holes (NIST FTC 7's four, each a through hole and a counterbore on one axis, every
 * cylinder split in two half faces, and the counterbore's floor): one position callout under the
 * hole-and-counterbore note locates both axes (ASME Y14.5: one frame under the note controls the
 * hole and the counterbore alike), so a member is read as the
 * worse of its bores. The floor is the counterbore's depth, not a located feature: named with them,
 * it is left out of the reading. Read as one feature, the 20 faces were a plane and cylinders
 * together and were not evaluated.
 */
export interface CounterboredParts {
  /** Whole cylinders on the axis, one group per radius. */
  bores: number[][];
  floors: number[];
}

/** One counterbored hole: whole cylinders of two or more radii on one axis line, or one radius and its floors. Null otherwise. */
export function counterboredParts(nominal: NominalAccess, faces: number[]): CounterboredParts | null {
  const split = cylindersAndPlanes(nominal, faces);
  if (!split?.cylinders.length) return null;
  const { cylinders, planes } = split;
  if (coaxialGroups(nominal, cylinders).length !== 1) return null;
  const bores = sizeFeatures(nominal, cylinders);
  if (!bores || (bores.length < 2 && !planes.length) || bores.some((b) => (openArc(nominal, b) ?? Math.PI) > OPEN_ARC)) return null;
  const axis = surfaceAxis(nominal, cylinders[0]!)!;
  const radius = Math.min(...cylinders.map((f) => cylinderRadius(nominal, f)));
  return planes.every((f) => isFloor(nominal, f, axis, radius)) ? { bores, floors: planes } : null;
}

/** Faces grouped into counterbored holes by axis line (a pattern), each a counterbored hole; null unless every face belongs to one. */
export function counterboredGroups(nominal: NominalAccess, faces: number[]): number[][] | null {
  const split = cylindersAndPlanes(nominal, faces);
  if (!split?.cylinders.length) return null;
  const { cylinders, planes } = split;
  const groups = coaxialGroups(nominal, cylinders).map((g) => ({ faces: [...g], axis: surfaceAxis(nominal, g[0]!)! }));
  for (const f of planes) {
    const g = groups.find((q) => isFloor(nominal, f, q.axis, Infinity));
    if (!g) return null;
    g.faces.push(f);
  }
  const out = groups.map((g) => g.faces);
  return out.every((g) => counterboredParts(nominal, g)) ? out : null;
}

/** A plane across the axis whose nodes ring it (an annulus: their centroid near the axis). */
function isFloor(nominal: NominalAccess, f: number, axis: { o: Vec3; z: Vec3 }, radius: number): boolean {
  const nodes = nominal.nodes([f]);
  const p = fitPlane(nodes.points);
  if (!p || Math.abs(Math.abs(dot(p.normal, axis.z)) - 1) > 1e-9) return false;
  const c = centroid(nodes.points);
  let outer = 0;
  for (let i = 0; i < nodes.count; i++) outer = Math.max(outer, radial([nodes.points[3 * i]!, nodes.points[3 * i + 1]!, nodes.points[3 * i + 2]!], axis.o, axis.z));
  return radial(c, axis.o, axis.z) < 0.25 * Math.min(radius, outer);
}
