import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_BYTES, MAX_MESH_FILE_BYTES, importLimit } from '../engine';
import { nodeFiles } from './nodeFiles';

const dir = await mkdtemp(join(tmpdir(), 'brepscope-files-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A sparse file of `size` bytes: no disk or time spent on it. */
async function sparse(name: string, size: number): Promise<string> {
  const path = join(dir, name);
  const f = await open(path, 'w');
  await f.truncate(size);
  await f.close();
  return path;
}

describe('import limits', () => {
  it('kernel formats keep the kernel heap limit; mesh formats follow the memory budget', () => {
    const GiB = 2 ** 30;
    for (const format of ['step', 'iges', 'brep', 'xbf', undefined] as const) expect(importLimit(format, 24 * GiB)).toBe(MAX_IMPORT_BYTES);
    // 290 bytes of memory a binary STL triangle (50 file bytes): 18 GiB of budget reads a 3.1 GiB STL.
    expect(importLimit('stl', 18 * GiB)).toBe(Math.floor((18 * GiB * 50) / 290));
    expect(importLimit('ply', 18 * GiB)).toBe(importLimit('stl', 18 * GiB));
    // Never below the kernel's limit, never above one ArrayBuffer.
    expect(importLimit('obj', 1 * GiB)).toBe(MAX_IMPORT_BYTES);
    expect(importLimit('xyz', 1000 * GiB)).toBe(MAX_MESH_FILE_BYTES);
  });

  it('a STEP file over 512 MiB is refused before it is read, naming the kernel limit', async () => {
    const path = await sparse('big.step', MAX_IMPORT_BYTES + 1);
    await expect(nodeFiles.read(path)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringContaining('512 MiB import limit (the kernel reads the file)') });
  });

  it('a mesh file over the budget is refused naming the memory budget', async () => {
    const path = await sparse('huge.stl', MAX_MESH_FILE_BYTES + 1);
    await expect(nodeFiles.read(path)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringContaining('mesh file limit (memory budget)') });
  });

  it('reads a file whole, byte for byte', async () => {
    const path = join(dir, 'small.stl');
    const f = await open(path, 'w');
    const bytes = new Uint8Array(3000).map((_, i) => (i * 7) & 255);
    await f.write(bytes);
    await f.close();
    expect(await nodeFiles.read(path)).toEqual(bytes);
  });
});
