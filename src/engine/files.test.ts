import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testEngine } from '../test/testEngine';
import { dataPath } from '../test/data';
import { Engine } from './Engine';
import { BLOB_PIECE_BYTES, blobFile, memoryFiles, recordingFiles } from './files';
import { box } from './mesh/generators';
import { writeBinaryStl } from './scene/import/stl';
import type { FileAccess, WriteOptions } from './tools/defineTool';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brepscope-writes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Records what the call's file access asked of the host. */
function spyFiles(): { files: FileAccess; writes: [string, WriteOptions | undefined][] } {
  const writes: [string, WriteOptions | undefined][] = [];
  return { writes, files: { read: async () => new Uint8Array(), write: async (path, _bytes, options) => void writes.push([path, options]) } };
}

const bytes = new Uint8Array([1, 2, 3]);

describe('what a call may write over (issue 13, item 4)', () => {
  it('recordingFiles: a first write carries the caller\'s overwrite, a second write of the same path replaces the call\'s own file; a loaded file is refused', async () => {
    const spy = spyFiles();
    const call = recordingFiles(spy.files, { overwrite: false, loadedAs: (p) => (p === 'part.brep' ? 'part' : undefined) });
    await call.files.write('a.png', bytes);
    await call.files.write('a.png', bytes);
    await call.files.write('b.png', bytes);
    expect(spy.writes).toEqual([
      ['a.png', { overwrite: false }],
      ['a.png', { overwrite: true }],
      ['b.png', { overwrite: false }],
    ]);
    expect(call.outputs().map((o) => o.path)).toEqual(['a.png', 'b.png']);
    await expect(call.files.write('part.brep', bytes)).rejects.toMatchObject({ code: 'FILE_IN_USE', message: expect.stringContaining("body 'part'") });
    const permitted = recordingFiles(spyFiles().files, { overwrite: true, loadedAs: () => 'part' });
    await expect(permitted.files.write('part.brep', bytes)).rejects.toMatchObject({ code: 'FILE_IN_USE' });
  });

  it('Node: graph_export onto an existing file is FILE_EXISTS and leaves it; overwrite: true replaces it', async () => {
    const engine = testEngine();
    const out = join(dir, 'exists.sqlite');
    writeFileSync(out, 'not mine');
    const args = { path: dataPath('occt/wedge_ok.brep'), outputPath: out };
    await expect(engine.run('graph_export', args)).rejects.toMatchObject({ code: 'FILE_EXISTS', message: expect.stringContaining('overwrite: true') });
    expect(readFileSync(out, 'utf8')).toBe('not mine');
    const { outputs } = await engine.run('graph_export', { ...args, overwrite: true });
    expect(outputs.map((o) => o.path)).toEqual([out]);
    expect(readFileSync(out).subarray(0, 15).toString()).toBe('SQLite format 3');
    // A new file needs nothing.
    await engine.run('graph_export', { ...args, outputPath: join(dir, 'new', 'fresh.sqlite') });
  });

  it('Node: a file loaded in the scene is never written, with overwrite or without, however its path is spelt', async () => {
    const engine = testEngine();
    const stl = join(dir, 'scan.stl');
    writeFileSync(stl, readFileSync(dataPath('occt/shape.stl')));
    await engine.run('import_file', { path: stl, bodyId: 'scan' });
    const before = readFileSync(stl);
    for (const outputPath of [stl, join(dir, '.', 'sub', '..', 'scan.stl')]) {
      for (const overwrite of [false, true]) {
        await expect(engine.run('deviation_histogram', { fromBodyId: 'scan', referenceBodyId: 'scan', outputPath, overwrite, maxSamples: 300 })).rejects.toMatchObject({ code: 'FILE_IN_USE' });
      }
    }
    expect(readFileSync(stl).equals(before)).toBe(true);
    // Once the body is removed, the file is the user's like any other: it exists, so overwrite decides.
    await engine.run('remove_body', { bodyId: 'scan' });
    await engine.run('import_file', { path: dataPath('occt/shape.stl'), bodyId: 'other' });
    const histogram = { fromBodyId: 'other', referenceBodyId: 'other', outputPath: stl, maxSamples: 300 };
    await expect(engine.run('deviation_histogram', histogram)).rejects.toMatchObject({ code: 'FILE_EXISTS' });
    await engine.run('deviation_histogram', { ...histogram, overwrite: true });
    expect(readFileSync(stl).subarray(1, 4).toString()).toBe('PNG');
  });

  it('memory files (the browser) are the engine\'s own: a later write replaces one without overwrite', async () => {
    const files = memoryFiles();
    await files.write('a.sqlite', bytes);
    await files.write('a.sqlite', new Uint8Array([9]));
    expect([...(await files.read('a.sqlite'))]).toEqual([9]);
  });
});

