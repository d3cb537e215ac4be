import { dataFile, expect, test } from './fixtures/fixtures';
import { binaryStl } from './fixtures/stl';

/**
 * A scan written in inches against a part in millimetres (docs/units.md): the Align step and the
 * comparison's notes say the sizes differ by 25.4 (UNIT_MISMATCH), and the Actual step's "File in" reads the file again in the
 * unit chosen, after which the sizes agree.
 */
const INCH = 25.4;

/** The axis-aligned box [lo, hi] as a binary STL (12 triangles, wound outward). */
function boxStl(lo: readonly number[], hi: readonly number[]): Buffer {
  const positions = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => [i & 1 ? hi[0]! : lo[0]!, i & 2 ? hi[1]! : lo[1]!, i & 4 ? hi[2]! : lo[2]!]);
  const quads = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  return binaryStl(positions, quads.flatMap(([a, b, d, e]) => [a!, b!, d!, a!, d!, e!]));
}

test('a scan in inches: the Align step says so, and "File in: inches" reads it at the part\'s size', async ({ app }, testInfo) => {
  test.setTimeout(300_000);
  // screw.step's tight box (boundingBoxOptimal), as a box scan written in inches.
  const lo = [-27.8197, -10.8263, -34.5637].map((v) => v / INCH), hi = [-7.9765, 9.1737, 7.7315].map((v) => v / INCH);
  await app.dropFiles([dataFile('screw.step'), { name: 'box-inch.stl', bytes: boxStl(lo, hi) }]);
  await expect.poll(async () => (await app.api.bodies()).map((b) => b.bodyId).sort(), { timeout: 120_000 }).toEqual(['box-inch', 'screw']);

  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', /proposed|applied|failed/, { timeout: 120_000 });
  const warning = app.page.locator('[data-testid="step.align-warning"][data-code="UNIT_MISMATCH"]');
  await expect(warning).toBeVisible();
  await expect(warning).toContainText("'box-inch' is 1/25.4 the size of 'screw'");
  await expect(warning).toContainText('"File in"');
  // The page's way, not the tool's and the command line's ('"unit": "inch" (import_file), --unit ...').
  await expect(warning).not.toContainText('command line');
  for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
    await app.page.setViewportSize(size);
    await expect(app.page.getByTestId('actual.unit')).toBeInViewport();
    await app.shot(testInfo, `unit-mismatch-${size.width}x${size.height}`);
  }

  // Compared as it stands, the review says it too, under the steps.
  await app.review.compare();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 120_000 }).toBe('done');
  await expect(app.page.locator('[data-testid="deviation.warning"][data-code="UNIT_MISMATCH"]')).toBeVisible();
  await expect(app.page.locator('[data-testid="deviation.warning"][data-code="UNIT_MISMATCH"]')).toContainText('"File in"');

  await app.page.getByTestId('actual.unit').selectOption('inch');
  await expect
    .poll(async () => (await app.api.bodies()).find((b) => b.bodyId === 'box-inch')?.declaredUnit ?? null, { timeout: 60_000 })
    .toBe('inch (given at import)');
  await expect(app.page.getByTestId('actual.unit')).toHaveValue('inch');
  await expect(warning).toHaveCount(0);
  await expect(app.page.getByTestId('deviation.warning')).toHaveCount(0);

  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', /proposed|applied|failed/, { timeout: 120_000 });
  await expect(warning).toHaveCount(0);
  await app.shot(testInfo, 'unit-given-1024x700');
});
