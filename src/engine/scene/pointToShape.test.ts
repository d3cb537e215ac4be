import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { withKernel, type OC } from '../kernel';
import { nodeKernel } from '../../node/nodeEngine';
import { dataPath } from '../../test/data';
import { readBrepShape } from './import/brep';
import { PointToShapeQuery } from './pointToShape';

let oc: OC;

beforeAll(async () => {
  oc = await nodeKernel();
});

/** Deterministic pseudo-random numbers (a fixed LCG) so failures reproduce. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('PointToShapeQuery', () => {
  it('agrees with BRepExtrema_DistShapeShape on 300 points around bottle.brep', () => {
    const shape = readBrepShape(oc, readFileSync(dataPath('occt/bottle.brep')), 'bottle');
    const query = new PointToShapeQuery(oc, shape);
    const rand = lcg(7);
    let worst = 0;
    try {
      for (let i = 0; i < 300; i++) {
        // The bottle spans about x -36..36, y -16..16, z 0..70 (with its neck and thread).
        const p: [number, number, number] = [-45 + 90 * rand(), -25 + 50 * rand(), -10 + 90 * rand()];
        const ours = query.query(p)!;
        const reference = withKernel(oc, (own) => {
          const v = own(own(new oc.BRepBuilderAPI_MakeVertex(own(new oc.gp_Pnt_3(...p)))).Vertex());
          const d = own(new oc.BRepExtrema_DistShapeShape_2(v, shape, oc.Extrema_ExtFlag.Extrema_ExtFlag_MIN as never, oc.Extrema_ExtAlgo.Extrema_ExtAlgo_Grad as never, own(new oc.Message_ProgressRange_1())));
          return d.Value();
        });
        worst = Math.max(worst, Math.abs(ours.distance - reference));
        // The reported point is on the shape at the reported distance.
        expect(Math.abs(Math.hypot(ours.point[0] - p[0], ours.point[1] - p[1], ours.point[2] - p[2]) - ours.distance)).toBeLessThan(1e-9);
      }
    } finally {
      query.delete();
      shape.delete();
    }
    expect(worst).toBeLessThan(1e-7);
  });
});
