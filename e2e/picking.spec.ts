import { expect, test } from './fixtures/fixtures';

/** Picking and hovering faces and edges of screw.step in the viewport. */
test.describe.configure({ mode: 'serial' });

test('a click picks a face: its id and query_topology entry; hover highlights; Escape clears', async ({ partsApp: app }, testInfo) => {
  const { viewport, page } = app;
  await app.scene.setVisible('shape', false);
  // Grid and axes off by their keys, so the pixel picked below belongs to the screw.
  await page.keyboard.press('g');
  await page.keyboard.press('a');
  await page.keyboard.press('0');
  await viewport.settled();
  const p = await viewport.drawnPointNearCentre();
  await page.mouse.move(p.x, p.y);
  await expect.poll(() => app.api.hovered()).toMatchObject({ bodyId: 'screw' });
  await page.mouse.click(p.x, p.y);
  await expect(viewport.pickPanel).toHaveAttribute('data-body-id', 'screw');
  const id = await app.testId('pick.id').textContent();
  expect(id).toMatch(/^face\[\d+\]$/);
  await expect.poll(async () => (await app.api.picked())?.status).toBe('done');
  expect((await app.api.picked())?.entry).toMatchObject({ id, surfaceType: expect.any(String), area: expect.any(Number) });
  await expect(viewport.pickPanel).toContainText('surfaceType');
  await app.shot(testInfo, '05-picked-face');
  // The card never covers the view toolbar: beside it at 1440x900, under it at 1024x700 (before, it
  // lay over Grid, Axes and Edges there). Every toolbar button stays clickable.
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 700 },
  ]) {
    await page.setViewportSize(size);
    await app.nextFrames();
    const card = (await viewport.pickPanel.boundingBox())!;
    const bar = (await app.testId('view.toolbar').boundingBox())!;
    const apart = card.x >= bar.x + bar.width || card.y >= bar.y + bar.height;
    expect(apart, `${size.width}x${size.height}: card ${JSON.stringify(card)} toolbar ${JSON.stringify(bar)}`).toBe(true);
    for (const name of ['Grid (G)', 'Axes (A)', 'Edges (E)']) await app.testId('view.toolbar').getByTitle(name).click({ trial: true, timeout: 2000 });
    await app.shot(testInfo, `05b-picked-face-${size.width}x${size.height}`);
  }
  await page.setViewportSize({ width: 1400, height: 860 });
  await page.keyboard.press('Escape');
  await expect(viewport.pickPanel).toHaveCount(0);
});

test('edges are drawn; a click on an edge picks edge[N] with its query_topology entry; Edges toggles them', async ({ partsApp: app }, testInfo) => {
  const { viewport, page } = app;
  await expect.poll(async () => (await app.api.edgeSegments()).screw ?? 0).toBeGreaterThan(0);
  expect((await app.api.edgeSegments()).shape).toBeUndefined();
  const edgesButton = page.getByRole('button', { name: 'Edges' });
  await expect(edgesButton).toHaveAttribute('aria-pressed', 'true');
  const candidates = await viewport.edgePixelsNearCentre(20);
  expect(candidates.length).toBeGreaterThan(0);
  const onEdge = await viewport.hoverAnEdge(candidates);
  expect(onEdge, 'a drawn edge pixel hovers an edge').not.toBeNull();
  const hovered = await app.api.hovered();
  expect(hovered).toMatchObject({ bodyId: 'screw', entity: 'edge', index: expect.any(Number) });
  await expect(viewport.hoverReadout).toContainText(`screw · edge[${hovered!.index}]`);
  await page.mouse.click(onEdge!.x, onEdge!.y);
  await expect(viewport.pickPanel).toHaveAttribute('data-entity', 'edge');
  const id = await app.testId('pick.id').textContent();
  expect(id).toMatch(/^edge\[\d+\]$/);
  await expect.poll(async () => (await app.api.picked())?.status).toBe('done');
  const picked = await app.api.picked();
  expect(picked).toMatchObject({ bodyId: 'screw', entity: 'edge', id });
  expect(picked?.entry).toMatchObject({ id, curveType: expect.any(String), length: expect.any(Number) });
  await expect(viewport.pickPanel).toContainText('curveType');
  await app.shot(testInfo, '05b-picked-edge');
  // Edges off: no lines, the picked edge goes; on again by its key.
  await edgesButton.click();
  await expect.poll(async () => (await app.api.edgeSegments()).screw).toBeUndefined();
  await expect(viewport.pickPanel).toHaveCount(0);
  await page.keyboard.press('e');
  await expect.poll(async () => (await app.api.edgeSegments()).screw ?? 0).toBeGreaterThan(0);
  await app.scene.setVisible('shape', true);
  await page.getByRole('button', { name: 'Grid' }).click();
  await page.getByRole('button', { name: 'Axes' }).click();
  app.expectNoConsoleErrors();
});
