import { deflateSync, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { box } from '../../mesh/generators';
import { write3mf } from '../../../test/meshWriters';
import { parse3mf } from './threeMf';
import { unzipWithin, ZIP_LIMITS } from './zipBudget';
import { rawZip } from '../../../test/zipWriter';

const MODEL = '3D/3dmodel.model';
const model = strToU8('<model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources></resources><build></build></model>');
const failure = (work: () => unknown): string => {
  try {
    work();
  } catch (e) {
    return `${(e as { code: string }).code}: ${(e as Error).message}`;
  }
  return 'no error';
};

describe('zip entries judged before they are inflated (issue 34 item 4)', () => {
  it('a real 3MF: the same parts as fflate unzips, and a ratio far under the limit', () => {
    const bytes = write3mf([{ mesh: box([0, 0, 0], [1, 2, 3]) }]);
    const ours = unzipWithin(bytes, 'box.3mf', () => true);
    const theirs = unzipSync(bytes);
    expect([...ours.keys()].sort()).toEqual(Object.keys(theirs).sort());
    for (const [k, v] of ours) expect(v).toEqual(theirs[k]);
  });

  it('an entry declaring 10 GB (zip64) is FILE_TOO_LARGE from its declaration, nothing inflated', () => {
    const bytes = rawZip([{ name: MODEL, data: deflateSync(model), declared: 10e9 }]);
    expect(failure(() => parse3mf(bytes, 'ten.3mf'))).toBe(`FILE_TOO_LARGE: ten.3mf: the zip entry ${MODEL} declares 9537 MiB uncompressed, over the 1536 MiB limit of one entry`);
  });

  it('seven parts of 1.45 GB each: every one under the entry limit, together over the total: FILE_TOO_LARGE', () => {
    // Each holds 6 MB of deflate (stored blocks) and declares 1.45 GB: a ratio of 242:1, under the limit.
    const data = deflateSync(new Uint8Array(6e6).map((_, i) => (i * 2654435761) >>> 24), { level: 0 });
    const declared = 1.45e9;
    expect(declared / data.length).toBeLessThan(ZIP_LIMITS.ratio);
    const entries = Array.from({ length: 7 }, (_, i) => ({ name: `3D/part${i}.model`, data, declared }));
    const message = failure(() => parse3mf(rawZip(entries), 'seven.3mf'));
    expect(message).toMatch(/^FILE_TOO_LARGE: seven\.3mf: the zip entries read declare \d+ MiB uncompressed together, over the 1536 MiB limit$/);
    expect(7 * declared).toBeGreaterThan(ZIP_LIMITS.totalBytes);
    expect(declared).toBeLessThan(ZIP_LIMITS.entryBytes);
  });

  it('a zip bomb (runs of one byte, about 1000:1) is FILE_TOO_LARGE for its ratio, whatever its size', () => {
    const bytes = zipSync({ [MODEL]: new Uint8Array(20 * 2 ** 20).fill(32) }, { level: 9 });
    expect(failure(() => parse3mf(bytes, 'bomb.3mf'))).toMatch(/^FILE_TOO_LARGE: bomb\.3mf: the zip entry 3D\/3dmodel\.model declares 20971520 bytes from \d+ compressed, a ratio over 250:1 \(a zip bomb\?\)$/);
  });

  it('an entry that inflates past what it declares is stopped there: PARSE_FAILED', () => {
    // 100 bytes declared, 2 MB inside (ratio by declaration tiny).
    const data = deflateSync(new Uint8Array(2 * 2 ** 20).fill(32));
    expect(failure(() => parse3mf(rawZip([{ name: MODEL, data, declared: 100 }]), 'lie.3mf'))).toBe(
      `PARSE_FAILED: lie.3mf: not a readable 3MF package (${MODEL}: it inflates past the 100 bytes it declares)`,
    );
  });

  it('limits are parameters: the total across entries counts only the entries read', () => {
    const data = deflateSync(model);
    const entries = ['a.model', 'b.model', 'c.png'].map((name) => ({ name, data, declared: model.length }));
    const limits = { entryBytes: 1000, totalBytes: 2 * model.length, ratio: 250 };
    expect([...unzipWithin(rawZip(entries), 'x.zip', (n) => n.endsWith('.model'), 'zip', limits).keys()]).toEqual(['a.model', 'b.model']);
    expect(failure(() => unzipWithin(rawZip(entries), 'x.zip', () => true, 'zip', limits))).toMatch(/^FILE_TOO_LARGE: x\.zip: the zip entries read declare/);
  });
});