describe('the same file dropped twice (issue 34)', () => {
  it("the app's drop path in the engine: one given file imported twice, and the same file given again, are three bodies of the box's volume", async () => {
    const engine = new Engine({ files: memoryFiles() });
    const stl = writeBinaryStl(box([0, 0, 0], [1, 2, 3]));
    engine.putFile('drop.stl', stl.slice());
    await engine.run('import_file', { path: 'drop.stl', bodyId: 'a' });
    await engine.run('import_file', { path: 'drop.stl', bodyId: 'b' });
    engine.putFile('drop.stl', stl.slice());
    await engine.run('import_file', { path: 'drop.stl', bodyId: 'c' });
    const { result } = await engine.run('list_bodies', {});
    expect(result.bodies.map((b) => [b.bodyId, b.triangles])).toEqual([
      ['a', 12],
      ['b', 12],
      ['c', 12],
    ]);
    for (const bodyId of ['a', 'b', 'c']) expect((await engine.run('compute_metrics', { bodyId, metrics: ['volume'] })).result.volume).toBeCloseTo(6, 12);
  });
});

/** A binary little-endian PLY of a mesh (float x y z, uchar int face lists): written here, independent of the reader. */
function binaryPly(positions: ArrayLike<number>, indices: ArrayLike<number>): Uint8Array {
  const vertices = positions.length / 3;
  const faces = indices.length / 3;
  const header = new TextEncoder().encode(`ply\nformat binary_little_endian 1.0\nelement vertex ${vertices}\nproperty float x\nproperty float y\nproperty float z\nelement face ${faces}\nproperty list uchar int vertex_indices\nend_header\n`);
  const out = new Uint8Array(header.length + vertices * 12 + faces * 13);
  out.set(header);
  const view = new DataView(out.buffer);
  let at = header.length;
  for (let i = 0; i < positions.length; i++, at += 4) view.setFloat32(at, positions[i]!, true);
  for (let f = 0; f < faces; f++) {
    view.setUint8(at++, 3);
    for (let k = 0; k < 3; k++, at += 4) view.setInt32(at, indices[3 * f + k]!, true);
  }
  return out;
}

