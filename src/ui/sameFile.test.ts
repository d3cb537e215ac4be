import { describe, expect, it } from 'vitest';
import { sameFileAs } from './sameFile';
import type { KeptFile } from './session';

const dropped = (bodyId: string, order: number, name: string, text: string, lastModified = 1_700_000_000_000): KeptFile =>
  ({ bodyId, path: name, format: 'step', order, fileName: name, bytes: new File([text], name, { lastModified }) }) as unknown as KeptFile;
const downloaded = (bodyId: string, order: number, bytes: number[], sourceUrl?: string): KeptFile =>
  ({ bodyId, path: `${bodyId}.stl`, format: 'stl', order, bytes: new Uint8Array(bytes), ...(sourceUrl ? { sourceUrl } : {}) }) as unknown as KeptFile;

describe('the same file twice', () => {
  it('a dropped file dropped again (same name, size and time) is the earlier body\'s, either way round', () => {
    const kept = [dropped('part', 0, 'part.stp', 'ISO-10303-21;'), dropped('part_2', 1, 'part.stp', 'ISO-10303-21;')];
    expect(sameFileAs('part_2', kept)).toBe('part');
    expect(sameFileAs('part', kept)).toBe('part_2');
  });

  it('another file is not: a scan, a file of the same name but another size or date', () => {
    expect(sameFileAs('scan', [dropped('part', 0, 'part.stp', 'ISO-10303-21;'), dropped('scan', 1, 'scan.stl', 'solid x')])).toBeNull();
    expect(sameFileAs('part_2', [dropped('part', 0, 'part.stp', 'ISO-10303-21;'), dropped('part_2', 1, 'part.stp', 'ISO-10303-21;;')])).toBeNull();
    expect(sameFileAs('part_2', [dropped('part', 0, 'part.stp', 'abc', 1), dropped('part_2', 1, 'part.stp', 'abc', 2)])).toBeNull();
    expect(sameFileAs('ghost', [dropped('part', 0, 'part.stp', 'abc')])).toBeNull();
  });

  it('downloads: the same URL, or the same bytes', () => {
    expect(sameFileAs('b', [downloaded('a', 0, [1, 2, 3], 'https://x/p.stl'), downloaded('b', 1, [1, 2, 3], 'https://x/p.stl')])).toBe('a');
    expect(sameFileAs('b', [downloaded('a', 0, [1, 2, 3]), downloaded('b', 1, [1, 2, 3])])).toBe('a');
    expect(sameFileAs('b', [downloaded('a', 0, [1, 2, 3]), downloaded('b', 1, [1, 2, 4])])).toBeNull();
  });
});
