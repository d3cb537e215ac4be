import type { Curve } from './curves';
import type { ParameterBox, Surface } from './surfaces';
import type { TrimRegion } from './trim';

/**
 * A BREP body's exact geometry as plain data: extracted from the kernel once per body
 * (src/engine/scene/exactGeometry.ts), then queried in JS without kernel calls. Indices follow the
 * body's topology ids: faces[N] is face[N], edges[N] is edge[N], vertex N is vertex[N].
 */
export interface ExactGeometry {
  faces: ExactFace[];
  edges: ExactEdge[];
  /** x y z per vertex. */
  vertices: Float64Array;
  /** Bounding-box diagonal of the body (scale for tolerances). */
  diagonal: number;
  /** Parametric sampling tolerance of trims and polylines, in model units (see TRIM_TOLERANCE_RATIO). */
  tolerance: number;
}

export interface ExactFace {
  surface: Surface;
  /** The face is REVERSED in the body: its outward normal is -(Su x Sv). */
  reversed: boolean;
  /** Bounds for Newton's method (a spline's parameter range; +-Infinity for analytic surfaces). */
  box: ParameterBox;
  /** Period along u and v (2 pi for the angular directions of elementary surfaces), 0 when not periodic. */
  uPeriod: number;
  vPeriod: number;
  /** The trimmed domain; null for a face without wires (its whole surface). */
  trim: TrimRegion | null;
  /** Its edges with a 3D curve (degenerate edges left out: their point is a vertex). */
  edges: Int32Array;
}

export interface ExactEdge {
  curve: Curve;
  t0: number;
  t1: number;
  /**
   * A polyline on the curve (parameters, points) for start values and the box, and the largest
   * distance between the polyline and the curve (measured at segment midpoints, with margin).
   */
  params: Float64Array;
  points: Float64Array;
  sag: number;
  /** min xyz, max xyz of the curve (the polyline's box grown by sag). */
  box: Float64Array;
  /** Vertex index at t0 and at t1 (-1 when there is none). */
  v0: number;
  v1: number;
  /** Faces the edge bounds and the edge's pcurve on each (same order); a seam lists its face twice. */
  faces: Int32Array;
  pcurves: Curve[];
  /** The edge bounds none of the faces measured (keptFaces): it does not make the body open. */
  outside?: true;
}

/**
 * The geometry measured as the faces `keep` marks (solidsBeside.ts: a body's closed solids beside
 * open surfaces): each edge forgets the other faces and their pcurves, so that an edge's normal and
 * the body's closedness are the kept faces'. Faces keep their index (face[N]); the others are
 * never candidates, being absent from the measured tessellation.
 */
export function keptFaces(g: ExactGeometry, keep: Uint8Array): ExactGeometry {
  const edges = g.edges.map((e): ExactEdge => {
    const at: number[] = [];
    for (let k = 0; k < e.faces.length; k++) if (keep[e.faces[k]!] === 1) at.push(k);
    if (at.length === e.faces.length) return e;
    const kept: ExactEdge = { ...e, faces: Int32Array.from(at, (k) => e.faces[k]!), pcurves: at.map((k) => e.pcurves[k]!) };
    if (at.length === 0 && e.faces.length > 0) kept.outside = true;
    return kept;
  });
  return { ...g, edges };
}

/**
 * Trims and polylines are sampled so that their chords stay within this share of the body's
 * diagonal of the exact curves (1e-6: 1e-4 on a 100 mm part). A point whose foot lies within that
 * band of a face's boundary may be classified on the wrong side of it; the distance error that
 * causes is below band^2 / (2 d) for a point at distance d, and below the band itself.
 */
export const TRIM_TOLERANCE_RATIO = 1e-6;
