import { expect, test } from './fixtures/fixtures';

/**
 * Inspection roles (issue 29.1): the demo opens with the actual (the scan) coloured against the
 * nominal (the part), deviation actual minus nominal; "On nominal" colours the part with the same
 * sign, one click away, and back; before a run the choice changes what Compare measures.
 */
test('the demo on its actual, then on its nominal with the same sign, and back; the choice before a run', async ({ app }, testInfo) => {
  test.setTimeout(300_000);
  await app.scene.openDemo.click();
  await expect.poll(async () => (await app.api.heatmap())?.histogramStatus, { timeout: 180_000 }).toBe('done');
  const sign = app.page.getByTestId('heat.sign');

  // The actual coloured, as GOM's "surface comparison on actual".
  expect(await app.api.heatmap()).toMatchObject({ fromBodyId: 'scan', toBodyId: 'part', nominalBodyId: 'part', flip: false });
  await expect(app.review.onActual).toHaveAttribute('aria-checked', 'true');
  await expect(sign).toHaveText('+ scan outside part · − inside (actual − nominal)');
  await expect(app.page.getByTestId('heat.overlay')).toContainText('scan vs nominal part');
  await expect(app.page.getByTestId('step.nominal-status')).toContainText('part · CAD model');
  await expect(app.page.getByTestId('step.actual-status')).toContainText('scan · mesh');
  const onActual = (await app.api.heatmap())!.histogram!.mean!;
  await app.expectDrawn(['scan']);

  // On the nominal: the part coloured, the scan hidden, every signed figure still actual minus nominal.
  await app.review.onNominal.click();
  await expect.poll(async () => (await app.api.heatmap())?.fromBodyId, { timeout: 180_000 }).toBe('part');
  await expect.poll(async () => (await app.api.heatmap())?.histogramStatus, { timeout: 180_000 }).toBe('done');
  const heat = (await app.api.heatmap())!;
  expect(heat).toMatchObject({ fromBodyId: 'part', toBodyId: 'scan', flip: true });
  expect(Math.sign(heat.histogram!.mean!)).toBe(Math.sign(onActual));
  await expect(sign).toHaveText('+ scan outside part · − inside (actual − nominal)');
  await expect(app.page.getByTestId('heat.overlay')).toContainText('on nominal part');
  await app.review.expectStats();
  expect(await app.api.lastToolResult()).toMatchObject({ tool: 'measure_deviation', ok: true, args: { fromBodyId: 'part', toBodyId: 'scan' } });
  await app.expectDrawn(['part']);
  await app.viewport.settled();
  await app.shot(testInfo, 'roles-01-on-nominal');

  // And back: the first figures again.
  await app.review.onActual.click();
  await expect.poll(async () => (await app.api.heatmap())?.fromBodyId, { timeout: 180_000 }).toBe('scan');
  await expect.poll(async () => (await app.api.heatmap())?.histogramStatus, { timeout: 180_000 }).toBe('done');
  expect((await app.api.heatmap())!.histogram!.mean).toBe(onActual);

  // Before a run: On nominal, then Compare measures the part against the scan.
  await app.review.clear.click();
  await expect(app.review.compareButton).toHaveText('Compare scan with part');
  await app.review.onNominal.click();
  await expect(app.review.onNominal).toHaveAttribute('aria-checked', 'true');
  await app.shot(testInfo, 'roles-02-offer-on-nominal');
  await app.review.compare();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  expect(await app.api.heatmap()).toMatchObject({ fromBodyId: 'part', toBodyId: 'scan', flip: true });
  app.expectNoConsoleErrors();
});
