import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures/fixtures';

test('"Download report" saves the comparison as one HTML file that opens offline with its images and the numbers on screen', async ({ demoApp: app, browser }, testInfo) => {
  const deviation = (await app.api.lastToolResult()) as { tool: string; result: { fromToTo: { max: number; signedMean: number | null } } } | null;
  expect(deviation?.tool).toBe('measure_deviation');
  const downloadPromise = app.page.waitForEvent('download', { timeout: 110_000 });
  await app.review.downloadReport.click();
  await expect(app.review.downloadReport).toHaveText('Writing report…');
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('inspection-report-part-vs-scan.html');
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
  await expect(page.locator('h1')).toContainText('Inspection report: part against scan');
  const images = page.locator('img');
  // iso, front and top heat maps and the histogram.
  await expect(images).toHaveCount(4);
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
