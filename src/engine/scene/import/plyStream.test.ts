import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errorOf, errorOfAsync, exactly, piecesOf } from '../../../test/streamedPieces';
import { testEngine } from '../../../test/testEngine';
import type { MeshBody, PointsBody } from '../Body';
import { resolveFormat } from './detectFormat';
import { parsePly, readPlyPieces, type MeshOrCloud } from './ply';
import { parseScanFile } from './scanFile';

const dir = mkdtempSync(join(tmpdir(), 'brepscope-ply-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Coord = 'float' | 'double';
interface PlySpec {
  little: boolean;
  coord: Coord;
  vertices: number[][];
  /** Faces as vertex index lists (triangles, quads, pentagons, degenerate ones); none for a cloud. */
  faces?: number[][];
  /** The face list's index type. */
  index?: 'int' | 'uint';
}

/** A binary PLY with vertex x y z (plus a uchar `quality` and nx ny nz floats that the parser must skip or read) and a face element with a trailing int `flags`. */
function binaryPly(spec: PlySpec): Uint8Array {
  const faces = spec.faces;
  const header =
    `ply\nformat binary_${spec.little ? 'little' : 'big'}_endian 1.0\ncomment generated\n` +
    `element vertex ${spec.vertices.length}\nproperty ${spec.coord} x\nproperty uchar quality\nproperty ${spec.coord} y\nproperty ${spec.coord} z\n` +
    `property float nx\nproperty float ny\nproperty float nz\n` +
    (faces ? `element face ${faces.length}\nproperty list uchar ${spec.index ?? 'int'} vertex_indices\nproperty int flags\n` : '') +
    'end_header\n';
  const cs = spec.coord === 'float' ? 4 : 8;
  const vsize = 3 * cs + 1 + 12;
  const fsize = (faces ?? []).reduce((s, f) => s + 1 + 4 * f.length + 4, 0);
  const head = new TextEncoder().encode(header);
  const out = new Uint8Array(head.length + spec.vertices.length * vsize + fsize);
  out.set(head);
  const view = new DataView(out.buffer);
  let at = head.length;
  const coord = (v: number): void => {
    if (cs === 4) view.setFloat32(at, v, spec.little);
    else view.setFloat64(at, v, spec.little);
    at += cs;
  };
  spec.vertices.forEach(([x, y, z], i) => {
    coord(x!);
    view.setUint8(at++, i % 256);
    coord(y!);
    coord(z!);
    for (const n of [0.6, 0, 0.8]) {
      view.setFloat32(at, n, spec.little);
      at += 4;
    }
  });
  for (const f of faces ?? []) {
    view.setUint8(at++, f.length);
    for (const v of f) {
      view.setInt32(at, v, spec.little);
      at += 4;
    }
    view.setInt32(at, 7, spec.little);
    at += 4;
  }
  return out;
}

/** Coordinates not all exactly float32 (so a double file keeps its doubles), seeded. */
function grid(n: number, seed: number): number[][] {
  let s = seed;
  const next = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5) * 200;
  return Array.from({ length: n }, () => [next(), next(), next()]);
}

/** Quads, triangles, a pentagon and a two-vertex face (skipped, with a note) over n vertices. */
function mixedFaces(n: number): number[][] {
  const faces: number[][] = [];
  for (let i = 0; i + 3 < n; i += 2) faces.push(i % 3 === 0 ? [i, i + 1, i + 2] : [i, i + 1, i + 2, i + 3]);
  faces.push([0, 1, 2, 3, 4], [5, 6]);
  return faces;
}

async function streamed(bytes: Uint8Array, size: number): Promise<MeshOrCloud> {
  const read = await readPlyPieces(piecesOf(bytes, size), 'p.ply');
  if (!('content' in read)) throw new Error('not streamed');
  return read.content;
}

function streamError(bytes: Uint8Array, size: number): Promise<unknown> {
  return errorOfAsync(() => readPlyPieces(piecesOf(bytes, size), 'p.ply'));
}

function wholeError(bytes: Uint8Array): unknown {
  return errorOf(() => parsePly(bytes, 'p.ply'));
}

const SIZES = [1, 7, 13, 4096, 1 << 30];

describe('a binary PLY streamed piece by piece parses exactly as the whole file does', () => {
  const cases: [string, PlySpec][] = [
    ['a little-endian float mesh with quads, triangles, a pentagon and a skipped face', { little: true, coord: 'float', vertices: grid(60, 1), faces: mixedFaces(60) }],
    ['a big-endian double mesh with uint indices', { little: false, coord: 'double', vertices: grid(45, 2), faces: mixedFaces(45), index: 'uint' }],
    ['a little-endian float cloud (no faces)', { little: true, coord: 'float', vertices: grid(300, 3) }],
    ['a big-endian double cloud', { little: false, coord: 'double', vertices: grid(200, 4) }],
  ];
  for (const [what, spec] of cases) {
    it(what, async () => {
      const bytes = binaryPly(spec);
      const whole = parsePly(bytes, 'p.ply');
      for (const size of SIZES) expect(exactly(await streamed(bytes, size)), `pieces of ${size}`).toEqual(exactly(whole));
    });
  }

  it('keeps a float cloud as float32, every value exactly the file\'s; a double cloud as float64', async () => {
    const vertices = grid(100, 5);
    const cloud = await streamed(binaryPly({ little: false, coord: 'float', vertices }), 13);
    if (cloud.kind !== 'points') throw new Error('a cloud expected');
    expect(cloud.cloud.positions).toBeInstanceOf(Float32Array);
    expect(Array.from(cloud.cloud.positions)).toEqual(vertices.flat().map(Math.fround));
    const doubles = await streamed(binaryPly({ little: true, coord: 'double', vertices }), 7);
    if (doubles.kind !== 'points') throw new Error('a cloud expected');
    expect(doubles.cloud.positions).toBeInstanceOf(Float64Array);
    expect(Array.from(doubles.cloud.positions)).toEqual(vertices.flat());
  });

  it('fans faces as the whole-file parser does: a quad is two triangles, a pentagon three', async () => {
    const bytes = binaryPly({ little: true, coord: 'float', vertices: grid(6, 6), faces: [[0, 1, 2, 3], [1, 2, 3, 4, 5], [0, 1]] });
    const mesh = await streamed(bytes, 7);
    if (mesh.kind !== 'mesh') throw new Error('a mesh expected');
    expect(Array.from(mesh.mesh.indices)).toEqual([0, 1, 2, 0, 2, 3, 1, 2, 3, 1, 3, 4, 1, 4, 5]);
    expect(mesh.notes).toEqual(['1 faces with fewer than 3 vertices were skipped']);
  });
});

describe('a streamed binary PLY fails as the whole file does', () => {
  const spec: PlySpec = { little: true, coord: 'float', vertices: grid(40, 8), faces: mixedFaces(40) };
  const bytes = binaryPly(spec);

  it('a file cut inside its faces: the same truncation error, naming the face and the file size', async () => {
    // Cut where the header's counts still fit (a face's smallest size is 5 bytes; these are 13 to 25), so the failure is inside a record.
    for (const cut of [20, 33, 60]) {
      const cutBytes = bytes.subarray(0, bytes.length - cut);
      const expected = wholeError(cutBytes);
      expect(expected).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringMatching(/^p\.ply: face \d+ of \d+: the file ends at byte \d+, inside this element \(truncated file\)$/) });
      expect((expected as Error).message).toContain(`the file ends at byte ${cutBytes.length},`);
      for (const size of SIZES) expect(await streamError(cutBytes, size), `cut ${cut}, pieces of ${size}`).toEqual(expected);
    }
  });

  it('a header whose counts need more bytes than the file has', async () => {
    // The faces take 409 bytes; 89 left cannot hold 21 faces of at least 5 bytes (the list count and flags).
    const cutBytes = bytes.subarray(0, bytes.length - 320);
    const expected = wholeError(cutBytes);
    expect(expected).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringContaining("the header declares 21 'face' elements, more than the") });
    for (const size of SIZES) expect(await streamError(cutBytes, size)).toEqual(expected);
  });

  it('a face index out of range, or negative', async () => {
    for (const bad of [40, -1]) {
      const badBytes = binaryPly({ ...spec, faces: [[0, 1, 2], [3, bad, 5, 6]] });
      const expected = wholeError(badBytes);
      expect(expected).toMatchObject({ code: 'PARSE_FAILED', message: `p.ply: face 1: vertex index ${bad} is not one of the 40 vertices` });
      for (const size of SIZES) expect(await streamError(badBytes, size)).toEqual(expected);
    }
  });

  it('a non-finite coordinate, a missing end_header, no vertices', async () => {
    const nan = binaryPly({ little: false, coord: 'double', vertices: [[0, 0, 0], [1, Number.NaN, 0], [0, 1, 0]], faces: [[0, 1, 2]] });
    const noEnd = new TextEncoder().encode('ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\n');
    const empty = new TextEncoder().encode('ply\nformat binary_little_endian 1.0\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nend_header\n');
    for (const [file, code, text] of [
      [nan, 'PARSE_FAILED', 'vertex 1: y is not a finite number (NaN)'],
      [noEnd, 'PARSE_FAILED', 'has no end_header line'],
      [empty, 'EMPTY_MESH', 'the PLY file has no vertices'],
    ] as const) {
      const expected = wholeError(file);
      expect(expected).toMatchObject({ code, message: expect.stringContaining(text) });
      for (const size of SIZES) expect(await streamError(file, size)).toEqual(expected);
    }
  });
});

