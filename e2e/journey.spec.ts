import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { dataFile, expect, newApp, test, type App } from './fixtures/fixtures';

/**
 * The inspection journey a quality engineer expects (issue 29): a STEP part (mm) as the nominal and
 * its scan, 0.1 mm oversize, as the actual, dropped as STL, PLY and XYZ; Compare reads a positive
 * signed mean in all three (actual minus nominal: material outside); "On nominal" keeps the sign; a
 * moved scan, Align, Apply, Compare reads the same; the tolerance survives a share link and a session
 * file; the report shows the screen's figures, and prints to PDF. Screenshots of every state at
 * 1440x900 and 1024x700 go to BREPSCOPE_SHOTS or the system's temporary directory (not the checkout).
 * The scan is made in this process by the kernel from a fine tessellation (fixtures/oversizeScan.ts),
 * so its true offset is known: 0.1 at every node.
 */
test.describe.configure({ mode: 'serial' });

const OVERSIZE = 0.1;
/** A CAX-IF STEP part in mm (points.spec.ts uses it too); 80 x 80 x 154 mm. */
const PART = 'sg1-c5-214';
/**
 * The scan's tessellation deflection (mm): its triangles fall short of the offset surface by at most
 * about this, so the true signed mean lies within a few thousandths under +0.1 (+0.0996 measured by
 * the engine in Node on this very mesh).
 */
const SCAN_DEFLECTION = 0.002;
/** The scan's signed mean computed independently (Open3D, see the first test). */
const INDEPENDENT = { mesh: 0.1, nodes: 0.0965 };
/** How close to the true offset every Compare must read. */
const CLOSE = 0.005;
/** Screenshots: BREPSCOPE_SHOTS, else the system's temporary directory (never the checkout). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = process.env.BREPSCOPE_SHOTS ?? join(tmpdir(), 'brepscope-journey-shots');
mkdirSync(SHOTS, { recursive: true });

/** Binary STL: 80-byte header, count, per triangle a zero normal, three vertices, attribute. */
function binaryStl(p: Float32Array, idx: number[]): Buffer {
  const T = idx.length / 3;
  const out = Buffer.alloc(84 + 50 * T);
  out.write('oversize scan made by the journey e2e test', 0, 'latin1');
  out.writeUInt32LE(T, 80);
  for (let t = 0; t < T; t++) {
    const o = 84 + 50 * t + 12;
    for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) out.writeFloatLE(p[3 * idx[3 * t + k]! + j]!, o + 12 * k + 4 * j);
  }
  return out;
}

function asciiPly(p: Float32Array, idx: number[]): Buffer {
  const V = p.length / 3, T = idx.length / 3;
  const lines = ['ply', 'format ascii 1.0', `element vertex ${V}`, 'property float x', 'property float y', 'property float z', `element face ${T}`, 'property list uchar int vertex_indices', 'end_header'];
  for (let v = 0; v < V; v++) lines.push(`${p[3 * v]} ${p[3 * v + 1]} ${p[3 * v + 2]}`);
  for (let t = 0; t < T; t++) lines.push(`3 ${idx[3 * t]} ${idx[3 * t + 1]} ${idx[3 * t + 2]}`);
  return Buffer.from(lines.join('\n') + '\n');
}

function xyz(p: Float32Array): Buffer {
  const lines: string[] = [];
  for (let v = 0; v < p.length; v += 3) lines.push(`${p[v]} ${p[v + 1]} ${p[v + 2]}`);
  return Buffer.from(lines.join('\n') + '\n');
}

/**
 * The page at 1024x700 and at 1440x900, into the screenshot folder; back to 1440x900. With colours
 * shown, the coloured body lies clear of the legend and the toolbar at each size (its box projected).
 */
async function shoot(app: App, name: string): Promise<void> {
  for (const [w, h] of [
    [1024, 700],
    [1440, 900],
  ] as const) {
    await app.page.setViewportSize({ width: w, height: h });
    await app.nextFrames();
    await app.viewport.settled();
    await app.page.screenshot({ path: join(SHOTS, `${name}-${w}x${h}.png`) });
    const heat = await app.api.heatmap();
    if (heat?.status === 'done') await app.viewport.expectClearOfOverlays(heat.fromBodyId, `${name} at ${w}x${h}`);
  }
}

