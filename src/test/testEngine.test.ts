import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCRATCH_ENV } from './scratchRoot';
import { isInside, testFiles, testRoot } from './testEngine';

const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

describe('test engines work outside the checkout', () => {
  it('a relative path is read and written under testRoot(), which lies in the system temp folder', async () => {
    const files = testFiles();
    expect(isInside(tmpdir(), testRoot())).toBe(true);
    expect(isInside(CHECKOUT, testRoot())).toBe(false);
    // Inside the run's scratch folder, which the global setup removes when the run ends.
    expect(process.env[SCRATCH_ENV]).toMatch(/brepscope-vitest-/);
    expect(isInside(process.env[SCRATCH_ENV]!, testRoot())).toBe(true);
    await files.write('sub/out.bin', new Uint8Array([1, 2, 3]), { overwrite: true });
    expect([...readFileSync(join(testRoot(), 'sub', 'out.bin'))]).toEqual([1, 2, 3]);
    expect([...(await files.read('sub/out.bin'))]).toEqual([1, 2, 3]);
    expect(files.canonical?.('sub/out.bin')).toBe(join(testRoot(), 'sub', 'out.bin'));
  });

  it('a write into the checkout throws before anything is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'brepscope-testfiles-'));
    try {
      const files = testFiles(dir);
      const target = join(CHECKOUT, `stray-${process.pid}.bin`);
      await expect(files.write(target, new Uint8Array([1]))).rejects.toThrow(/outside/);
      await expect(files.write('../../..' + CHECKOUT + `stray-${process.pid}.bin`, new Uint8Array([1]))).rejects.toThrow(/outside/);
      expect(existsSync(target)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('isInside: the folder itself and what lies below it, not a sibling that shares its prefix', () => {
    expect(isInside('/tmp/a', '/tmp/a')).toBe(true);
    expect(isInside('/tmp/a', '/tmp/a/b/c')).toBe(true);
    expect(isInside('/tmp/a', '/tmp/ab')).toBe(false);
    expect(isInside('/tmp/a', '/tmp')).toBe(false);
  });
});