describe('what a streamed read leaves to the whole-file path', () => {
  it('without a requested format, a file another format\'s signature claims comes back whole as bytes', async () => {
    const step = new TextEncoder().encode('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n');
    expect(await readPlyPieces(piecesOf(step, 3), 's.ply', true)).toEqual({ bytes: step });
  });

  it('without a requested format, a file only its name makes a PLY fails its magic from the head, as the whole-file path would', async () => {
    // Gathering it whole first cost a multi-GB file of zeros the host's deadline (bad-input sweep).
    const obj = new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    const expected = { code: 'PARSE_FAILED', message: 'o.ply: not a PLY file (it does not start with "ply")' };
    expect(await errorOfAsync(() => readPlyPieces(piecesOf(obj, 3), 'o.ply', true))).toMatchObject(expected);
    expect(errorOf(() => parsePly(obj, 'o.ply'))).toMatchObject(expected);
  });

  it('a head cut short by an end_header line is not judged: an ASCII STL whose facet lies past it comes back whole', async () => {
    // The header read stops at end_header; resolveFormat judges 4096 bytes, where 'facet' makes it an STL.
    const stl = new TextEncoder().encode(`solid t\nend_header\n${' '.repeat(200)}\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n`);
    expect(resolveFormat('t.ply', stl)).toBe('stl');
    for (const size of [3, 20, 4096]) expect(await readPlyPieces(piecesOf(stl, size), 't.ply', true)).toEqual({ bytes: stl });
  });
});

