import { mkdirSync } from 'node:fs';
import { MISALIGNED, MISALIGNED_ANGLE } from './fixtures/motions';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { binaryStl } from './fixtures/stl';
import { dataFile, expect, test, type App, type TestInfo } from './fixtures/fixtures';

/**
 * The Align step (issue 28.3, 28.4): a proposal is previewed (the scan drawn as a ghost where Apply
 * would put it; RMS before and after, rotation and translation, ambiguity in words, all in view
 * without scrolling at 1440x900 and 1024x700), then applied and undone; 3-2-1 datums are picked as
 * faces of the part in the viewport, highlight there, and the alignment reports their residuals.
 * BREPSCOPE_SHOTS=<folder>: screenshots of every state at both sizes go there.
 */
test.describe.configure({ mode: 'serial' });

const ANGLE = MISALIGNED_ANGLE;

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

const distance = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** The inspector (right column) has not been scrolled, and each element lies wholly inside the window. */
async function expectInViewWithoutScrolling(page: Page, testIds: string[]): Promise<void> {
  expect(await page.locator('aside.right').evaluate((el) => el.scrollTop)).toBe(0);
  for (const id of testIds) await expect(page.getByTestId(id)).toBeInViewport({ ratio: 1 });
}

/** At both window sizes: the elements in view without scrolling, and a screenshot when asked for. */
async function atBothSizes(app: App, name: string, testIds: string[], info: TestInfo): Promise<void> {
  const dir = process.env.BREPSCOPE_SHOTS;
  for (const size of SIZES) {
    await app.page.setViewportSize(size);
    await app.nextFrames();
    await app.viewport.settled();
    await expectInViewWithoutScrolling(app.page, testIds);
    if (dir) {
      mkdirSync(dir, { recursive: true });
      await app.page.screenshot({ path: join(dir, `${name}-${size.width}x${size.height}.png`) });
    }
  }
  await app.shot(info, name);
}

async function openDemoMoved(app: App): Promise<{ home: number[]; moved: number[] }> {
  await app.scene.openDemo.click();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  await app.review.clear.click();
  await expect.poll(async () => Object.keys(await app.api.drawnCentres()).sort()).toEqual(['part', 'scan']);
  const home = (await app.api.drawnCentres()).scan!;
  await app.tools.run('set_placement', { bodyId: 'scan', transform: JSON.stringify(MISALIGNED) });
  await app.tools.expectResult('set_placement');
  await expect.poll(async () => distance((await app.api.drawnCentres()).scan ?? home, home)).toBeGreaterThan(1);
  return { home, moved: (await app.api.drawnCentres()).scan! };
}

