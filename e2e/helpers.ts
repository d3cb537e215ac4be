import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import type { BrepscopeTestApi } from '../src/ui/testApi';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** The project's own real CAD files (test-data/README.md). */
export const DATA = path.resolve(ROOT, 'test-data/occt');

/** The viewport's clear colour (src/viewer/Viewport.tsx VIEWPORT_BACKGROUND). */
const BACKGROUND = [0xe9, 0xed, 0xf2] as const;

type Snapshot<K extends keyof BrepscopeTestApi> = Awaited<ReturnType<BrepscopeTestApi[K]>>;

/** Reads one snapshot of the page's test API (`window.__brepscope`). */
export function app<K extends keyof BrepscopeTestApi>(page: Page, key: K): Promise<Snapshot<K>> {
  return page.evaluate((k) => {
    const api = window.__brepscope;
    if (!api) throw new Error('window.__brepscope is not installed');
    return (api[k] as () => unknown)() as Snapshot<K>;
  }, key);
}

/** Share of viewport pixels that differ clearly from the background. */
export function canvasCoverage(page: Page): Promise<number> {
  return page.evaluate((bg) => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="viewport"] canvas');
    if (!canvas) return 0;
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d');
    if (!ctx) return 0;
    ctx.drawImage(canvas, 0, 0);
    const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4) {
      const d = Math.abs(data[i]! - bg[0]) + Math.abs(data[i + 1]! - bg[1]) + Math.abs(data[i + 2]! - bg[2]);
      if (d > 30) drawn++;
    }
    return drawn / (data.length / 4);
  }, BACKGROUND);
}

/** A full-page screenshot, saved as a test artifact under `name`. */
export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/** Collects console errors and uncaught page errors. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/** Records long tasks (main thread busy > 50 ms) from page start in `window.__longTasks`. */
export async function recordLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** Long tasks that started after `since` (performance.now() in the page). */
export function longTasksSince(page: Page, since: number): Promise<{ start: number; duration: number }[]> {
  return page.evaluate((t) => (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks.filter((e) => e.start >= t), since);
}

export function pageNow(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/**
 * Drops files on the page the way a browser does: dragenter, dragover and drop events carrying a
 * DataTransfer with File objects made in the page from the bytes read here. Returns after the drop
 * unless `holdBeforeDrop` is given, which runs between dragover and drop (to look at the overlay).
 */
export async function dropFiles(
  page: Page,
  files: { name: string; bytes: Buffer }[],
  holdBeforeDrop?: () => Promise<void>,
): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, b64: f.bytes.toString('base64') }));
  const dataTransfer = await page.evaluateHandle((items) => {
    const dt = new DataTransfer();
    for (const item of items) {
      const binary = atob(item.b64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      dt.items.add(new File([bytes], item.name));
    }
    return dt;
  }, payload);
  const target = '[data-testid="viewport"]';
  await page.dispatchEvent(target, 'dragenter', { dataTransfer });
  await page.dispatchEvent(target, 'dragover', { dataTransfer });
  if (holdBeforeDrop) await holdBeforeDrop();
  await page.dispatchEvent(target, 'drop', { dataTransfer });
  await dataTransfer.dispose();
}

export function dataFile(name: string): { name: string; bytes: Buffer } {
  return { name, bytes: readFileSync(path.join(DATA, name)) };
}
