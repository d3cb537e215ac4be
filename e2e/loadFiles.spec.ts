import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import type { BrepscopeTestApi } from '../src/ui/testApi';

const ROOT = path.resolve(import.meta.dirname, '..');
const STL = path.resolve(ROOT, 'test-data/occt/shape.stl');
const STEP = path.resolve(ROOT, 'test-data/occt/screw.step');

/** The viewport's clear colour (src/viewer/Viewport.tsx VIEWPORT_BACKGROUND). */
const BACKGROUND = [0xe9, 0xed, 0xf2] as const;

/** The volume the Node engine computes for the same file, through the CLI (the same tool, another host). */
interface CliMetrics {
  volume: number;
  boundingBox: { min: number[]; max: number[] };
  boundingBoxOptimal: { min: number[]; max: number[] };
}

async function cliMetrics(file: string): Promise<CliMetrics> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['bin/brepscope.js', 'tool', 'compute_metrics', '--body', `screw=${file}`, '--args', JSON.stringify({ bodyId: 'screw', metrics: ['volume', 'boundingBox', 'boundingBoxOptimal'] })],
    { cwd: ROOT, timeout: 90_000 },
  );
  return JSON.parse(stdout) as CliMetrics;
}

/** Reads one snapshot of the page's test API (`window.__brepscope`). */
function app<K extends keyof BrepscopeTestApi>(page: Page, key: K): Promise<ReturnType<BrepscopeTestApi[K]>> {
  return page.evaluate((k) => {
    const api = window.__brepscope;
    if (!api) throw new Error('window.__brepscope is not installed');
    return api[k]() as ReturnType<BrepscopeTestApi[K]>;
  }, key);
}

/** Share of viewport pixels that differ clearly from the background, and the WebGL renderer. */
function canvasCoverage(page: Page) {
  return page.evaluate((bg) => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="viewport"] canvas');
    if (!canvas) return { coverage: 0, renderer: 'no canvas', width: 0, height: 0 };
    const gl = canvas.getContext('webgl2');
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    const renderer = gl ? String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)) : 'no webgl2 context';
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d');
    if (!ctx) return { coverage: 0, renderer, width: canvas.width, height: canvas.height };
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4) {
      const d = Math.abs(data[i]! - bg[0]) + Math.abs(data[i + 1]! - bg[1]) + Math.abs(data[i + 2]! - bg[2]);
      if (d > 30) drawn++;
    }
    return { coverage: drawn / (data.length / 4), renderer, width: canvas.width, height: canvas.height };
  }, BACKGROUND);
}

