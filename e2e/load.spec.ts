import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, newApp, test, type App } from './fixtures/fixtures';
import { ROOT } from './fixtures/AppPage';

const STL = path.resolve(ROOT, 'test-data/occt/shape.stl');
const STEP = path.resolve(ROOT, 'test-data/occt/screw.step');

interface Box {
  min: number[];
  max: number[];
}
interface CliMetrics {
  volume: number;
  boundingBox: Box;
  boundingBoxOptimal: Box;
}

/** The metrics the Node engine computes for the same file, through the CLI (the same tool, another host). */
async function cliMetrics(file: string): Promise<CliMetrics> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['bin/brepscope.js', 'tool', 'compute_metrics', '--body', `screw=${file}`, '--args', JSON.stringify({ bodyId: 'screw', metrics: ['volume', 'boundingBox', 'boundingBoxOptimal'] })],
    { cwd: ROOT, timeout: 90_000 },
  );
  return JSON.parse(stdout) as CliMetrics;
}

test.describe.configure({ mode: 'serial' });

let app: App;
// Started once the browser's kernel is ready, so the two kernels do not compete for the CPU.
let expected: Promise<CliMetrics> | undefined;

test.beforeAll(async ({ browser }, testInfo) => {
  app = await newApp(browser, testInfo);
});
test.afterAll(async () => {
  await app.page.context().close();
});

test('the STL is drawn while the kernel is held back; the STEP follows once it is ready', async ({}, testInfo) => {
  // Hold the kernel's .wasm download until the STL is on screen: STL import and display must not
  // wait for the kernel, whatever the timing on this machine.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let wasmRequests = 0;
  await app.page.route('**/*.wasm', async (route) => {
    wasmRequests++;
    await held;
    await route.continue();
  });
  await app.open();
  await expect(app.scene.empty).toBeVisible();
  await expect(app.scene.openDemo).toBeVisible();
  await expect(app.testId('engine.kernel')).toHaveAttribute('data-status', 'loading');
  await app.shot(testInfo, '01-empty');

  await app.scene.fileInput.setInputFiles([STL, STEP]);
  await expect.poll(() => app.api.drawnBodies()).toEqual(['shape']);
  expect(wasmRequests).toBe(1);
  expect((await app.api.kernel()).status).toBe('loading');
  await expect(app.scene.pending).toContainText('screw.step');
  await app.shot(testInfo, '02-stl-before-kernel');

  const released = Date.now();
  release();
  await app.expectDrawn(['screw', 'shape']);
  const kernel = await app.api.kernel();
  expect(kernel.status).toBe('ready');
  expected = cliMetrics(STEP);
  await expect(app.testId('engine.kernel')).toHaveAttribute('data-status', 'ready');
  testInfo.annotations.push({ type: 'kernel', description: `loadMs ${kernel.loadMs ?? '?'} (includes the hold); STEP drawn ${Date.now() - released} ms after the wasm was released` });
});

test('the body list shows both bodies with kind, counts and validity', async () => {
  await expect(app.scene.items).toHaveCount(2);
  await expect(app.scene.body('shape')).toContainText('mesh');
  await expect(app.scene.body('shape')).toContainText('triangles');
  await expect(app.scene.body('screw')).toContainText('BREP');
  await expect(app.scene.body('screw')).toContainText('faces');
  await expect(app.scene.validity('screw')).toHaveText('valid');
  const bodies = await app.api.bodies();
  expect(bodies.map((b) => [b.bodyId, b.kind]).sort()).toEqual([
    ['screw', 'brep'],
    ['shape', 'mesh'],
  ]);
  expect(bodies.find((b) => b.bodyId === 'shape')?.triangles).toBeGreaterThan(0);
});

test('the canvas draws the bodies (WebGL, software rendering in headless Chromium)', async ({}, testInfo) => {
  await expect(app.page.locator('[data-testid="viewport"] canvas')).toBeVisible();
  await app.viewport.expectDrawn();
  const c = await app.viewport.coverage();
  testInfo.annotations.push({ type: 'canvas', description: `${c.width}x${c.height}, ${(c.coverage * 100).toFixed(1)} % drawn, renderer ${c.renderer}` });
  await app.shot(testInfo, '03-both-bodies');
});

test('selecting the STEP shows its volume, equal to what the Node engine computes', async ({}, testInfo) => {
  await app.scene.body('screw').locator('.body-main').click();
  const volumeCell = app.testId('metrics.volume');
  await expect(volumeCell).toHaveAttribute('data-value', /\d/);
  const shown = Number(await volumeCell.getAttribute('data-value'));
  if (!expected) throw new Error('the CLI metrics were never requested');
  const cli = await expected;
  testInfo.annotations.push({ type: 'volume', description: `page ${shown}, CLI ${cli.volume}` });
  expect(Math.abs(shown - cli.volume)).toBeLessThanOrEqual(1e-9 * Math.abs(cli.volume));
  // The box size is the tight box's (about 20 x 20 x 42), not the spec's boundingBox (66 x 66 x 43:
  // the thread's B-spline control hull).
  const size = (b: Box) => b.max.map((m, i) => m - b.min[i]!);
  const shownSize = (await app.testId('metrics.box-size').getAttribute('data-value'))!.split(' ').map(Number);
  size(cli.boundingBoxOptimal).forEach((s, i) => expect(Math.abs(shownSize[i]! - s)).toBeLessThanOrEqual(1e-9 * s));
  expect(Math.max(...size(cli.boundingBox).map((s, i) => s - shownSize[i]!))).toBeGreaterThan(40);
  const last = await app.api.lastToolResult();
  expect(last).toMatchObject({ tool: 'compute_metrics', ok: true, args: { bodyId: 'screw' } });
  expect((last as { args: { metrics: string[] } }).args.metrics).toContain('boundingBoxOptimal');
  await app.shot(testInfo, '04-screw-metrics');
});

test('a corrupt file shows its error code next to the drop zone; the app stays usable', async ({}, testInfo) => {
  await app.scene.fileInput.setInputFiles({ name: 'broken.step', mimeType: 'application/step', buffer: Buffer.from('ISO-10303-21;\nHEADER;\nthis is not a STEP file\n') });
  await app.scene.expectImportError('PARSE_FAILED', 'broken.step');
  expect((await app.api.errors()).map((e) => e.code)).toEqual(['PARSE_FAILED']);
  await expect(app.scene.items).toHaveCount(2);
  await app.scene.body('shape').locator('.body-main').click();
  await expect(app.testId('metrics.volume')).toHaveAttribute('data-value', /\d/);
  await app.shot(testInfo, '05-import-error');
  app.expectNoConsoleErrors();
});
