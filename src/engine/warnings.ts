/**
 * Stable warning codes: a tool's result is valid but a figure needs a caveat. Like ErrorCode
 * (errors.ts) these strings are a contract: tests, the UI and clients branch on the code and show the
 * message, which may be reworded.
 */
export type WarningCode =
  /** A point cloud was asked for figures it has not (volume, area, inertia): only what it has is given. */
  | 'POINT_CLOUD_METRICS'
  /** The body encloses no volume (boundary edges, inconsistent winding): no volume; centroid and axes of its surface. */
  | 'NOT_CLOSED'
  /** The body's normals point inward: a negative volume. */
  | 'INSIDE_OUT'
  /** The fast bounding box encloses B-spline control points, well beyond the tight box. */
  | 'LOOSE_BOUNDING_BOX'
  /** Too many points could not be classified inside or outside: the volume figures are unreliable. */
  | 'UNRELIABLE_CLASSIFICATION'
  /** No point was classified for both bodies: the joint figures are null. */
  | 'NO_JOINT_CLASSIFICATION'
  /** A mesh is not watertight: its inside is the winding number's; no exact volume. */
  | 'NOT_WATERTIGHT'
  /** A sampled volume disagrees with the exact one beyond sampling noise. */
  | 'SAMPLED_VOLUME_DISAGREES'
  /** The measured difference is within the sampling noise. */
  | 'NOISE_DOMINATED'
  /** Only every n-th item was measured (a max* argument). */
  | 'SUBSAMPLED'
  /** Some queries found no solution and are left out. */
  | 'QUERIES_FAILED'
  /** No sample had a trustworthy sign: signed figures are null. */
  | 'NO_SIGNED_SAMPLES'
  /** A symmetric part: another pose fits almost as well. */
  | 'SYMMETRIC_PART'
  /** The iteration did not converge within its limit. */
  | 'NOT_CONVERGED'
  /** Too few correspondences within reach: the result is not an alignment. */
  | 'OUT_OF_REACH'
  /** The residual after alignment is large for the body's size: the bodies may not match. */
  | 'POOR_FIT'
  /** Stations that cut only one of the two bodies (mis-registration or differing extents). */
  | 'ONE_BODY_CUT'
  /** Stations that cut neither body. */
  | 'STATION_UNCUT'
  /** Stations with no comparable profile. */
  | 'NO_COMPARABLE_PROFILE'
  /** Open profiles: areaRatio is null there. */
  | 'OPEN_PROFILE'
  /** Directions where the in-plane gap exceeded the 3D distance: the 3D distance was used. */
  | 'OUT_OF_PLANE'
  /** Samples beyond the reference's open boundary, left out as no data (docs/deviation.md, "No data"). */
  | 'NO_DATA'
  /** The axis line misses the profile: the station centre was moved to the profile's centroid. */
  | 'STATION_RECENTRED'
  /** The kernel could not section a body at some stations. */
  | 'SECTION_FAILED'
  /** A mesh has no analytic faces: no features are recognized on it. */
  | 'MESH_NO_FEATURES';

/** A caveat on a tool's result: a stable code and a sentence for people. */
export interface ToolWarning {
  code: WarningCode;
  message: string;
}

export function warning(code: WarningCode, message: string): ToolWarning {
  return { code, message };
}
