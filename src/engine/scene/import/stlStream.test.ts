import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { uvSphere } from '../../mesh/generators';
import { BrepscopeError } from '../../errors';
import type { TriMesh } from '../../mesh/TriMesh';
import { compactPositions } from '../../mesh/TriMesh';
import { weldVertexIds } from '../../mesh/weld';
import type { MeshBody } from '../Body';
import { arraysExactly, errorOf, errorOfAsync, piecesOf } from '../../../test/streamedPieces';
import { testEngine } from '../../../test/testEngine';
import { BinaryStlReader, parseStl, readStlPieces, writeBinaryStl } from './stl';

const dir = mkdtempSync(join(tmpdir(), 'brepscope-stl-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A binary STL whose corner coordinates are the given float32 bit patterns, three corners a triangle. */
function stlOfBits(bits: Uint32Array): Uint8Array {
  const count = bits.length / 9;
  const out = new Uint8Array(84 + 50 * count);
  const view = new DataView(out.buffer);
  view.setUint32(80, count, true);
  for (let t = 0; t < count; t++) for (let k = 0; k < 9; k++) view.setUint32(84 + 50 * t + 12 + 4 * k, bits[9 * t + k]!, true);
  return out;
}

/** Random finite float32 bit patterns: every exponent (subnormals included), both signs, no NaN or infinity, no -0. */
function randomFiniteBits(n: number, seed: number): Uint32Array {
  let s = seed;
  const next = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let b: number;
    do b = next();
    while ((b & 0x7f800000) === 0x7f800000 || b === 0x80000000);
    out[i] = b;
  }
  return out;
}

describe('a binary STL keeps its float32 coordinates exactly, as float32', () => {
  it('round-trips every coordinate bit for bit (3000 random corners, subnormals and extremes included)', () => {
    const bits = randomFiniteBits(9 * 1000, 7);
    const mesh = parseStl(stlOfBits(bits));
    expect(mesh.positions).toBeInstanceOf(Float32Array);
    const stored = new Uint32Array(mesh.positions.buffer, mesh.positions.byteOffset, mesh.positions.length);
    let mismatches = 0;
    for (let c = 0; c < 3000; c++) {
      const v = mesh.indices[c]!;
      for (let k = 0; k < 3; k++) if (stored[3 * v + k] !== bits[3 * c + k]) mismatches++;
    }
    expect(mismatches).toBe(0);
    // As float64 numbers (what every computation reads) they are the file's values, not rounded again.
    const f32 = new Float32Array(bits.buffer);
    expect(mesh.positions[3 * mesh.indices[5]!]).toBe(f32[15]);
  });

  it('reads -0 as 0, as the weld always has', () => {
    const bits = Uint32Array.from([0x80000000, 0, 0, 0x3f800000, 0, 0, 0, 0x3f800000, 0]);
    const mesh = parseStl(stlOfBits(bits));
    expect(Object.is(mesh.positions[0], 0)).toBe(true);
  });
});

describe('a binary STL read in pieces', () => {
  const sphere = writeBinaryStl(uvSphere(5, 40, 20));
  const whole = parseStl(sphere);

  it.each([[[1]], [[7, 49]], [[50]], [[51, 83]], [[84, 50, 3]], [[4096]], [[sphere.byteLength]]])('gives the arrays parseStl gives, pieces of %j bytes', async (sizes) => {
    const read = await readStlPieces(piecesOf(sphere, sizes), 'sphere.stl');
    expect('mesh' in read).toBe(true);
    const mesh = (read as { mesh: typeof whole }).mesh;
    expect(mesh.positions).toEqual(whole.positions);
    expect(mesh.indices).toEqual(whole.indices);
    expect(mesh.distinctPositions).toBe(true);
  });

  it('is PARSE_FAILED when the file ends before the triangles its header declares (it shrank while read)', () => {
    const reader = new BinaryStlReader(800, 'cut.stl');
    reader.push(sphere.subarray(0, 84 + 50 * 400 + 17));
    expect(() => reader.finish()).toThrow(expect.objectContaining({ code: 'PARSE_FAILED', message: expect.stringContaining('truncated') }));
  });

  it('is PARSE_FAILED naming the corner when a coordinate is not finite', async () => {
    const bad = sphere.slice();
    new DataView(bad.buffer).setUint32(84 + 50 * 3 + 12 + 12 + 4, 0x7fc00000, true); // triangle 3, corner b, y: NaN
    await expect(readStlPieces(piecesOf(bad, [37]), 'nan.stl')).rejects.toMatchObject({ code: 'PARSE_FAILED', message: expect.stringContaining('coordinate y of corner 10') });
  });

  it('refuses what is neither a binary STL of its size nor ASCII STL, with the whole-file error, when no other format claims it', async () => {
    const text = new TextEncoder().encode('this is no STL at all, only some text\n'.repeat(3));
    const expected = errorOf(() => parseStl(text, 't.stl'));
    expect(expected).toMatchObject({ code: 'PARSE_FAILED' });
    expect(await errorOfAsync(() => readStlPieces(piecesOf(text, [5]), 't.stl'))).toEqual(expected);
  });

  it('hands back whole a file another format claims in the first 4096 bytes resolveFormat reads, past the 1024 of the STL head', async () => {
    // An IGES whose start section runs past byte 1024: its G line is what makes it IGES.
    const line = (text: string, section: string, n: number) => `${text.padEnd(72)}${section}${String(n).padStart(7)}\n`;
    const start = Array.from({ length: 15 }, (_, i) => line(`start ${i}`, 'S', i + 1)).join('');
    const iges = new TextEncoder().encode(start + line('1H,,1H;', 'G', 1) + line('', 'T', 1));
    expect(start.length).toBeGreaterThan(1024);
    for (const size of [7, 1000, 4096]) expect(await readStlPieces(piecesOf(iges, size), 'i.stl')).toEqual({ bytes: iges });
  });
});

/** Every piece size from 1 to 64 bytes, some odd ones, 4096 and the hosts' 4 MiB. */
const ASCII_SIZES = [...Array.from({ length: 64 }, (_, i) => i + 1), 97, 100, 257, 1000, 4096, 4 * 2 ** 20];

const CUBE_CORNERS = [
  [0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1],
];
const CUBE_TRIANGLES = [
  [0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7],
];

/**
 * A cube's 12 triangles (scaled by `scale`, moved by 0.5) as ASCII STL in two solids, written the
 * ways exporters write it, chosen by a seed: keywords in lower, upper and mixed case, tabs and runs
 * of blanks, CRLF or LF, numbers plain, with a sign, trailing zeros, e or E exponents, 21 digits
 * (past the fast path), zeros as -0; a 'solid' line with a name.
 */
function asciiCube(seed: number, scale: number, lineEnd: '\n' | '\r\n', finalLineEnd = true): string {
  let s = seed;
  const pick = <T,>(options: T[]): T => options[(s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % options.length]!;
  const number = (v: number): string =>
    pick([`${v}`, v.toExponential(), v.toExponential(6).toUpperCase(), `${v >= 0 ? '+' : ''}${v.toFixed(7)}`, v.toPrecision(21), v === 0 ? '-0' : `${v}`]);
  const blank = (): string => pick([' ', '\t', '  \t ', ' ']);
  const word = (w: string): string => pick([w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1)]);
  let text = '';
  CUBE_TRIANGLES.forEach((triangle, t) => {
    if (t === 0 || t === 6) text += `solid Bracket_v2 exported 2026-11-27${lineEnd}`;
    text += `\t${word('facet')} ${word('normal')}${blank()}0 0 ${number(1)}${lineEnd}\t  ${word('outer')} ${word('loop')}${lineEnd}`;
    for (const c of triangle) {
      const [x, y, z] = CUBE_CORNERS[c]!.map((v) => v * scale + 0.5);
      text += `\t\t${word('vertex')}${blank()}${number(x!)}${blank()}${number(y!)}${blank()}${number(z!)}${lineEnd}`;
    }
    text += `\t  ${word('endloop')}${lineEnd}\t${word('endfacet')}${lineEnd}`;
    if (t === 5 || t === 11) text += `${word('endsolid')} Bracket_v2${t === 11 && !finalLineEnd ? '' : lineEnd}`;
  });
  return text;
}

const bytesOf = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

async function streamedStl(bytes: Uint8Array, sizes: number | number[]): Promise<unknown> {
  const read = await readStlPieces(piecesOf(bytes, sizes), 'a.stl');
  if (!('mesh' in read)) throw new Error('not streamed');
  return arraysExactly(read.mesh);
}

describe('an ASCII STL streamed piece by piece parses exactly as the whole file does', () => {
  const cases: [string, string, 'Float32Array' | 'Float64Array'][] = [
    ['CRLF, float32 values (a float32 mesh)', asciiCube(1, 2, '\r\n'), 'Float32Array'],
    ['LF, values no float32 holds (a float64 mesh)', asciiCube(2, 0.1, '\n'), 'Float64Array'],
    ['no line end after the last line', asciiCube(3, 0.3, '\n', false), 'Float64Array'],
    ['CRLF, no line end after the last line', asciiCube(4, 4, '\r\n', false), 'Float32Array'],
  ];
  for (const [what, text, type] of cases) {
    it(`${what}: every piece size from 1 to 64 bytes, 4096 and 4 MiB`, async () => {
      const bytes = bytesOf(text);
      const whole = parseStl(bytes, 'a.stl');
      // The cube, as an independent weld of its corners gives it: 8 vertices in order of first use.
      const scale = [2, 0.1, 0.3, 4][cases.findIndex((c) => c[1] === text)]!;
      const order: number[] = [];
      const indices = CUBE_TRIANGLES.flat().map((c) => (order.includes(c) ? order.indexOf(c) : order.push(c) - 1));
      expect(whole.positions.constructor.name).toBe(type);
      expect(Array.from(whole.positions)).toEqual(order.flatMap((c) => CUBE_CORNERS[c]!.map((v) => (type === 'Float32Array' ? Math.fround(v * scale + 0.5) : v * scale + 0.5))));
      expect(Array.from(whole.indices)).toEqual(indices);
      expect(whole.distinctPositions).toBe(true);
      for (const size of ASCII_SIZES) expect(await streamedStl(bytes, size), `pieces of ${size}`).toEqual(arraysExactly(whole));
    });
  }

  it('a cut at every byte of the file (inside numbers, inside vertex, endloop and endfacet) gives the same mesh', async () => {
    const text = asciiCube(5, 0.1, '\r\n');
    const bytes = bytesOf(text);
    const whole = arraysExactly(parseStl(bytes, 'a.stl'));
    const inside = [text.indexOf('.1') + 1, text.search(/vertex/i) + 3, text.search(/endloop/i) + 4, text.search(/endfacet/i) + 6];
    for (const at of inside) expect(await streamedStl(bytes, [at, 2 ** 30]), `cut at ${at}`).toEqual(whole);
    for (let at = 1; at < bytes.length; at++) expect(await streamedStl(bytes, [at, 2 ** 30]), `cut at ${at}`).toEqual(whole);
  });

  it('reads what the regular expressions the reader replaced read (vertex and three tokens; endfacet anywhere), for 300 seeded texts', async () => {
    let s = 11;
    const next = (n: number): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % n;
    const pick = <T,>(options: T[]): T => options[next(options.length)]!;
    const tokens = ['vertex', 'VERTEX', 'Vertex', 'endfacet', 'ENDFACET', 'endloop', 'facet', 'avertex', 'vertexa', 'endfaceendfacet', 'verte', 'x', '0', '1', '-0', '0.1', '2.5E+1', '0x1f', '.5', '5.', '+2', 'inf', 'nan', '1,5', '1e999', '12345678901234567890'];
    const blanks = [' ', '\t', '\n', '\r\n', '\u000b', '\f', '\u00a0', '\u0085'];
    const facet = (): string => `facet normal 0 0 1\nouter loop\n${[0, 1, 2].map(() => `${pick(['vertex', 'VERTEX'])}${pick(blanks)}${pick(['0', '1', '0.1'])} ${pick(['0', '-0', '2'])}\t${pick(['1', '3'])}\n`).join('')}endloop\nendfacet\n`;
    const outcomes = new Set<string>();
    for (let i = 0; i < 300; i++) {
      let text = 'solid t\n';
      if (i % 2 === 0) for (let f = next(5); f > 0; f--) text += facet();
      else for (let n = next(40); n > 0; n--) text += pick(tokens) + pick(blanks);
      if (next(3) === 0) text = text.slice(0, 8 + next(text.length - 7));
      const bytes = bytesOf(text);
      const expected = errorOrArrays(() => regexStl(bytes, 'a.stl'));
      expect(errorOrArrays(() => parseStl(bytes, 'a.stl')), JSON.stringify(text)).toEqual(expected);
      const streamed = await readStlPieces(piecesOf(bytes, 1 + next(20)), 'a.stl').then(
        (read) => ('mesh' in read ? arraysExactly(read.mesh) : 'not streamed'),
        (e: unknown) => e,
      );
      expect(streamed, JSON.stringify(text)).toEqual(expected);
      outcomes.add(expected instanceof Error ? (expected as BrepscopeError).message.replace(/\d+/g, 'N').replace(/coordinate [xyz]/, 'coordinate X') : 'mesh');
    }
    // The texts reach every outcome: meshes, each count mismatch, a coordinate that is not a number, a fourth number, no triangles.
    expect([...outcomes].sort()).toEqual([
      'a.stl: ASCII STL has N complete facets but N vertex triples (truncated file?)',
      'a.stl: ASCII STL has N vertices, not a multiple of N (truncated facet?)',
      'a.stl: coordinate X of corner N is not a finite number',
      'a.stl: line N: corner N has a number after its x y z (a vertex holds three)',
      'a.stl: the STL contains no triangles',
      'mesh',
    ]);
  });
});

/** The ASCII STL reading this reader replaced (regular expressions over the decoded text, then a weld of all corners), as the test's oracle. */
function regexStl(bytes: Uint8Array, name: string): TriMesh {
  const text = new TextDecoder('latin1').decode(bytes);
  const out: number[] = [];
  const vertex = /vertex\s+(\S+)\s+(\S+)\s+(\S+)/gi;
  // A number after the three on the corner's line is refused as soon as it is read.
  const fourth = /[^\S\n]*[0-9+.-]/y;
  for (let m = vertex.exec(text); m; m = vertex.exec(text)) {
    out.push(Number(m[1]), Number(m[2]), Number(m[3]));
    fourth.lastIndex = vertex.lastIndex;
    if (fourth.test(text)) {
      const line = text.slice(0, vertex.lastIndex).split('\n').length;
      throw new BrepscopeError('PARSE_FAILED', `${name}: line ${line}: corner ${out.length / 3 - 1} has a number after its x y z (a vertex holds three)`);
    }
  }
  if (out.length % 9 !== 0) throw new BrepscopeError('PARSE_FAILED', `${name}: ASCII STL has ${out.length / 3} vertices, not a multiple of 3 (truncated facet?)`);
  const facets = (text.match(/endfacet/gi) ?? []).length;
  if (facets !== out.length / 9) throw new BrepscopeError('PARSE_FAILED', `${name}: ASCII STL has ${facets} complete facets but ${out.length / 9} vertex triples (truncated file?)`);
  if (out.length === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the STL contains no triangles`);
  const bad = out.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) throw new BrepscopeError('PARSE_FAILED', `${name}: coordinate ${'xyz'[bad % 3]} of corner ${Math.floor(bad / 3)} is not a finite number`);
  const { ids, count } = weldVertexIds(Float64Array.from(out));
  const positions = new Float64Array(3 * count);
  ids.forEach((v, c) => positions.set(out.slice(3 * c, 3 * c + 3).map((x) => x + 0), 3 * v));
  return { positions: compactPositions(positions), indices: ids, distinctPositions: true };
}

function errorOrArrays(run: () => TriMesh): unknown {
  const result = errorOf(run);
  return result === 'no error' ? arraysExactly(run()) : result;
}

describe('a streamed ASCII STL fails as the whole file does', () => {
  const good = asciiCube(6, 0.1, '\n');
  const lastVertex = [...good.matchAll(/vertex/gi)].at(-1)!.index;
  const cases: [string, string, string, string][] = [
    ['cut inside a facet\'s vertices', good.slice(0, lastVertex + 3), 'PARSE_FAILED', 'a.stl: ASCII STL has 35 vertices, not a multiple of 3 (truncated facet?)'],
    ['cut between endloop and endfacet', good.slice(0, good.search(/endfacet\nendsolid Bracket_v2\n$/i)), 'PARSE_FAILED', 'a.stl: ASCII STL has 11 complete facets but 12 vertex triples (truncated file?)'],
    ['a facet of two vertices', good.replace(/\t\t(vertex|VERTEX|Vertex)[^\n]*\n/, ''), 'PARSE_FAILED', 'a.stl: ASCII STL has 35 vertices, not a multiple of 3 (truncated facet?)'],
    ['words for numbers', 'solid junk\nfacet normal 0 0 1\nouter loop\nvertex one two three\nvertex 1 2 3\nvertex 4 5 6\nendloop\nendfacet\nendsolid junk\n', 'PARSE_FAILED', 'a.stl: coordinate x of corner 0 is not a finite number'],
    ['an infinite coordinate', good.replace(/(\t\t(?:vertex|VERTEX|Vertex)\s+\S+\s+)\S+/, '$11e999'), 'PARSE_FAILED', 'a.stl: coordinate y of corner 0 is not a finite number'],
    ['a number of 1025 characters', good.replace(/(\t\t(?:vertex|VERTEX|Vertex)\s+\S+\s+\S+\s+)\S+/, `$1${'0'.repeat(1024)}1`), 'PARSE_FAILED', 'a.stl: coordinate z of corner 0 is not a finite number'],
    ['no facets', 'solid empty\r\nendsolid empty\r\n', 'EMPTY_MESH', 'a.stl: the STL contains no triangles'],
  ];
  for (const [what, text, code, message] of cases) {
    it(what, async () => {
      const bytes = bytesOf(text);
      const expected = errorOf(() => parseStl(bytes, 'a.stl'));
      expect(expected).toMatchObject({ code, message });
      for (const size of ASCII_SIZES) expect(await errorOfAsync(() => readStlPieces(piecesOf(bytes, size), 'a.stl')), `pieces of ${size}`).toEqual(expected);
    });
  }

  it('tells binary from ASCII as before: an empty file, a binary header starting with "solid", text that is no STL', async () => {
    const empty = new Uint8Array(0);
    expect(await readStlPieces(piecesOf(empty, 7), 'a.stl')).toEqual({ bytes: empty });
    expect(errorOf(() => parseStl(empty, 'a.stl'))).toMatchObject({ code: 'EMPTY_FILE' });
    // A binary STL whose header says "solid": the NUL padding makes it binary, streamed or whole.
    const binary = writeBinaryStl(uvSphere(1, 8, 4), 'solid cube facet');
    const read = await readStlPieces(piecesOf(binary, 13), 'b.stl');
    expect(arraysExactly((read as { mesh: TriMesh }).mesh)).toEqual(arraysExactly(parseStl(binary, 'b.stl')));
    expect((read as { mesh: TriMesh }).mesh.positions).toBeInstanceOf(Float32Array);
    // 'solid' text past 1024 bytes with neither facet nor endsolid in them, or with a NUL: not ASCII STL, and (84 bytes or
    // more) a binary STL whose header's count does not fit. No other format claims it, so the streamed read refuses it from
    // its head with the whole-file error, rather than gathering the file first (a multi-GB file of zeros ran past the deadline).
    for (const text of [`solid ${'x'.repeat(2000)}\nfacet normal 0 0 1\n`, 'solid t\u0000\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n']) {
      const bytes = bytesOf(text);
      const expected = errorOf(() => parseStl(bytes, 'a.stl'));
      expect(expected).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringContaining('truncated binary STL') });
      for (const size of [1, 100, 4096]) expect(await errorOfAsync(() => readStlPieces(piecesOf(bytes, size), 'a.stl'))).toEqual(expected);
    }
    // Another format's signature under an .stl name is still handed back whole, for the importer to read as that format.
    const step = bytesOf(`ISO-10303-21;\nHEADER;\n${'/* pad */\n'.repeat(200)}ENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n`);
    for (const size of [1, 100, 4096]) expect(await readStlPieces(piecesOf(step, size), 'a.stl')).toEqual({ bytes: step });
    const ply = bytesOf('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n');
    for (const size of [1, 100, 4096]) expect(await readStlPieces(piecesOf(ply, size), 'a.stl')).toEqual({ bytes: ply });
    // With the format asked for, the importer reads any file as STL (parseStl): its error, from the head, whatever the signature.
    for (const bytes of [step, ply]) {
      const expected = errorOf(() => parseStl(bytes, 'a.stl'));
      expect(expected).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringMatching(/^a\.stl: (truncated binary STL|not an STL)/) });
      for (const size of [1, 100, 4096]) expect(await errorOfAsync(() => readStlPieces(piecesOf(bytes, size), 'a.stl', { requested: true }))).toEqual(expected);
    }
    // ... and a valid STL, binary (its header starting with "solid") or ASCII, still loads when asked for.
    const asked = await readStlPieces(piecesOf(binary, 13), 'b.stl', { requested: true });
    expect(arraysExactly((asked as { mesh: TriMesh }).mesh)).toEqual(arraysExactly(parseStl(binary, 'b.stl')));
    const ascii = bytesOf('solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n');
    const asciiRead = await readStlPieces(piecesOf(ascii, 5), 'c.stl', { requested: true });
    expect(arraysExactly((asciiRead as { mesh: TriMesh }).mesh)).toEqual(arraysExactly(parseStl(ascii, 'c.stl')));
  });
});

describe('a mesh file a Node engine reads by path', () => {
  it('is streamed into the same mesh, and the body keeps no bytes; a snapshot restores it by reading the file again', async () => {
    const path = join(dir, 'sphere.stl');
    const bytes = writeBinaryStl(uvSphere(5, 40, 20));
    writeFileSync(path, bytes);
    const engine = testEngine();
    await engine.load({ path, bodyId: 's' });
    const body = engine.scene.get('s') as MeshBody;
    const parsed = parseStl(bytes);
    expect(body.mesh.positions).toEqual(parsed.positions);
    expect(body.mesh.indices).toEqual(parsed.indices);
    expect(body.origin).toMatchObject({ path, fileBytes: bytes.byteLength, format: 'stl' });
    expect(body.origin!.bytes).toBeUndefined();

    const snapshot = engine.snapshot();
    expect(snapshot.bodies[0]!.bytes).toBeUndefined();
    const again = testEngine();
    expect(await again.restore(snapshot, { giveFiles: false })).toEqual({ restored: ['s'], failed: [] });
    expect((again.scene.get('s') as MeshBody).mesh.indices).toEqual(parsed.indices);
  });

  it('an ASCII STL too: streamed into the mesh its bytes give, no bytes kept', async () => {
    const path = join(dir, 'cube.stl');
    const bytes = bytesOf(asciiCube(7, 0.1, '\r\n'));
    writeFileSync(path, bytes);
    const engine = testEngine();
    await engine.load({ path, bodyId: 'a' });
    const body = engine.scene.get('a') as MeshBody;
    expect(arraysExactly({ positions: body.mesh.positions, indices: body.mesh.indices })).toEqual(arraysExactly({ positions: parseStl(bytes).positions, indices: parseStl(bytes).indices }));
    expect(body.origin).toMatchObject({ path, fileBytes: bytes.byteLength, format: 'stl' });
    expect(body.origin!.bytes).toBeUndefined();
  });

  it('keeps the bytes of bytes handed over (a restore, the browser): the host cannot read them again', async () => {
    const bytes = writeBinaryStl(uvSphere(2, 8, 4));
    const engine = testEngine();
    await engine.load({ path: join(dir, 'not-on-disk.stl'), bodyId: 'h', bytes });
    expect(engine.scene.get('h').origin!.bytes).toBe(bytes);
  });
});
