import { readFileSync } from 'node:fs';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import type { OC } from '../engine/kernel';
import { readBrepShape } from '../engine/scene/import/brep';
import { readExchangeShape } from '../engine/scene/import/stepIges';
import { dataPath } from './data';
import { makeFreeformFaces } from './kernelShapes';

/**
 * The shapes the exact-geometry tests run on: four OCCT sample parts (analytic faces, rational and
 * high-degree splines, threads wound twice round, an open B-spline shell), an IGES surface model
 * with loose tolerances, and located revolution, extrusion and offset faces. The caller deletes them.
 */
export function exactTestShapes(oc: OC): Record<string, TopoDS_Shape> {
  const shapes: Record<string, TopoDS_Shape> = {};
  for (const name of ['bottle', 'CrankArm', 'Pump_Nut', 'shell1']) shapes[name] = readBrepShape(oc, readFileSync(dataPath(`occt/${name}.brep`)), name);
  shapes.hammer = readExchangeShape(oc, readFileSync(dataPath('occt/hammer.iges')), 'hammer', 'iges').shape;
  shapes.freeform = makeFreeformFaces(oc);
  return shapes;
}
