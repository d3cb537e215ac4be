import type { Page } from '@playwright/test';
import { expect, test, type App } from './fixtures/fixtures';

/**
 * Small windows (issue 20.6): the demo compared, at 1024x700, 1280x800 and 1920x1080. The overlays
 * over the view (legend and statistics) fold or stay small enough to leave the part in sight, the
 * histogram under it is drawn whole, nothing on the page is pushed out sideways. Screenshots of
 * each size are attached for a person to look at.
 */

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

type Rect = { left: number; top: number; right: number; bottom: number; width: number; height: number };

/** Where an element is drawn; null when it is not. */
async function rectOf(page: Page, testId: string): Promise<Rect | null> {
  return page.evaluate((id) => {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  }, testId);
}

/** Elements whose content is wider than their box (scrolled or cut off sideways), by class or test id. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const check = (el: Element | null, name: string) => {
      if (el && el.scrollWidth > el.clientWidth + 1) out.push(`${name} ${el.scrollWidth} > ${el.clientWidth}`);
    };
    check(document.documentElement, 'page');
    check(document.querySelector('.topbar'), 'topbar');
    check(document.querySelector('[data-testid="dock"]'), 'dock');
    check(document.querySelector('.left'), 'left');
    check(document.querySelector('.right'), 'right');
    return out;
  });
}

/** Pairs of the colour bar's tick labels whose drawn boxes overlap (text run together). */
async function overlappingTicks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const spans = [...document.querySelectorAll('[data-testid="heat.legend"] .legend-ticks span')];
    const boxes = spans.map((el) => ({ text: el.textContent ?? '', r: el.getBoundingClientRect() }));
    const out: string[] = [];
    for (let i = 1; i < boxes.length; i++) if (boxes[i]!.r.left < boxes[i - 1]!.r.right) out.push(`${boxes[i - 1]!.text} | ${boxes[i]!.text}`);
    return out;
  });
}

async function resize(app: App, size: { width: number; height: number }): Promise<void> {
  await app.page.setViewportSize(size);
  await app.nextFrames();
  await app.viewport.settled();
}

test('the compared demo at 1024x700, 1280x800 and 1920x1080: overlays leave the part in sight, the histogram whole', async ({ app }, testInfo) => {
  test.setTimeout(300_000);
  await app.scene.openDemo.click();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  await expect(app.dock.histogram).toBeVisible();

  for (const size of SIZES) {
    await resize(app, size);
    const name = `${size.width}x${size.height}`;
    const view = (await rectOf(app.page, 'viewport'))!;
    const overlay = (await rectOf(app.page, 'heat.overlay'))!;
    const histogram = (await rectOf(app.page, 'dock.histogram'))!;
    const svg = await app.page.getByTestId('dock.histogram').locator('svg').boundingBox();
    testInfo.annotations.push({
      type: `layout ${name}`,
      description: `view ${Math.round(view.width)}x${Math.round(view.height)}, overlay ${Math.round(overlay.width)}x${Math.round(overlay.height)} (${((100 * overlay.width * overlay.height) / (view.width * view.height)).toFixed(0)} % of the view, open ${await app.page.getByTestId('heat.overlay').getAttribute('data-open')}), histogram ${Math.round(histogram.width)}x${Math.round(histogram.height)}`,
    });

    // The overlay stays inside the view and covers at most a quarter of it (folded when the view is small).
    expect(overlay.left).toBeGreaterThanOrEqual(view.left);
    expect(overlay.bottom).toBeLessThanOrEqual(view.bottom);
    expect((overlay.width * overlay.height) / (view.width * view.height), name).toBeLessThan(0.25);
    // The colour bar is always there; the statistics are one click away when folded.
    await expect(app.review.legend.locator('.legend-bar')).toBeVisible();
    await expect(app.review.flyWorst).toBeVisible();

    // The histogram is drawn whole: its chart inside its card, the card inside the dock, nothing scrolled sideways.
    expect(svg).not.toBeNull();
    expect(svg!.x).toBeGreaterThanOrEqual(histogram.left - 0.5);
    expect(svg!.x + svg!.width).toBeLessThanOrEqual(histogram.right + 0.5);
    expect(histogram.right).toBeLessThanOrEqual(view.right + 0.5);
    expect(histogram.bottom).toBeLessThanOrEqual(size.height + 0.5);
    expect(svg!.width).toBeGreaterThan(250);
    expect(await overflowing(app.page), name).toEqual([]);
    await app.shot(testInfo, `layout-${name}`);
  }

  // Folded at 1024x700: one click shows the statistics (over the view, as the user asked), another folds them.
  await resize(app, SIZES[0]);
  await expect(app.page.getByTestId('heat.overlay')).toHaveAttribute('data-open', 'false');
  await expect(app.review.stats).toHaveCount(0);
  await app.page.getByTestId('heat.fold').click();
  await app.review.expectStats();
  await app.shot(testInfo, 'layout-1024x700-stats-open');
  await app.page.getByTestId('heat.fold').click();
  await expect(app.review.stats).toHaveCount(0);

  // A tolerance near half the colour range: the band's ticks are drawn only where their labels fit
  // (before, they were drawn whenever 0.3 m < tol < 0.7 m: at 1024x700 "−0.411" and "−0.19" collided).
  await app.review.stepTolerance.fill('0.19');
  for (const size of SIZES) {
    await resize(app, size);
    await expect(app.review.legend.locator('.legend-ticks span').first()).toHaveText('−0.411');
    expect(await overlappingTicks(app.page), `${size.width}x${size.height}`).toEqual([]);
  }
  await expect(app.review.legend.locator('.legend-ticks span')).toHaveText(['−0.411', '−0.19', '0', '+0.19', '+0.411']);
  await resize(app, SIZES[0]);
  await expect(app.review.legend.locator('.legend-ticks span')).toHaveText(['−0.411', '0', '+0.411']);
  await app.review.stepTolerance.fill('0.1');

  // The section strip at the smallest size: the focused overlay and the strip fit the dock.
  await app.review.cutSections.click();
  await expect.poll(async () => (await app.api.sections())?.images ?? 0, { timeout: 120_000 }).toBe(12);
  await expect(app.dock.focus.locator('img')).toBeVisible();
  const strip = (await rectOf(app.page, 'dock.section-strip'))!;
  const view = (await rectOf(app.page, 'viewport'))!;
  expect(strip.right).toBeLessThanOrEqual(view.right + 0.5);
  expect(strip.bottom).toBeLessThanOrEqual(SIZES[0].height + 0.5);
  expect(await overflowing(app.page)).toEqual([]);
  await app.viewport.settled();
  await app.shot(testInfo, 'layout-1024x700-sections');
  app.expectNoConsoleErrors();
});

