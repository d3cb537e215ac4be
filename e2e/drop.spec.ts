import { dataFile, expect, test } from './fixtures/fixtures';

test('files dropped by a synthetic DataTransfer: the overlay shows while dragging, both bodies are listed, drawn and kept', async ({ app }, testInfo) => {
  await expect(app.scene.empty).toBeVisible();
  await app.dropFiles([dataFile('screw.step'), dataFile('shape.stl')], async () => {
    await expect(app.scene.dropOverlay).toBeVisible();
    await app.shot(testInfo, '01-drag-overlay');
  });
  await expect(app.scene.dropOverlay).toHaveCount(0);
  await app.expectDrawn(['screw', 'shape'], 90_000);
  await expect(app.scene.items).toHaveCount(2);
  await expect(app.scene.body('screw')).toContainText('faces');
  await expect(app.scene.body('shape')).toContainText('triangles');
  await expect(app.scene.validity('screw')).toHaveText('valid');
  await app.viewport.expectDrawn();
  expect((await app.api.keptBodies()).sort()).toEqual(['screw', 'shape']);
  await app.shot(testInfo, '02-dropped');
  app.expectNoConsoleErrors();
});
