import { describe, expect, it } from 'vitest';
import { bodyIdSchema } from '../tools/schemas';
import type { Body } from './Body';
import { defaultBodyId, Scene } from './Scene';

describe('control characters in a bodyId', () => {
  it("a file name's become `_` in its default bodyId (a NUL was kept in the id)", () => {
    expect(defaultBodyId('/scans/part\u0000one.stl', () => false)).toBe('part_one');
    expect(defaultBodyId('tab\u0009bed\u007f.ply', () => false)).toBe('tab_bed_');
    expect(defaultBodyId(' \nnut.step\n', () => false)).toBe('nut');
    expect(defaultBodyId('part\u0000one.stl', (id) => id === 'part_one')).toBe('part_one_2');
  });

  it('an id given with one is refused, by the tools and by the scene (INVALID_ARGUMENT)', () => {
    const parsed = bodyIdSchema.safeParse('a\u0000b');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('a bodyId has no control characters (U+0000 to U+001F, U+007F)');
    expect(bodyIdSchema.safeParse('part one (2)').success).toBe(true);
    const scene = new Scene();
    expect(() => scene.add({ bodyId: 'scan\u0000' } as Body)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'body "scan\\u0000": a bodyId has no control characters (U+0000 to U+001F, U+007F)' }));
    expect(scene.list()).toEqual([]);
  });
});
