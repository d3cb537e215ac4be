import { readFileSync } from 'node:fs';
import type { TopoDS_Shape } from 'opencascade.js/dist/opencascade.full';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withKernel, type OC } from '../kernel';
import { buildPseudoNormals } from '../mesh/pseudoNormals';
import { TIE_FACTOR, TIE_SLACK, REACH_FACTOR, REACH_FLOOR } from '../mesh/signedDeviation';
import { tessellateShape } from '../mesh/tessellate';
import { buildBvh } from '../mesh/TriangleBvh';
import { extractExactGeometry, type KernelFaceSurfaces } from '../scene/exactGeometry';
import { readBrepShape } from '../scene/import/brep';
import { PointToShapeQuery } from '../scene/pointToShape';
import { nodeKernel } from '../../node/nodeEngine';
import { dataPath } from '../../test/data';
import { makeFreeformFaces } from '../../test/kernelShapes';
import { readExchangeShape } from '../scene/import/stepIges';
import { ExactReference } from './ExactReference';

let oc: OC;
const shapes: Record<string, TopoDS_Shape> = {};
const kernels: KernelFaceSurfaces[] = [];

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** An exact reference at a deflection of `ratio` times the shape's diagonal (the tools' default is 0.005). */
function prepare(shape: TopoDS_Shape, ratio: number): ExactReference {
  const { geometry, kernelSurfaces } = extractExactGeometry(oc, shape);
  if (kernelSurfaces) kernels.push(kernelSurfaces);
  const mesh = tessellateShape(oc, shape, ratio * geometry.diagonal);
  return new ExactReference({
    geometry,
    mesh,
    bvh: buildBvh(mesh),
    pseudoNormals: buildPseudoNormals(mesh),
    rules: { tieFactor: TIE_FACTOR, tieSlack: TIE_SLACK, reachFactor: REACH_FACTOR, reachFloor: REACH_FLOOR },
    kernel: kernelSurfaces ?? undefined,
  });
}

beforeAll(async () => {
  oc = await nodeKernel();
  for (const name of ['bottle', 'CrankArm', 'Pump_Nut', 'shell1']) shapes[name] = readBrepShape(oc, readFileSync(dataPath(`occt/${name}.brep`)), name);
  shapes.hammer = readExchangeShape(oc, readFileSync(dataPath('occt/hammer.iges')), 'hammer', 'iges');
  shapes.freeform = makeFreeformFaces(oc);
});

afterAll(() => {
  for (const k of kernels) k.delete();
  for (const s of Object.values(shapes)) s.delete();
});

function maxEdgeTolerance(shape: TopoDS_Shape): number {
  return withKernel(oc, (own) => {
    const edges = own(new oc.TopTools_IndexedMapOfShape_1());
    oc.TopExp.MapShapes_1(shape, oc.TopAbs_ShapeEnum.TopAbs_EDGE as never, edges);
    let m = 0;
    for (let i = 1; i <= edges.Extent(); i++) m = Math.max(m, oc.BRep_Tool.Tolerance_2(own(oc.TopoDS.Edge_1(own(edges.FindKey(i))))));
    return m;
  });
}

describe('ExactReference.nearest', () => {
  it('agrees with PointToShapeQuery (verified against BRepExtrema) on points near and around five real parts and located freeform faces, at the default deflection', () => {
    const rand = lcg(5);
    for (const [name, shape] of Object.entries(shapes)) {
      const ref = prepare(shape, 0.005);
      const query = new PointToShapeQuery(oc, shape);
      // hammer.iges has edges with tolerances up to 0.37, and the offset face's edges are
      // approximations of its boundary isolines: the kernel's face extremum may lie outside a face's
      // boundary within the edge's tolerance and so come out nearer than the boundary. The exact
      // distance may then exceed the kernel's by up to that tolerance, but never fall below it.
      const slack = name === 'hammer' || name === 'freeform' ? maxEdgeTolerance(shape) : 0;
      if (name === 'freeform') expect(slack).toBeLessThan(1e-5);
      let worst = 0;
      let count = 0;
      try {
        const m = ref.mesh;
        const T = m.indices.length / 3;
        for (let i = 0; i < 400; i++) {
          // Half the points near the surface (a random triangle point pushed off by up to 3% of the diagonal), half in the box.
          let p: [number, number, number];
          if (i % 2 === 0) {
            const t = Math.floor(rand() * T);
            let wa = rand(), wb = rand();
            if (wa + wb > 1) {
              wa = 1 - wa;
              wb = 1 - wb;
            }
            const q = [0, 1, 2].map((k) => {
              const a = m.positions[3 * m.indices[3 * t]! + k]!, b = m.positions[3 * m.indices[3 * t + 1]! + k]!, c = m.positions[3 * m.indices[3 * t + 2]! + k]!;
              return a + wa * (b - a) + wb * (c - a);
            });
            const s = 0.03 * ref.diagonal;
            p = [q[0]! + s * (rand() - 0.5), q[1]! + s * (rand() - 0.5), q[2]! + s * (rand() - 0.5)];
          } else {
            const b = ref.bvh.nodeBounds;
            p = [0, 1, 2].map((k) => b[k]! - 0.1 * ref.diagonal + rand() * (b[3 + k]! - b[k]! + 0.2 * ref.diagonal)) as [number, number, number];
          }
          const hit = ref.nearest(...p);
          const truth = query.query(p)!;
          const excess = hit.distance - truth.distance;
          expect(excess).toBeLessThanOrEqual(slack + 1e-9 * ref.diagonal);
          const err = excess > 0 ? Math.max(0, excess - slack) : -excess;
          worst = Math.max(worst, err / ref.diagonal);
          // The reported point is on the reported face at the reported distance.
          expect(Math.abs(Math.hypot(hit.x - p[0], hit.y - p[1], hit.z - p[2]) - hit.distance)).toBeLessThan(1e-9 * ref.diagonal);
          count++;
        }
      } finally {
        query.delete();
      }
      expect(count).toBe(400);
      expect(worst, name).toBeLessThan(1e-9);
    }
  });
});
