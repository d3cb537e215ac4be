import { App, expect, newApp, test } from './fixtures/fixtures';

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
  // Four page loads, each starting the kernel (10 to 50 s on a loaded 2-core machine).
  test.setTimeout(360_000);
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
  // The tool's error, like its result, waits for the kernel's start (50 s seen on a loaded machine).
  await expect.poll(() => app.api.errors().then((e) => e.map((x) => x.code).sort()), { timeout: 90_000 }).toEqual(['FILE_NOT_FOUND', 'UNKNOWN_TOOL']);
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

const DEG = Math.PI / 180;
const c = Math.cos(25 * DEG), s = Math.sin(25 * DEG);
/** 25 degrees about z, then a shift (as e2e/alignment.spec.ts moves the demo's scan). */
const MISALIGNED = [
  [c, -s, 0, 3],
  [s, c, 0, -2],
  [0, 0, 1, 1],
  [0, 0, 0, 1],
];

/** What the review shows of a heat map: the engine's figures and the stats card's text. */
async function reviewFigures(app: App) {
  await expect.poll(async () => (await app.api.heatmap())?.histogramStatus, { timeout: 90_000 }).toBe('done');
  const heat = (await app.api.heatmap())!;
  await expect(app.review.stat('mean')).not.toBeEmpty();
  const stats = await app.review.stats.textContent();
  const { colorAttribute: _colours, ...figures } = heat;
  return { figures, stats };
}

test('a share link reproduces an alignment: the scan stands where it stood, bit for bit, and the heat map reads the same; Undo on the opened page drops the placement', async ({ app, browser }, testInfo) => {
  test.setTimeout(420_000);
  await app.scene.openDemo.click();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  await app.review.clear.click();

  // The scan moved off the part by a known motion, then aligned back (the placement is the two composed: no typed numbers).
  await app.tools.run('set_placement', { bodyId: 'scan', transform: JSON.stringify(MISALIGNED) });
  await app.tools.expectResult('set_placement');
  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'proposed', { timeout: 90_000 });
  await app.review.alignControl('apply').click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'applied');
  await expect(app.testId('bodies.placement')).toHaveCount(1);
  await app.review.compare({ aligned: true });
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 90_000 }).toBe('done');
  const placed = (await app.api.bodies()).find((b) => b.bodyId === 'scan')!.placement!.transform;
  const original = await reviewFigures(app);
  const measured = await app.api.lastToolResult();
  expect(measured).toMatchObject({ tool: 'measure_deviation', ok: true });

  await app.testId('share.copy').click();
  const copied = await app.testId('share.url').inputValue();
  const params = [...new URLSearchParams(new URL(copied).hash.slice(1))];
  // Then the inspection's settings (issue 29.6): tolerance, verdict rule, which surface is coloured.
  expect(params.map(([k]) => k)).toEqual(['model', 'model', 'tool', 'args', 'tool', 'args', 'tol', 'pass', 'on']);
  expect(params[2]![1]).toBe('set_placement');
  expect(JSON.parse(params[3]![1])).toEqual({ bodyId: 'scan', transform: placed, alignment: expect.objectContaining({ fixedBodyId: 'part', method: 'bestFit' }) });
  expect(params[4]![1]).toBe('measure_deviation');

  // A fresh page opens the link: no alignment runs; the link's set_placement puts the scan back, then measure_deviation colours the part.
  const opened = await newApp(browser, testInfo);
  await opened.open(new URL(copied).hash);
  await opened.expectDrawn(['part', 'scan'], 120_000);
  await expect.poll(async () => (await opened.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  const reopened = (await opened.api.bodies()).find((b) => b.bodyId === 'scan')!.placement!.transform;
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expect(Math.abs(reopened[i]![j]! - placed[i]![j]!)).toBeLessThanOrEqual(1e-9);
  // In fact to the last bit (JSON carries doubles exactly, and set_placement keeps a rotation that is orthonormal to rounding).
  expect(reopened).toEqual(placed);
  const again = await reviewFigures(opened);
  expect(again).toEqual(original);
  const remeasured = await opened.api.lastToolResult();
  expect(remeasured?.result).toEqual(measured?.result);
  expect(await opened.api.engineCalls().then((calls) => calls.filter((call) => call.tool === 'align_bodies'))).toEqual([]);
  // The review says the link placed the scan (not "unaligned"), the body list shows the placement.
  await expect(opened.review.alignment).toHaveAttribute('data-origin', 'link');
  await expect(opened.review.alignment).toContainText('placed by the share link');
  await expect(opened.testId('bodies.placement')).toHaveCount(1);
  expect(await opened.api.linkPlacement()).toEqual({ status: 'applied', movingBodyId: 'scan', previous: null });
  await opened.shot(testInfo, '14-share-link-placement');

  // Undo: the scan goes back where its file put it; the heat map of the placed scan goes, and the link no longer carries a placement.
  await opened.review.alignControl('undo').click();
  await expect(opened.review.alignment).toHaveCount(0);
  await expect.poll(async () => (await opened.api.bodies()).find((b) => b.bodyId === 'scan')!.placement).toBeNull();
  await expect(opened.testId('bodies.placement')).toHaveCount(0);
  await expect.poll(async () => opened.api.shareLink().then((l) => (l.ok ? l.url : l.reason))).not.toContain('set_placement');
  opened.expectNoConsoleErrors();
  app.expectNoConsoleErrors();
  await opened.page.context().close();
});
