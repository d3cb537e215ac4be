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
  /** A sampled estimate lies further from the exact volumes' bound than its noise allows. */
  | 'INCONSISTENT_WITH_EXACT_VOLUMES'
  /** How many samples a 10% estimate needs (with NOISE_DOMINATED or INCONSISTENT_WITH_EXACT_VOLUMES). */
  | 'MORE_SAMPLES_NEEDED'
  /** The reference is thin-walled: samples nearer a wall's other skin are withheld from the signed figures. */
  | 'THIN_WALLED_REFERENCE'
  /** The body has no geometry to bound (a solid without a shell): its boxes are left out. */
  | 'VOID_BOUNDING_BOX'
  /** The scan is already where the best fit would put it: nothing is proposed. */
  | 'ALREADY_ALIGNED'
  /** No candidate pose fits better than the current one: nothing is proposed. */
  | 'NO_BETTER_POSE'
  /** Only every n-th item was measured (a max* argument). */
  | 'SUBSAMPLED'
  /** Some queries found no solution and are left out. */
  | 'QUERIES_FAILED'
  /** No sample had a trustworthy sign: signed figures are null. */
  | 'NO_SIGNED_SAMPLES'
  /** Most samples had no trustworthy sign: the signed figures rest on the few left (one body is probably inside out). */
  | 'SIGNS_MOSTLY_AMBIGUOUS'
  /** A symmetric part: another pose fits almost as well. */
  | 'SYMMETRIC_PART'
  /** The iteration did not converge within its limit. */
  | 'NOT_CONVERGED'
  /** Too few correspondences within reach: the result is not an alignment. */
  | 'OUT_OF_REACH'
  /** The residual after alignment is large for the body's size: the bodies may not match. */
  | 'POOR_FIT'
  /** One body is 25.4 or 1000 times the size of the other and they fit poorly: probably different length units. */
  | 'UNIT_MISMATCH'
  /** Stations that cut only one of the two bodies (mis-registration or differing extents). */
  | 'ONE_BODY_CUT'
  /** Stations that cut neither body. */
  | 'STATION_UNCUT'
  /** Stations with no comparable profile. */
  | 'NO_COMPARABLE_PROFILE'
  /** The imported file has the content of a body already in the scene (the same file twice): both are kept. */
  | 'SAME_FILE'
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
  | 'MESH_NO_FEATURES'
  /** A datum's faces were read from the STEP text (the kernel's reader attached none). */
  | 'DATUM_FACES_FROM_STEP_TEXT'
  /** A datum the kernel's reader left out was listed from the STEP text. */
  | 'DATUM_FROM_STEP_TEXT'
  /** Geometric tolerances the kernel's reader skipped were listed from the STEP text (named in the message). */
  | 'TOLERANCE_FROM_STEP_TEXT'
  /** Dimensions of the file the kernel's reader gave no semantic dimension: not listed (counted by name in the message). */
  | 'DIMENSIONS_NOT_READ'
  /** A datum has no faces in the file. */
  | 'DATUM_WITHOUT_FACES'
  /** The dimension measures name no single unit: nominals in the file's unit. */
  | 'DIMENSION_UNIT_ASSUMED'
  /** A dimension has no nominal value. */
  | 'DIMENSION_VALUE_MISSING'
  /** The PMI document's faces may not be the body's faces of the same ids. */
  | 'FACE_NUMBERING_MISMATCH'
  /** Dimension presentations without semantic content are not read. */
  | 'GRAPHICAL_DIMENSIONS_SKIPPED'
  /** The nominal has no PMI to evaluate and no characteristics were given. */
  | 'NO_CHARACTERISTICS'
  /** evaluate_gdt without alignment: the scan lies farther from the nominal (RMS) than its tightest profile tolerance: likely not aligned. */
  | 'SCAN_FAR_FROM_NOMINAL'
  /** evaluate_gdt: scan samples no neighbour agrees with (spikes, stray points) left out; counted in samples.isolated. */
  | 'ISOLATED_SAMPLES_LEFT_OUT'
  /** evaluate_gdt: characteristics read within their reading's uncertainty of a limit: PASS or FAIL not proven by the scan. */
  | 'WITHIN_UNCERTAINTY'
  /** No primitive of the kind asked fits the points (too few, or a degenerate set). */
  | 'NO_FIT'
  /** The file carries no semantic PMI: empty lists. */
  | 'NO_PMI'
  /** PMI names shapes outside the body's topology. */
  | 'SHAPE_NOT_MAPPED'
  /** A tolerance has no value. */
  | 'TOLERANCE_VALUE_MISSING'
  /** A tolerance's value was read from the STEP text (the kernel's reader gave none). */
  | 'VALUE_FROM_STEP_TEXT'
  /** The body was not read from a STEP file: no PMI to read. */
  | 'NO_PMI_SOURCE'
  /** The file names a length unit we do not know: values taken as mm. */
  | 'UNKNOWN_LENGTH_UNIT'
  /** A body holds closed solids and open surfaces beside them: volume, centre and axes are the solids'. */
  | 'OPEN_SURFACES_BESIDE_SOLIDS'
  /** A STEP assembly names other files for (some of) its parts: they are not read, their nodes are empty. */
  | 'EXTERNAL_REFERENCES';

/** A caveat on a tool's result: a stable code and a sentence for people. */
export interface ToolWarning {
  code: WarningCode;
  message: string;
}

export function warning(code: WarningCode, message: string): ToolWarning {
  return { code, message };
}

/**
 * A warning's message for readers without measure_deviation's result fields (the page, the
 * report): a direction named "a against b (fromToTo)" or "toToFrom (b against a)" for a tool's
 * reader keeps the bodies' words alone.
 */
export function inBodiesWords(message: string): string {
  return message.replace(/ \((?:fromToTo|toToFrom)\)/g, '').replace(/\b(?:fromToTo|toToFrom) \(([^()]+ against [^()]+)\)/g, '$1');
}
