import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { withKernel, type OC } from '../kernel';
import { entityId, mapEntities, type EntityKind } from './topology';

interface ShapeCheck {
  valid: boolean;
  /** Ids of the sub-shapes BRepCheck_Analyzer reports invalid. */
  invalidEntities: string[];
}

/** BRepCheck_Analyzer with geometric controls, and which faces, edges and vertices it rejects. */
export function checkShape(oc: OC, shape: TopoDS_Shape): ShapeCheck {
  return withKernel(oc, (own) => {
    const analyzer = own(new oc.BRepCheck_Analyzer(shape, true, false));
    if (analyzer.IsValid_2()) return { valid: true, invalidEntities: [] };
    const invalidEntities: string[] = [];
    for (const kind of ['face', 'edge', 'vertex'] as EntityKind[]) {
      const map = mapEntities(oc, own, shape, kind);
      for (let i = 1; i <= map.Extent(); i++) {
        if (!analyzer.IsValid_1(own(map.FindKey(i)))) invalidEntities.push(entityId(kind, i - 1));
      }
    }
    return { valid: false, invalidEntities };
  });
}