/** Every piece size from 1 to 64 bytes, some odd ones, 4096 and the hosts' 4 MiB. */
const ASCII_SIZES = [...Array.from({ length: 64 }, (_, i) => i + 1), 97, 100, 257, 1000, 4096, 4 * 2 ** 20];

interface AsciiSpec {
  vertices: number[][];
  faces?: number[][];
  lineEnd: '\n' | '\r\n';
  /** Whether the last line ends with a line end. */
  finalLineEnd?: boolean;
  /** Text after the last element (ignored, as the whole-file parse ignores it). */
  trailer?: string;
}

/**
 * An ASCII PLY as scanners write it, and as they should not but do: a comment and obj_info, vertex x
 * y z with a uchar quality, normals and colours between them; numbers plain, in e or E notation or
 * with trailing zeros (chosen by the vertex), tabs and runs of blanks; every seventh vertex split over
 * two lines (ASCII PLY does not tie elements to lines); faces with a trailing int flags.
 */
function asciiPly(spec: AsciiSpec): Uint8Array {
  const { vertices, faces, lineEnd: nl } = spec;
  const number = (v: number, i: number): string => [`${v}`, v.toExponential(), v.toExponential().toUpperCase(), `${v}`.includes('.') ? `${v}000` : `${v}`][i % 4]!;
  let text =
    `ply${nl}format ascii 1.0${nl}comment written by a test${nl}obj_info scanner 1${nl}element vertex ${vertices.length}${nl}` +
    `property double x${nl}property uchar quality${nl}property double y${nl}property double z${nl}property float nx${nl}property float ny${nl}property float nz${nl}` +
    `property uchar red${nl}property uchar green${nl}property uchar blue${nl}` +
    (faces ? `element face ${faces.length}${nl}property list uchar int vertex_indices${nl}property int flags${nl}` : '') +
    `end_header${nl}`;
  vertices.forEach(([x, y, z], i) => {
    const gap = i % 3 === 0 ? '\t' : i % 3 === 1 ? '  ' : ' ';
    text += `${number(x!, i)}${gap}${i % 256}${gap}${number(y!, i + 1)}${i % 7 === 3 ? nl : gap}${number(z!, i + 2)} 0.6 0 0.8${gap}${i % 256} 128 7${nl}`;
  });
  for (const f of faces ?? []) text += `${f.length} ${f.join(' ')}\t7${nl}`;
  text += spec.trailer ?? '';
  if (spec.finalLineEnd === false) text = text.slice(0, text.length - nl.length);
  return new TextEncoder().encode(text);
}

