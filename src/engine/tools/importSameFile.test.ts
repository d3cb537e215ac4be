import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../Engine';
import { contentHash } from '../scene/import/contentHash';
import { dataPath } from '../../test/data';
import { testEngine } from '../../test/testEngine';
import type { ImportResult } from './importFile';

let engine: Engine;
let dir: string;
const importFile = (args: object) => engine.runJson('import_file', args).then((r) => r.result as ImportResult);
const bodyIds = async () => ((await engine.runJson('list_bodies', {})).result as { bodies: { bodyId: string }[] }).bodies.map((b) => b.bodyId);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

beforeAll(() => {
  engine = testEngine();
  dir = mkdtempSync(join(tmpdir(), 'brepscope-samefile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('import_file: the same file twice', () => {
  it('the same path twice: a second body with SAME_FILE naming the first, both kept, the hash is the file\'s SHA-256', async () => {
    await engine.runJson('remove_body', { bodyId: 'wedge_ok' }).catch(() => undefined);
    const path = dataPath('occt/wedge_ok.brep');
    const first = await importFile({ path });
    expect(first.contentHash).toBe(`sha256:${sha256(readFileSync(path))}`);
    expect(first.warnings).toBeUndefined();
    const second = await importFile({ path });
    expect(second.bodyId).toBe('wedge_ok_2');
    expect(second.contentHash).toBe(first.contentHash);
    expect(second.sameFileAs).toBe('wedge_ok');
    expect(second.warnings?.map((w) => w.code)).toEqual(['SAME_FILE']);
    expect(second.warnings?.[0]?.message).toContain("has the same content as body 'wedge_ok'");
    expect(await bodyIds()).toEqual(['wedge_ok', 'wedge_ok_2']);
    // A renamed copy is the same file too.
    const renamed = join(dir, 'nominal-copy.brep');
    copyFileSync(path, renamed);
    expect((await importFile({ path: renamed })).sameFileAs).toBe('wedge_ok');
    for (const id of ['wedge_ok', 'wedge_ok_2', 'nominal-copy']) await engine.runJson('remove_body', { bodyId: id });
  });

  it('two different files with the same name, size and time are not the same file', async () => {
    const base = readFileSync(dataPath('occt/wedge_ok.brep'), 'utf8');
    // The same bytes but the last digit of one coordinate: equal length, another part.
    const other = base.replace('10.440306508910551', '10.440306508910552');
    expect(other).not.toBe(base);
    expect(other.length).toBe(base.length);
    const paths = ['a', 'b'].map((sub) => {
      mkdirSync(join(dir, sub));
      const p = join(dir, sub, 'part.brep');
      writeFileSync(p, sub === 'a' ? base : other);
      utimesSync(p, 1_700_000_000, 1_700_000_000);
      return p;
    });
    const a = await importFile({ path: paths[0] });
    const b = await importFile({ path: paths[1] });
    expect(a.contentHash).not.toBe(b.contentHash);
    expect(b.sameFileAs).toBeUndefined();
    expect(b.warnings).toBeUndefined();
    for (const id of [a.bodyId, b.bodyId]) await engine.runJson('remove_body', { bodyId: id });
  });

  it('a scan by path (streamed) and the same scan as bytes under another name: SAME_FILE (a scan\'s fingerprint is its geometry as read)', async () => {
    const path = dataPath('occt/sh1.stl');
    const first = await importFile({ path, bodyId: 'scan' });
    const second = await importFile({ bytes: readFileSync(path).toString('base64'), fileName: 'other-name.stl' });
    expect(second.sameFileAs).toBe('scan');
    expect(second.warnings?.map((w) => w.code)).toEqual(['SAME_FILE']);
    expect(first.contentHash).toBe(second.contentHash);
    expect(first.contentHash).toMatch(/^geometry-sha256-64m:[0-9a-f]{64}$/);
    for (const id of ['scan', second.bodyId]) await engine.runJson('remove_body', { bodyId: id });
  });
});

describe('contentHash', () => {
  it('up to 64 MiB: the plain SHA-256; beyond: the SHA-256 of the 64 MiB pieces\' digests', async () => {
    const small = Uint8Array.from({ length: 1000 }, (_, i) => (i * 31) & 255);
    expect(await contentHash([small])).toBe(`sha256:${sha256(small)}`);
    expect(await contentHash([new Uint8Array(0)])).toBe(`sha256:${sha256(new Uint8Array(0))}`);
    const piece = 64 * 1024 * 1024;
    const big = new Uint8Array(piece + 5);
    big[piece + 2] = 7;
    const digests = Buffer.concat([createHash('sha256').update(big.subarray(0, piece)).digest(), createHash('sha256').update(big.subarray(piece)).digest()]);
    expect(await contentHash([big])).toBe(`sha256-64m:${sha256(digests)}`);
  });

  it('geometry in shared memory (the mesh threads\' arrays) hashes as the same bytes unshared', async () => {
    const shared = new Float32Array(new SharedArrayBuffer(4 * 9));
    shared.set([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const plain = Float32Array.from(shared);
    expect(await contentHash([shared])).toBe(await contentHash([plain]));
    expect(await contentHash([plain])).toBe(`sha256:${sha256(new Uint8Array(plain.buffer))}`);
  });
});
