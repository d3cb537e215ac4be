import { dataFile, expect, test } from './fixtures/fixtures';

test('assembly tree of as1_pe_203.stp: inspect_assembly by file name, expand and collapse by keyboard and mouse, hover highlights', async ({ app }, testInfo) => {
  const { assembly, page } = app;
  await app.dropFiles([dataFile('cax-if/as1_pe_203.stp')]);
  await app.expectDrawn(['as1_pe_203']);
  await app.tools.run('inspect_assembly', { inputPath: 'as1_pe_203.stp' });
  await expect(assembly.tree).toBeVisible({ timeout: 60_000 });
  const a = (await app.api.assembly())!;
  expect(a).toMatchObject({ source: 'as1_pe_203.stp', bodyId: 'as1_pe_203' });
  expect(a.rootChildren).toBeGreaterThan(0);
  // The root starts expanded: it and its children.
  await expect(assembly.nodes).toHaveCount(1 + a.rootChildren);
  const root = assembly.nodes.first();
  await expect(root).toHaveAttribute('aria-expanded', 'true');

  // Keyboard: Left collapses the root, Right expands it, Down moves to the first child.
  await root.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(root).toHaveAttribute('aria-expanded', 'false');
  await expect(assembly.nodes).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(assembly.nodes).toHaveCount(1 + a.rootChildren);
  await page.keyboard.press('ArrowDown');
  await expect(assembly.nodes.nth(1)).toBeFocused();
  // A child with children of its own, opened with Enter.
  const expandable = assembly.node((await assembly.collapsed.first().getAttribute('data-path'))!);
  await expandable.focus();
  const before = await assembly.nodes.count();
  await page.keyboard.press('Enter');
  await expect(expandable).toHaveAttribute('aria-expanded', 'true');
  expect(await assembly.nodes.count()).toBeGreaterThan(before);
  await expect(assembly.detail).toContainText('worldTransform');
  // Mouse: a click collapses it again.
  await expandable.click();
  await expect(expandable).toHaveAttribute('aria-expanded', 'false');
  await expect(assembly.nodes).toHaveCount(before);

  await assembly.nodes.nth(2).hover();
  await expect.poll(async () => (await app.api.assembly())?.hovered).toBe('0/1');
  await app.shot(testInfo, 'inspect-05-assembly-tree');
  await page.mouse.move(5, 5);
  app.expectNoConsoleErrors();
});
