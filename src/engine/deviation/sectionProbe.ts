import type { OC } from '../kernel';
import { closestPoint, createHit } from '../mesh/closestPoint';
import { beyondOpenBoundary } from '../mesh/openBoundary';
import { sideOf } from '../mesh/pseudoNormals';
import type { PlaneFrame } from '../mesh/sliceMesh';
import type { Body } from '../scene/Body';
import { referenceBoundary } from './directed';
import { deviationReference } from './structures';
import { measuredSurface } from './surfaces';

/**
 * The reference body in 3D, as cross_section_compare checks an in-plane gap against it
 * (docs/cross-sections.md, "In-plane gaps checked in 3D").
 *
 * A gap measured in a section plane is the surfaces' distance only where both surfaces cross the
 * plane square on. Where a face is nearly parallel to the plane (a flange face 0.03 from the
 * station), or the surfaces are oblique to it (a chamfer), the profiles move apart in the plane by
 * up to t / sin(tilt), and the envelope can pair the candidate with a part of the reference that is
 * not its counterpart at all (a flange's rim 15 away, where the nearest reference surface lies 0.07
 * out of the plane). And where the reference is an open scan, a direction the scan does not cover
 * meets its inner walls. So each compared candidate point is also measured in 3D.
 */
export interface SurfaceProbe {
  /** The nearest reference surface to (x, y, z): unsigned and signed distance, and whether the point lies beyond the reference's open boundary. */
  probe(x: number, y: number, z: number, out: ProbeResult): ProbeResult;
  /** How far the measured surface may lie from the body's own (a BREP body's tessellation), added to the slack of the check. */
  surfaceError: number;
}

export interface ProbeResult {
  distance: number;
  /** Signed by the reference's outward normal at the nearest point (positive outside). */
  signed: number;
  /**
   * The point lies beyond what the reference covers: the deviation tools' rule (beyondOpenBoundary,
   * docs/deviation.md "No data"), so a station and the heat map judge a point by the rim alike.
   */
  noData: boolean;
}

export function createProbeResult(): ProbeResult {
  return { distance: Infinity, signed: NaN, noData: false };
}

/**
 * A reference body's probe: its triangles (an STL's own, a BREP body's tessellation at
 * `deflection`) with a BVH, the pseudo-normal side rule (the nearest-sign rule: the point whose
 * in-plane pairing failed has no in-plane counterpart to judge a normal by) and the no-data rule of
 * the deviation tools: a point is no data when its nearest reference point is on a mesh
 * reference's open boundary and it leans off that rim's normal by more than the lean band
 * (beyondOpenBoundary). A point square on to the rim is covered, as a heat-map vertex there is; a
 * BREP reference's free edges are its design, not missing data (referenceBoundary).
 */
export function referenceProbe(oc: OC | undefined, body: Body, deflection: number): SurfaceProbe {
  const surface = measuredSurface(oc, body, deflection);
  const ref = deviationReference(surface);
  const boundary = referenceBoundary(surface);
  const hit = createHit();
  return {
    surfaceError: body.kind === 'brep' ? deflection : 0,
    probe(x, y, z, out) {
      closestPoint(ref.bvh, x, y, z, hit);
      out.distance = hit.distance;
      out.signed = sideOf(ref.pseudoNormals, hit, x, y, z) * hit.distance;
      out.noData = boundary !== null && beyondOpenBoundary(boundary, hit, x, y, z);
      return out;
    },
  };
}

/** What the 3D check did at one station. */
export interface GapTally {
  /** In-plane gaps larger than the 3D distance bears out: replaced by the signed 3D distance. */
  outOfPlane: number;
  /** Candidate points beyond the reference's open boundary (no data): left out. */
  noData: number;
}

/**
 * One station's check: the candidate point (x, y) of the plane at `level`, with its in-plane gap,
 * gives that gap when the 3D distance bears it out (within `slack`), the signed 3D distance when the
 * in-plane gap is larger (the surfaces are oblique to the plane, or the pairing is not a
 * counterpart), and null when the point has no counterpart (it lies beyond the reference's open
 * boundary: the deviation tools' no-data rule).
 */
export function gapChecker(probe: SurfaceProbe, frame: PlaneFrame, level: number, slack: number, tally: GapTally): (x: number, y: number, inPlane: number) => number | null {
  const { axis, u, v } = frame;
  const ox = axis[0] * level, oy = axis[1] * level, oz = axis[2] * level;
  const r = createProbeResult();
  return (x, y, inPlane) => {
    probe.probe(ox + x * u[0] + y * v[0], oy + x * u[1] + y * v[1], oz + x * u[2] + y * v[2], r);
    if (r.noData) {
      tally.noData++;
      return null;
    }
    if (Math.abs(inPlane) <= r.distance + slack) return inPlane;
    tally.outOfPlane++;
    return r.signed;
  };
}
