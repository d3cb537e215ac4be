import type { TopoDS_Shape, TopTools_IndexedMapOfShape } from 'opencascade.js/dist/opencascade.full';
import { topAbs, type OC, type Own } from '../kernel';
import { invalidArgument } from '../errors';

export type EntityKind = 'face' | 'edge' | 'vertex';

const KIND = { face: 'FACE', edge: 'EDGE', vertex: 'VERTEX' } as const;

/**
 * The body's enumeration of faces, edges or vertices (TopExp.MapShapes, distinct sub-shapes, in
 * traversal order). `face[N]` is the map's entry N + 1: ids are 0-based, OCCT's maps 1-based.
 */
export function mapEntities(oc: OC, own: Own, shape: TopoDS_Shape, kind: EntityKind): TopTools_IndexedMapOfShape {
  const map = own(new oc.TopTools_IndexedMapOfShape_1());
  oc.TopExp.MapShapes_1(shape, topAbs(oc, KIND[kind]), map);
  return map;
}

export function entityId(kind: EntityKind, index: number): string {
  return `${kind}[${index}]`;
}

const ID_PATTERN = /^(face|edge|vertex)\[(\d+)\]$/;

/** Parses `face[12]` into its kind and 0-based index. */
export function parseEntityId(id: string): { kind: EntityKind; index: number } {
  const m = ID_PATTERN.exec(id.trim());
  if (!m) throw invalidArgument(`'${id}' is not a topology id; expected face[N], edge[N] or vertex[N]`);
  return { kind: m[1] as EntityKind, index: Number(m[2]) };
}
