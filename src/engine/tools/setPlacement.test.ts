import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import type { OC } from '../kernel';
import { settle } from '../errors';
import { addShapeBody } from '../scene/addShapeBody';
import { nodeKernel } from '../../node/nodeEngine';
import { testEngine } from '../../test/testEngine';
import { makeBox } from '../../test/kernelShapes';
import { MAX_PLACEMENT_OFFSET } from './setPlacement';

let oc: OC;
let engine: Engine;

const moveX = (x: number) => [[1, 0, 0, x], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
const place = (args: { bodyId: string; transform?: number[][]; compose?: boolean }) => settle(engine.run('set_placement', args));
const translation = async (bodyId: string) => {
  const r = await engine.run('list_bodies', {});
  const body = (r.result as { bodies: { bodyId: string; placement: { translation: number[] } | null }[] }).bodies.find((b) => b.bodyId === bodyId)!;
  return body.placement?.translation ?? null;
};
const distance = async () => {
  const r = await engine.run('measure_distance', { fromBodyId: 'moved', toBodyId: 'fixed' });
  return (r.result as { distance: number }).distance;
};

beforeAll(async () => {
  oc = await nodeKernel();
  engine = testEngine();
  addShapeBody(oc, engine.scene, 'fixed', makeBox(oc, 10, 10, 10));
  addShapeBody(oc, engine.scene, 'moved', makeBox(oc, 10, 10, 10));
}, 60_000);

describe('set_placement: translations the kernel cannot resolve are refused (bad-input sweep)', () => {
  it('a translation over 2^29 is INVALID_ARGUMENT and leaves the body where it was; 2^29 itself is a placement', async () => {
    expect(MAX_PLACEMENT_OFFSET).toBe(536870912);
    for (const x of [1e308, 1e20, MAX_PLACEMENT_OFFSET + 1, -(MAX_PLACEMENT_OFFSET + 1)]) {
      const r = await place({ bodyId: 'moved', transform: moveX(x) });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('INVALID_ARGUMENT');
        expect(r.error.message).toMatch(/translation reaches .* over the 536870912 model units/);
      }
      expect(await translation('moved')).toBeNull();
    }
    const edge = await place({ bodyId: 'moved', transform: moveX(MAX_PLACEMENT_OFFSET) });
    expect(edge.ok).toBe(true);
    expect(await translation('moved')).toEqual([MAX_PLACEMENT_OFFSET, 0, 0]);
    // Boxes [0, 10] and [2^29, 2^29 + 10] on x: a gap of 2^29 - 10, exact in doubles.
    expect(await distance()).toBe(MAX_PLACEMENT_OFFSET - 10);
  });

  it('compose: two moves in range whose sum is not are refused at the second, which changes nothing; a good move then measures right', async () => {
    expect((await place({ bodyId: 'moved', transform: moveX(4e8) })).ok).toBe(true);
    const second = await place({ bodyId: 'moved', transform: moveX(4e8), compose: true });
    expect(second.ok).toBe(false);
    if (!second.ok) {
      expect(second.error.code).toBe('INVALID_ARGUMENT');
      expect(second.error.message).toContain("composed with body 'moved''s current placement, its translation reaches 8.00e+8");
    }
    expect(await translation('moved')).toEqual([4e8, 0, 0]);
    expect((await place({ bodyId: 'moved', transform: moveX(-4e8 + 25), compose: true })).ok).toBe(true);
    expect(await translation('moved')).toEqual([25, 0, 0]);
    expect(await distance()).toBeCloseTo(15, 9);
  });
});
