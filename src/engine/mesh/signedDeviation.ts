import { closestCompatiblePoint, closestPoint, createHit, someTriangleWithin, type MeshHit } from './closestPoint';
import { buildPseudoNormals, sideOf, type PseudoNormals } from './pseudoNormals';
import { buildBvh, type BvhBuildOptions, type TriangleBvh } from './TriangleBvh';
import type { TriMesh } from './TriMesh';

/**
 * One reference surface prepared for deviation queries: its BVH, its pseudo-normals and its size.
 * Build once per reference mesh and deflection; queries then allocate nothing.
 */
export interface DeviationReference {
  bvh: TriangleBvh;
  pseudoNormals: PseudoNormals;
  /** Bounding-box diagonal of the reference, the scale of the robust reach floor. */
  diagonal: number;
  /**
   * Whether the reference is closed after welding by exact coordinates (every edge used by exactly two
   * triangles): then the nearest feature's pseudo-normal classifies inside/outside exactly and the
   * sign needs no tie band. Found on first use (referenceClosed).
   */
  closed?: boolean;
}

/** Whether a mesh reference is closed (DeviationReference.closed), computed once per reference. */
export function referenceClosed(ref: DeviationReference): boolean {
  ref.closed ??= ref.pseudoNormals.isClosed();
  return ref.closed;
}

export function prepareDeviationReference(mesh: TriMesh, options: BvhBuildOptions = {}): DeviationReference {
  return deviationReferenceOf(buildBvh(mesh, options), buildPseudoNormals(mesh));
}

