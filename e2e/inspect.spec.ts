import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { app, dropFiles, longTasksSince, pageNow, recordLongTasks, ROOT, shot, watchConsole } from './helpers';

const field = (page: Page, p: string) => page.locator(`[data-testid="tool-form"] [data-field="${p}"]`);

async function chooseTool(page: Page, name: string): Promise<void> {
  await page.getByTestId('tool-select').selectOption(name);
  await expect(page.getByTestId('tool-form')).toHaveAttribute('data-tool', name);
}

/** Viewport pixels that are clearly red (proud) and clearly blue (shy). */
function heatPixels(page: Page): Promise<{ red: number; blue: number }> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="viewport"] canvas');
    if (!canvas) return { red: 0, blue: 0 };
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d');
    if (!ctx) return { red: 0, blue: 0 };
    ctx.drawImage(canvas, 0, 0);
    const d = ctx.getImageData(0, 0, copy.width, copy.height).data;
    let red = 0, blue = 0;
    for (let i = 0; i < d.length; i += 4) {
      const r = d[i]!, b = d[i + 2]!;
      if (r - b > 60) red++;
      else if (b - r > 60) blue++;
    }
    return { red, blue };
  });
}

test('deviation review of the demo: heat map, legend, stats, histogram, worst point, hover; sections; graph panel; Cancel of a long run restores the scene', async ({ page }, testInfo) => {
  // Two kernel starts (first load, after Cancel) of 10 to 30 s each on this machine, plus the runs.
  test.setTimeout(300_000);
  const consoleErrors = watchConsole(page);
  await recordLongTasks(page);
  await page.goto('./');
  await page.getByTestId('open-demo').click();

  await test.step('the demo opens already compared: the part coloured by signed deviation, legend, stats, histogram', async () => {
    await expect.poll(async () => (await app(page, 'heatmap'))?.status, { timeout: 150_000 }).toBe('done');
    const heat = (await app(page, 'heatmap'))!;
    expect(heat).toMatchObject({ fromBodyId: 'part', toBodyId: 'scan' });
    expect(heat.range).toBeGreaterThan(0);
    expect(heat.tolerance).toBeGreaterThan(0);
    expect(heat.tolerance).toBeLessThan(heat.range);
    await expect.poll(async () => (await app(page, 'heatmap'))?.colorAttribute?.vertices ?? 0).toBeGreaterThan(1000);
    const colors = (await app(page, 'heatmap'))!.colorAttribute!;
    // The demo scan is warped both ways: both arms of the map are on the part.
    expect(colors.proud).toBeGreaterThan(colors.vertices * 0.01);
    expect(colors.shy).toBeGreaterThan(colors.vertices * 0.01);
    // The reference is hidden so the colours show; the coloured part is drawn.
    expect(await app(page, 'drawnBodies')).toEqual(['part']);
    await expect.poll(() => heatPixels(page)).toMatchObject({ red: expect.any(Number), blue: expect.any(Number) });
    await expect.poll(async () => Math.min((await heatPixels(page)).red, (await heatPixels(page)).blue)).toBeGreaterThan(200);
    await expect(page.getByTestId('heat-legend')).toBeVisible();
    await expect(page.getByTestId('heat-legend')).toContainText('model units');
    await expect(page.getByTestId('heat-stats')).toBeVisible();
    await expect(page.getByTestId('stat-within')).toHaveText(/\d+\.\d %/);
    await expect(page.getByTestId('stat-ambiguous')).toHaveText(/\d+\.\d %/);
    await expect(page.getByTestId('histogram')).toBeVisible();
    await expect(page.getByTestId('histogram').locator('rect')).toHaveCount(41); // 40 buckets and the tolerance band
    const last = await app(page, 'lastToolResult');
    expect(last).toMatchObject({ tool: 'measure_deviation', ok: true, args: { fromBodyId: 'part', toBodyId: 'scan' } });
    await shot(page, testInfo, 'inspect-01-demo-heatmap');
  });

  await test.step('the tolerance band recolours at once and updates the share within tolerance', async () => {
    const before = (await app(page, 'heatmap'))!;
    const within = await page.getByTestId('stat-within').textContent();
    await page.getByTestId('tolerance-input').fill(String(before.range * 0.5));
    await expect.poll(async () => (await app(page, 'heatmap'))!.colorAttribute!.other).toBeGreaterThan(before.colorAttribute!.other);
    await expect(page.getByTestId('stat-within')).not.toHaveText(within ?? '', { timeout: 60_000 });
    await page.getByTestId('tolerance-input').fill(String(before.tolerance));
    await page.getByTestId('tolerance-input').blur();
  });

  await test.step('hovering the coloured surface reads the local deviation; the worst point is one click away', async () => {
    const box = (await page.getByTestId('viewport-canvas').boundingBox())!;
    let read = false;
    for (const [fx, fy] of [[0.5, 0.5], [0.45, 0.55], [0.55, 0.45], [0.4, 0.5], [0.6, 0.5]] as const) {
      await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
      if (await page.getByTestId('hover-deviation').isVisible({ timeout: 1500 }).catch(() => false)) {
        read = true;
        break;
      }
    }
    expect(read).toBe(true);
    await expect(page.getByTestId('hover-deviation')).toHaveText(/deviation ([+−]?[\d.,]+ model units|ambiguous)/);
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.getByTestId('fly-worst').click();
    expect(await app(page, 'flights')).toBe(1);
    await page.waitForTimeout(900);
    await shot(page, testInfo, 'inspect-02-worst-point');
    await page.keyboard.press('0');
  });

  await test.step('sections: measure_deviation stations plotted along x; cross_section_compare planes and overlay strip, a click focuses', async () => {
    await page.getByTestId('section-axis').selectOption('x');
    await page.getByTestId('plot-sections').click();
    await expect(page.getByTestId('deviation-sections-chart')).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId('deviation-sections-chart').locator('circle')).not.toHaveCount(0);
    await page.getByTestId('cut-sections').click();
    await expect.poll(async () => (await app(page, 'sections'))?.images ?? 0, { timeout: 90_000 }).toBe(12);
    const s = (await app(page, 'sections'))!;
    expect(s.stations).toBe(12);
    expect(s.focused).toBe(s.worst);
    await expect(page.getByTestId('section-station')).toHaveCount(12);
    await expect(page.getByTestId('section-focus').locator('img')).toBeVisible();
    const other = s.worst === 0 ? 1 : 0;
    await page.locator(`[data-testid="section-station"][data-station="${other}"]`).click();
    await expect.poll(async () => (await app(page, 'sections'))?.focused).toBe(other);
    await expect(page.getByTestId('section-focus')).toHaveAttribute('data-station', String(other));
    await shot(page, testInfo, 'inspect-03-sections');
  });

  await test.step('graph panel: health record of the part, SQLite download, graph-query on the dropped database', async () => {
    // The first body imported is selected, part or scan depending on which import finished first;
    // the body button toggles, so click it only when the part is not selected already.
    const partButton = page.locator('[data-body-id="part"] .body-main');
    if ((await partButton.getAttribute('aria-pressed')) !== 'true') await partButton.click();
    await expect(partButton).toHaveAttribute('aria-pressed', 'true');
    await page.getByTestId('graph-validate').click();
    await expect(page.getByTestId('graph-health')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('graph-health')).toContainText('Free edges');
    expect((await app(page, 'graph')).isValid).toBe(true);
    const downloadPromise = page.waitForEvent('download');
    await page.getByTestId('graph-export').click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe('part.sqlite');
    const bytes = readFileSync(await download.path());
    expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    expect((await app(page, 'graph')).lastExport?.head).toBe('SQLite format 3\0');
    await dropFiles(page, [{ name: 'part.sqlite', bytes }]);
    await expect(page.getByTestId('graph-query')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('graph-query')).toContainText('part.sqlite');
    // A database is queried, never imported as a body.
    expect((await app(page, 'bodies')).map((b) => b.bodyId).sort()).toEqual(['part', 'scan']);
    await page.getByTestId('graph-panel').scrollIntoViewIfNeeded();
    await shot(page, testInfo, 'inspect-04-graph-panel');
  });

  await test.step('Cancel of a long symmetric_difference_volume terminates the worker and restores every body', async () => {
    await chooseTool(page, 'symmetric_difference_volume');
    await field(page, 'fromBodyId').selectOption('part');
    await field(page, 'referenceBodyId').selectOption('scan');
    await field(page, 'maxSamples').fill('5000000');
    const since = await pageNow(page);
    await page.getByTestId('tool-run').click();
    await expect(page.getByTestId('tool-progress')).toBeVisible();
    // Still running after several seconds: the Cancel below really interrupts work.
    await page.waitForTimeout(6000);
    expect(await app(page, 'runningTool')).toMatchObject({ tool: 'symmetric_difference_volume' });
    expect((await longTasksSince(page, since)).filter((t) => t.duration > 100)).toEqual([]);
    await page.getByTestId('tool-cancel').click();
    await expect.poll(async () => (await app(page, 'lastToolResult'))?.error?.code).toBe('CANCELLED');
    await expect.poll(async () => (await app(page, 'engine')).restoring, { timeout: 120_000 }).toBe(false);
    expect((await app(page, 'engine')).generation).toBe(2);
    expect((await app(page, 'bodies')).map((b) => b.bodyId).sort()).toEqual(['part', 'scan']);
    expect((await app(page, 'keptBodies')).sort()).toEqual(['part', 'scan']);
    // The page kept the colours; the restored engine answers again.
    expect((await app(page, 'heatmap'))?.status).toBe('done');
    await page.getByTestId('graph-validate').click();
    await expect.poll(async () => (await app(page, 'graph')).validate, { timeout: 120_000 }).toBe('done');
  });

  expect(consoleErrors).toEqual([]);
});

