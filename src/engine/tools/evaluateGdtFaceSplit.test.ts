import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { addShapeBody } from '../scene/addShapeBody';
import { createNodeEngine, nodeKernel } from '../../node/nodeEngine';
import { faceOf } from '../../test/gdtFixtures';
import { addMeshBody } from '../../test/deviationFixtures';
import { movedMesh } from '../../test/alignFixture';
import { makeDrilledBlock } from '../../test/kernelShapes';
import { occtMesh } from '../../test/scanFixture';
import type { Characteristic } from '../gdt/evaluate';

/**
 * Samples go to the face they lie on, not to the nearest face of a scan that is a little off: the
 * drilled block's own tessellation moved SHIFT along x, read as placed. The hole's wall samples
 * within SHIFT of the top are nearer the top face than the wall; read as the top's, they made its
 * flatness up to SHIFT (a form, which no placement changes). Their normals, across the top's, leave
 * them out.
 */
let engine: Engine;
type Result = { characteristics: Characteristic[]; samples: { border: number } };
const evaluate = (args: object) => engine.runJson('evaluate_gdt', args).then((r) => r.result as unknown as Result);
const SHIFT = 0.3;
let top: string;

beforeAll(async () => {
  const oc = await nodeKernel();
  engine = createNodeEngine();
  const block = makeDrilledBlock(oc, 5);
  addMeshBody(engine.scene, 'shifted', movedMesh(occtMesh(oc, block, 0.002), { r: [1, 0, 0, 0, 1, 0, 0, 0, 1], t: [SHIFT, 0, 0] }));
  addShapeBody(oc, engine.scene, 'block', block);
  top = await faceOf(engine, 'block', /plan/i, [20, 15, 20]);
});

describe('evaluate_gdt: which face a sample lies on', () => {
  it("a scan off by 0.3: the top's flatness is still its own (0), not the hole wall's depth", async () => {
    const r = await evaluate({
      actualBodyId: 'shifted',
      nominalBodyId: 'block',
      characteristics: [{ id: 'flat', kind: 'flatness', faces: [top], tolerance: 0.01 }],
      maxSamples: 200000,
    });
    const [flat] = r.characteristics;
    expect(flat!.samples).toBeGreaterThan(1000);
    expect(flat!.actual).toBeLessThan(1e-9);
    expect(flat!.pass).toBe(true);
  });
});