/**
 * The legend never hides the part (issue 29): after Compare and after a fit, at 1440x900, 1024x700
 * and 800x600 (legend open and folded; folded only at 800x600, where the open statistics fill the
 * view), the 8 corners of the part's box projected with the live camera lie clear of the legend's
 * and the toolbar's rectangles and inside the canvas: geometry, not pixels.
 */
test('after Compare and a fit the part lies clear of the legend at 1440x900, 1024x700 and 800x600', async ({ app }, testInfo) => {
  test.setTimeout(300_000);
  await app.page.setViewportSize({ width: 1440, height: 900 });
  await app.scene.openDemo.click();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  const overlay = app.page.getByTestId('heat.overlay');

  const check = async (name: string) => {
    await app.nextFrames();
    await app.viewport.settled();
    const heat = (await app.api.heatmap())!;
    const figures = await app.viewport.expectClearOfOverlays(heat.fromBodyId, name);
    testInfo.annotations.push({ type: `part clear of the legend ${name}`, description: `${figures} (legend open ${await overlay.getAttribute('data-open')})` });
  };

  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 700 },
    { width: 800, height: 600 },
  ]) {
    const name = `${size.width}x${size.height}`;
    await app.page.setViewportSize(size);
    await app.nextFrames();
    // Compare again at this size: what the user sees right after it.
    await app.review.compare({ aligned: true });
    await expect.poll(async () => (await app.api.runningTool()) === null && (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
    await check(`${name} after Compare`);
    // A fit along the iso direction, with the legend open (the statistics shown) and folded; at
    // 800x600 (a view 260 px wide) the open statistics take the whole view: folded only, its default there.
    for (const open of size.width === 800 ? ['false'] : ['true', 'false']) {
      if ((await overlay.getAttribute('data-open')) !== open) await app.page.getByTestId('heat.fold').click();
      await expect(overlay).toHaveAttribute('data-open', open);
      await app.page.keyboard.press('0');
      await check(`${name} iso fit, legend open ${open}`);
    }
    await app.shot(testInfo, `legend-clear-${name}`);
  }
  app.expectNoConsoleErrors();
});