test('load an STL and a STEP: both listed and drawn, the STEP volume matches the CLI, no console errors', async ({ page }, testInfo) => {
  // Started once the browser's kernel is ready, so the two kernels do not compete for the CPU.
  let expected: Promise<CliMetrics> | undefined;
  const consoleErrors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));

  const shot = async (name: string) => {
    const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
    await testInfo.attach(name, { body, contentType: 'image/png' });
  };

  await test.step('load both files; the STL is drawn while the kernel is still held back', async () => {
    // Hold the kernel's .wasm download until the STL is on screen: STL import and display must not
    // wait for the kernel, whatever the timing on this machine.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let wasmRequests = 0;
    await page.route('**/*.wasm', async (route) => {
      wasmRequests++;
      await held;
      await route.continue();
    });
    await page.goto('./');
    await expect(page.getByTestId('empty-drop')).toBeVisible();
    await expect(page.getByTestId('open-demo')).toBeVisible();
    await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-status', 'loading');
    await shot('01-empty');

    await page.getByTestId('file-input').setInputFiles([STL, STEP]);
    await expect.poll(() => app(page, 'drawnBodies')).toEqual(['shape']);
    expect(wasmRequests).toBe(1);
    expect((await app(page, 'kernel')).status).toBe('loading');
    await expect(page.getByTestId('pending-import')).toContainText('screw.step');
    await shot('02-stl-before-kernel');

    const released = Date.now();
    release();
    await expect.poll(() => app(page, 'drawnBodies').then((ids) => ids.sort())).toEqual(['screw', 'shape']);
    const kernel = await app(page, 'kernel');
    expect(kernel.status).toBe('ready');
    expected = cliMetrics(STEP);
    await expect(page.getByTestId('kernel-status')).toHaveAttribute('data-status', 'ready');
    testInfo.annotations.push({
      type: 'kernel',
      description: `loadMs ${kernel.loadMs ?? '?'} (includes the hold); STEP drawn ${Date.now() - released} ms after the wasm was released`,
    });
  });

  await test.step('the body list shows both bodies with kind, counts and validity', async () => {
    const items = page.getByTestId('body-item');
    await expect(items).toHaveCount(2);
    const shape = page.locator('[data-testid="body-item"][data-body-id="shape"]');
    const screw = page.locator('[data-testid="body-item"][data-body-id="screw"]');
    await expect(shape).toContainText('mesh');
    await expect(shape).toContainText('triangles');
    await expect(screw).toContainText('BREP');
    await expect(screw).toContainText('faces');
    await expect(screw.getByTestId('body-valid')).toHaveText('valid');
    const bodies = await app(page, 'bodies');
    expect(bodies.map((b) => [b.bodyId, b.kind]).sort()).toEqual([
      ['screw', 'brep'],
      ['shape', 'mesh'],
    ]);
    expect(bodies.find((b) => b.bodyId === 'shape')?.triangles).toBeGreaterThan(0);
  });

  await test.step('the canvas draws the bodies (WebGL, software rendering in headless Chromium)', async () => {
    await expect(page.locator('[data-testid="viewport"] canvas')).toBeVisible();
    await expect.poll(async () => (await canvasCoverage(page)).coverage).toBeGreaterThan(0.02);
    const c = await canvasCoverage(page);
    testInfo.annotations.push({ type: 'canvas', description: `${c.width}x${c.height}, ${(c.coverage * 100).toFixed(1)} % drawn, renderer ${c.renderer}` });
    await shot('03-both-bodies');
  });

  await test.step('selecting the STEP shows its volume, equal to what the Node engine computes', async () => {
    await page.locator('[data-testid="body-item"][data-body-id="screw"] .body-main').click();
    const volumeCell = page.getByTestId('metric-volume');
    await expect(volumeCell).toHaveAttribute('data-value', /\d/);
    const shown = Number(await volumeCell.getAttribute('data-value'));
    if (!expected) throw new Error('the CLI metrics were never requested');
    const cli = await expected;
    testInfo.annotations.push({ type: 'volume', description: `page ${shown}, CLI ${cli.volume}` });
    expect(Math.abs(shown - cli.volume)).toBeLessThanOrEqual(1e-9 * Math.abs(cli.volume));
    // The box size is the tight box's (about 20 x 20 x 42), not the spec's boundingBox (66 x 66 x 43:
    // the thread's B-spline control hull).
    const size = (b: { min: number[]; max: number[] }) => b.max.map((m, i) => m - b.min[i]!);
    const shownSize = (await page.getByTestId('metric-box-size').getAttribute('data-value'))!.split(' ').map(Number);
    size(cli.boundingBoxOptimal).forEach((s, i) => expect(Math.abs(shownSize[i]! - s)).toBeLessThanOrEqual(1e-9 * s));
    expect(Math.max(...size(cli.boundingBox).map((s, i) => s - shownSize[i]!))).toBeGreaterThan(40);
    const last = await app(page, 'lastToolResult');
    expect(last).toMatchObject({ tool: 'compute_metrics', ok: true, args: { bodyId: 'screw' } });
    expect((last as { args: { metrics: string[] } }).args.metrics).toContain('boundingBoxOptimal');
    await shot('04-screw-metrics');
  });

  await test.step('a corrupt file shows its error code next to the drop zone; the app stays usable', async () => {
    await page.getByTestId('file-input').setInputFiles({
      name: 'broken.step',
      mimeType: 'application/step',
      buffer: Buffer.from('ISO-10303-21;\nHEADER;\nthis is not a STEP file\n'),
    });
    const error = page.getByTestId('import-error');
    await expect(error).toHaveAttribute('data-code', 'PARSE_FAILED');
    await expect(error).toContainText('broken.step');
    expect((await app(page, 'errors')).map((e) => e.code)).toEqual(['PARSE_FAILED']);
    await expect(page.getByTestId('body-item')).toHaveCount(2);
    await page.locator('[data-testid="body-item"][data-body-id="shape"] .body-main').click();
    await expect(page.getByTestId('metric-volume')).toHaveAttribute('data-value', /\d/);
    await shot('05-import-error');
  });

  expect(consoleErrors).toEqual([]);
});
