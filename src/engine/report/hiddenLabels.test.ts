import { describe, expect, it } from 'vitest';
import { hiddenLabels } from './reportHtml';

describe("a heat map's caption names the labels it does not show", () => {
  it('by number, so "8 occluded" is not read as eight labels hidden', () => {
    const visible = [1, 2, 3, 4, 5, 6, 7].map((number) => ({ number, status: 'visible' as const }));
    expect(hiddenLabels([...visible, { number: 8, status: 'occluded' }])).toBe(' \u00b7 label 8 (occluded) hidden in this view');
    expect(hiddenLabels([{ number: 2, status: 'outside' }, ...visible.slice(2), { number: 8, status: 'occluded' }])).toBe(' \u00b7 labels 2 (outside), 8 (occluded) hidden in this view');
  });

  it('nothing when every label shows, or there are none', () => {
    expect(hiddenLabels([{ number: 1, status: 'visible' }])).toBe('');
    expect(hiddenLabels([])).toBe('');
  });
});
