import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../engine/scene/import/contentHash';
import { laterCopies, sameFileAs } from './sameFile';

const body = (bodyId: string, hash?: string) => ({ bodyId, summary: hash === undefined ? {} : { contentHash: hash } });
const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('the same file twice', () => {
  it('the same content is the earlier body\'s, either way round, whatever the names', () => {
    const bodies = [body('part', sha('ISO-10303-21;')), body('renamed-copy', sha('ISO-10303-21;'))];
    expect(sameFileAs('renamed-copy', bodies)).toBe('part');
    expect(sameFileAs('part', bodies)).toBe('renamed-copy');
  });

  it('different content is not, even under the same name, size and date (which the engine does not compare)', () => {
    expect(sameFileAs('part_2', [body('part', sha('ISO-10303-21;a')), body('part_2', sha('ISO-10303-21;b'))])).toBeNull();
    expect(sameFileAs('scan', [body('part', sha('ISO')), body('scan', sha('solid x'))])).toBeNull();
  });

  it('a body without a fingerprint (made in code, not from a file) or not in the list: null', () => {
    expect(sameFileAs('made', [body('made'), body('other')])).toBeNull();
    expect(sameFileAs('ghost', [body('part', sha('x'))])).toBeNull();
  });

  it('the engine\'s fingerprint of the bytes is their SHA-256', async () => {
    expect(await contentHash([new TextEncoder().encode('ISO-10303-21;')])).toBe(sha('ISO-10303-21;'));
  });

  it('the bodies list marks the later copies only: a scan dropped twice, and a third time', () => {
    const scan = sha('solid scan'), part = sha('ISO-10303-21;');
    const bodies = [body('part', part), body('scan', scan), body('scan_2', scan), body('other'), body('scan_3', scan)];
    expect([...laterCopies(bodies)]).toEqual([
      ['scan_2', 'scan'],
      ['scan_3', 'scan'],
    ]);
    expect(laterCopies([body('part', part), body('scan', scan)]).size).toBe(0);
  });
});
