import { App, expect, test } from './fixtures/fixtures';

const hash = (params: [string, string][]) => `#${new URLSearchParams(params).toString()}`;

test('a share link served under a sub-path loads its models, runs its tool and shows the result; Copy share link rebuilds it; a tool that writes a PNG shows it', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const app = new App(page);
  const args = { bodyId: 'part', kinds: ['hole'] };
  await app.open(hash([['model', 'demo/part.brep'], ['model', 'demo/scan.stl'], ['tool', 'recognize_features'], ['args', JSON.stringify(args)]]));
  // Named by their URLs' file names, so the link's args can refer to them.
  await app.expectDrawn(['part', 'scan'], 90_000);
  await app.tools.expectResult('recognize_features');
  const last = await app.api.lastToolResult();
  expect(last).toMatchObject({ tool: 'recognize_features', ok: true, args });
  // The demo part has a bore and two counterbored bolt holes.
  const features = (last?.result as { features: { kind: string }[] }).features;
  expect(features.filter((f) => f.kind === 'hole').length).toBeGreaterThanOrEqual(3);
  expect(features.filter((f) => f.kind !== 'hole')).toEqual([]);
  // The form shows the link's arguments.
  await expect(app.tools.form).toHaveAttribute('data-tool', 'recognize_features');
  await expect(app.tools.field('bodyId')).toHaveValue('part');
  await app.viewport.expectDrawn();
  // Served under /brepscope/ (playwright.config.ts): the kernel's .wasm and the models came from there.
  expect(new URL(page.url()).pathname).toBe('/brepscope/');
  expect((await app.api.kernel()).status).toBe('ready');
  await app.shot(testInfo, '10-share-link-opened');

  await app.testId('share.copy').click();
  const copied = await app.testId('share.url').inputValue();
  const params = new URLSearchParams(new URL(copied).hash.slice(1));
  const base = new URL('./', page.url()).href;
  expect(params.getAll('model')).toEqual([`${base}demo/part.brep`, `${base}demo/scan.stl`]);
  expect(params.get('tool')).toBe('recognize_features');
  expect(JSON.parse(params.get('args') ?? '')).toEqual(args);
  await app.shot(testInfo, '11-share-link-copied');

  // A tool that writes a PNG: the file comes back with the result, listed with a download link and shown inline.
  await app.tools.run('deviation_histogram', { fromBodyId: 'part', referenceBodyId: 'scan', outputPath: 'histogram.png', maxSamples: '3000' });
  await expect(app.testId('tools.output-link')).toHaveText('histogram.png', { timeout: 90_000 });
  const image = page.locator('[data-testid="tools.outputs"] img');
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([800, 480]);
  expect((await app.api.lastToolResult())?.outputs ?? []).toEqual([{ path: 'histogram.png', size: expect.any(Number), mimeType: 'image/png' }]);
  await image.scrollIntoViewIfNeeded();
  await app.shot(testInfo, '12-tool-png-output');
  app.expectNoConsoleErrors();
});

test('bad share links show an error with its code and leave the page usable', async ({ page }, testInfo) => {
  const app = new App(page);
  await app.open(hash([['model', 'javascript:alert(1)'], ['tool', 'compute_metrics']]));
  await expect(app.scene.importErrors).toHaveAttribute('data-code', 'INVALID_ARGUMENT');

  // A link pasted into the open page (same document: hashchange) applies too.
  await page.goto(`./${hash([['model', 'demo/part.brep'], ['tool', 'compute_metrics'], ['args', '{"bodyId": ']])}`);
  await expect(app.scene.importErrors).toHaveCount(2);
  await expect(app.scene.importErrors.nth(1)).toHaveAttribute('data-code', 'INVALID_ARGUMENT');
  await expect(app.scene.importErrors.nth(1)).toContainText('args');
  await page.goto('about:blank');

  // A model that cannot be downloaded and an unknown tool; the model that exists still loads.
  await page.goto(`./${hash([['model', 'http://127.0.0.1:9/missing.stl'], ['model', 'demo/scan.stl'], ['tool', 'no_such_tool']])}`);
  await expect.poll(() => app.api.errors().then((e) => e.map((x) => x.code).sort())).toEqual(['FILE_NOT_FOUND', 'UNKNOWN_TOOL']);
  await expect.poll(() => app.api.drawnBodies()).toEqual(['scan']);
  await page.goto('about:blank');

  // Arguments the engine rejects come back as INVALID_ARGUMENT from its schema, next to the form.
  await page.goto(`./${hash([['model', 'demo/scan.stl'], ['tool', 'query_topology'], ['args', JSON.stringify({ bodyId: 'scan', entity: 'solid' })]])}`);
  await app.tools.expectError('INVALID_ARGUMENT');
  await expect(app.tools.error).toContainText('entity');
  await app.shot(testInfo, '13-bad-link-args');
  // The only console error: the browser's own line about the refused download.
  app.expectNoConsoleErrors(/ERR_CONNECTION_REFUSED|Failed to load resource/);
});