describe('a dropped File read in pieces (issue 32, item 1)', () => {
  it('blobFile: the pieces are the Blob\'s bytes in order, each at most the piece size', async () => {
    const bytes = new Uint8Array(10_000).map((_, i) => (i * 7919) % 251);
    const file = blobFile(new Blob([bytes]), 'b.bin', 4096);
    const pieces: Uint8Array[] = [];
    for await (const piece of file.pieces) pieces.push(piece);
    expect(file.size).toBe(10_000);
    expect(pieces.map((p) => p.length)).toEqual([4096, 4096, 1808]);
    expect(Buffer.concat(pieces).equals(Buffer.from(bytes))).toBe(true);
    const big = blobFile(new Blob([new Uint8Array(2 * BLOB_PIECE_BYTES + 3)]), 'big.bin');
    const sizes: number[] = [];
    for await (const piece of big.pieces) sizes.push(piece.length);
    expect(sizes).toEqual([BLOB_PIECE_BYTES, BLOB_PIECE_BYTES, 3]);
  });

  it('a Blob that can no longer be read (a dropped File moved since) is FILE_NOT_FOUND naming the file, streamed or read whole', async () => {
    const gone = new Blob([new Uint8Array(100)]);
    vi.spyOn(gone, 'slice').mockImplementation(() => ({ arrayBuffer: () => Promise.reject(new Error('NotReadableError')) }) as unknown as Blob);
    vi.spyOn(gone, 'arrayBuffer').mockImplementation(() => Promise.reject(new Error('NotReadableError')));
    const engine = new Engine({ files: memoryFiles() });
    engine.putFile('scan.stl', gone);
    const error = await engine.run('import_file', { path: 'scan.stl' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'FILE_NOT_FOUND', message: 'could not read scan.stl: NotReadableError' });
    engine.putFile('part.step', gone);
    const whole = await engine.run('import_file', { path: 'part.step' }).catch((e: unknown) => e);
    expect(whole).toMatchObject({ code: 'FILE_NOT_FOUND', message: 'could not read part.step: NotReadableError' });
  });

  for (const format of ['stl', 'ply'] as const) {
    it(`a binary ${format.toUpperCase()} given as a Blob is the same mesh as from its bytes, read without ever reading the whole Blob; the body keeps no bytes and the engine gives the Blob back`, async () => {
      const mesh = box([0, 0, 0], [1, 2, 3], 6);
      const bytes = format === 'stl' ? writeBinaryStl(mesh) : binaryPly(mesh.positions, mesh.indices);
      const fromBytes = new Engine({ files: memoryFiles() });
      fromBytes.putFile(`part.${format}`, bytes.slice());
      await fromBytes.run('import_file', { path: `part.${format}`, bodyId: 'a' });
      const blob = new Blob([bytes.slice()]);
      const whole = vi.spyOn(blob, 'arrayBuffer');
      const fromBlob = new Engine({ files: memoryFiles() });
      fromBlob.putFile(`part.${format}`, blob);
      await fromBlob.run('import_file', { path: `part.${format}`, bodyId: 'a' });
      expect(whole).not.toHaveBeenCalled();
      const a = fromBytes.scene.get('a');
      const b = fromBlob.scene.get('a');
      if (a.kind !== 'mesh' || b.kind !== 'mesh') throw new Error('expected mesh bodies');
      expect(b.mesh.indices.length).toBe(mesh.indices.length);
      expect([...b.mesh.indices]).toEqual([...a.mesh.indices]);
      expect([...b.mesh.positions]).toEqual([...a.mesh.positions]);
      expect(b.origin?.bytes).toBeUndefined();
      expect(b.origin?.fileBytes).toBe(bytes.length);
      expect(fromBlob.givenFile(`part.${format}`)).toBe(blob);
      expect((await fromBlob.run('compute_metrics', { bodyId: 'a', metrics: ['volume'] })).result.volume).toBeCloseTo(6, 9);
    });
  }

  it('a text point cloud given as a Blob is the same cloud as from its bytes, read without ever reading the whole Blob', async () => {
    const text = new TextEncoder().encode('x,y,z,nx,ny,nz\r\n' + Array.from({ length: 3000 }, (_, i) => `${i / 8},${-i},${i % 7}.25,0,0,1`).join('\r\n'));
    const fromBytes = new Engine({ files: memoryFiles() });
    fromBytes.putFile('scan.csv', text.slice());
    await fromBytes.run('import_file', { path: 'scan.csv', bodyId: 'a' });
    const blob = new Blob([text.slice()]);
    const whole = vi.spyOn(blob, 'arrayBuffer');
    const fromBlob = new Engine({ files: memoryFiles() });
    fromBlob.putFile('scan.csv', blob);
    await fromBlob.run('import_file', { path: 'scan.csv', bodyId: 'a' });
    expect(whole).not.toHaveBeenCalled();
    const a = fromBytes.scene.get('a');
    const b = fromBlob.scene.get('a');
    if (a.kind !== 'points' || b.kind !== 'points') throw new Error('expected points bodies');
    expect(b.cloud.count).toBe(3000);
    expect(b.cloud.positions).toEqual(a.cloud.positions);
    expect(b.cloud.positions.subarray(2999 * 3)).toEqual(Float64Array.of(2999 / 8, -2999, 3.25));
    expect(b.cloud.normals).toEqual(a.cloud.normals);
    expect(b.origin?.bytes).toBeUndefined();
    expect(b.origin?.fileBytes).toBe(text.length);
  });
});
