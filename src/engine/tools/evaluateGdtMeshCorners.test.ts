import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { Characteristic } from '../gdt/evaluate';
import type { OC } from '../kernel';
import { sampleSurface } from '../mesh/sampleSurface';
import { tessellateShape } from '../mesh/tessellate';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { addMeshBody } from '../../test/deviationFixtures';
import { addCloud, faceOf } from '../../test/gdtFixtures';
import { makeDrilledBlock } from '../../test/kernelShapes';

/**
 * A mesh scan's hole read through its triangles' corners, not their chords (gdt/vertexQuadrature.ts):
 * the nominal's own tessellation, a perfect scan whose corners lie on the exact bore, reads the
 * bore's diameter; its area samples alone (a cloud: no corners) read it small by the chord sag.
 */
let oc: OC;
let engine: Engine;
let hole: string;
type Result = { characteristics: Characteristic[] };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);
const R = 4, DEFLECTION = 0.01;

beforeAll(async () => {
  oc = await nodeKernel();
  engine = createNodeEngine();
  const block = makeDrilledBlock(oc, R, 20, 15);
  addShapeBody(oc, engine.scene, 'block', block);
  const mesh = tessellateShape(oc, block, DEFLECTION);
  addMeshBody(engine.scene, 'scan', mesh);
  addCloud(engine, 'samples', Array.from(sampleSurface(mesh, 40_000).points));
  // The same scan with its corners 0.003 farther from the axis: the hole 0.006 larger.
  const grown = Float64Array.from(mesh.positions);
  for (let v = 0; v < grown.length / 3; v++) {
    const dx = grown[3 * v]! - 20, dy = grown[3 * v + 1]! - 15, d = Math.hypot(dx, dy);
    if (Math.abs(d - R) < 1e-9) {
      grown[3 * v] = 20 + (dx * (R + 0.003)) / d;
      grown[3 * v + 1] = 15 + (dy * (R + 0.003)) / d;
    }
  }
  addMeshBody(engine.scene, 'grown', { positions: grown, indices: mesh.indices });
  hole = await faceOf(engine, 'block', /cylinder/i, [20, 15, 10]);
}, 120_000);

describe('a hole on a mesh scan', () => {
  it('reads its diameter from the corners: a perfect scan reads 8 and passes a size whose nominal is its lower limit', async () => {
    const size = { kind: 'diameter', faces: [hole], nominal: 2 * R, upper: 0.003, lower: 0 };
    const [onMesh] = (await evaluate({ actualBodyId: 'scan', nominalBodyId: 'block', characteristics: [size] })).characteristics;
    expect(onMesh!.actual).toBeCloseTo(2 * R, 9);
    expect(onMesh!.pass).toBe(true);
    expect(onMesh!.method).toMatch(/^least-squares cylinder of the scan triangles' \d+ corners under the samples/);
    // The area samples alone sit on chords: the diameter reads small by about 4/3 of the sag (deflection 0.01), and fails.
    const [onSamples] = (await evaluate({ actualBodyId: 'samples', nominalBodyId: 'block', characteristics: [size] })).characteristics;
    expect(2 * R - onSamples!.actual!).toBeGreaterThan(0.3 * (4 / 3) * DEFLECTION);
    expect(2 * R - onSamples!.actual!).toBeLessThan(2 * DEFLECTION);
    expect(onSamples!.pass).toBe(false);
    expect(onSamples!.method).toBe('least-squares cylinder');
  });

  it('follows the corners: the bore grown by 0.003 a side reads 8.006', async () => {
    const [grown] = (await evaluate({ actualBodyId: 'grown', nominalBodyId: 'block', characteristics: [{ kind: 'diameter', faces: [hole], nominal: 2 * R, upper: 0.01, lower: 0 }] })).characteristics;
    expect(grown!.actual).toBeCloseTo(2 * R + 0.006, 9);
  });
});
