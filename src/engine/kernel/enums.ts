import type { TopAbs_ShapeEnum } from 'opencascade.js/dist/opencascade.full';
import type { OC } from './kernel';

export type ShapeKind = 'COMPOUND' | 'COMPSOLID' | 'SOLID' | 'SHELL' | 'FACE' | 'WIRE' | 'EDGE' | 'VERTEX' | 'SHAPE';

/** The glue types enum members as `{}`; this returns them typed for the bound methods that take them. */
export function topAbs(oc: OC, kind: ShapeKind): TopAbs_ShapeEnum {
  return oc.TopAbs_ShapeEnum[`TopAbs_${kind}`] as unknown as TopAbs_ShapeEnum;
}

/** Compares an enum value returned by the kernel with a member (embind enum values are singletons). */
export function isShapeKind(oc: OC, value: unknown, kind: ShapeKind): boolean {
  return value === oc.TopAbs_ShapeEnum[`TopAbs_${kind}`];
}