test('a proposal is previewed as a ghost with its figures in view, then applied, kept in the link, and undone', async ({ app }, testInfo) => {
  test.setTimeout(480_000);
  const { home, moved } = await openDemoMoved(app);

  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'proposed', { timeout: 120_000 });
  const proposal = (await app.api.alignment())!;
  expect(Math.abs(proposal.rotationAngleDegrees - ANGLE)).toBeLessThan(0.1);
  // The ghost stands where Apply would put the scan (near its file position, the demo scan being
  // warped on purpose); the scan itself has not moved.
  await expect.poll(async () => (await app.api.alignPreview()).ghost?.bodyId ?? null).toBe('scan');
  const preview = await app.api.alignPreview();
  expect(preview.ghost!.transform).toEqual(proposal.transform);
  expect(distance(preview.ghost!.centre, home)).toBeLessThan(0.3);
  expect(distance((await app.api.drawnCentres()).scan!, moved)).toBeLessThan(1e-9);
  await expect(app.review.alignControl('rotation')).toHaveText(/^2[45](\.\d+)?° about −z$/);
  await atBothSizes(app, 'align-1-preview', ['deviation.align-rms-before', 'deviation.align-rms-after', 'deviation.align-rotation', 'deviation.align-translation', 'deviation.align-apply', 'deviation.align-discard', 'align.preview'], testInfo);

  // The ghost can be hidden and shown again.
  await app.page.getByTestId('align.preview').uncheck();
  await expect.poll(async () => (await app.api.alignPreview()).ghost).toBeNull();
  await app.page.getByTestId('align.preview').check();
  await expect.poll(async () => (await app.api.alignPreview()).ghost?.bodyId ?? null).toBe('scan');

  // Apply: the scan stands where the ghost stood; the ghost goes; the link carries the placement.
  await app.review.alignControl('apply').click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'applied');
  await expect.poll(async () => distance((await app.api.drawnCentres()).scan!, preview.ghost!.centre)).toBeLessThan(1e-3);
  expect((await app.api.alignPreview()).ghost).toBeNull();
  const placed = (await app.api.bodies()).find((b) => b.bodyId === 'scan')!.placement!;
  // Applied with the alignment's figures: the body (and a report) says it was aligned, not just placed.
  expect(placed.setBy).toMatchObject({ tool: 'align_bodies', fixedBodyId: 'part', alignments: 1 });
  expect(placed.rotationAngleDegrees).toBeLessThan(0.5);
  // The share link carries the placement (the demo's files come from URLs): set_placement with the transform and those figures.
  const link = await app.api.shareLink();
  expect(link.ok).toBe(true);
  const params = [...new URLSearchParams(new URL(link.ok ? link.url : 'http://x/').hash.slice(1))];
  const at = params.findIndex(([k, v]) => k === 'tool' && v === 'set_placement');
  expect(JSON.parse(params[at + 1]![1])).toEqual({ bodyId: 'scan', transform: placed.transform, alignment: expect.objectContaining({ fixedBodyId: 'part', rmsAfter: proposal.rmsAfter }) });
  await atBothSizes(app, 'align-2-applied', ['deviation.align-undo', 'deviation.align-rms-after'], testInfo);

  // Aligning again from there: nothing better, nothing to apply, no ghost.
  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'proposed', { timeout: 120_000 });
  await expect(app.review.alignment).toHaveAttribute('data-outcome', /alreadyAligned|noBetterPose/);
  await expect(app.review.alignControl('apply')).toHaveCount(0);
  expect((await app.api.alignPreview()).ghost).toBeNull();
  await atBothSizes(app, 'align-3-nothing-better', ['deviation.align-outcome', 'deviation.align-rms-before', 'deviation.align-discard'], testInfo);
  await expect(app.review.step('align')).toContainText('aligned to part');
  // OK: the applied alignment is on show again, with its Undo.
  await app.review.alignControl('discard').click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'applied');
  await expect(app.review.alignControl('undo')).toBeVisible();

  // Undo of a fresh alignment: align from the moved pose again, apply, undo: back where it stood.
  await app.tools.run('set_placement', { bodyId: 'scan', transform: JSON.stringify(MISALIGNED) });
  await app.tools.expectResult('set_placement');
  await expect.poll(async () => distance((await app.api.drawnCentres()).scan!, moved)).toBeLessThan(1e-6);
  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'proposed', { timeout: 120_000 });
  await app.review.alignControl('apply').click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'applied');
  await app.review.alignControl('undo').click();
  await expect(app.review.alignment).toHaveCount(0);
  await expect.poll(async () => distance((await app.api.drawnCentres()).scan!, moved)).toBeLessThan(1e-6);
  await atBothSizes(app, 'align-4-undone', ['deviation.align'], testInfo);
});

test('a scan found already aligned where it stands: the Align step says so (done), after OK too, and Compare does not stop as "not aligned"', async ({ app }, testInfo) => {
  test.setTimeout(480_000);
  // The scan is the part's own display tessellation at the part's place: aligned by construction.
  await app.dropFiles([dataFile('CrankArm.brep')]);
  await app.expectDrawn(['CrankArm']);
  const mesh = (await app.api.drawnMeshes()).CrankArm!;
  await app.dropFiles([{ name: 'crank-scan.stl', bytes: binaryStl(mesh.positions, mesh.indices) }]);
  await app.expectDrawn(['CrankArm', 'crank-scan']);
  const step = app.review.step('align');
  const status = app.page.getByTestId('step.align-status');
  await expect(step).toHaveAttribute('data-state', 'warn');
  await expect(status).toHaveText('not aligned: the actual stands where its file put it');

  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-outcome', 'alreadyAligned', { timeout: 120_000 });
  await expect(app.review.alignControl('apply')).toHaveCount(0);
  // Before: "proposed, not applied yet" with a warning sign, for an answer that proposes nothing.
  await expect(step).toHaveAttribute('data-state', 'done');
  await expect(status).toHaveText(/^already aligned to CrankArm: the best fit is where it stands, RMS [\d.e−-]+$/);
  await atBothSizes(app, 'align-5-already-aligned', ['deviation.align-outcome', 'deviation.align-discard'], testInfo);
  // OK: the finding stays (before, the step went back to "not aligned" and Compare stopped to say so).
  await app.review.alignControl('discard').click();
  await expect(app.review.alignment).toHaveCount(0);
  await expect(step).toHaveAttribute('data-state', 'done');
  await expect(status).toContainText('already aligned to CrankArm');
  await app.review.compareButton.click();
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  await expect(app.review.unalignedWarning).toHaveCount(0);
  await atBothSizes(app, 'align-6-already-aligned-compared', ['step.align-status'], testInfo);

  // Moved since: the finding no longer holds; the step says what placed the scan.
  await app.tools.run('set_placement', { bodyId: 'crank-scan', transform: JSON.stringify(MISALIGNED) });
  await app.tools.expectResult('set_placement');
  await expect(status).toHaveText('placed by set_placement');
});

