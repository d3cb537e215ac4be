import { expect, test } from './fixtures/fixtures';

test('keyboard: controls are reachable by Tab and show a visible focus ring', async ({ partsApp: app }) => {
  const { page } = app;
  await page.locator('body').focus();
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const label = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.getAttribute('title') ?? '';
      return { tag: el.tagName, label: label.slice(0, 40), outline: style.outlineStyle !== 'none' && style.outlineWidth !== '0px' };
    });
    if (!info) continue;
    expect(info.outline, `${info.tag} ${info.label} shows focus`).toBe(true);
    seen.add(info.label);
  }
  // 'Copy share link' is disabled here: local files cannot be linked.
  for (const label of ['Front', 'Show screw', 'Remove screw']) expect([...seen], label).toContain(label);
  app.expectNoConsoleErrors();
});
