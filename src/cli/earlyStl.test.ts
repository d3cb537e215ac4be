import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { box, uvSphere } from '../engine/mesh/generators';
import { MeshBody } from '../engine/scene/Body';
import { parseStl, writeBinaryStl } from '../engine/scene/import/stl';
import { testEngine } from '../test/testEngine';
import { writePly } from '../test/meshWriters';
import { readStlEarly } from './earlyStl';

const dir = mkdtempSync(join(tmpdir(), 'brepscope-early-stl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an STL read and parsed by the CLI while the engine starts', () => {
  it('is the mesh the engine would have parsed, and loads as the same body', async () => {
    const path = join(dir, 'sphere.stl');
    const bytes = writeBinaryStl(uvSphere(5, 40, 20));
    writeFileSync(path, bytes);
    const early = await readStlEarly(path);
    expect(early).toBeDefined();
    const parsed = parseStl(bytes, path);
    expect(Array.from(early!.stlMesh.positions)).toEqual(Array.from(parsed.positions));
    expect(Array.from(early!.stlMesh.indices)).toEqual(Array.from(parsed.indices));

    const engine = testEngine();
    await engine.load({ path, bodyId: 'early', ...early });
    await engine.load({ path, bodyId: 'read' });
    const [a, b] = ['early', 'read'].map((id) => engine.scene.get(id) as MeshBody);
    expect(a).toBeInstanceOf(MeshBody);
    expect(Array.from(a!.mesh.positions)).toEqual(Array.from(b!.mesh.positions));
    expect(Array.from(a!.mesh.indices)).toEqual(Array.from(b!.mesh.indices));
    expect(a!.mesh.distinctPositions).toBe(b!.mesh.distinctPositions);
    expect((await engine.run('compute_metrics', { bodyId: 'early' })).result).toEqual((await engine.run('compute_metrics', { bodyId: 'read' })).result);
  });

  it('reads an ASCII STL too, into the mesh parseStl gives', async () => {
    const path = join(dir, 'triangle.stl');
    const bytes = new TextEncoder().encode('solid t\r\n facet normal 0 0 1\r\n  outer loop\r\n   vertex 0 0 0\r\n   vertex 1.5 0 0\r\n   vertex 0 0.1 0\r\n  endloop\r\n endfacet\r\nendsolid t\r\n');
    writeFileSync(path, bytes);
    const early = await readStlEarly(path);
    expect(early?.fileBytes).toBe(bytes.byteLength);
    expect(early!.stlMesh.positions).toBeInstanceOf(Float64Array);
    expect(Array.from(early!.stlMesh.positions)).toEqual([0, 0, 0, 1.5, 0, 0, 0, 0.1, 0]);
    expect(Array.from(early!.stlMesh.indices)).toEqual([0, 1, 2]);
    expect(early!.stlMesh.indices.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('leaves to the engine whatever it cannot read or parse: a missing file, a directory, a truncated STL, an empty one, another extension', async () => {
    const truncated = join(dir, 'truncated.stl');
    writeFileSync(truncated, writeBinaryStl(box([0, 0, 0], [1, 1, 1])).subarray(0, 120));
    const empty = join(dir, 'empty.stl');
    writeFileSync(empty, new Uint8Array(0));
    const folder = join(dir, 'folder.stl');
    mkdirSync(folder);
    const ply = join(dir, 'cube.ply');
    writeFileSync(ply, writePly(box([0, 0, 0], [1, 1, 1]), { encoding: 'ascii' }));
    for (const path of [join(dir, 'missing.stl'), folder, truncated, empty, ply]) expect(await readStlEarly(path), path).toBeUndefined();
    // The engine then reports each as it always has.
    const engine = testEngine();
    await expect(engine.load({ path: join(dir, 'missing.stl') })).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(engine.load({ path: truncated })).rejects.toMatchObject({ code: 'PARSE_FAILED' });
    await expect(engine.load({ path: empty })).rejects.toMatchObject({ code: 'EMPTY_FILE' });
  });

  it('is ignored by the engine when the bytes are not an STL after all (a PLY named .stl)', async () => {
    const path = join(dir, 'really-a-ply.stl');
    const plyBytes = writePly(box([0, 0, 0], [2, 2, 2]), { encoding: 'ascii' });
    writeFileSync(path, plyBytes);
    const engine = testEngine();
    // A mesh that does not belong to these bytes: used only if the file is an STL.
    const wrong = parseStl(writeBinaryStl(uvSphere(1, 8, 4)));
    await engine.load({ path, bodyId: 'p', bytes: new Uint8Array(plyBytes), stlMesh: wrong });
    // Read as the PLY its signature says it is: the cube's 8 corners, not the stray sphere.
    const body = engine.scene.get('p') as MeshBody;
    expect(body.sourceFormat).toBe('ply');
    expect(body.mesh.positions.length / 3).toBe(8);
  });
});
