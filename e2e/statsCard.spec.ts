import type { Page } from '@playwright/test';
import { binaryStl } from './fixtures/stl';
import { dataFile, expect, test } from './fixtures/fixtures';

/**
 * The statistics card over the viewport shows every figure whole at 1440x900 and 1024x700. Its
 * three columns were `1fr` each, whose minimum is the content: one long value (a signed mean in
 * seven digits) widened its column and pushed the third ("p95 |d|" 0.002028 on a turned ring)
 * past the card's edge, where the overlay cut it off.
 */
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

/** Figures (dt and dd) of the stats card whose box reaches past the card's inner edge, in CSS pixels. */
async function cutFigures(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const card = document.querySelector('[data-testid="heat.stats"]');
    if (!card) return ['no stats card'];
    const box = card.getBoundingClientRect();
    const out: string[] = [];
    for (const el of card.querySelectorAll('.stat dt, .stat dd')) {
      const r = el.getBoundingClientRect();
      if (r.right > box.right - 1 || r.left < box.left + 1 || el.scrollWidth > el.clientWidth + 1) out.push(`${el.textContent} ${r.left.toFixed(0)}..${r.right.toFixed(0)} in ${box.left.toFixed(0)}..${box.right.toFixed(0)}`);
    }
    return out;
  });
}

/** Body names in the body list drawn narrower than their text (cut off, with an ellipsis or not). */
async function cutNames(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll('.body-name')].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent ?? ''));
}

/** A scan named as scans are (part, date, operator): longer than the left column at 1024x700. */
const SCAN = 'CrankArm_scan_2026-11-28_operator-A';

test('the stats card shows every figure whole, and the body list every name, at both window sizes', async ({ app }) => {
  test.setTimeout(480_000);
  // The scan is the part's own display tessellation where the part stands: deviations of a few
  // thousandths with a signed mean of a few ten-thousandths, the figures' longest forms.
  await app.dropFiles([dataFile('CrankArm.brep')]);
  await app.expectDrawn(['CrankArm']);
  const mesh = (await app.api.drawnMeshes()).CrankArm!;
  await app.dropFiles([{ name: `${SCAN}.stl`, bytes: binaryStl(mesh.positions, mesh.indices) }]);
  await app.expectDrawn(['CrankArm', SCAN]);
  await app.review.compare();
  for (const size of SIZES) {
    await app.page.setViewportSize(size);
    await app.nextFrames();
    await app.review.expectStats();
    const mean = await app.review.stat('mean').textContent();
    // The histogram's header and the card print the same figures (σ had three digits, the card four),
    // on one line drawn whole (it wrapped at 1024x700).
    const sigma = await app.review.stat('sigma').textContent();
    const caption = app.page.getByTestId('dock.histogram').locator('figcaption');
    await expect(caption).toHaveText(`Signed deviation · mean ${mean} · σ ${sigma}`);
    expect(await caption.evaluate((el) => ({ cut: el.scrollWidth > el.clientWidth + 1, oneLine: el.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).fontSize) })), `${size.width}x${size.height}`).toEqual({ cut: false, oneLine: true });
    expect(await cutFigures(app.page), `${size.width}x${size.height}, signed mean ${mean}`).toEqual([]);
    // The body list names each body whole (before, cut with an ellipsis at both sizes).
    await expect(app.page.locator('.body-name')).toHaveText(['CrankArm', SCAN]);
    expect(await cutNames(app.page), `${size.width}x${size.height}`).toEqual([]);
  }
  app.expectNoConsoleErrors();
});
