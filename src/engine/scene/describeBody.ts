import { withKernel, topAbs, type OC, type ShapeKind } from '../kernel';
import type { Body } from './Body';

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
  /** Point clouds: the number of points (a cloud has no faces, edges or vertices: those counts are 0). */
  points?: number;
  /** Point clouds: whether the file gave a normal per point. */
  hasNormals?: boolean;
  /** What the importer left out or changed (materials ignored, units converted), when anything. */
  notes?: string[];
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
  };
  if (body.kind === 'points') {
    return { ...base, solids: 0, shells: 0, faces: 0, edges: 0, vertices: 0, points: body.cloud.count, hasNormals: body.cloud.normals !== undefined };
  }
  if (body.kind === 'mesh') {
    const t = body.topology;
    return { ...base, solids: 0, shells: 1, faces: t.triangles, edges: t.edges, vertices: t.vertices, triangles: t.triangles, watertight: t.watertight };
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
