import { expect, test } from '@playwright/test';
import { app, canvasCoverage, shot, watchConsole } from './helpers';

const hash = (params: [string, string][]) => `#${new URLSearchParams(params).toString()}`;

test('a share link served by vite preview under a sub-path loads its models, runs its tool and shows the result; Copy share link rebuilds it', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const consoleErrors = watchConsole(page);
  const args = { bodyId: 'part', kinds: ['hole'] };
  await page.goto(`./${hash([['model', 'demo/part.brep'], ['model', 'demo/scan.stl'], ['tool', 'recognize_features'], ['args', JSON.stringify(args)]])}`);
  // Named by their URLs' file names, so the link's args can refer to them.
  await expect.poll(() => app(page, 'drawnBodies').then((ids) => ids.sort()), { timeout: 90_000 }).toEqual(['part', 'scan']);
  const result = page.getByTestId('tool-result');
  await expect(result).toHaveAttribute('data-tool', 'recognize_features');
  const last = await app(page, 'lastToolResult');
  expect(last).toMatchObject({ tool: 'recognize_features', ok: true, args });
  // The demo part has a bore and two counterbored bolt holes.
  const features = (last?.result as { features: { kind: string }[] }).features;
  expect(features.filter((f) => f.kind === 'hole').length).toBeGreaterThanOrEqual(3);
  expect(features.filter((f) => f.kind !== 'hole')).toEqual([]);
  // The form shows the link's arguments.
  await expect(page.getByTestId('tool-form')).toHaveAttribute('data-tool', 'recognize_features');
  await expect(page.locator('[data-field="bodyId"]')).toHaveValue('part');
  await expect.poll(() => canvasCoverage(page)).toBeGreaterThan(0.02);
  // Served under /brepscope/ (playwright.config.ts): the kernel's .wasm and the models came from there.
  expect(new URL(page.url()).pathname).toBe('/brepscope/');
  expect((await app(page, 'kernel')).status).toBe('ready');
  await shot(page, testInfo, '10-share-link-opened');

  await page.getByTestId('share-link').click();
  const copied = await page.getByTestId('share-link-url').inputValue();
  const params = new URLSearchParams(new URL(copied).hash.slice(1));
  const base = new URL('./', page.url()).href;
  expect(params.getAll('model')).toEqual([`${base}demo/part.brep`, `${base}demo/scan.stl`]);
  expect(params.get('tool')).toBe('recognize_features');
  expect(JSON.parse(params.get('args') ?? '')).toEqual(args);
  await shot(page, testInfo, '11-share-link-copied');

  // A tool that writes a PNG: the file is listed with a download link and shown inline.
  await page.getByTestId('tool-select').selectOption('deviation_histogram');
  await page.locator('[data-field="fromBodyId"]').selectOption('part');
  await page.locator('[data-field="referenceBodyId"]').selectOption('scan');
  await page.locator('[data-field="outputPath"]').fill('histogram.png');
  await page.locator('[data-field="maxSamples"]').fill('3000');
  await page.getByTestId('tool-run').click();
  await expect(page.getByTestId('tool-output-link')).toHaveText('histogram.png', { timeout: 90_000 });
  const image = page.locator('[data-testid="tool-outputs"] img');
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([800, 480]);
  const outputs = (await app(page, 'lastToolResult'))?.outputs ?? [];
  expect(outputs).toEqual([{ path: 'histogram.png', size: expect.any(Number), mimeType: 'image/png' }]);
  await image.scrollIntoViewIfNeeded();
  await shot(page, testInfo, '12-tool-png-output');
  expect(consoleErrors).toEqual([]);
});

test('bad share links show an error with its code and leave the page usable', async ({ page }, testInfo) => {
  const consoleErrors = watchConsole(page);
  await page.goto(`./${hash([['model', 'javascript:alert(1)'], ['tool', 'compute_metrics']])}`);
  await expect(page.getByTestId('import-error')).toHaveAttribute('data-code', 'INVALID_ARGUMENT');

  // A link pasted into the open page (same document: hashchange) applies too.
  await page.goto(`./${hash([['model', 'demo/part.brep'], ['tool', 'compute_metrics'], ['args', '{"bodyId": ']])}`);
  await expect(page.getByTestId('import-error')).toHaveCount(2);
  await expect(page.getByTestId('import-error').nth(1)).toHaveAttribute('data-code', 'INVALID_ARGUMENT');
  await expect(page.getByTestId('import-error').nth(1)).toContainText('args');
  await page.goto('about:blank');

  // A model that cannot be downloaded and an unknown tool; the model that exists still loads.
  await page.goto(`./${hash([['model', 'http://127.0.0.1:9/missing.stl'], ['model', 'demo/scan.stl'], ['tool', 'no_such_tool']])}`);
  await expect.poll(() => app(page, 'errors').then((e) => e.map((x) => x.code).sort())).toEqual(['FILE_NOT_FOUND', 'UNKNOWN_TOOL']);
  await expect.poll(() => app(page, 'drawnBodies')).toEqual(['scan']);
  await page.goto('about:blank');

  // Arguments the engine rejects come back as INVALID_ARGUMENT from its schema, next to the form.
  await page.goto(`./${hash([['model', 'demo/scan.stl'], ['tool', 'query_topology'], ['args', JSON.stringify({ bodyId: 'scan', entity: 'solid' })]])}`);
  await expect(page.getByTestId('tool-error')).toHaveAttribute('data-code', 'INVALID_ARGUMENT');
  await expect(page.getByTestId('tool-error')).toContainText('entity');
  await shot(page, testInfo, '13-bad-link-args');

  // A worker that fails (an uncaught error, seen through its error event) is replaced and the scene restored.
  const generation = (await app(page, 'engine')).generation;
  await app(page, 'crashWorker');
  await expect(page.getByTestId('engine-notices').locator('[data-code="WORKER_CRASHED"]')).toBeVisible();
  await expect.poll(async () => (await app(page, 'engine')).generation).toBe(generation + 1);
  await expect.poll(async () => (await app(page, 'engine')).restoring).toBe(false);
  expect(await app(page, 'keptBodies')).toEqual(['scan']);
  await page.locator('[data-field="entity"]').selectOption('face');
  await page.getByTestId('tool-run').click();
  await expect(page.getByTestId('tool-result')).toHaveAttribute('data-tool', 'query_topology');
  await shot(page, testInfo, '14-worker-crashed-restored');
  // The only console error: the browser's own line about the refused download.
  expect(consoleErrors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e))).toEqual([]);
});

