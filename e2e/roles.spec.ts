import { expect, test } from './fixtures/fixtures';

/**
 * The roles of a comparison (issue 11.5): the page says which body is measured and which is the
 * reference, states the sign convention on the legend, and swaps the roles in one click, before a
 * run (the offer) and after one (measured again the other way round, every view following).
 */
test('the demo compared, roles swapped and back, then swapped in the offer before a run', async ({ app }, testInfo) => {
  test.setTimeout(300_000);
  await app.scene.openDemo.click();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  const measured = app.page.getByTestId('deviation.measured');
  const reference = app.page.getByTestId('deviation.reference');
  const swap = app.page.getByTestId('deviation.swap');
  const sign = app.page.getByTestId('heat.sign');

  // The spec's framing first: the model measured against the scan.
  await expect(measured).toHaveText('part');
  await expect(reference).toHaveText('scan');
  await expect(sign).toHaveText('+ part outside scan · − inside');
  await expect(app.page.getByTestId('deviation.roles-note')).toContainText('Reverse engineering');
  const partMax = await app.review.stat('max').textContent();

  // One click: the scan is measured against the part (quality inspection), coloured, the part hidden.
  await swap.click();
  await expect.poll(async () => (await app.api.heatmap())?.fromBodyId, { timeout: 180_000 }).toBe('scan');
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  await expect(measured).toHaveText('scan');
  await expect(reference).toHaveText('part');
  await expect(sign).toHaveText('+ scan outside part · − inside');
  await expect(app.page.getByTestId('deviation.roles-note')).toContainText('Inspection: scan is the actual, part the nominal; + is material added');
  await expect(app.page.getByTestId('heat.overlay')).toContainText('scan vs part');
  await app.review.expectStats();
  await expect(app.page.getByTestId('heat.settings')).toContainText('samples of scan against part');
  expect(await app.api.lastToolResult()).toMatchObject({ tool: 'measure_deviation', ok: true, args: { fromBodyId: 'scan', toBodyId: 'part' } });
  await app.expectDrawn(['scan']);
  await expect.poll(async () => (await app.api.heatmap())?.colorAttribute?.vertices ?? 0).toBeGreaterThan(1000);
  await app.viewport.settled();
  await app.shot(testInfo, 'roles-01-scan-against-part');

  // And back: the first figures again.
  await swap.click();
  await expect.poll(async () => (await app.api.heatmap())?.fromBodyId, { timeout: 180_000 }).toBe('part');
  await expect.poll(async () => (await app.api.heatmap())?.histogramStatus, { timeout: 180_000 }).toBe('done');
  await expect(app.review.stat('max')).toHaveText(partMax!);
  await app.expectDrawn(['part']);

  // Before a run: the offer follows the swap, and Compare runs what it offers.
  await app.review.clear.click();
  await expect(app.review.compareButton).toHaveText('Compare part with scan');
  await swap.click();
  await expect(app.review.compareButton).toHaveText('Compare scan with part');
  await expect(measured).toHaveText('scan');
  await app.shot(testInfo, 'roles-02-offer-swapped');
  await app.review.compareButton.click();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  expect(await app.api.heatmap()).toMatchObject({ fromBodyId: 'scan', toBodyId: 'part' });
  app.expectNoConsoleErrors();
});
