import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/Engine';
import type { OC } from '../engine/kernel';
import type { TriMesh } from '../engine/mesh/TriMesh';
import { addShapeBody } from '../engine/scene/addShapeBody';
import type { BrepBody } from '../engine/scene/Body';
import { readBrepShape } from '../engine/scene/import/brep';
import { PointToShapeQuery } from '../engine/scene/pointToShape';
import { deviationSamples } from '../engine/deviation/samples';
import { exactReference } from '../engine/deviation/structures';
import { defaultDeflection, measuredSurface, surfaceMesh } from '../engine/deviation/surfaces';
import type { DeviationResult } from '../engine/tools/measureDeviation';
import { nodeKernel } from '../node/nodeEngine';
import { testEngine } from '../test/testEngine';
import { dataPath } from '../test/data';
import { addMeshBody } from '../test/deviationFixtures';
import { occtMesh } from '../test/scanFixture';

/**
 * Exact-surface deviation of a part against itself. On occt/screw.step points lying on the part
 * read up to 3.57 away (its display mesh against it: 4.18) while the kernel gave 1e-6: the screw's
 * rounded ends are spindle tori (minor radius > major radius), and the closed-form projection took
 * the nearest point on the circle of the meridian plane on p's side of the axis only; on a spindle
 * torus the far circle's inner part crosses the axis and holds the nearest point. The foot then
 * fell outside the face's trims and the face's distance came from its edges.
 *
 * Independent figures: the kernel's exact point-to-shape distance (PointToShapeQuery,
 * BRepExtrema_ExtPF/ExtPC per face and edge) and BRepMesh's nodes, which lie on the faces.
 */
const PARTS = ['occt/screw.step', 'occt/CrankArm.brep', 'occt/Pump_Nut.brep', 'occt/bottle.brep', 'cax-if/as1_pe_203.stp', 'cax-if/sg1-c5-214.stp', 'occt/hammer.iges'];

let oc: OC;
let engine: Engine;
const body = (path: string) => engine.scene.get(path) as BrepBody;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  for (const path of PARTS) {
    if (path.endsWith('.brep')) addShapeBody(oc, engine.scene, path, readBrepShape(oc, readFileSync(dataPath(path)), path));
    else await engine.run('import_file', { path: dataPath(path), bodyId: path });
  }
}, 120_000);

describe('exact deviation of a part against itself', () => {
  it('screw.step: the reported point reads the kernel\u2019s distance, on the torus the kernel names', () => {
    const b = body('occt/screw.step');
    const ref = exactReference(oc, b, defaultDeflection(oc, b));
    const query = new PointToShapeQuery(oc, b.shape);
    try {
      const p: [number, number, number] = [-18.156, 3.991, 6.98];
      const kernel = query.query(p)!;
      const hit = ref.nearest(...p);
      // The kernel: 2.26e-4 (the point was quoted to 3 decimals); the bug read 3.567 on face[0], a plane.
      expect(kernel.distance).toBeLessThan(1e-3);
      expect(Math.abs(hit.distance - kernel.distance)).toBeLessThan(1e-9);
      expect(Math.hypot(hit.x - kernel.point[0], hit.y - kernel.point[1], hit.z - kernel.point[2])).toBeLessThan(1e-6);
      expect(ref.geometry.faces[hit.face]!.surface.kind).toBe('torus');
    } finally {
      query.delete();
    }
  });

  it.each(PARTS)('%s: BRepMesh nodes and exact samples on the faces read ~0, never farther than the kernel says', (path) => {
    const b = body(path);
    const deflection = defaultDeflection(oc, b);
    const ref = exactReference(oc, b, deflection);
    const scale = ref.diagonal;
    const mesh = surfaceMesh(oc, b, deflection);
    const samples = deviationSamples(oc, measuredSurface(oc, b, deflection), 2000, 'exact');
    const query = new PointToShapeQuery(oc, b.shape);
    let worst = 0;
    try {
      for (const points of [mesh.positions, samples.points]) {
        const N = points.length / 3, step = Math.max(1, Math.floor(N / 1500));
        for (let v = 0; v < N; v += step) {
          const p: [number, number, number] = [points[3 * v]!, points[3 * v + 1]!, points[3 * v + 2]!];
          const d = ref.nearest(...p).distance;
          // The kernel's foot is a point of the part: the nearest can be no farther. (The kernel's
          // own gradient search misses by up to 9e-3 on a few bottle.brep nodes: it is a bound, not the truth.)
          expect(d).toBeLessThanOrEqual(query.query(p)!.distance + 1e-9 * scale);
          worst = Math.max(worst, d);
        }
      }
    } finally {
      query.delete();
    }
    expect(worst).toBeLessThan(1e-7 * scale);
  });

  it('screw.step: its display mesh against it reads the mesh\u2019s chord error (kernel-measured), not 4.18', async () => {
    const b = body('occt/screw.step');
    const deflection = defaultDeflection(oc, b);
    const mesh: TriMesh = occtMesh(oc, b.shape, deflection);
    addMeshBody(engine.scene, 'screwMesh', mesh);
    const r = (await engine.runJson('measure_deviation', { fromBodyId: 'screwMesh', toBodyId: 'occt/screw.step' })).result as DeviationResult;
    expect(r.surface).toBe('exact');
    // The mesh's chord error by the kernel: a grid of 91 points on every triangle.
    const query = new PointToShapeQuery(oc, b.shape);
    let truth = 0;
    try {
      const P = mesh.positions, I = mesh.indices, G = 12;
      for (let t = 0; t < I.length / 3; t++) {
        for (let i = 0; i <= G; i++) {
          for (let j = 0; i + j <= G; j++) {
            const a = i / G, c = j / G, e = 1 - a - c;
            const p = [0, 1, 2].map((k) => a * P[3 * I[3 * t]! + k]! + c * P[3 * I[3 * t + 1]! + k]! + e * P[3 * I[3 * t + 2]! + k]!) as [number, number, number];
            truth = Math.max(truth, query.query(p)!.distance);
          }
        }
      }
    } finally {
      query.delete();
    }
    expect(truth).toBeGreaterThan(0);
    expect(truth).toBeLessThan(2 * deflection);
    // 20000 random samples on the mesh find most of the grid's worst, and never more than the truth (5% for points between grid nodes).
    expect(r.fromToTo.max).toBeLessThan(1.05 * truth);
    expect(r.fromToTo.max).toBeGreaterThan(0.8 * truth);
    // 91 kernel queries a triangle: about 30 s alone, 2 to 5 times that beside the suite's other heavy files.
  }, 300_000);
});
