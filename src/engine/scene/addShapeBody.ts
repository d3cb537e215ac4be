import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import type { OC } from '../kernel';
import { BrepBody } from './Body';
import { checkShape } from './checkShape';
import type { Scene } from './Scene';

/** Adds a kernel-made shape as a body (tests, the demo scene); the scene takes ownership. */
export function addShapeBody(oc: OC, scene: Scene, bodyId: string, shape: TopoDS_Shape, name = bodyId): BrepBody {
  const body = new BrepBody({ bodyId, name, sourceFormat: 'brep', source: undefined }, shape, checkShape(oc, shape).valid);
  scene.add(body);
  return body;
}
