import { dataFile, expect, test } from './fixtures/fixtures';

/** The engine worker cancelled, killed or crashed: a new one gets the scene back from the files the page keeps. */
test.describe.configure({ mode: 'serial' });

test('Cancel of a long run (validate_geometry with self-intersection on shell1): the page stays responsive, every body comes back', async ({ partsApp: app }, testInfo) => {
  const { tools, page } = app;
  await app.dropFiles([dataFile('shell1.brep')]);
  await app.expectDrawn(['screw', 'shape', 'shell1']);
  const generation = (await app.api.engine()).generation;
  await tools.choose('validate_geometry');
  await tools.field('bodyId').selectOption('shell1');
  // The worker holds the run's answer until released (never here): the run is still going when
  // Cancel is pressed however fast the machine, with no timing in the test. The main thread's long
  // tasks during such a run are a figure of the browser bench (bench/browser/pageTasks.bench.ts).
  await app.api.holdTool('validate_geometry');
  await tools.runButton.click();
  await expect(tools.progress).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'validate_geometry progress' })).toBeVisible();
  expect(await app.api.runningTool()).toMatchObject({ tool: 'validate_geometry' });
  // The page still answers: hovering reads the face under the cursor while the worker is busy.
  const p = await app.viewport.drawnPointNearCentre();
  await page.mouse.move(p.x, p.y);
  await expect.poll(() => app.api.hovered(), { timeout: 5_000 }).not.toBeNull();
  await app.shot(testInfo, '06-long-run-progress');
  await page.keyboard.press('Escape');
  await expect.poll(() => app.api.runningTool()).toBeNull();
  await tools.expectError('CANCELLED');
  await expect.poll(async () => (await app.api.engine()).generation).toBe(generation + 1);
  await app.expectRestored(90_000);
  expect((await app.api.bodies()).map((b) => b.bodyId).sort()).toEqual(['screw', 'shape', 'shell1']);
  expect((await app.api.errors()).filter((e) => e.code !== 'PARSE_FAILED')).toEqual([]);
  // The restored worker has the bodies: a tool on each kind works.
  await tools.run('query_topology', { bodyId: 'shell1', entity: 'edge', limit: '3' });
  await expect(tools.result.locator('tbody tr')).toHaveCount(3);
  await app.shot(testInfo, '07-after-cancel');
});

test('a killed worker is restored with all bodies; the user is told; the figures are those of before', async ({ partsApp: app }, testInfo) => {
  const { tools } = app;
  const volumeOf = async (bodyId: string) => {
    await tools.run('compute_metrics', { bodyId });
    await expect.poll(async () => (await app.api.lastToolResult())?.args).toEqual({ bodyId });
    const last = await app.api.lastToolResult();
    expect(last?.ok).toBe(true);
    return (last?.result as { volume: number }).volume;
  };
  const screwVolume = await volumeOf('screw');
  const generation = (await app.api.engine()).generation;
  const notices = (await app.api.engine()).notices.length;
  await app.api.killWorker();
  await expect.poll(async () => (await app.api.engine()).generation).toBe(generation + 1);
  await expect(app.testId('engine.notices').locator('[data-code="WORKER_CRASHED"]').last()).toBeVisible();
  await app.shot(testInfo, '08-worker-killed');
  await app.expectRestored(90_000);
  expect((await app.api.bodies()).map((b) => b.bodyId).sort()).toEqual(['screw', 'shape', 'shell1']);
  // The restored worker measures both kinds of body; the screw's volume is what it was before.
  await volumeOf('shape');
  expect(await volumeOf('screw')).toBeCloseTo(screwVolume, 9);
  expect((await app.api.engine()).notices.slice(notices).map((n) => n.code)).toEqual(['WORKER_CRASHED']);
});

test('a worker that fails (an uncaught error, seen through its error event) is replaced and the scene restored', async ({ partsApp: app }, testInfo) => {
  const generation = (await app.api.engine()).generation;
  const kept = await app.api.keptBodies();
  await app.api.crashWorker();
  await expect(app.testId('engine.notices').locator('[data-code="WORKER_CRASHED"]').last()).toBeVisible();
  await expect.poll(async () => (await app.api.engine()).generation).toBe(generation + 1);
  await app.expectRestored();
  expect(await app.api.keptBodies()).toEqual(kept);
  await app.tools.run('query_topology', { bodyId: 'shape', entity: 'face', limit: '2' });
  await app.tools.expectResult('query_topology');
  await app.shot(testInfo, '14-worker-crashed-restored');
});

test('a bad file gives its error code; the app still works', async ({ partsApp: app }, testInfo) => {
  await app.dropFiles([{ name: 'broken.step', bytes: Buffer.from('ISO-10303-21;\nHEADER;\nnot a STEP file\n') }]);
  await app.scene.expectImportError('PARSE_FAILED', 'broken.step');
  await expect(app.scene.importErrors.filter({ hasText: 'broken.step' })).toContainText('broken.step');
  await expect(app.scene.items).toHaveCount(3);
  await app.tools.run('query_topology', { bodyId: 'shape', entity: 'vertex', limit: '2' });
  await expect(app.tools.result.locator('tbody tr')).toHaveCount(2);
  await app.page.keyboard.press('f');
  await app.shot(testInfo, '09-bad-file');
  app.expectNoConsoleErrors();
});