/** The faces of the demo part: the top, front (least y) and right (greatest x) planes. */
async function datumFaces(app: App): Promise<{ top: number; front: number; right: number }> {
  await app.tools.run('query_topology', { bodyId: 'part', entity: 'face' });
  await app.tools.expectResult('query_topology');
  const entries = (await app.api.lastToolResult())!.result as { id: string; surfaceType?: string; area?: number; centroid: number[] }[];
  const planes = entries.filter((e) => e.surfaceType === 'plane').map((e) => ({ index: Number(/\d+/.exec(e.id)![0]), area: e.area ?? 0, c: e.centroid }));
  const big = (k: number, sign: 1 | -1) => {
    const extreme = Math.max(...planes.map((p) => sign * p.c[k]!));
    // Of the faces at the extreme (within 0.1), the largest: the block's side, not a small facet there.
    return planes.filter((p) => sign * p.c[k]! > extreme - 0.1).sort((a, b) => b.area - a.area)[0]!.index;
  };
  return { top: big(2, 1), front: big(1, -1), right: big(0, 1) };
}

/** Viewport pixels in the datum colours (blue primary, teal secondary, magenta tertiary; the body is orange, the background grey). */
function datumPixels(app: App): Promise<{ blue: number; teal: number; magenta: number }> {
  return app.page.evaluate(() => {
    const px = window.__viewportPixels?.();
    let blue = 0, teal = 0, magenta = 0;
    for (let i = 0; px && i < px.data.length; i += 4) {
      const r = px.data[i]!, g = px.data[i + 1]!, b = px.data[i + 2]!;
      if (b > r + 80 && b > g + 30) blue++;
      else if (g > r + 60 && b > r + 40 && Math.abs(g - b) < 40) teal++;
      else if (r > g + 60 && b > g + 40) magenta++;
    }
    return { blue, teal, magenta };
  });
}

/** From a standard view (its key), hovers a grid over the view until `face` of the part is under the cursor, and clicks it. */
async function clickPartFace(app: App, viewKey: string, face: number): Promise<void> {
  await app.viewport.moveAway();
  await app.page.keyboard.press(viewKey);
  await app.viewport.settled();
  const box = (await app.viewport.canvas.boundingBox())!;
  for (let fy = 0.5, i = 0; i < 9; i++, fy = 0.5 + (i % 2 ? 1 : -1) * Math.ceil(i / 2) * 0.08) {
    for (let fx = 0.5, j = 0; j < 9; j++, fx = 0.5 + (j % 2 ? 1 : -1) * Math.ceil(j / 2) * 0.08) {
      await app.page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
      const hit = await expect
        .poll(async () => {
          const h = await app.api.hovered();
          return h?.bodyId === 'part' && h.entity === 'face' ? h.index : null;
        }, { timeout: 400 })
        .toBe(face)
        .then(() => true)
        .catch(() => false);
      if (hit) {
        await app.page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
        return;
      }
    }
  }
  throw new Error(`face[${face}] not found under the cursor in view ${viewKey}`);
}