/** A number as the page writes it (true minus, thousands commas, units) back to a number. */
const read = (text: string | null) => Number((text ?? '').replace('\u2212', '-').replace(/[^\d.+-]/g, ''));

async function statMean(app: App): Promise<number> {
  await expect.poll(async () => (await app.api.heatmap())?.histogramStatus, { timeout: 180_000 }).toBe('done');
  return (await app.api.heatmap())!.histogram!.mean!;
}

async function removeBody(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Remove ${name}` }).click();
}

interface Scan {
  /** Three float32 per node. */
  positions: Float32Array;
  indices: number[];
}

/**
 * The oversize scan, made by scripts/oversizeScan.ts in a process of its own with the Node kernel
 * (not the page under test; e2e code does not load the engine): the part's tessellation at
 * SCAN_DEFLECTION, every node moved OVERSIZE along its face's exact outward normal.
 */
function oversizeScan(): Scan {
  const dir = mkdtempSync(join(tmpdir(), 'brepscope-journey-scan-'));
  try {
    const out = join(dir, 'scan.bin');
    execFileSync('npx', ['tsx', 'scripts/oversizeScan.ts', `cax-if/${PART}.stp`, String(OVERSIZE), String(SCAN_DEFLECTION), out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 });
    const bytes = readFileSync(out);
    const n = bytes.readUInt32LE(0), t = bytes.readUInt32LE(4);
    const positions = new Float32Array(bytes.buffer.slice(bytes.byteOffset + 8, bytes.byteOffset + 8 + 12 * n));
    const indices = Array.from(new Uint32Array(bytes.buffer.slice(bytes.byteOffset + 8 + 12 * n, bytes.byteOffset + 8 + 12 * n + 12 * t)));
    return { positions, indices };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let scan: Scan;

test.beforeAll(() => {
  test.setTimeout(300_000);
  scan = oversizeScan();
});

test('the journey: a STEP part and its 0.1 mm oversize scan as STL, PLY and XYZ all read a signed mean close to +0.1; "On nominal" keeps the sign', async ({ app }) => {
  test.setTimeout(900_000);
  await app.page.setViewportSize({ width: 1440, height: 900 });
  // The empty page offers the journey and the demo, not a tool form.
  await expect(app.review.step('nominal')).toHaveAttribute('data-state', 'active');
  await expect(app.testId('tools.panel')).toHaveCount(0);
  await expect(app.scene.openDemo).toBeVisible();
  await shoot(app, '01-empty');

  await app.dropFiles([dataFile(`cax-if/${PART}.stp`)]);
  await app.expectDrawn([PART], 300_000);
  await expect(app.review.step('nominal')).toHaveAttribute('data-state', 'done');
  await expect(app.testId('step.nominal-status')).toContainText(`${PART} · CAD model, mm`);
  await expect(app.review.step('actual')).toHaveAttribute('data-state', 'active');
  await shoot(app, '02-nominal');

  const means: Record<string, number> = {};
  for (const [format, file] of [
    ['stl', binaryStl(scan.positions, scan.indices)],
    ['ply', asciiPly(scan.positions, scan.indices)],
    ['xyz', xyz(scan.positions)],
  ] as const) {
    const name = `scan-${format}`;
    await app.dropFiles([{ name: `${name}.${format}`, bytes: file }]);
    await app.expectDrawn([PART, name], 120_000);
    // The scan declares no unit: it is read in its nominal's (mm), and the page says so.
    await expect(app.testId('step.actual-status')).toContainText(`${name} · ${format === 'xyz' ? 'point cloud' : 'mesh'}, read in mm (no unit in its file)`);
    await expect(app.review.step('align')).toHaveAttribute('data-state', 'warn');
    await expect(app.review.compareButton).toHaveText(`Compare ${name} with ${PART}`);
    if (format === 'stl') {
      // The part's PMI has no general tolerance (a STEP without semantic PMI): the stated default stays, and the step says why.
      await expect(app.testId('step.tolerance-source')).toContainText("stated default; the CAD's PMI has no general tolerance");
      await expect(app.review.stepTolerance).toHaveValue('0.1');
      await shoot(app, '03-actual');
    }
    // Not aligned: Compare stops once and says why.
    await app.review.compareButton.click();
    await expect(app.review.unalignedWarning).toContainText('not aligned');
    if (format === 'stl') await shoot(app, '03b-not-aligned-warning');
    await app.testId('step.compare-anyway').click();
    means[format] = await statMean(app);
    const heat = (await app.api.heatmap())!;
    expect(heat).toMatchObject({ fromBodyId: name, toBodyId: PART, nominalBodyId: PART, flip: false, tolerance: 0.1 });
    await expect(app.review.stat('mean')).toHaveText(/^\+/);
    await expect(app.testId('heat.sign')).toHaveText(`+ ${name} outside ${PART} · − inside (actual − nominal)`);
    await expect(app.review.legend).toContainText('mm');
    await expect(app.review.verdict).toContainText(/^(PASS|FAIL) [\d.]+ % within ±0.1 mm · rule: at least 99.00 %$/);
    await expect(app.review.step('compare')).toHaveAttribute('data-state', 'done');
    await shoot(app, `04-compared-${format}`);

    if (format === 'stl') {
      // On the nominal: the part coloured, the same sign (its own measurement negated), and the same
      // verdict: the actual's share, which the step's chip and the report read too.
      const actualVerdict = await app.review.verdict.textContent();
      await app.review.onNominal.click();
      await expect.poll(async () => (await app.api.heatmap())?.fromBodyId, { timeout: 180_000 }).toBe(PART);
      const onNominal = await statMean(app);
      expect((await app.api.heatmap())!.flip).toBe(true);
      // Positive too; the part's samples near its edges reach across the gaps where the scan's faces part, so it may read less.
      expect(onNominal).toBeGreaterThan(0);
      await expect(app.review.stat('mean')).toHaveText(/^\+/);
      const [chip, share] = actualVerdict!.match(/^(PASS|FAIL) ([\d.]+ %)/)!.slice(1);
      await expect(app.review.verdict).toContainText(`${chip} ${share} of ${name} within ±0.1 mm · rule: at least 99.00 % of the actual`);
      await expect(app.testId('step.verdict')).toHaveText(chip!);
      await shoot(app, '05-on-nominal');
      await app.review.onActual.click();
      await expect.poll(async () => (await app.api.heatmap())?.fromBodyId, { timeout: 180_000 }).toBe(name);

      // The actual's statistics fail (a kernel abort in them, simulated in the worker): no verdict on
      // the chip, and why in the card, never the coverage's share; the worker is replaced and
      // "Compare again" gives the same verdict back.
      await app.api.abortNextRun('deviation_histogram', name);
      await app.review.onNominal.click();
      await expect(app.testId('heat.verdict-error')).toContainText(`No verdict: the statistics of ${name} failed. KERNEL_ABORTED kernel aborted`);
      await expect(app.testId('step.verdict')).toHaveText('no verdict');
      await expect(app.review.verdict).toHaveCount(0);
      await app.expectRestored();
      await shoot(app, '05b-no-verdict');
      await app.review.compareButton.click();
      await expect(app.review.verdict).toContainText(`${chip} ${share} of ${name} within ±0.1 mm`, { timeout: 180_000 });
      await expect(app.testId('step.verdict')).toHaveText(chip!);
      await app.review.onActual.click();
      await expect.poll(async () => (await app.api.heatmap())?.fromBodyId, { timeout: 180_000 }).toBe(name);
    }
    if (format === 'xyz') await expect(app.review.onNominal).toBeDisabled();
    await removeBody(app.page, name);
    await app.expectDrawn([PART], 60_000);
  }
  console.log(`signed means (mm): ${JSON.stringify(means)}`);
  // The scan's nodes lie exactly 0.1 out along the exact normals; its triangles within the 0.002
  // deflection of the offset surface: every format reads within 0.005 of +0.1 ...
  for (const [format, m] of Object.entries(means)) expect(Math.abs(m - OVERSIZE), format).toBeLessThan(CLOSE);
  // ... and within 0.002 of the figures Open3D computes for this very scan (RaycastingScene signed
  // distance to the part's own tessellation at 0.0005 mm, outside of the engine): +0.1000 over the
  // triangles' area (400,000 uniform samples), +0.0965 over the nodes, which read less because the
  // nodes at a concave edge, moved off one face, land on the other.
  expect(Math.abs(means.stl! - INDEPENDENT.mesh)).toBeLessThan(0.002);
  expect(Math.abs(means.ply! - INDEPENDENT.mesh)).toBeLessThan(0.002);
  expect(Math.abs(means.xyz! - INDEPENDENT.nodes)).toBeLessThan(0.002);
  app.expectNoConsoleErrors();
});

test('a moved scan, Align, Apply, Compare reads what the scan where its file put it reads', async ({ app }) => {
  test.setTimeout(900_000);
  await app.page.setViewportSize({ width: 1440, height: 900 });
  await app.dropFiles([dataFile(`cax-if/${PART}.stp`), { name: 'scan.stl', bytes: binaryStl(scan.positions, scan.indices) }]);
  await app.expectDrawn([PART, 'scan'], 300_000);
  await app.review.compare();
  const asRead = await statMean(app);
  expect((await app.api.heatmap())!).toMatchObject({ fromBodyId: 'scan', toBodyId: PART, flip: false });

  const c = Math.cos(0.35), s = Math.sin(0.35);
  await app.review.clear.click();
  await app.tools.run('set_placement', { bodyId: 'scan', transform: JSON.stringify([[c, -s, 0, 4], [s, c, 0, -3], [0, 0, 1, 2], [0, 0, 0, 1]]) });
  await app.tools.expectResult('set_placement');
  await app.review.alignButton.click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'proposed', { timeout: 180_000 });
  await shoot(app, '06-align-proposed');
  await app.review.alignControl('apply').click();
  await expect(app.review.alignment).toHaveAttribute('data-status', 'applied');
  await expect(app.testId('step.align-status')).toContainText(`aligned to ${PART}, RMS`);
  await shoot(app, '07-aligned');
  await app.review.compare({ aligned: true });
  await expect.poll(async () => (await app.api.heatmap())?.status, { timeout: 180_000 }).toBe('done');
  const aligned = await statMean(app);
  console.log(`oversize scan signed mean: as read ${asRead}, moved and aligned ${aligned}`);
  // The best fit of a uniformly oversize scan is where its file put it: the same figure, both close to +0.1.
  expect(Math.abs(asRead - OVERSIZE)).toBeLessThan(CLOSE);
  expect(Math.abs(aligned - asRead)).toBeLessThan(0.002);
  await shoot(app, '08-aligned-compared');
});

test('the tolerance, verdict rule and title block survive a share link and a session file; the report shows the screen\'s figures and prints to PDF', async ({ app, browser }, testInfo) => {
  test.setTimeout(900_000);
  await app.page.setViewportSize({ width: 1440, height: 900 });
  // A link as a colleague sends it: the demo's files by URL, Compare, tolerance ±0.15, PASS at 95 %.
  const hash = `#${new URLSearchParams([
    ['model', 'demo/part.brep'],
    ['model', 'demo/scan.stl'],
    ['tool', 'measure_deviation'],
    ['args', JSON.stringify({ fromBodyId: 'scan', toBodyId: 'part' })],
    ['tol', '0.15'],
    ['pass', '0.95'],
    ['part', 'Bracket <B-7>'],
    ['operator', 'Ann'],
  ]).toString()}`;
  await app.open(hash);
  await statMean(app);
  await expect(app.review.stepTolerance).toHaveValue('0.15');
  await expect(app.review.stat('within')).toBeVisible();
  await expect(app.page.getByText('Within ±0.15', { exact: true })).toBeVisible();
  expect((await app.api.heatmap())!.tolerance).toBe(0.15);
  await expect(app.review.passShare).toHaveValue('95');
  await expect(app.review.titleField('part')).toHaveValue('Bracket <B-7>');
  await app.review.titleField('revision').fill('C');
  await app.review.titleField('serial').fill('SN-0042');
  await shoot(app, '09-link-opened');
  const screen = {
    mean: await app.review.stat('mean').textContent(),
    sigma: await app.review.stat('sigma').textContent(),
    p95: await app.review.stat('p95').textContent(),
    max: await app.review.stat('max').textContent(),
    within: await app.review.stat('within').textContent(),
    verdict: await app.review.verdict.locator('.verdict-chip').textContent(),
    maxDistance: (await app.api.heatmap())!.maxDistance,
  };

  // The page's own link carries them back.
  await app.testId('share.copy').click();
  const copied = new URLSearchParams(new URL(await app.testId('share.url').inputValue()).hash.slice(1));
  expect([copied.get('tol'), copied.get('pass'), copied.get('part'), copied.get('rev'), copied.get('serial')]).toEqual(['0.15', '0.95', 'Bracket <B-7>', 'C', 'SN-0042']);

  // The session file: saved, then dropped on a fresh page; the same settings and figures come back.
  const sessionPromise = app.page.waitForEvent('download');
  await app.testId('share.save-session').click();
  const sessionPath = testInfo.outputPath('saved.brepscope');
  await (await sessionPromise).saveAs(sessionPath);
  const reopened = await newApp(browser, testInfo);
  await reopened.open();
  await reopened.page.setViewportSize({ width: 1440, height: 900 });
  await reopened.dropFiles([{ name: 'saved.brepscope', bytes: readFileSync(sessionPath) }]);
  await statMean(reopened);
  await expect(reopened.review.stepTolerance).toHaveValue('0.15');
  await expect(reopened.review.titleField('serial')).toHaveValue('SN-0042');
  await expect(reopened.review.stat('mean')).toHaveText(screen.mean!);
  await expect(reopened.review.stat('within')).toHaveText(screen.within!);
  await shoot(reopened, '10-session-reopened');
  await reopened.page.context().close();

  // Sections along z: the actual against the nominal, whiskers at the user's tolerance; the strip says the magnification.
  await app.review.sectionAxis.selectOption('z');
  await app.page.getByTestId('deviation.section-count').fill('4');
  await app.review.cutSections.click();
  await expect.poll(async () => (await app.api.sections())?.images ?? 0, { timeout: 120_000 }).toBeGreaterThan(0);
  await expect(app.testId('dock.section-strip').locator('figcaption')).toContainText(/whiskers ×[\d,]+, grey within ±0\.15 model units/);
  await shoot(app, '11-sections');

  // The report: the screen's figures, the title block, the verdict rule.
  const downloadPromise = app.page.waitForEvent('download', { timeout: 300_000 });
  await app.review.downloadReport.click();
  const htmlPath = join(SHOTS, 'report.html');
  await (await downloadPromise).saveAs(htmlPath);
  const context = await browser.newContext();
  await context.route('**/*', (route) => route.abort());
  const page = await context.newPage();
  await page.setContent(readFileSync(htmlPath, 'utf8'), { waitUntil: 'load' });
  const value = async (field: string) => Number(await page.locator(`[data-field="${field}"]`).getAttribute('data-value'));
  const four = (v: number) => Number(v.toPrecision(4));
  expect(four(await value('summary.mean'))).toBe(read(screen.mean));
  expect(four(await value('summary.std'))).toBe(read(screen.sigma));
  expect(four(await value('summary.p95'))).toBe(read(screen.p95));
  expect(four(await value('summary.maxAbs'))).toBe(read(screen.max));
  await expect(page.locator('[data-field="summary.withinTolerance"]')).toHaveText(screen.within!);
  await expect(page.locator('[data-field="verdict"]')).toHaveText(screen.verdict!);
  // The same search distance: the page passes none of its own, and the report's default is the screen's.
  expect(await value('maxDistance')).toBe(screen.maxDistance);
  await expect(page.locator('[data-field="titleBlock.part"]')).toHaveText('Bracket <B-7>');
  await expect(page.locator('[data-field="titleBlock.serial"]')).toHaveText('SN-0042');
  await expect(page.locator('[data-field="tolerance"]')).toHaveAttribute('data-value', '0.15');
  await expect(page.locator('[data-field="verdictRule"]')).toHaveText("PASS when at least 95.00 % of the actual's samples lie within ±0.15 model units of the nominal");
  // Printed by headless Chromium, as the browser's Print / PDF does: A4 pages with their backgrounds.
  const pdf = await page.pdf({ path: join(SHOTS, 'report.pdf'), format: 'A4', printBackground: true });
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // The sections the user cut, with their whiskers at the user's tolerance.
  await expect(page.locator('[data-testid="sections.whiskers"]')).toContainText(/^Whiskers on the reference outline: deviation × \d+ \(drawn \d+ times its size\), grey within ±0\.15\d* model units/);
  await expect(page.locator('img[alt^="Section "]')).toHaveCount(4);
  for (const [w, h] of [
    [1024, 700],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(SHOTS, `12-report-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.screenshot({ path: join(SHOTS, '12-report-full.png'), fullPage: true });
  await context.close();
});
