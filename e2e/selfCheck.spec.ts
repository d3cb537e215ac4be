import { dataFile, expect, test } from './fixtures/fixtures';
import type { App } from './fixtures/fixtures';

/**
 * Issue 34.3 in the app: validate_geometry's self-intersection check runs in a web worker nested
 * in the engine's worker, with a kernel of its own, terminated one second past the budget
 * (src/workers/browserSelfCheck.ts), as the Node hosts do with a thread.
 */

interface Validation {
  valid: boolean;
  issues: { kind: string; severity: string }[];
  selfIntersection?: { completed: boolean; checks: number; checksDone: number; seconds: number; cached: boolean };
}

/** Runs validate_geometry from the panel and returns its result, once the panel has this run's answer. */
async function validate(app: App, fields: Record<string, string>, args: Record<string, unknown>): Promise<Validation> {
  await app.api.resetEngineCalls();
  await app.tools.run('validate_geometry', fields);
  // The page sets its running tool before it calls the worker, and clears it with the answer.
  await expect.poll(async () => (await app.api.engineCalls()).some((c) => c.tool === 'validate_geometry'), { timeout: 90_000 }).toBe(true);
  await expect.poll(() => app.api.runningTool(), { timeout: 90_000 }).toBeNull();
  const last = await app.api.lastToolResult();
  expect(last).toMatchObject({ tool: 'validate_geometry', ok: true, args });
  return last?.result as Validation;
}

test('validate_geometry in the app: a check abandoned at its budget is not completed (never a verdict); the next one, in a new worker, completes', async ({ app }) => {
  await app.dropFiles([dataFile('wedge_ok.brep')]);
  await app.expectDrawn(['wedge_ok']);
  // The self-check worker's first job spins before its first check, as a kernel call that never
  // returns would: only terminating the worker ends it.
  expect(await app.api.hangSelfCheck()).toBe(true);
  const stopped = await validate(app, { bodyId: 'wedge_ok', selfIntersectionBudgetSeconds: '1' }, { bodyId: 'wedge_ok', selfIntersectionBudgetSeconds: 1 });
  expect(stopped.valid).toBe(true);
  expect(stopped.selfIntersection).toMatchObject({ completed: false, checksDone: 0, cached: false });
  expect(stopped.issues.map((i) => [i.kind, i.severity])).toEqual([['selfIntersectionNotCompleted', 'warning']]);
  // The default budget (20 s) on the wedge (one solid: one check), in a new worker.
  const done = await validate(app, { bodyId: 'wedge_ok', selfIntersectionBudgetSeconds: '' }, { bodyId: 'wedge_ok' });
  expect(done).toMatchObject({ valid: true, issues: [], selfIntersection: { completed: true, cached: false, checks: 1, checksDone: 1 } });
  // The completed answer is kept for the body.
  const again = await validate(app, { bodyId: 'wedge_ok', selfIntersectionBudgetSeconds: '0' }, { bodyId: 'wedge_ok', selfIntersectionBudgetSeconds: 0 });
  expect(again).toMatchObject({ valid: true, issues: [], selfIntersection: { completed: true, cached: true } });
});
