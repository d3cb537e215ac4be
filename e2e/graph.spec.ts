import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures/fixtures';

test('graph panel: the health record of the part, its SQLite download, graph-query on the database dropped back', async ({ demoApp: app }, testInfo) => {
  await app.scene.select('part');
  await app.graph.validate.click();
  await expect(app.graph.health).toBeVisible({ timeout: 60_000 });
  await expect(app.graph.health).toContainText('Free edges');
  expect((await app.api.graph()).isValid).toBe(true);
  const downloadPromise = app.page.waitForEvent('download');
  await app.graph.exportButton.click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('part.sqlite');
  const bytes = readFileSync(await download.path());
  expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
  expect((await app.api.graph()).lastExport?.head).toBe('SQLite format 3\0');
  await app.dropFiles([{ name: 'part.sqlite', bytes }]);
  await expect(app.graph.query).toBeVisible({ timeout: 30_000 });
  await expect(app.graph.query).toContainText('part.sqlite');
  // A database is queried, never imported as a body.
  expect((await app.api.bodies()).map((b) => b.bodyId).sort()).toEqual(['part', 'scan']);
  await app.graph.panel.scrollIntoViewIfNeeded();
  await app.shot(testInfo, 'inspect-04-graph-panel');
  app.expectNoConsoleErrors();
});
