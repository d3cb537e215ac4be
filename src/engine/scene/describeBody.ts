import { withKernel, topAbs, type OC, type ShapeKind } from '../kernel';
import { rotationAngle, rotationAxis, toMatrix4, type Matrix4 } from '../math/rigid';
import type { Vec3 } from '../math/vec3';
import type { Body, PlacementRecord } from './Body';

export interface BodySummary {
  bodyId: string;
  name: string;
  kind: 'brep' | 'mesh' | 'points';
  sourceFormat: string;
  valid: boolean;
  source: string | null;
  solids: number;
  shells: number;
  faces: number;
  edges: number;
  vertices: number;
  /** Mesh bodies: triangle count (equal to faces: one facet per triangle). */
  triangles?: number;
  /** Mesh bodies: closed, manifold and consistently wound. */
  watertight?: boolean;
  /** Mesh bodies: the facet-shell faults behind `valid: false` (a real scan commonly has a few). */
  meshDefects?: { degenerateTriangles: number; nonManifoldEdges: number; inconsistentEdges: number };
  /** Point clouds: the number of points (a cloud has no faces, edges or vertices: those counts are 0). */
  points?: number;
  /** Point clouds: whether the file gave a normal per point. */
  hasNormals?: boolean;
  /** What the importer left out or changed (materials ignored, units converted), when anything. */
  notes?: string[];
  /**
   * The body's length unit: 'mm' when the file declares a unit (STEP, IGES, 3MF: converted to mm on
   * import), null when it declares none (BREP, STL, PLY, OBJ, XBF: "model units").
   */
  lengthUnit: 'mm' | null;
  /** The unit the file declared, as written (INCH, millimetre ...), when it declared one. */
  declaredUnit?: string;
  /** The file's fingerprint (SHA-256, src/engine/scene/import/contentHash.ts): equal for the same file loaded twice. */
  contentHash?: string;
  /** Where the body stands in the scene (every tool measures it there); null: as read from its file. */
  placement: PlacementSummary | null;
}

/** A body's placement as hosts show it (docs/alignment.md). */
export interface PlacementSummary {
  /** File coordinates to scene coordinates, 4x4 row-major (as inspect_assembly). */
  transform: Matrix4;
  rotationAngleDegrees: number;
  /** Unit axis of the rotation; null without rotation. */
  rotationAxis: Vec3 | null;
  translation: Vec3;
  /** What set it: the last align_bodies that was applied (with its RMS before and after), or set_placement. */
  setBy: PlacementRecord;
}

export function placementSummary(body: Body): PlacementSummary | null {
  const p = body.placement;
  if (!p) return null;
  const { r, t } = p.motion;
  return {
    transform: toMatrix4(p.motion),
    rotationAngleDegrees: (rotationAngle(r) * 180) / Math.PI,
    rotationAxis: rotationAxis(r),
    translation: [t[0]!, t[1]!, t[2]!],
    setBy: { ...p.setBy },
  };
}

/** The counts a body list shows. A mesh body counts as a facet shell: one face per triangle. */
export function describeBody(oc: OC | undefined, body: Body): BodySummary {
  const base = {
    bodyId: body.bodyId,
    name: body.name,
    kind: body.kind,
    sourceFormat: body.sourceFormat,
    valid: body.valid,
    source: body.source ?? null,
    ...(body.notes?.length ? { notes: body.notes } : {}),
    lengthUnit: body.lengthUnit ? body.lengthUnit.unit : null,
    ...(body.lengthUnit ? { declaredUnit: body.lengthUnit.declared } : {}),
    placement: placementSummary(body),
    ...(body.origin?.contentHash ? { contentHash: body.origin.contentHash } : {}),
  };
  if (body.kind === 'points') {
    return { ...base, solids: 0, shells: 0, faces: 0, edges: 0, vertices: 0, points: body.cloud.count, hasNormals: body.cloud.normals !== undefined };
  }
  if (body.kind === 'mesh') {
    const t = body.topology;
    const counts = { solids: 0, shells: 1, faces: t.triangles, edges: t.edges, vertices: t.vertices, triangles: t.triangles };
    return {
      ...base,
      ...counts,
      watertight: t.watertight,
      meshDefects: { degenerateTriangles: t.degenerateTriangles, nonManifoldEdges: t.nonManifoldEdges, inconsistentEdges: t.inconsistentEdges },
    };
  }
  if (!oc) throw new Error('describeBody: a BREP body needs the kernel');
  return withKernel(oc, (own) => {
    const count = (kind: ShapeKind): number => {
      const map = own(new oc.TopTools_IndexedMapOfShape_1());
      oc.TopExp.MapShapes_1(body.shape, topAbs(oc, kind), map);
      return map.Extent();
    };
    return { ...base, solids: count('SOLID'), shells: count('SHELL'), faces: count('FACE'), edges: count('EDGE'), vertices: count('VERTEX') };
  });
}
