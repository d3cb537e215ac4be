import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/Engine';
import { withKernel, type OC } from '../engine/kernel';
import { addShapeBody } from '../engine/scene/addShapeBody';
import { readBrepShape } from '../engine/scene/import/brep';
import { nodeKernel } from '../node/nodeEngine';
import { testEngine } from '../test/testEngine';
import { dataPath } from '../test/data';

/**
 * measure_distance between placed parts of an assembly. Our WASM build's BRepExtrema_DistShapeShape
 * gets edge-to-face distances wrong when the edge's solid is located: between solids 0 and 16 of the
 * CAx-IF AS1 compound it reported 5e-8 (a foot point at the origin, on neither solid) and between
 * solids 2 and 4 it reported 63.5; 14 of the 153 pairs were wrong. measure_distance now folds every
 * location into the geometry first (scene/locationFreeShape.ts).
 *
 * Expected figures: native OCCT 7.6.3 (Debian libocct, BRepExtrema_DistShapeShape on the same solids
 * written with BRepTools::Write), an implementation independent of our WASM build.
 */
const NATIVE: [number, number, number][] = [
  [0, 16, 825.5],
  [2, 4, 278.911357683786],
  [2, 14, 2414.13542833678],
  [4, 11, 1876.60138199821],
  [6, 13, 1876.60138199821],
];

let oc: OC;
let engine: Engine;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  const as1 = readBrepShape(oc, readFileSync(dataPath('cax-if/as1_pe_203.brep')), 'as1');
  try {
    withKernel(oc, (own) => {
      const solids = own(new oc.TopTools_IndexedMapOfShape_1());
      oc.TopExp.MapShapes_1(as1, oc.TopAbs_ShapeEnum.TopAbs_SOLID as never, solids);
      const wanted = new Set(NATIVE.flatMap(([a, b]) => [a, b]));
      // Each solid as its own body, keeping the location the assembly gave it.
      for (const i of wanted) addShapeBody(oc, engine.scene, `s${i}`, solids.FindKey(i + 1));
    });
  } finally {
    as1.delete();
  }
});

describe('measure_distance between located solids of AS1 equals native OCCT', () => {
  it.each(NATIVE)('solid %i to solid %i: %f', async (a, b, expected) => {
    const { result } = await engine.run('measure_distance', { fromBodyId: `s${a}`, toBodyId: `s${b}`, computeContacts: true });
    expect(Math.abs(result.distance - expected)).toBeLessThan(1e-6);
    // Every contact's two points are that far apart (the wrong answer had a point on neither solid).
    for (const c of result.contacts ?? []) {
      expect(Math.abs(Math.hypot(...c.pointOnFrom.map((v, k) => v - c.pointOnTo[k]!)) - expected)).toBeLessThan(1e-6);
    }
  });
});