/** Coordinates as short decimals (every one exactly what its text says), seeded. */
function decimals(n: number, seed: number): number[][] {
  let s = seed;
  const next = (): number => Math.round(((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5) * 2e6) / 1e4;
  return Array.from({ length: n }, () => [next(), next(), next()]);
}

describe('an ASCII PLY streamed piece by piece parses exactly as the whole file does', () => {
  const vertices = decimals(30, 12);
  const cases: [string, AsciiSpec][] = [
    ['a mesh with quads, triangles, a pentagon and a skipped face, LF', { vertices, faces: mixedFaces(30), lineEnd: '\n' }],
    ['the same with CRLF and no line end after the last face', { vertices, faces: mixedFaces(30), lineEnd: '\r\n', finalLineEnd: false }],
    ['a cloud (no faces), with text after its last vertex', { vertices: decimals(50, 13), lineEnd: '\n', trailer: 'these extra tokens are not read 1 2 3\n' }],
  ];
  for (const [what, spec] of cases) {
    it(`${what}: every piece size from 1 to 64 bytes, 4096 and 4 MiB`, async () => {
      const bytes = asciiPly(spec);
      const whole = parsePly(bytes, 'p.ply');
      // The values the text says, faces fanned, normals and colours read.
      const arrays = whole.kind === 'mesh' ? whole.mesh : whole.cloud;
      expect(arrays.positions).toBeInstanceOf(Float64Array);
      expect(Array.from(arrays.positions)).toEqual(spec.vertices.flat());
      expect(Array.from(arrays.normals!)).toEqual(spec.vertices.flatMap(() => [0.6, 0, 0.8].map(Math.fround)));
      expect(Array.from(arrays.colors!)).toEqual(spec.vertices.flatMap((_, i) => [i % 256, 128, 7]));
      if (spec.faces) {
        if (whole.kind !== 'mesh') throw new Error('a mesh expected');
        expect(Array.from(whole.mesh.indices)).toEqual(spec.faces.flatMap((f) => f.slice(2).flatMap((v, k) => [f[0]!, f[k + 1]!, v])));
        expect(whole.notes).toEqual(['1 faces with fewer than 3 vertices were skipped']);
      } else {
        expect(whole.kind).toBe('points');
      }
      for (const size of ASCII_SIZES) expect(exactly(await streamed(bytes, size)), `pieces of ${size}`).toEqual(exactly(whole));
    });
  }

  it('a cut at every byte of the file (inside numbers, lines and split records) gives the same result', async () => {
    const bytes = asciiPly({ vertices: decimals(12, 14), faces: mixedFaces(12), lineEnd: '\r\n' });
    const whole = exactly(parsePly(bytes, 'p.ply'));
    for (let at = 1; at < bytes.length; at++) {
      const read = await readPlyPieces(piecesOf(bytes, [at, 2 ** 30]), 'p.ply');
      expect('content' in read && exactly(read.content), `cut at ${at}`).toEqual(whole);
    }
  });
});

describe('a streamed ASCII PLY fails as the whole file does', () => {
  const spec: AsciiSpec = { vertices: decimals(20, 15), faces: mixedFaces(20), lineEnd: '\n' };
  // Lines 1-19 the header, vertex i from line 20 + i (plus one for each split vertex before it: 3, 10, 17), face k on line 43 + k.
  const L = new TextDecoder().decode(asciiPly(spec)).split('\n');
  const text = (lines: string[]): string => lines.join('\n');
  const edit = (line: number, to: (l: string) => string): string => text(L.map((l, i) => (i === line - 1 ? to(l) : l)));
  const cases: [string, string, RegExp][] = [
    ['fewer faces than the header says', text([...L.slice(0, 50), '']), /^p\.ply: line 51: face 8 of 11: the file ends before its 'vertex_indices count' \(truncated file\)$/],
    ['a file cut inside a face', text([...L.slice(0, 51), '5 0 1']), /^p\.ply: line 52: face 9 of 11: the file ends before its 'vertex_indices' \(truncated file\)$/],
    ['fewer vertices than the header says (their counts still fit)', text([...L.slice(0, 39), '']), /^p\.ply: line 40: vertex 17 of 20: the file ends before its 'z' \(truncated file\)$/],
    ['header counts more than the file can hold', edit(16, () => 'element face 900'), /^p\.ply: header line 16: the header declares 900 'face' elements, more than the \d+ bytes after the header can hold \(truncated file\?\)$/],
    ['a word for a number', edit(26, (l) => l.replace(/^\S+/, 'abc')), /^p\.ply: line 26: vertex 5: 'abc' is not a number \(x\) at byte \d+$/],
    ['an infinite coordinate', edit(27, (l) => l.replace(/^\S+/, '1e999')), /^p\.ply: line 27: vertex 6: '1e999' is not a finite number \(x\) at byte \d+$/],
    ['a face index out of range', edit(45, () => '3 0 1 20\t7'), /^p\.ply: face 2: vertex index 20 is not one of the 20 vertices$/],
    ['a list length that is no count', edit(46, () => '2.5 0 1 2\t7'), /^p\.ply: line 46: face 3: list length 2\.5 is not a count$/],
    ['an extra token in a vertex (what follows shifts)', edit(25, (l) => `${l} 9`), /^p\.ply: line 54: face 10 of 11: the file ends before its 'vertex_indices count' \(truncated file\)$/],
  ];
  for (const [what, file, message] of cases) {
    it(what, async () => {
      const bytes = new TextEncoder().encode(file);
      const expected = wholeError(bytes);
      expect(expected).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringMatching(message) });
      // A byte offset in the message is the file's: the token is there.
      const at = /at byte (\d+)$/.exec((expected as Error).message);
      if (at) expect(file.slice(Number(at[1])).startsWith(/'(.*)'/.exec((expected as Error).message)![1]!)).toBe(true);
      for (const size of ASCII_SIZES) expect(await streamError(bytes, size), `pieces of ${size}`).toEqual(expected);
    });
  }
});

