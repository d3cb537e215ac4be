import { expect, test } from './fixtures/fixtures';
import { importBig, makeCloud, makeScan } from './fixtures/bigScans';

/**
 * Big scans import and draw (issue 20.7): a million-triangle scan is parsed in the engine's
 * worker, the viewport's buffers (normals, bounding sphere, picking BVH) are built there too, and
 * everything arrives as moved typed arrays. Long tasks are measured from the drop until the
 * viewport has built the body's geometry, with the viewport's frames held: headless Chromium draws
 * WebGL in software here, and the compositor waits for that frame on the page's thread (seconds for
 * a million triangles; a GPU draws it in milliseconds). The page's long tasks are reported here and
 * measured against the 200 ms budget in the browser bench (bench/browser/bigMesh.bench.ts), not
 * asserted: a timing budget in a pass/fail test fails now and then on a shared machine.
 */

// Playwright's trace snapshots the page at every call: work on the page's thread that is not the app's.
test.use({ trace: 'off' });

test('a 1M-triangle binary STL and a 2M-triangle binary PLY import and are drawn', async ({ app }, testInfo) => {
  test.setTimeout(600_000);
  expect(await makeScan(app.page, 'big.stl', 500, 'stl')).toEqual({ triangles: 1_000_000, bytes: 50_000_084 });
  await importBig(app, 'big', testInfo);
  expect((await app.api.bodies()).find((b) => b.bodyId === 'big')?.triangles).toBe(1_000_000);
  await app.shot(testInfo, 'big-stl');
  // Issue 22.3: a 2-million-triangle binary PLY (shared vertices, as scanner software writes it).
  expect((await makeScan(app.page, 'bigply.ply', 708, 'ply')).triangles).toBe(2_005_056);
  await importBig(app, 'bigply', testInfo);
  expect((await app.api.bodies()).find((b) => b.bodyId === 'bigply')?.triangles).toBe(2_005_056);
  // Issue 29.7: drawn at a level of detail (at most the 500k display level unless asked for all) ...
  const drawn = (await app.api.viewDetail()).bodies.bigply;
  expect(drawn?.level).toBeGreaterThanOrEqual(0);
  expect(drawn?.count).toBeLessThanOrEqual(500_000);
  // ... while the scan's own triangles are picked: the hovered triangle is one of the 2M.
  await app.scene.setVisible('big', false);
  await app.viewport.settled();
  // The app with the 2M-triangle scan alone at a laptop's and a small window's size (levels drawn, nothing cut off).
  for (const [width, height] of [[1440, 900], [1024, 700]] as const) {
    await app.page.setViewportSize({ width, height });
    await app.viewport.settled();
    await app.viewport.expectDrawn(0.02);
    await app.shot(testInfo, `big-scan-${width}x${height}`);
  }
  await app.page.setViewportSize({ width: 1400, height: 860 });
  await app.viewport.settled();
  const p = await app.viewport.drawnPointNearCentre();
  await app.page.mouse.move(p.x, p.y);
  await expect.poll(() => app.api.hovered()).toMatchObject({ bodyId: 'bigply', entity: 'face' });
  expect((await app.api.hovered())!.index).toBeLessThan(2_005_056);
  // Full detail draws every triangle at rest.
  await app.testId('view.full-detail').click();
  await expect.poll(async () => (await app.api.viewDetail()).bodies.bigply).toEqual({ level: -1, count: 2_005_056 });
  await app.testId('view.full-detail').click();
  await expect.poll(async () => (await app.api.viewDetail()).bodies.bigply?.level).toBeGreaterThanOrEqual(0);
  app.expectNoConsoleErrors();
});

test('a 5-million-point PLY cloud imports and is drawn as points', async ({ app }, testInfo) => {
  test.setTimeout(600_000);
  expect(await makeCloud(app.page, 'cloud.ply', 5_000_000)).toMatchObject({ points: 5_000_000 });
  await importBig(app, 'cloud', testInfo);
  const cloud = (await app.api.bodies()).find((b) => b.bodyId === 'cloud');
  expect(cloud).toMatchObject({ kind: 'points' });
  await app.shot(testInfo, 'big-cloud');
  app.expectNoConsoleErrors();
});
