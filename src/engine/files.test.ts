import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../test/testEngine';
import { dataPath } from '../test/data';
import { Engine } from './Engine';
import { memoryFiles, recordingFiles } from './files';
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
