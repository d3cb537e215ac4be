import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import type { OC } from '../kernel';
import { brepIssues, SMALL_EDGE_LENGTH, SMALL_FACE_AREA, type ValidationIssue } from '../scene/shapeIssues';
import { SELF_INTERSECTION_AUTO_FACE_LIMIT } from './graphOptions';
import { buildTopologyGraph, type TopologyGraph } from './topologyGraph';

export { SELF_INTERSECTION_AUTO_FACE_LIMIT };

export type SelfIntersectionMode = 'auto' | 'on' | 'off';

export interface GraphHealthRecord {
  isValid: boolean;
  shapeType: string;
  /** Edges bounding exactly one face (not seams, not degenerated): the openings of shells. */
  freeEdgeCount: number;
  /** Vertices on a free edge, plus vertices on no edge at all. */
  nakedVertexCount: number;
  /** Edges shorter than SMALL_EDGE_LENGTH (degenerated edges excluded). */
  smallEdgeCount: number;
  /** Faces with area below SMALL_FACE_AREA. */
  smallFaceCount: number;
  /** A solid (or the faces outside solids) crosses itself; contact between different solids is not this but an `interference` warning. null when the check did not run (see selfIntersectionChecked and warnings). */
  selfIntersecting: boolean | null;
  /** Issues of severity error (validate_geometry's issue records). */
  errors: ValidationIssue[];
}

export interface GraphValidateResult {
  isValid: boolean;
  /** Number of error issues (healthRecord.errors). */
  errorCount: number;
  /** Number of warning issues (warnings). */
  warningCount: number;
  healthRecord: GraphHealthRecord;
  /** Issues of severity warning: free edges of an open surface model, small edges and faces, interference between solids. */
  warnings: ValidationIssue[];
  selfIntersectionChecked: boolean;
  thresholds: { smallEdgeLength: number; smallFaceArea: number; selfIntersectionAutoFaceLimit: number };
}

export function graphValidate(oc: OC, shape: TopoDS_Shape, options: { selfIntersection?: SelfIntersectionMode; graph?: TopologyGraph } = {}): GraphValidateResult {
  const graph = options.graph ?? buildTopologyGraph(oc, shape, { convexity: false });
  const mode = options.selfIntersection ?? 'auto';
  const checkSelf = mode === 'on' || (mode === 'auto' && graph.faces.length <= SELF_INTERSECTION_AUTO_FACE_LIMIT);
  const issues = brepIssues(oc, shape, checkSelf);
  const errors = issues.filter((i) => i.severity === 'error');
  const warnings = issues.filter((i) => i.severity === 'warning');
  if (!checkSelf) {
    const why = mode === 'off' ? 'it was turned off' : `the shape has ${graph.faces.length} faces, more than the automatic limit of ${SELF_INTERSECTION_AUTO_FACE_LIMIT}; force it with --self-intersection`;
    warnings.push({ kind: 'selfIntersectionNotChecked', severity: 'warning', entities: [], count: 0, message: `self-intersection and interference between solids were not checked: ${why}` });
  }
  const countOf = (kind: string): number => issues.filter((i) => i.kind === kind).reduce((n, i) => n + i.count, 0);

  const naked = new Set<number>();
  for (const e of graph.edges) if (e.boundary) for (const v of e.vertices) naked.add(v);
  graph.vertices.forEach((v, i) => {
    if (v.edges.length === 0) naked.add(i);
  });

  const isValid = errors.length === 0;
  return {
    isValid,
    errorCount: errors.length,
    warningCount: warnings.length,
    healthRecord: {
      isValid,
      shapeType: graph.shapeType,
      freeEdgeCount: countOf('freeEdge'),
      nakedVertexCount: naked.size,
      smallEdgeCount: countOf('smallEdge'),
      smallFaceCount: countOf('smallFace'),
      selfIntersecting: checkSelf ? issues.some((i) => i.kind === 'selfIntersection') : null,
      errors,
    },
    warnings,
    selfIntersectionChecked: checkSelf,
    thresholds: { smallEdgeLength: SMALL_EDGE_LENGTH, smallFaceArea: SMALL_FACE_AREA, selfIntersectionAutoFaceLimit: SELF_INTERSECTION_AUTO_FACE_LIMIT },
  };
}