describe('a PLY a Node engine reads by path', () => {
  /** The file written and loaded by path, checked against the mesh its bytes give, with no bytes kept. */
  async function loadedByPath(name: string, bytes: Uint8Array): Promise<MeshBody> {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const engine = testEngine();
    await engine.load({ path, bodyId: 'm' });
    const body = engine.scene.get('m') as MeshBody;
    const parsed = parseScanFile('ply', bytes, path);
    if (parsed.kind !== 'mesh') throw new Error('a mesh expected');
    expect(body.mesh.positions).toEqual(parsed.mesh.positions);
    expect(body.mesh.indices).toEqual(parsed.mesh.indices);
    expect(body.origin).toMatchObject({ path, fileBytes: bytes.byteLength, format: 'ply' });
    expect(body.origin!.bytes).toBeUndefined();
    return body;
  }

  it('is streamed into the same mesh as its bytes give, and the body keeps no bytes', async () => {
    const body = await loadedByPath('mesh.ply', binaryPly({ little: true, coord: 'float', vertices: grid(50, 9), faces: mixedFaces(50) }));
    expect(body.notes).toEqual(['1 faces with fewer than 3 vertices were skipped']);
  });

  it('an ASCII PLY too: streamed into the mesh its bytes give, no bytes kept', async () => {
    await loadedByPath('ascii.ply', asciiPly({ vertices: decimals(30, 16), faces: mixedFaces(30), lineEnd: '\r\n' }));
  });

  it('a cloud too, as float32', async () => {
    const vertices = grid(80, 10);
    const path = join(dir, 'cloud.ply');
    writeFileSync(path, binaryPly({ little: false, coord: 'float', vertices }));
    const engine = testEngine();
    await engine.load({ path, bodyId: 'c' });
    const body = engine.scene.get('c') as PointsBody;
    expect(body.cloud.positions).toBeInstanceOf(Float32Array);
    expect(Array.from(body.cloud.positions)).toEqual(vertices.flat().map(Math.fround));
  });
});
