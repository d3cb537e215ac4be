import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { BrepscopeError } from '../../errors';
import type { OC } from '../../kernel';

/** Reads an XCAF binary document (XBF) into one shape. */
export function readXbfShape(_oc: OC, _bytes: Uint8Array, name: string): TopoDS_Shape {
  throw new BrepscopeError('NOT_IMPLEMENTED', `${name}: XBF import is not implemented yet`);
}
