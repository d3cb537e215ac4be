import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures/fixtures';

test.describe.configure({ mode: 'serial' });

test('"Download report" saves the comparison as one HTML file that opens offline with its images and the numbers on screen', async ({ demoApp: app, browser }, testInfo) => {
  // Other specs share the page: colour the actual (a spec before may have left "On nominal" chosen),
  // then compare the demo pair afresh, so the last run is its measure_deviation.
  if (await app.review.onActual.isVisible()) {
    await expect(app.review.onActual).toBeEnabled({ timeout: 100_000 });
    await app.review.onActual.click();
  }
  await app.review.compare({ aligned: true });
  await expect.poll(async () => (await app.api.lastToolResult())?.tool, { timeout: 100_000 }).toBe('measure_deviation');
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 100_000 }).toBe('done');
  const deviation = (await app.api.lastToolResult()) as { tool: string; result: { fromToTo: { max: number; signedMean: number | null } } } | null;
  expect(deviation?.tool).toBe('measure_deviation');
  const downloadPromise = app.page.waitForEvent('download', { timeout: 110_000 });
  await app.review.downloadReport.click();
  await expect(app.review.downloadReport).toHaveText('Writing report…');
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('inspection-report-scan-vs-part.html');
  const html = readFileSync(await download.path(), 'utf8');
  await expect(app.review.downloadReport).toHaveText('Download report');
  await expect(app.testId('deviation.report-error')).toHaveCount(0);

  // A fresh page with every network request refused: the report needs none.
  const context = await browser.newContext();
  const requests: string[] = [];
  await context.route('**/*', (route) => {
    requests.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  await page.setContent(html, { waitUntil: 'load' });
  expect(requests).toEqual([]);
  await expect(page.locator('h1')).toContainText('Inspection report: scan against part');
  const images = page.locator('img');
  // iso, front and top heat maps and the histogram (sections an earlier spec cut on the shared page add their own).
  await expect(page.locator('img[alt^="Heat map, "]')).toHaveCount(3);
  await expect(page.locator('img[alt="Histogram of the signed deviation"]')).toHaveCount(1);
  await expect(images).toHaveCount(4 + (await page.locator('img[alt^="Section "]').count()));
  for (const img of await images.all()) expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  // The numbers are the comparison's on screen: measure_deviation's, with the page's tolerance band.
  const cell = (field: string) => page.locator(`[data-field="${field}"]`);
  expect(Number(await cell('fromToTo.max').getAttribute('data-value'))).toBe(deviation!.result.fromToTo.max);
  expect(Number(await cell('fromToTo.signedMean').getAttribute('data-value'))).toBe(deviation!.result.fromToTo.signedMean);
  const heat = (await app.api.heatmap())!;
  expect(Number(await cell('tolerance').getAttribute('data-value'))).toBe(heat.tolerance);
  await expect(cell('verdict')).toHaveText(/^(PASS|FAIL)$/);
  await page.screenshot({ path: testInfo.outputPath('report-01-opened-offline.png'), fullPage: true });
  await context.close();
});

test('a click on the heat map adds a label with its deviation; labels can be removed and go into the report', async ({ demoApp: app, browser }, testInfo) => {
  await app.review.addLabels.click();
  await expect(app.review.addLabels).toHaveAttribute('aria-pressed', 'true');
  await app.viewport.settled();
  // Coloured spots of the surface near the middle of the coloured body as the camera draws it (beside the legend).
  const heat = (await app.api.heatmap())!;
  const box = (await app.api.onScreen())!.bodies[heat.fromBodyId]!;
  const middle = { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
  const spot = await app.viewport.drawnPointNear(middle);
  await app.page.mouse.click(spot.x, spot.y);
  await expect(app.review.labels).toHaveCount(1);
  const value = app.review.labels.first().getByTestId('deviation.label-value');
  await expect(value).toHaveText(/^[+−]?[\d.,]+$/);
  // No face was picked: in label mode the click places a label.
  expect(await app.api.picked()).toBeNull();
  // Another, 30 px or more from the first.
  const other = await app.viewport.drawnPointNear(middle, { point: spot, distance: 30 });
  await app.page.mouse.click(other.x, other.y);
  await expect(app.review.labels).toHaveCount(2);
  // Each label has a callout in the view, its number and the list's value, at its dot (the clicked
  // spot, the point moved onto the measured surface). Before, the view drew bare dots.
  const tags = app.page.getByTestId('view.label-tag');
  await expect(tags).toHaveCount(2);
  await expect(app.review.labels.nth(1).getByTestId('deviation.label-value')).toHaveText(/^[+−]?[\d.,]+$/);
  for (const [i, clicked] of [spot, other].entries()) {
    await expect(tags.nth(i)).toHaveText(`${i + 1} ${await app.review.labels.nth(i).getByTestId('deviation.label-value').textContent()}`);
    const anchor = await tags.nth(i).evaluate((el) => {
      const layer = el.parentElement!.getBoundingClientRect();
      return { x: layer.left + parseFloat((el as HTMLElement).style.left), y: layer.top + parseFloat((el as HTMLElement).style.top) };
    });
    expect(Math.hypot(anchor.x - clicked.x, anchor.y - clicked.y), `label ${i + 1}`).toBeLessThan(3);
  }
  await app.shot(testInfo, 'report-02-labels');
  await app.review.labels.nth(1).getByTestId('deviation.label-remove').click();
  await expect(app.review.labels).toHaveCount(1);
  await expect(tags).toHaveCount(1);
  await app.review.addLabels.click();
  const shown = Number((await value.textContent())!.replace('\u2212', '-').replace(/[+,]/g, ''));

  const downloadPromise = app.page.waitForEvent('download', { timeout: 110_000 });
  await app.review.downloadReport.click();
  const html = readFileSync(await (await downloadPromise).path(), 'utf8');
  const context = await browser.newContext();
  await context.route('**/*', (route) => route.abort());
  const page = await context.newPage();
  await page.setContent(html, { waitUntil: 'load' });
  await expect(page.locator('[data-label]')).toHaveCount(1);
  const reported = Number(await page.locator('[data-field="labels.1.signed"]').getAttribute('data-value'));
  expect(Math.abs(reported - shown)).toBeLessThanOrEqual(Math.abs(shown) * 6e-4 + 1e-9);
  await context.close();
});
