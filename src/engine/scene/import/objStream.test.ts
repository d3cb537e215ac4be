import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errorOf, errorOfAsync, exactly, piecesOf } from '../../../test/streamedPieces';
import { testEngine } from '../../../test/testEngine';
import type { MeshBody, PointsBody } from '../Body';
import { parseObj, readObjPieces } from './obj';
import type { MeshOrCloud } from './ply';
import { parseScanFile } from './scanFile';

const dir = mkdtempSync(join(tmpdir(), 'brepscope-obj-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Seeded coordinates, written with up to 6 decimals (not all exactly float32). */
function coords(n: number, seed: number): number[][] {
  let s = seed;
  const next = (): number => Math.round(((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5) * 2e8) / 1e6;
  return Array.from({ length: n }, () => [next(), next(), next()]);
}

interface ObjSpec {
  vertices: number[][];
  crlf?: boolean;
  /** No newline after the last line. */
  noFinalNewline?: boolean;
  /** Faces; none for a cloud. */
  faces?: boolean;
}

/**
 * An OBJ with comments, an object and groups, vertex normals and texture coordinates, and faces in
 * every corner form (v, v/vt, v//vn, v/vt/vn), with positive and negative indices, triangles,
 * quads and pentagons (fanned).
 */
function objText(spec: ObjSpec): string {
  const lines: string[] = ['# generated for objStream.test.ts', 'mtllib parts.mtl', 'o part', ''];
  const n = spec.vertices.length;
  spec.vertices.forEach(([x, y, z], i) => {
    lines.push(`v ${x} ${y}\t${z}`);
    if (i % 4 === 0) lines.push(`vn ${(i % 3) / 3} 0.6 0.8`, `vt ${(i % 5) / 5} 0.25`);
    if (i % 17 === 0) lines.push(`# after vertex ${i}`, '   ');
  });
  if (spec.faces) {
    const normals = Math.ceil(n / 4), texcoords = normals;
    lines.push('g first', 'usemtl steel');
    for (let i = 0; i + 5 < n; i += 3) {
      const k = (i / 3) % 5;
      const vn = (i % normals) + 1, vt = (i % texcoords) + 1;
      if (k === 0) lines.push(`f ${i + 1} ${i + 2} ${i + 3}`);
      else if (k === 1) lines.push(`f ${i + 1}/${vt} ${i + 2}/${vt} ${i + 3}/${vt} ${i + 4}/${vt}`);
      else if (k === 2) lines.push(`f ${i + 1}//${vn} ${i + 2}//${vn} ${i + 3}//${vn} ${i + 4}//${vn} ${i + 5}//${vn}`);
      else if (k === 3) lines.push(`f ${i + 1}/${vt}/${vn}  ${i + 2}/${vt}/${vn} ${i + 3}/${vt}/${vn}`);
      else lines.push(`f ${i + 1 - n - 1} ${i + 2 - n - 1}/-1 ${i + 3 - n - 1}/-1/-1 ${i + 4 - n - 1}//-2`);
    }
    lines.push('g second', 'l 1 2', 'f -1 -2 -3');
  }
  const text = lines.join(spec.crlf ? '\r\n' : '\n');
  return spec.noFinalNewline ? text : text + (spec.crlf ? '\r\n' : '\n');
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

async function streamed(bytes: Uint8Array, size: number, signature = false): Promise<MeshOrCloud> {
  const read = await readObjPieces(piecesOf(bytes, size), 'p.obj', signature);
  if (!('content' in read)) throw new Error('not streamed');
  return read.content;
}

function streamError(bytes: Uint8Array, size: number): Promise<unknown> {
  return errorOfAsync(() => readObjPieces(piecesOf(bytes, size), 'p.obj'));
}

function wholeError(bytes: Uint8Array): unknown {
  return errorOf(() => parseObj(bytes, 'p.obj'));
}

const SIZES = [1, 7, 13, 4096, 1 << 30];

describe('an OBJ streamed piece by piece parses exactly as the whole file does', () => {
  const cases: [string, ObjSpec][] = [
    ['a mesh with every corner form, negative indices, fanned quads and pentagons', { vertices: coords(80, 1), faces: true }],
    ['the same with CRLF line ends and no final newline', { vertices: coords(70, 2), faces: true, crlf: true, noFinalNewline: true }],
    ['a cloud (vertices, no faces), no final newline', { vertices: coords(300, 3), noFinalNewline: true }],
    ['a CRLF cloud', { vertices: coords(200, 4), crlf: true }],
  ];
  for (const [what, spec] of cases) {
    it(what, async () => {
      const bytes = encode(objText(spec));
      const whole = parseObj(bytes, 'p.obj');
      expect(whole.kind).toBe(spec.faces ? 'mesh' : 'points');
      for (const size of SIZES) expect(exactly(await streamed(bytes, size)), `pieces of ${size}`).toEqual(exactly(whole));
      for (const size of [1, 4096]) expect(exactly(await streamed(bytes, size, true)), `pieces of ${size}, by signature`).toEqual(exactly(whole));
    });
  }

  it('reads the values the text holds: vertices, fanned triangles with negative indices resolved, per-vertex normals', async () => {
    const text = '# t\r\nv 0 0 0\r\nv 1 0 0\r\nv 1 1 0\r\nv 0 1 0\r\nv 0.5 0.5 2.25\r\nvn 0 0 1\r\nvt 0 0\r\nf 1//1 2//1 3//1 4//1\r\nf -5/1 -4/1/1 -1';
    const mesh = await streamed(encode(text), 7);
    if (mesh.kind !== 'mesh') throw new Error('a mesh expected');
    expect(Array.from(mesh.mesh.positions)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 2.25]);
    expect(Array.from(mesh.mesh.indices)).toEqual([0, 1, 2, 0, 2, 3, 0, 1, 4]);
    expect(Array.from(mesh.mesh.normals!)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0]);
  });
});

describe('a streamed OBJ fails as the whole file does', () => {
  const good = objText({ vertices: coords(40, 8), faces: true });

  it('a bad number, a bad corner, an index out of range (backward, forward, normal), too few corners, no vertices', async () => {
    const at = good.indexOf('v ', good.length / 3);
    const cases: [string, string, RegExp][] = [
      [good.slice(0, at) + 'v 1 2 1e+ \n' + good.slice(at), 'PARSE_FAILED', /^p\.obj: line \d+: '1e\+' is not a finite number \(z\) at byte \d+$/],
      [good.slice(0, at) + 'v 1 nan 2\r\n' + good.slice(at), 'PARSE_FAILED', /^p\.obj: line \d+: 'nan' is not a finite number \(y\) at byte \d+$/],
      [good + 'f 1 2 3/x\n', 'PARSE_FAILED', /^p\.obj: line \d+: '3\/x' is not a face corner \(v, v\/vt, v\/\/vn or v\/vt\/vn\) at byte \d+$/],
      [good + 'f 1 0 2\n', 'PARSE_FAILED', /^p\.obj: line \d+: face index 0 in '0' refers to no vertex \(OBJ counts vertices from 1, or back from -1\) at byte \d+$/],
      [good + 'f 1 0//1 2\n', 'PARSE_FAILED', /^p\.obj: line \d+: face index 0 in '0\/\/1' refers to no vertex \(OBJ counts vertices from 1, or back from -1\) at byte \d+$/],
      [good + 'f 1 -41 2\n', 'PARSE_FAILED', /^p\.obj: line \d+: face index -41 refers to no vertex \(40 defined so far\)$/],
      [good + 'f 1 2 42 3\nv 0 0 0', 'PARSE_FAILED', /^p\.obj: line \d+: face index 42 refers to no vertex \(the file defines 41\)$/],
      [good + 'f 1//99 2//1 3//1\n', 'PARSE_FAILED', /^p\.obj: line \d+: face normal index 99 refers to no normal \(10 defined so far\)$/],
      [good + 'f 1 2', 'PARSE_FAILED', /^p\.obj: line \d+: a face needs at least 3 vertices, this one has 2$/],
      ['# nothing\r\nvn 0 0 1\r\n', 'EMPTY_MESH', /^p\.obj: the OBJ file has no vertices$/],
    ];
    for (const [text, code, message] of cases) {
      const bytes = encode(text);
      const expected = wholeError(bytes);
      expect(expected).toMatchObject({ code, message: expect.stringMatching(message) });
      for (const size of SIZES) expect(await streamError(bytes, size), `${message}, pieces of ${size}`).toEqual(expected);
    }
  });

  it('names the line and the byte the whole file names', async () => {
    const bytes = encode('v 0 0 0\r\n# c\r\nv 1 0 0\r\nv 0 1 0x\r\nf 1 2 3\r\n');
    const expected = `p.obj: line 4: '0x' is not a finite number (z) at byte 29`;
    expect(wholeError(bytes)).toMatchObject({ code: 'PARSE_FAILED', message: expected });
    for (const size of SIZES) expect(await streamError(bytes, size)).toMatchObject({ code: 'PARSE_FAILED', message: expected });
  });
});

describe('what a streamed read leaves to the whole-file path', () => {
  it('without a requested format, a file named .obj that is another format by its first bytes comes back whole', async () => {
    const ply = encode('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n');
    expect(await readObjPieces(piecesOf(ply, 5), 'p.obj', true)).toEqual({ bytes: ply });
    const stl = new Uint8Array(84 + 50);
    stl[80] = 1;
    expect(await readObjPieces(piecesOf(stl, 13), 'p.obj', true)).toEqual({ bytes: stl });
  });
});

describe('an OBJ a Node engine reads by path', () => {
  it('is streamed into the same mesh as its bytes give, and the body keeps no bytes', async () => {
    const bytes = encode(objText({ vertices: coords(60, 9), faces: true, crlf: true }));
    const path = join(dir, 'mesh.obj');
    writeFileSync(path, bytes);
    const engine = testEngine();
    await engine.load({ path, bodyId: 'm' });
    const body = engine.scene.get('m') as MeshBody;
    const parsed = parseScanFile('obj', bytes, path);
    if (parsed.kind !== 'mesh') throw new Error('a mesh expected');
    expect(body.mesh.positions).toEqual(parsed.mesh.positions);
    expect(body.mesh.indices).toEqual(parsed.mesh.indices);
    expect(body.notes).toEqual(parsed.notes);
    expect(body.notes).toContain('3 objects and groups are read as one body');
    expect(body.origin).toMatchObject({ path, fileBytes: bytes.byteLength, format: 'obj' });
    expect(body.origin!.bytes).toBeUndefined();
  });

  it('a mesh whose coordinates are all exactly float32 is stored as float32 (a cloud as the whole file gives it)', async () => {
    const vertices = coords(90, 10).map((v) => v.map(Math.fround));
    const path = join(dir, 'exact.obj');
    const bytes = encode(objText({ vertices, faces: true }));
    writeFileSync(path, bytes);
    const engine = testEngine();
    await engine.load({ path, bodyId: 'e' });
    const body = engine.scene.get('e') as MeshBody;
    const parsed = parseScanFile('obj', bytes, path);
    if (parsed.kind !== 'mesh') throw new Error('a mesh expected');
    expect(body.mesh.positions).toBeInstanceOf(Float32Array);
    expect(parsed.mesh.positions).toBeInstanceOf(Float32Array);
    expect(Array.from(body.mesh.positions)).toEqual(Array.from(parsed.mesh.positions));
    // Every vertex is used by some face: the welded positions are the file's values.
    expect(new Set(body.mesh.positions)).toEqual(new Set(vertices.flat()));

    const cloudPath = join(dir, 'cloud.obj');
    const cloudBytes = encode(objText({ vertices }));
    writeFileSync(cloudPath, cloudBytes);
    await engine.load({ path: cloudPath, bodyId: 'c' });
    const cloud = engine.scene.get('c') as PointsBody;
    const whole = parseScanFile('obj', cloudBytes, cloudPath);
    if (whole.kind !== 'points') throw new Error('a cloud expected');
    expect(cloud.cloud.positions.constructor).toBe(whole.cloud.positions.constructor);
    expect(Array.from(cloud.cloud.positions)).toEqual(vertices.flat());
    expect(cloud.origin!.bytes).toBeUndefined();
  });
});
