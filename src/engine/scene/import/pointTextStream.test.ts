import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errorOf, errorOfAsync, exactly, piecesOf } from '../../../test/streamedPieces';
import { testEngine } from '../../../test/testEngine';
import { nodeFileAccess } from '../../../node/nodeFiles';
import type { PointsBody } from '../Body';
import type { MeshOrCloud } from './ply';
import { parsePointText, readPointTextPieces } from './pointText';
import { readForImport } from './readForImport';

const dir = mkdtempSync(join(tmpdir(), 'brepscope-xyz-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Seeded coordinates, written with up to 6 decimals (not all exactly float32). */
function coords(n: number, seed: number): number[][] {
  let s = seed;
  const next = (): number => Math.round(((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5) * 2e8) / 1e6;
  return Array.from({ length: n }, () => [next(), next(), next()]);
}

interface CloudSpec {
  rows: number[][];
  /** Lines before the first point. */
  header?: string[];
  separator?: string;
  crlf?: boolean;
  /** No newline after the last line. */
  noFinalNewline?: boolean;
  /** Comments (# and //) and blank lines between the points. */
  comments?: boolean;
}

function cloudText(spec: CloudSpec): string {
  const lines = [...(spec.header ?? [])];
  spec.rows.forEach((row, i) => {
    lines.push(row.join(spec.separator ?? ' '));
    if (spec.comments && i % 13 === 0) lines.push(`# after point ${i}`, '', '  \t', `// note ${i}`);
  });
  const nl = spec.crlf ? '\r\n' : '\n';
  const text = lines.join(nl);
  return spec.noFinalNewline ? text : text + nl;
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** `exactly` as one string (typed arrays as their type and hex bytes): thousands of parses compare quickly. */
function fingerprint(r: MeshOrCloud): string {
  if (r.kind !== 'points') throw new Error('a cloud expected');
  const arrays = Object.entries(r.cloud).map(([k, v]) => [k, ArrayBuffer.isView(v) ? `${v.constructor.name}:${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}` : v]);
  return JSON.stringify({ notes: r.notes, arrays });
}
const whole = (bytes: Uint8Array): MeshOrCloud => ({ kind: 'points', ...parsePointText(bytes, 'p.xyz') });

async function streamed(bytes: Uint8Array, size: number | number[], signature = false, name = 'p.xyz'): Promise<MeshOrCloud> {
  const read = await readPointTextPieces(piecesOf(bytes, size), name, signature);
  if (!('content' in read)) throw new Error('not streamed');
  return read.content;
}

/** Normals of unit length and colours 0..255, seeded. */
const withNormals = (rows: number[][]): number[][] => rows.map(([x, y, z], i) => [x!, y!, z!, 0.6, 0, i % 2 ? 0.8 : -0.8]);
const pts = (rows: number[][]): number[][] => rows.map(([x, y, z], i) => [x!, y!, z!, -(i % 2000), i % 256, (i * 7) % 256, (i * 13) % 300]);

const CASES: [string, CloudSpec][] = [
  ['x y z, blanks, comments and blank lines', { rows: coords(300, 1), comments: true }],
  ['CRLF, comma separators, no final newline', { rows: coords(250, 2), separator: ',', crlf: true, noFinalNewline: true }],
  ['a column-name header in another order (normals and colours)', { rows: coords(120, 3).map(([x, y, z], i) => [i % 256, 0, 0.6, z!, x!, 0.8, y!, 255 - (i % 256), 9]), header: ['scan of part 7', 'r,nx,ny,z,x,nz,y,g,b'], separator: ',' }],
  ['PTS: a count line and 7 columns, CRLF', { rows: pts(coords(200, 4)), header: ['200'], crlf: true }],
  ['6 columns without names: normals, under a title line', { rows: withNormals(coords(150, 5)), header: ['scan 7 of part'], comments: true }],
  ['named columns X Y Z NX NY NZ', { rows: withNormals(coords(120, 10)), header: ['X Y Z NX NY NZ'] }],
  ['4 columns: the others ignored, with a note', { rows: coords(150, 6).map((r, i) => [...r, i]), noFinalNewline: true }],
  // Exports from the wild (docs/decisions.md, "Scan files from other software").
  ['CloudCompare ASC: 9 unnamed columns x y z r g b nx ny nz', { rows: withNormals(coords(120, 11)).map(([x, y, z, a, b, c], i) => [x!, y!, z!, i % 256, 7, 255 - (i % 256), a!, b!, c!]) }],
  ['semicolons and decimal commas (a European-locale CSV), with a header', { rows: coords(150, 12).map((r) => r.map((v) => String(v).replace('.', ','))) as unknown as number[][], header: ['X;Y;Z'], separator: ';', crlf: true }],
  ['tabs and decimal commas', { rows: coords(150, 13).map((r) => r.map((v) => String(v).replace('.', ','))) as unknown as number[][], separator: '\t' }],
];

describe('a text point cloud streamed piece by piece parses exactly as the whole file does', () => {
  for (const [what, spec] of CASES) {
    it(what, async () => {
      const bytes = encode(cloudText(spec));
      const expected = fingerprint(whole(bytes));
      expect(bytes.length).toBeGreaterThan(4096);
      for (let size = 1; size <= 4096; size++) expect(fingerprint(await streamed(bytes, size)), `pieces of ${size}`).toBe(expected);
      expect(exactly(await streamed(bytes, 4 << 20, true)), '4 MiB pieces, by signature').toEqual(exactly(whole(bytes)));
    });
  }

  it('a cut at every byte gives the same cloud', async () => {
    const bytes = encode(cloudText({ rows: pts(coords(12, 7)), header: ['12'], crlf: true, comments: true, noFinalNewline: true }));
    const expected = fingerprint(whole(bytes));
    for (let k = 1; k < bytes.length; k++) expect(fingerprint(await streamed(bytes, [k, 2 ** 30])), `cut at ${k}`).toBe(expected);
  });

  it('reads the values the text holds', async () => {
    const text = 'x,y,z,nx,ny,nz,red,green,blue\r\n1,2.5,-3e2,0,0,1,0,128,300\r\n// c\r\n\r\n-0.125,4,5,1,0,0,255,-4,17.6';
    const read = await streamed(encode(text), 3);
    if (read.kind !== 'points') throw new Error('a cloud expected');
    expect(read.cloud.count).toBe(2);
    expect(read.cloud.positions).toEqual(Float64Array.of(1, 2.5, -300, -0.125, 4, 5));
    expect(read.cloud.normals).toEqual(Float32Array.of(0, 0, 1, 1, 0, 0));
    expect(read.cloud.colors).toEqual(Uint8Array.of(0, 128, 255, 255, 0, 18));
    const four = await streamed(encode('1 2 3 4\n5 6 7 8'), 1);
    expect(four.notes).toEqual(['4 columns per line: the first three are read as x y z, the others are ignored']);
  });

  it('reads the exports of other software as their writers meant them, never a decimal comma as a separator', async () => {
    const cloud = async (text: string): Promise<{ positions: number[]; normals?: number[]; colors?: number[]; notes: string[] }> => {
      const read = await streamed(encode(text), 5);
      expect(exactly(read)).toEqual(exactly(whole(encode(text))));
      if (read.kind !== 'points') throw new Error('a cloud expected');
      const { positions, normals, colors } = read.cloud;
      return { positions: [...positions], ...(normals ? { normals: [...normals] } : {}), ...(colors ? { colors: [...colors] } : {}), notes: read.notes };
    };
    const decimal = ['decimal commas: numbers such as 1,5 are read as 1.5'];
    // Semicolons with decimal commas (Excel in a German locale), with tabs, with blanks: never six numbers a line.
    expect(await cloud('X;Y;Z\r\n1,5;-2,25;3e1\r\n-0,125;4;5,5\r\n')).toEqual({ positions: [1.5, -2.25, 30, -0.125, 4, 5.5], notes: decimal });
    expect(await cloud('1,5\t-2,25\t3\n4\t5,75\t6\n')).toEqual({ positions: [1.5, -2.25, 3, 4, 5.75, 6], notes: decimal });
    expect(await cloud('1,5 2,5 3,5\n4,5 5,5 6,5\n')).toEqual({ positions: [1.5, 2.5, 3.5, 4.5, 5.5, 6.5], notes: decimal });
    // Semicolons with decimal points, and a trailing separator.
    expect(await cloud('1.5;2;3;\n4;5;6.25;\n')).toEqual({ positions: [1.5, 2, 3, 4, 5, 6.25], notes: [] });
    // Where no comma separates, a comma and a point are both decimal marks, whichever line comes first.
    expect(await cloud('1;2;3\n1,5;2.5;3\n')).toEqual({ positions: [1, 2, 3, 1.5, 2.5, 3], notes: [] });
    expect(await cloud('1,5 2 3\n1.5 2,5 3\n')).toEqual({ positions: [1.5, 2, 3, 1.5, 2.5, 3], notes: decimal });
    // A thousands separator is no number, named.
    await expect(streamed(encode('1,5;2;3\n1.234,5;2;3\n'), 3)).rejects.toMatchObject({ code: 'PARSE_FAILED', message: "p.xyz: line 2: '1.234,5' is not a finite number at byte 8" });
    // Six unnamed columns: integer colours 0..255, Open3D's colours 0..1, unit normals.
    expect(await cloud('1 2 3 255 128 0\n4 5 6 10 20 30\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], colors: [255, 128, 0, 10, 20, 30], notes: ['columns 4 to 6 read as colours (0 to 255; no header names the columns)'] });
    expect(await cloud('1 2 3 1 0.5 0\n4 5 6 0.2 0.4 0.6\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], colors: [255, 128, 0, 51, 102, 153], notes: ['columns 4 to 6 read as colours (0 to 1; no header names the columns)'] });
    expect(await cloud('1 2 3 0 0 1\n4 5 6 0.6 0 -0.8\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], normals: [0, 0, 1, 0.6000000238418579, 0, -0.800000011920929], notes: [] });
    // Nine: CloudCompare's r g b nx ny nz, or nx ny nz r g b.
    const nine = { positions: [1, 2, 3], normals: [0, 1, 0], colors: [9, 200, 31] };
    expect(await cloud('1 2 3 9 200 31 0 1 0\n')).toEqual({ ...nine, notes: ['columns 4 to 6 read as colours, columns 7 to 9 as normals (no header names the columns)'] });
    expect(await cloud('1 2 3 0 1 0 9 200 31\n')).toEqual({ ...nine, notes: ['columns 7 to 9 read as colours, columns 4 to 6 as normals (no header names the columns)'] });
    // Quoted CSV column names, and names in a comment line (CloudCompare's //X, a # header).
    expect(await cloud('"X","Y","Z","Red","Green","Blue"\n1,2,3,0,0,1\n')).toEqual({ positions: [1, 2, 3], colors: [0, 0, 1], notes: [] });
    expect(await cloud('# x y z nx ny nz\n1 2 3 1 2 3\n')).toEqual({ positions: [1, 2, 3], normals: [1, 2, 3], notes: [] });
    expect(await cloud('//X;Y;Z;R;G;B\n1;2;3;0;0;1\n// later\n4;5;6;1;0;0\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], colors: [0, 0, 1, 1, 0, 0], notes: [] });
  });

  it('reads every point when the first line is far longer than the rest (room made for the rest of the file, again and again)', async () => {
    // The first line (400 bytes) guesses room for a tenth of the points; the others take 20 to 140
    // bytes, longer towards the end, so the room made from what was read runs out again.
    const lines = [`0.${'0'.repeat(385)} 0 1 1 0 0`];
    for (let i = 1; i < 3000; i++) lines.push(`${i}.5${'0'.repeat(Math.floor(i / 25))} ${-i} ${i / 8} 0 ${i % 2} ${1 - (i % 2)}`);
    const bytes = encode(lines.join('\n'));
    for (const read of [whole(bytes), await streamed(bytes, 1000)]) {
      if (read.kind !== 'points') throw new Error('a cloud expected');
      expect(read.cloud.count).toBe(3000);
      for (const i of [0, 1, 1234, 2999]) {
        expect(Array.from(read.cloud.positions.subarray(3 * i, 3 * i + 3))).toEqual(i === 0 ? [0, 0, 1] : [i + 0.5, -i, i / 8]);
        expect(Array.from(read.cloud.normals!.subarray(3 * i, 3 * i + 3))).toEqual(i === 0 ? [1, 0, 0] : [0, i % 2, 1 - (i % 2)]);
      }
    }
  });
});

describe('a streamed text point cloud fails as the whole file does', () => {
  const good = cloudText({ rows: coords(200, 8), header: ['x y z'], comments: true });
  const at = good.indexOf('\n', good.length / 2) + 1;
  const cases: [string, string, RegExp][] = [
    [good.slice(0, at) + '1 two 3\n' + good.slice(at), 'PARSE_FAILED', /^p\.xyz: line \d+: 'two' is not a finite number at byte \d+$/],
    [good.slice(0, at) + '1 NaN 3\r\n' + good.slice(at), 'PARSE_FAILED', /^p\.xyz: line \d+: 'NaN' is not a finite number at byte \d+$/],
    [good.slice(0, at) + '1 2 inf\n' + good.slice(at), 'PARSE_FAILED', /^p\.xyz: line \d+: 'inf' is not a finite number at byte \d+$/],
    [good.slice(0, at) + '1 2 3 4\n' + good.slice(at), 'PARSE_FAILED', /^p\.xyz: line \d+: 4 numbers where the lines before have 3$/],
    [good + '1 2', 'PARSE_FAILED', /^p\.xyz: line \d+: 2 numbers where the lines before have 3$/],
    ['a\nb\nc\nd\ne\nf g h\n1 2 3\n', 'PARSE_FAILED', /^p\.xyz: line 6: 'f' is not a number at byte 10$/],
    ['5\n4\n3\n2\n1\n0 1\n1 2 3\n', 'PARSE_FAILED', /^p\.xyz: line 6: a point needs x y z, this line has 2 numbers$/],
    ['# nothing\r\nx y z\r\n\r\n', 'EMPTY_MESH', /^p\.xyz: the file has no lines of x y z numbers$/],
  ];
  for (const [text, code, message] of cases) {
    it(`${message.source.slice(0, 60)}`, async () => {
      const bytes = encode(text);
      const expected = errorOf(() => parsePointText(bytes, 'p.xyz'));
      expect(expected).toMatchObject({ code, message: expect.stringMatching(message) });
      for (const size of [1, 2, 3, 7, 13, 64, 4096, 4 << 20]) expect(await errorOfAsync(() => readPointTextPieces(piecesOf(bytes, size), 'p.xyz')), `pieces of ${size}`).toEqual(expected);
    });
  }

  it('names the line and the byte the whole file names', async () => {
    const bytes = encode('1 2 3\r\n# c\r\n4 5 6\r\n7 8 9x\r\n');
    const expected = `p.xyz: line 4: '9x' is not a finite number at byte 23`;
    expect(errorOf(() => parsePointText(bytes, 'p.xyz'))).toMatchObject({ code: 'PARSE_FAILED', message: expected });
    for (const size of [1, 5, 4096]) expect(await errorOfAsync(() => readPointTextPieces(piecesOf(bytes, size), 'p.xyz'))).toMatchObject({ code: 'PARSE_FAILED', message: expected });
  });
});

describe('a text point cloud a Node engine reads by path', () => {
  it('is streamed into the cloud its bytes give, with its notes, and the body keeps no bytes', async () => {
    const bytes = encode(cloudText({ rows: coords(500, 9).map((r) => [...r, 1]), header: ['// exported'], crlf: true }));
    const path = join(dir, 'scan.txt');
    writeFileSync(path, bytes);
    const input = await readForImport(nodeFileAccess(), path, undefined, false);
    expect(input.bytes).toBeUndefined();
    expect(input.fileBytes).toBe(bytes.length);
    expect(input.scanContent!.format).toBe('xyz');
    expect(exactly(input.scanContent!.content)).toEqual(exactly(whole(bytes)));
    const engine = testEngine();
    await engine.load({ path, bodyId: 's' });
    await engine.load({ path: 'bytes.txt', bytes, bodyId: 'b' });
    const body = engine.scene.get('s') as PointsBody, fromBytes = engine.scene.get('b') as PointsBody;
    expect(body.kind).toBe('points');
    expect(body.cloud.positions).toEqual(fromBytes.cloud.positions);
    expect(body.cloud.positions).toEqual(Float64Array.from(coords(500, 9).flat()));
    expect(body.notes).toEqual(['4 columns per line: the first three are read as x y z, the others are ignored']);
    expect(body.origin).toMatchObject({ path, fileBytes: bytes.byteLength, format: 'xyz' });
    expect(body.origin!.bytes).toBeUndefined();
  });

  it('a file of another name streams when the format is asked for', async () => {
    const bytes = encode('1 2 3\n4 5 6\n');
    const path = join(dir, 'scan.dat');
    writeFileSync(path, bytes);
    const input = await readForImport(nodeFileAccess(), path, 'xyz', false);
    expect(exactly(input.scanContent!.content)).toEqual(exactly(whole(bytes)));
  });

  it('a point-cloud name holding another format, and an empty file, come back as bytes as before', async () => {
    const stlText = encode('solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid s\n');
    const binaryStl = new Uint8Array(84 + 50);
    binaryStl[80] = 1;
    const ply = encode('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n');
    for (const [file, bytes] of [['a.txt', stlText], ['b.xyz', binaryStl], ['c.csv', ply], ['d.pts', new Uint8Array(0)]] as const) {
      const path = join(dir, file);
      writeFileSync(path, bytes);
      expect(await readForImport(nodeFileAccess(), path, undefined, false), file).toEqual({ bytes, keepBytes: false });
    }
    const engine = testEngine();
    await expect(engine.load({ path: join(dir, 'a.txt'), bodyId: 'a' })).resolves.toBe('a');
    expect(engine.scene.get('a')!.kind).toBe('mesh');
    await expect(engine.load({ path: join(dir, 'd.pts'), bodyId: 'd' })).rejects.toMatchObject({ code: 'EMPTY_FILE' });
  });
});
