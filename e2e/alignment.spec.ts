import { expect, test } from './fixtures/fixtures';
import { MISALIGNED, MISALIGNED_ANGLE } from './fixtures/motions';

/**
 * Align scan to part: the demo's scan is moved off the part by a known motion (set_placement from
 * the tool panel), Align proposes the inverse, Apply moves the scan back, Compare colours the part
 * against the aligned scan, Undo puts the scan back where it stood before the alignment.
 */
test.describe.configure({ mode: 'serial' });

const ANGLE = MISALIGNED_ANGLE;

/** Equal to rounding (a placement's rotation is made exactly orthonormal). */
function expectMatrix(actual: number[][], expected: number[][]): void {
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expect(actual[i]![j]!).toBeCloseTo(expected[i]![j]!, 9);
}

const distance = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

test('a misaligned scan: Align proposes the motion back, Apply moves it, Compare shows the aligned heat map, Undo restores it', async ({ app }, testInfo) => {
  // A page of its own: the shared demo page (demoApp) must not see a moved scan.
  test.setTimeout(360_000);
  await app.scene.openDemo.click();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  const compared = (await app.api.heatmap())!;
  await app.review.clear.click();
  await expect.poll(async () => Object.keys(await app.api.drawnCentres()).sort()).toEqual(['part', 'scan']);
  const home = (await app.api.drawnCentres()).scan!;

  // The scan moved off the part by a known motion.
  await app.tools.run('set_placement', { bodyId: 'scan', transform: JSON.stringify(MISALIGNED) });
  await app.tools.expectResult('set_placement');
  await expect.poll(async () => distance((await app.api.drawnCentres()).scan ?? home, home)).toBeGreaterThan(1);
  const moved = (await app.api.drawnCentres()).scan!;
  expectMatrix((await app.api.bodies()).find((b) => b.bodyId === 'scan')!.placement!.transform, MISALIGNED);

  // Align: a proposal first, nothing moves.
  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'proposed', { timeout: 90_000 });
  const proposal = (await app.api.alignment())!;
  expect(proposal).toMatchObject({ movingBodyId: 'scan', fixedBodyId: 'part' });
  expect(Math.abs(proposal.rotationAngleDegrees - ANGLE)).toBeLessThan(0.1);
  expect(proposal.rmsAfter).toBeLessThan(proposal.rmsBefore / 10);
  await expect(app.review.alignControl('rms-before')).toBeVisible();
  await expect(app.review.alignControl('rms-after')).toBeVisible();
  expect(distance((await app.api.drawnCentres()).scan!, moved)).toBeLessThan(1e-9);
  await app.shot(testInfo, 'align-01-proposed');

  // Apply: the scan comes back onto the part, near where its file put it (the demo scan is warped on
  // purpose, so its best fit stands about 0.1 off its file position).
  await app.review.alignControl('apply').click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'applied');
  await expect.poll(async () => distance((await app.api.drawnCentres()).scan!, home)).toBeLessThan(0.3);
  const placed = (await app.api.bodies()).find((b) => b.bodyId === 'scan')!.placement!;
  expect(placed.setBy).toMatchObject({ tool: 'align_bodies', fixedBodyId: 'part', rmsAfter: proposal.rmsAfter });
  expect(placed.rotationAngleDegrees).toBeLessThan(0.5);

  // Compare: the heat map of the aligned scan, as the demo's own.
  await app.review.compare({ aligned: true });
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 90_000 }).toBe('done');
  const heat = (await app.api.heatmap())!;
  expect(heat).toMatchObject({ fromBodyId: 'scan', toBodyId: 'part' });
  // The warped demo scan's best fit is not exactly its file position: the colour range moves a little
  // (seen: 9 %), and both arms of the map stay on the part.
  expect(Math.abs(heat.range - compared.range)).toBeLessThan(0.2 * compared.range);
  await expect.poll(async () => (await app.api.heatmap())?.colorAttribute?.vertices ?? 0).toBeGreaterThan(1000);
  const colours = (await app.api.heatmap())!.colorAttribute!;
  expect(colours.proud).toBeGreaterThan(colours.vertices * 0.01);
  expect(colours.shy).toBeGreaterThan(colours.vertices * 0.01);
  await app.shot(testInfo, 'align-02-compared');

  // Undo: back where it stood before the alignment (the heat map of the moved scan goes).
  await app.review.alignControl('undo').click();
  await expect(app.review.alignment).toHaveCount(0);
  await expect.poll(async () => (await app.api.heatmap()) === null).toBe(true);
  await expect.poll(async () => distance((await app.api.drawnCentres()).scan ?? home, moved)).toBeLessThan(1e-6);
  expectMatrix((await app.api.bodies()).find((b) => b.bodyId === 'scan')!.placement!.transform, MISALIGNED);
});
