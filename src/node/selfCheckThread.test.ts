import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine';
import { type OC } from '../engine/kernel';
import { addShapeBody } from '../engine/scene/addShapeBody';
import type { BodyValidation } from '../engine/tools/validateGeometry';
import { compoundOf, figureEightPrism, makeBox } from '../test/kernelShapes';
import { createNodeEngine, nodeKernel } from './nodeEngine';
import { createSelfCheckThread } from './selfCheckThread';

/**
 * Issue 34: the self-intersection budget overran by one kernel call (CAx-IF dm1-id-214.stp: 53 s
 * against 20 s; a call cannot be interrupted from JavaScript). The Node hosts run the check in a
 * thread of its own and stop the thread when a call runs past the budget.
 */

let oc: OC;
const threads: ReturnType<typeof createSelfCheckThread>[] = [];
const engineWith = (thread?: ReturnType<typeof createSelfCheckThread>): Engine => {
  if (thread) threads.push(thread);
  return createNodeEngine({ selfCheckThread: thread });
};
const validate = async (engine: Engine, bodyId: string, args: Record<string, unknown> = {}): Promise<BodyValidation> => (await engine.run('validate_geometry', { bodyId, ...args })).result as BodyValidation;

beforeAll(async () => {
  oc = await nodeKernel();
});
afterAll(async () => {
  for (const t of threads) await t.dispose();
});

describe('the self-intersection check in a thread that can be abandoned (issue 34.3)', () => {
  it('finds what the in-line check finds, ids included: a crossing prism (error) and two boxes in contact (interference pairs)', async () => {
    // face[0..41]: the figure-eight prism; then the two boxes, touching on x = 100.
    const shape = (): ReturnType<typeof makeBox> => compoundOf(oc, [figureEightPrism(oc, 40), makeBox(oc, 10, 10, 10, [90, 0, 0]), makeBox(oc, 10, 10, 10, [100, 0, 0])]);
    const inLine = engineWith();
    const threaded = engineWith(createSelfCheckThread());
    addShapeBody(oc, inLine.scene, 'part', shape());
    addShapeBody(oc, threaded.scene, 'part', shape());
    const expected = await validate(inLine, 'part', { selfIntersectionBudgetSeconds: 600 });
    const got = await validate(threaded, 'part', { selfIntersectionBudgetSeconds: 600 });
    expect(expected.selfIntersection).toMatchObject({ completed: true, cached: false });
    expect(got.selfIntersection).toMatchObject({ completed: true, cached: false, checks: expected.selfIntersection!.checks, checksDone: expected.selfIntersection!.checks });
    expect(got.valid).toBe(false);
    expect(got.issues).toEqual(expected.issues);
    const self = got.issues.find((i) => i.kind === 'selfIntersection')!;
    expect(self.severity).toBe('error');
    expect(self.entities.filter((id) => id.startsWith('face[')).length).toBeGreaterThanOrEqual(2);
    // The prism is solid[0]; the boxes solid[1] and solid[2] share the square x = 100.
    expect(got.issues.find((i) => i.kind === 'interference')).toMatchObject({ severity: 'warning', entities: ['solid[1]', 'solid[2]'], pairs: [{ solids: ['solid[1]', 'solid[2]'], contact: 'touch' }] });
    // Asked again: the thread's completed answer is kept for the body.
    expect(await validate(threaded, 'part', { selfIntersectionBudgetSeconds: 0 })).toMatchObject({ issues: expected.issues, selfIntersection: { completed: true, cached: true } });
  });

  it('a kernel call that never returns is abandoned at the budget: reported not completed, never a verdict; the next check runs in a new thread', async () => {
    // The thread's first job spins as a kernel call with no end would; in line this call would never return.
    const engine = engineWith(createSelfCheckThread({ hangForTest: { job: 1, afterChecks: 0 } }));
    addShapeBody(oc, engine.scene, 'box', makeBox(oc, 10, 20, 30));
    const stopped = await validate(engine, 'box', { selfIntersectionBudgetSeconds: 1 });
    expect(stopped.valid).toBe(true);
    expect(stopped.selfIntersection).toMatchObject({ completed: false, checksDone: 0, cached: false });
    expect(stopped.issues.map((i) => [i.kind, i.severity])).toEqual([['selfIntersectionNotCompleted', 'warning']]);
    const again = await validate(engine, 'box', { selfIntersectionBudgetSeconds: 600 });
    expect(again).toMatchObject({ valid: true, issues: [], selfIntersection: { completed: true, cached: false, checks: 1, checksDone: 1 } });
  });

  it('what the checks done had found before a call was abandoned is reported: a crossing found first makes the body invalid', async () => {
    // Two parts, two checks: the bow-tie prism (6 faces, one check, crossing) then a box far off; the
    // thread spins at the second.
    const engine = engineWith(createSelfCheckThread({ hangForTest: { job: 1, afterChecks: 1 } }));
    addShapeBody(oc, engine.scene, 'pair', compoundOf(oc, [figureEightPrism(oc, 4), makeBox(oc, 1, 1, 1, [100, 100, 100])]));
    const v = await validate(engine, 'pair', { selfIntersectionBudgetSeconds: 5 });
    expect(v.selfIntersection).toMatchObject({ completed: false, checks: 2, checksDone: 1, cached: false });
    expect(v.valid).toBe(false);
    const kinds = v.issues.map((i) => [i.kind, i.severity]);
    expect(kinds).toContainEqual(['selfIntersection', 'error']);
    expect(kinds[kinds.length - 1]).toEqual(['selfIntersectionNotCompleted', 'warning']);
    const self = v.issues.find((i) => i.kind === 'selfIntersection')!;
    // The crossing side faces of the bow-tie's two crossing edges (faces 0 to 5 are the prism's).
    expect(self.entities.length).toBeGreaterThanOrEqual(2);
    for (const id of self.entities) expect(id).toMatch(/^(face|edge|vertex)\[/);
    expect(self.entities.filter((id) => /^face\[[0-5]\]$/.test(id)).length).toBeGreaterThanOrEqual(2);
  });

  it('a budget past what a timer holds (2^31 - 1 ms, about 24.8 days) is no budget at all, not one already run out (bad-input sweep)', async () => {
    // Node fires a longer setTimeout at once: 1e308 s and 3e6 s reported "not completed, 0 of 0 checks" after 4 ms.
    const engine = engineWith(createSelfCheckThread());
    for (const seconds of [1e308, 3e6, 2 ** 31 / 1000]) {
      addShapeBody(oc, engine.scene, `box${seconds}`, makeBox(oc, 10, 20, 30));
      const r = await validate(engine, `box${seconds}`, { selfIntersectionBudgetSeconds: seconds });
      expect(r).toMatchObject({ valid: true, issues: [], selfIntersection: { completed: true, cached: false, checks: 1, checksDone: 1 } });
    }
  });
});