test('3-2-1: datums picked on the part highlight, the alignment lists their residuals, Apply brings the scan back', async ({ app }, testInfo) => {
  test.setTimeout(480_000);
  const { home } = await openDemoMoved(app);
  const faces = await datumFaces(app);
  expect(new Set(Object.values(faces)).size).toBe(3);

  await app.page.getByTestId('align.method-3-2-1').click();
  await expect(app.page.getByTestId('align.slot-primary')).toHaveClass(/picking/);
  await expect(app.review.alignButton).toBeDisabled();
  await clickPartFace(app, '7', faces.top);
  await expect(app.page.getByTestId('align.slot-primary')).toHaveAttribute('data-faces', String(faces.top));
  await expect(app.page.getByTestId('align.slot-secondary')).toHaveClass(/picking/);
  // A click while picking fills the slot; it does not pick the face for the selection card.
  expect(await app.api.picked()).toBeNull();
  await clickPartFace(app, '1', faces.front);
  await clickPartFace(app, '3', faces.right);
  const setup = await app.api.alignPreview();
  expect(setup).toMatchObject({ method: '3-2-1', datums: { primary: faces.top, secondary: faces.front, tertiary: faces.right }, picking: null });
  await expect.poll(async () => (await app.api.alignPreview()).highlighted.part?.faces ?? []).toEqual([faces.top, faces.front, faces.right]);
  const highlighted = (await app.api.alignPreview()).highlighted.part!;
  expect(new Set(highlighted.colors).size).toBe(3);
  expect(highlighted.triangles).toBeGreaterThan(3);
  await app.page.keyboard.press('0');
  // The three faces show in their colours (the scan hidden: it stands over the top face): pixels, not only the state.
  await app.page.getByLabel('Show scan').uncheck();
  await app.viewport.settled();
  const shown = await datumPixels(app);
  expect(shown.blue).toBeGreaterThan(2000);
  expect(shown.teal).toBeGreaterThan(2000);
  expect(shown.magenta).toBeGreaterThan(1000);
  await app.page.getByLabel('Show scan').check();
  await atBothSizes(app, 'align-5-datums-picked', ['align.slot-primary', 'align.slot-secondary', 'align.slot-tertiary', 'deviation.align'], testInfo);

  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'proposed', { timeout: 180_000 });
  const call = (await app.api.lastToolResult())!;
  expect(call.args).toMatchObject({ method: '3-2-1', datums: [{ face: `face[${faces.top}]` }, { face: `face[${faces.front}]` }, { face: `face[${faces.right}]` }] });
  const rows = app.page.getByTestId('align.constraint');
  await expect(rows).toHaveCount(3);
  expect(await rows.evaluateAll((r) => r.map((e) => [e.getAttribute('data-role'), e.getAttribute('data-face')]))).toEqual([
    ['primary', `face[${faces.top}]`],
    ['secondary', `face[${faces.front}]`],
    ['tertiary', `face[${faces.right}]`],
  ]);
  const proposal = (await app.api.alignment())!;
  expect(Math.abs(proposal.rotationAngleDegrees - ANGLE)).toBeLessThan(0.5);
  await expect.poll(async () => (await app.api.alignPreview()).ghost?.bodyId ?? null).toBe('scan');
  expect(distance((await app.api.alignPreview()).ghost!.centre, home)).toBeLessThan(0.5);
  await atBothSizes(app, 'align-6-datums-preview', ['align.constraints', 'deviation.align-rms-before', 'deviation.align-rms-after', 'deviation.align-apply'], testInfo);

  await app.review.alignControl('apply').click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'applied');
  await expect.poll(async () => distance((await app.api.drawnCentres()).scan!, home)).toBeLessThan(0.5);
  await atBothSizes(app, 'align-7-datums-applied', ['align.constraints', 'deviation.align-undo'], testInfo);

  // Local fit on two picked faces, from the moved pose again: one residual row per face.
  await app.review.alignControl('undo').click();
  await expect(app.review.alignment).toHaveCount(0);
  await app.page.getByTestId('align.method-localBestFit').click();
  await expect(app.page.getByTestId('align.slot-faces')).toHaveClass(/picking/);
  await clickPartFace(app, '7', faces.top);
  await clickPartFace(app, '3', faces.right);
  await expect(app.page.getByTestId('align.slot-faces')).toHaveAttribute('data-faces', `${faces.top},${faces.right}`);
  await expect.poll(async () => (await app.api.alignPreview()).highlighted.part?.faces ?? []).toEqual([faces.top, faces.right]);
  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'proposed', { timeout: 180_000 });
  expect((await app.api.lastToolResult())!.args).toMatchObject({ method: 'localBestFit', faces: [`face[${faces.top}]`, `face[${faces.right}]`] });
  expect(await app.page.getByTestId('align.constraint').evaluateAll((r) => r.map((e) => [e.getAttribute('data-role'), e.getAttribute('data-face')]))).toEqual([
    ['face', `face[${faces.top}]`],
    ['face', `face[${faces.right}]`],
  ]);
  expect(Math.abs((await app.api.alignment())!.rotationAngleDegrees - ANGLE)).toBeLessThan(0.5);
  await atBothSizes(app, 'align-8-local-preview', ['align.constraints', 'deviation.align-rms-after', 'deviation.align-apply'], testInfo);
});