test('assembly tree of as1_pe_203.stp: inspect_assembly by file name, expand and collapse by keyboard and mouse, hover highlights', async ({ page }, testInfo) => {
  const consoleErrors = watchConsole(page);
  await page.goto('./');
  const bytes = readFileSync(path.resolve(ROOT, 'test-data/cax-if/as1_pe_203.stp'));
  await dropFiles(page, [{ name: 'as1_pe_203.stp', bytes }]);
  await expect.poll(() => app(page, 'drawnBodies'), { timeout: 120_000 }).toEqual(['as1_pe_203']);
  await chooseTool(page, 'inspect_assembly');
  await field(page, 'inputPath').fill('as1_pe_203.stp');
  await page.getByTestId('tool-run').click();
  const tree = page.getByTestId('assembly-tree');
  await expect(tree).toBeVisible({ timeout: 60_000 });
  const a = (await app(page, 'assembly'))!;
  expect(a).toMatchObject({ source: 'as1_pe_203.stp', bodyId: 'as1_pe_203' });
  expect(a.rootChildren).toBeGreaterThan(0);
  const nodes = tree.getByTestId('assembly-node');
  // The root starts expanded: it and its children.
  await expect(nodes).toHaveCount(1 + a.rootChildren);
  const root = nodes.first();
  await expect(root).toHaveAttribute('aria-expanded', 'true');

  // Keyboard: Left collapses the root, Right expands it, Down moves to the first child.
  await root.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(root).toHaveAttribute('aria-expanded', 'false');
  await expect(nodes).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(nodes).toHaveCount(1 + a.rootChildren);
  await page.keyboard.press('ArrowDown');
  await expect(nodes.nth(1)).toBeFocused();
  // Find a child with children of its own and open it with Enter.
  const expandablePath = await tree.locator('[data-testid="assembly-node"][aria-expanded="false"]').first().getAttribute('data-path');
  const expandable = tree.locator(`[data-testid="assembly-node"][data-path="${expandablePath}"]`);
  await expandable.focus();
  const before = await nodes.count();
  await page.keyboard.press('Enter');
  await expect(expandable).toHaveAttribute('aria-expanded', 'true');
  expect(await nodes.count()).toBeGreaterThan(before);
  await expect(page.getByTestId('assembly-detail')).toContainText('worldTransform');
  // Mouse: a click collapses it again.
  await expandable.click();
  await expect(expandable).toHaveAttribute('aria-expanded', 'false');
  await expect(nodes).toHaveCount(before);

  await nodes.nth(2).hover();
  await expect.poll(async () => (await app(page, 'assembly'))?.hovered).toBe('0/1');
  await shot(page, testInfo, 'inspect-05-assembly-tree');
  await page.mouse.move(5, 5);
  expect(consoleErrors).toEqual([]);
});
