import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { open } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_BYTES, MAX_MESH_FILE_BYTES, importLimit } from '../engine';
import { confinedFiles, rootDirs } from './confinedFiles';
import { nodeFiles } from './nodeFiles';

let dir: string;
let root: string;
let outside: string;
beforeAll(() => {
  dir = rootDirs([mkdtempSync(join(tmpdir(), 'brepscope-files-'))])[0]!;
  root = join(dir, 'root');
  outside = join(dir, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'none';
}

const confined = () => confinedFiles(() => [root]);
const bytes = (text: string) => new TextEncoder().encode(text);

describe('confined files: a dangling link inside the root', () => {
  it('a write through it with overwrite: true is PATH_OUTSIDE_ROOTS and creates nothing outside; one leading inside writes inside', async () => {
    const link = join(root, 'dangling.png');
    symlinkSync(join(outside, 'created.png'), link);
    expect(await codeOf(confined().write(link, bytes('x'), { overwrite: true }))).toBe('PATH_OUTSIDE_ROOTS');
    expect(await codeOf(confined().write(link, bytes('x')))).toBe('PATH_OUTSIDE_ROOTS');
    expect(existsSync(join(outside, 'created.png'))).toBe(false);
    // A link chain that ends outside through a second dangling link inside.
    symlinkSync(link, join(root, 'chain.png'));
    expect(await codeOf(confined().write(join(root, 'chain.png'), bytes('x'), { overwrite: true }))).toBe('PATH_OUTSIDE_ROOTS');
    expect(readdirSync(outside)).toEqual([]);

    symlinkSync(join(root, 'target.png'), join(root, 'inner.png'));
    await confined().write(join(root, 'inner.png'), bytes('inside'), { overwrite: true });
    expect(readFileSync(join(root, 'target.png'), 'utf8')).toBe('inside');
    // No temporary file is left behind.
    expect(readdirSync(root).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a link loop is refused with a code, not followed forever', async () => {
    symlinkSync(join(root, 'loopB'), join(root, 'loopA'));
    symlinkSync(join(root, 'loopA'), join(root, 'loopB'));
    expect(await codeOf(confined().write(join(root, 'loopA'), bytes('x'), { overwrite: true }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(confined().read(join(root, 'loopA')))).toBe('INVALID_ARGUMENT');
  });
});

describe('confined files: a link swapped between an inside and an outside target while files are read and written', () => {
  let flipper: ChildProcess | undefined;
  afterAll(() => {
    if (flipper?.pid !== undefined && flipper.exitCode === null) process.kill(flipper.pid);
  });

  it('no read returns the outside file and no write lands outside (300 reads, 200 writes)', async () => {
    const inner = join(root, 'sub');
    mkdirSync(inner);
    writeFileSync(join(inner, 'part.bin'), 'inside');
    writeFileSync(join(outside, 'part.bin'), 'OUTSIDE');
    const link = join(root, 'flip');
    symlinkSync(inner, link);
    // Another process swaps the link (a new link renamed over it: the path always exists) as fast as it can.
    const script = `const fs=require('fs');const [l,a,b]=process.argv.slice(1);for(let i=0;i<5e6;i++){const t=l+'.t';try{fs.unlinkSync(t)}catch{}fs.symlinkSync(i%2?a:b,t);fs.renameSync(t,l);}`;
    flipper = spawn(process.execPath, ['-e', script, link, inner, outside], { stdio: 'ignore' });
    const files = confined();
    const codes = new Map<string, number>();
    const count = (code: string) => codes.set(code, (codes.get(code) ?? 0) + 1);
    for (let i = 0; i < 300; i++) {
      try {
        count(new TextDecoder().decode(await files.read(join(link, 'part.bin'))) === 'inside' ? 'read' : 'read outside');
      } catch (e) {
        count((e as { code: string }).code);
      }
    }
    for (let i = 0; i < 200; i++) {
      try {
        await files.write(join(link, `w${i}.png`), bytes('png'));
        count('written');
      } catch (e) {
        count((e as { code: string }).code);
      }
    }
    process.kill(flipper.pid!);
    expect(readdirSync(outside).sort()).toEqual(['part.bin']);
    // Both targets were met: the race was run, not dodged.
    expect(codes.get('PATH_OUTSIDE_ROOTS') ?? 0).toBeGreaterThan(0);
    expect((codes.get('read') ?? 0) + (codes.get('written') ?? 0)).toBeGreaterThan(0);
    expect([...codes.keys()].every((c) => ['read', 'written', 'PATH_OUTSIDE_ROOTS'].includes(c)), JSON.stringify([...codes])).toBe(true);
  });
});

describe('files: only regular files are read', () => {
  let server: Server | undefined;
  afterAll(() => server?.close());

  it('a FIFO is refused at once (INVALID_ARGUMENT), confined or not, and never waits for a writer', async () => {
    const fifo = join(root, 'pipe.stl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(await codeOf(confined().read(fifo))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(nodeFiles.read(fifo))).toBe('INVALID_ARGUMENT');
    // Written over: refused too, and the FIFO stays.
    expect(await codeOf(confined().write(fifo, bytes('x'), { overwrite: true }))).toBe('INVALID_ARGUMENT');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('a device and a socket are refused (INVALID_ARGUMENT); a directory too', async () => {
    expect(await codeOf(nodeFiles.read('/dev/zero'))).toBe('INVALID_ARGUMENT');
    const socket = join(root, 'sock.stl');
    server = createServer();
    await new Promise<void>((done) => server!.listen(socket, done));
    expect(await codeOf(confined().read(socket))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(confined().read(root))).toBe('INVALID_ARGUMENT');
  });

  it('a path with a NUL byte or too long a name is a bad argument, not a missing file', async () => {
    for (const files of [nodeFiles, confined()]) {
      await expect(files.read(join(root, 'wedge\0.brep'))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('NUL character') });
      await expect(files.read(join(root, `${'a'.repeat(5000)}.brep`))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('too long') });
    }
  });

  it('so is such a path to write to (it was WRITE_FAILED naming Node\'s ERR_INVALID_ARG_VALUE, the NUL and 5000 characters in the message)', async () => {
    for (const files of [nodeFiles, confined()]) {
      await expect(files.write(join(root, 'out\0.png'), bytes('x'))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('a path cannot contain a NUL character') });
      for (const name of [`${'a'.repeat(5000)}.png`, `${'d'.repeat(300)}/out.png`]) {
        const error = await files.write(join(root, name), bytes('x')).then(() => undefined, (e: unknown) => e as { code: string; message: string });
        expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('too long for the file system') });
        expect(error!.message.length).toBeLessThan(200);
      }
      expect(readdirSync(root).filter((n) => n.startsWith('out') || n.startsWith('aaa') || n.startsWith('ddd'))).toEqual([]);
    }
  });
});

describe('files: file:// URLs', () => {
  it('name the file they point at, confined like its path; a URL of no local file is a bad argument', async () => {
    const inside = join(root, 'url part #1.brep');
    writeFileSync(inside, 'inside');
    writeFileSync(join(outside, 'url.brep'), 'outside');
    for (const files of [nodeFiles, confined()]) expect(new TextDecoder().decode(await files.read(pathToFileURL(inside).href))).toBe('inside');
    expect(await codeOf(confined().read(pathToFileURL(join(outside, 'url.brep')).href))).toBe('PATH_OUTSIDE_ROOTS');
    expect(await codeOf(confined().read('file://elsewhere.example/part.brep'))).toBe('INVALID_ARGUMENT');
    await confined().write(pathToFileURL(join(root, 'written.txt')).href, bytes('by URL'));
    expect(readFileSync(join(root, 'written.txt'), 'utf8')).toBe('by URL');
  });
});

describe('files: writes', () => {
  it('a new file needs no overwrite, an existing one does (FILE_EXISTS); new folders are made inside the root only', async () => {
    const path = join(root, 'a', 'b', 'out.json');
    await confined().write(path, bytes('1'));
    expect(await codeOf(confined().write(path, bytes('2')))).toBe('FILE_EXISTS');
    expect(readFileSync(path, 'utf8')).toBe('1');
    await confined().write(path, bytes('3'), { overwrite: true });
    expect(readFileSync(path, 'utf8')).toBe('3');
    expect(await codeOf(confined().write(join(outside, 'n', 'out.json'), bytes('x')))).toBe('PATH_OUTSIDE_ROOTS');
    expect(existsSync(join(outside, 'n'))).toBe(false);
    // A folder link inside the root that leads out: nothing is created beyond it.
    symlinkSync(outside, join(root, 'away'));
    expect(await codeOf(confined().write(join(root, 'away', 'deep', 'x.json'), bytes('x')))).toBe('PATH_OUTSIDE_ROOTS');
    expect(existsSync(join(outside, 'deep'))).toBe(false);
    unlinkSync(join(root, 'away'));
  });
});


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

  it('a requested format sets the limit, not the name (bad-input sweep)', async () => {
    // A STEP named .stl: the kernel's limit, before a byte is read (it read 3 GiB, then refused).
    const step = await sparse('asked-step.stl', MAX_IMPORT_BYTES + 1);
    for (const read of [nodeFiles.read, nodeFiles.stream!]) {
      await expect(read(step, { format: 'step' })).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringContaining('512 MiB import limit (the kernel reads the file)') });
    }
    // A mesh named .dat: a mesh file's limit (it was refused at the kernel's 512 MiB, whatever the budget).
    const mesh = await sparse('asked-mesh.dat', MAX_MESH_FILE_BYTES + 1);
    await expect(nodeFiles.stream!(mesh, { format: 'stl' })).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringContaining('mesh file limit (memory budget)') });
    await expect(nodeFiles.stream!(mesh)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringContaining('512 MiB import limit (the kernel reads the file)') });
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