/** A reference from structures already built (the tools cache them per body). */
export function deviationReferenceOf(bvh: TriangleBvh, pseudoNormals: PseudoNormals): DeviationReference {
  let diagonal = 0;
  if (bvh.nodeCount > 0) {
    const b = bvh.nodeBounds;
    diagonal = Math.hypot(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
  }
  return { bvh, pseudoNormals, diagonal };
}

export type SignMode = 'robust' | 'nearest';

/**
 * Why a sample has no sign. notNearest: a compatible surface is in reach but not the nearest one within
 * the tie band (the sample is nearer the other skin of a thin wall, or its normal is off): its sign
 * would belong to a surface it is not measured to, so it is withheld (docs/deviation.md, "Sign rules").
 */
export type AmbiguityReason = 'noCompatibleSurface' | 'notNearest' | 'tieBand' | 'zeroNormal' | 'emptyReference';

export interface SignedDeviation {
  /** Unsigned distance to the nearest reference surface, whatever its orientation (never moved by signMode). */
  distance: number;
  /** +/- distance (the sign rules decide the sign only); NaN when ambiguous. */
  signed: number;
  ambiguous: boolean;
  reason: AmbiguityReason | null;
  /** The nearest triangle overall (distance is measured to it). */
  nearest: MeshHit;
  /** The triangle the sign came from: the nearest in nearest mode, the nearest compatible one in robust mode. */
  winner: MeshHit;
}

export function createSignedDeviation(): SignedDeviation {
  return { distance: Infinity, signed: NaN, ambiguous: true, reason: null, nearest: createHit(), winner: createHit() };
}

/**
 * The origin's tie band: a sample is ambiguous when a candidate on the opposite side lies within
 * TIE_FACTOR x d + TIE_SLACK of it, d being the winner's distance.
 */
export const TIE_FACTOR = 1.15;
export const TIE_SLACK = 1e-9;

/**
 * Reach of the robust filtered search: a compatible triangle farther than
 *   reach = max(REACH_FACTOR x d0, REACH_FLOOR x reference box diagonal),
 * with d0 the unfiltered nearest distance, does not count and the sample is ambiguous.
 *
 * Why this definition:
 * - The filter exists for thin walls: the sample sits against one skin and its own surface is the
 *   skin behind it, one wall thickness plus d0 away. A multiple of d0 covers a wall up to three times
 *   the sample's gap; the floor covers samples that touch the wrong skin (d0 ~ 0) for walls up to 2%
 *   of the part's size, the thin-walled case the rule is for.
 * - Unlimited reach would sign a sample that has no counterpart (a flipped candidate, a feature the
 *   reference lacks) against the far side of the part, which is a large, confident, wrong number
 *   in signedMean; withholding it as ambiguous is what the spec asks for ("no compatible surface in
 *   reach"). Its unsigned distance still counts.
 * - The origin's reach is "among the 1024 nearest triangles", which shrinks as the reference gets
 *   finer; a geometric reach gives the same answer at any tessellation density, and bounds the cost
 *   of the filtered search by a ball rather than by a triangle count.
 */
export const REACH_FACTOR = 4;
export const REACH_FLOOR = 0.02;

export function robustReach(ref: DeviationReference, nearestDistance: number): number {
  return Math.max(REACH_FACTOR * nearestDistance, REACH_FLOOR * ref.diagonal);
}

const noHit = createHit();
const bandHit = createHit();
const nScratch = new Float64Array(3);
const faceScratch = new Float64Array(3);
const bandNormal: [number, number, number] = [0, 0, 0];
let bandPx = 0, bandPy = 0, bandPz = 0;
let bandSide: 1 | -1 = 1;
let bandPn: PseudoNormals | null = null;

function oppositeSide(hit: MeshHit): boolean {
  return sideOf(bandPn!, hit, bandPx, bandPy, bandPz) !== bandSide;
}

/**
 * Signed deviation of one sample (point p with its own surface normal n) from a reference. The
 * magnitude is always the unsigned nearest distance (docs/deviation.md, "Sign rules"); the rules
 * only decide the sign, or withhold it (ambiguous):
 *
 * - closed reference: the side of the nearest feature's pseudo-normal, which classifies p against
 *   the enclosed solid exactly (Baerentzen and Aanaes); no tie band.
 * - open reference, nearest: the nearest feature's side; ambiguous when a triangle on the opposite
 *   side lies within the tie band.
 * - robust (either reference): triangles whose unit normal does not have a strictly positive dot
 *   with n are rejected; the nearest survivor within reach (REACH_FACTOR) is the sample's
 *   compatible surface. Ambiguous when n is zero, when the compatible surface is not the nearest
 *   one within the tie band and puts p on the other side than the nearest surface does (notNearest:
 *   p lies past a thin wall's other skin), and when there is no compatible surface in reach (an
 *   inside-out reference). On an open reference the sign is the compatible surface's side,
 *   ambiguous when a compatible triangle on the opposite side lies within the tie band.
 */
export function signedDeviation(
  ref: DeviationReference,
  px: number,
  py: number,
  pz: number,
  nx: number,
  ny: number,
  nz: number,
  mode: SignMode,
  target: SignedDeviation = createSignedDeviation(),
): SignedDeviation {
  const nearest = closestPoint(ref.bvh, px, py, pz, target.nearest);
  const d0 = nearest.distance;
  target.distance = d0;
  target.signed = NaN;
  target.ambiguous = true;
  if (nearest.triangle < 0) {
    copyHit(nearest, target.winner);
    target.reason = 'emptyReference';
    return target;
  }

  let winner: MeshHit;
  if (mode === 'nearest') {
    winner = copyHit(nearest, target.winner);
  } else {
    if (!(nx * nx + ny * ny + nz * nz > 0)) {
      copyHit(noHit, target.winner);
      target.reason = 'zeroNormal';
      return target;
    }
    // The unfiltered winner is the usual answer: skip the filtered search when it is compatible.
    const f = ref.pseudoNormals.faceNormal(nearest.triangle, faceScratch);
    if (f[0]! * nx + f[1]! * ny + f[2]! * nz > 0) winner = copyHit(nearest, target.winner);
    else {
      // Strictly inside the reach ball, nudged so that a survivor exactly at reach still counts.
      const reach = robustReach(ref, d0) * (1 + 1e-12);
      winner = closestCompatiblePoint(ref.bvh, px, py, pz, nx, ny, nz, target.winner, { maxDistance: reach });
      if (winner.triangle < 0) {
        // Nothing facing the sample is in reach (an inside-out reference, a flipped sample): no evidence for either side.
        target.reason = 'noCompatibleSurface';
        return target;
      } else if (winner.distance > TIE_FACTOR * d0 + TIE_SLACK && sideOf(ref.pseudoNormals, winner, px, py, pz) !== sideOf(ref.pseudoNormals, nearest, px, py, pz)) {
        // The sample's own surface and the nearest one disagree on its side: it lies past a wall's other skin.
        target.reason = 'notNearest';
        return target;
      }
    }
  }

  if (referenceClosed(ref)) {
    target.ambiguous = false;
    target.reason = null;
    target.signed = sideOf(ref.pseudoNormals, nearest, px, py, pz) * d0;
    return target;
  }
  const side = sideOf(ref.pseudoNormals, winner, px, py, pz);
  bandPx = px;
  bandPy = py;
  bandPz = pz;
  bandSide = side;
  bandPn = ref.pseudoNormals;
  const band = TIE_FACTOR * winner.distance + TIE_SLACK;
  let tie: boolean;
  if (mode === 'robust') {
    // Only compatible triangles can tie; someTriangleWithin skips the others before measuring them.
    bandNormal[0] = nx;
    bandNormal[1] = ny;
    bandNormal[2] = nz;
    tie = someTriangleWithin(ref.bvh, px, py, pz, band, bandHit, oppositeSide, bandNormal);
  } else {
    tie = someTriangleWithin(ref.bvh, px, py, pz, band, bandHit, oppositeSide);
  }
  bandPn = null;
  if (tie) {
    target.reason = 'tieBand';
    return target;
  }
  target.ambiguous = false;
  target.reason = null;
  target.signed = side * d0;
  return target;
}

function copyHit(from: MeshHit, to: MeshHit): MeshHit {
  to.distance = from.distance;
  to.distanceSq = from.distanceSq;
  to.x = from.x;
  to.y = from.y;
  to.z = from.z;
  to.triangle = from.triangle;
  to.slot = from.slot;
  to.feature = from.feature;
  return to;
}

/** The side rule alone (+1 / -1), for tools that pick their own winner, e.g. from a k-nearest pool. */
export function signOfHit(ref: DeviationReference, hit: MeshHit, px: number, py: number, pz: number): 1 | -1 {
  return sideOf(ref.pseudoNormals, hit, px, py, pz);
}

/** Pseudo-normal at a hit (not unit length). Without `out`, the result is module scratch: copy it before the next call. */
export function hitPseudoNormal(ref: DeviationReference, hit: MeshHit, out: Float64Array = nScratch): Float64Array {
  return ref.pseudoNormals.featureNormal(hit.triangle, hit.feature, out);
}
