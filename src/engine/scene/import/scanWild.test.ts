import { describe, expect, it } from 'vitest';
import { arraysExactly, errorOf, errorOfAsync, piecesOf } from '../../../test/streamedPieces';
import type { FileAccess } from '../../context';
import { resolveFormat } from './detectFormat';
import { readForImport } from './readForImport';
import { finishScan, isMeshFileFormat, parseScanFile, type ParsedScan } from './scanFile';

/**
 * Scan files as other software writes them (Open3D, CloudCompare, MeshLab, Blender, scanner
 * exports; docs/decisions.md "Scan files from other software"), generated here: each is read whole
 * and streamed in pieces of several sizes, and both must give the same arrays, the triangle or
 * point count, the bounding box and the sign of the enclosed volume the generator put in.
 */

// A box [1, 11] x [2, 7] x [3, 5], its faces wound outward: volume +100.
const BOX = [
  [1, 2, 3], [11, 2, 3], [11, 7, 3], [1, 7, 3],
  [1, 2, 5], [11, 2, 5], [11, 7, 5], [1, 7, 5],
];
const QUADS = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]];
const TRIS = QUADS.flatMap(([a, b, c, d]) => [[a!, b!, c!], [a!, c!, d!]]);
const BOX_TRUTH = { triangles: 12, bbox: [1, 2, 3, 11, 7, 5], volume: 100 };

type Row = (number | number[])[];
interface PlyProperty {
  type: string;
  name: string;
  /** The count type of a list property. */
  list?: string;
}
interface PlyElement {
  name: string;
  properties: PlyProperty[];
  rows: Row[];
}
type PlyFormat = 'ascii' | 'binary_little_endian' | 'binary_big_endian';

const SETTERS: Record<string, [number, (v: DataView, at: number, x: number, little: boolean) => void]> = {
  char: [1, (v, at, x) => v.setInt8(at, x)],
  uchar: [1, (v, at, x) => v.setUint8(at, x)],
  short: [2, (v, at, x, le) => v.setInt16(at, x, le)],
  ushort: [2, (v, at, x, le) => v.setUint16(at, x, le)],
  uint16: [2, (v, at, x, le) => v.setUint16(at, x, le)],
  int: [4, (v, at, x, le) => v.setInt32(at, x, le)],
  uint: [4, (v, at, x, le) => v.setUint32(at, x, le)],
  float: [4, (v, at, x, le) => v.setFloat32(at, x, le)],
  double: [8, (v, at, x, le) => v.setFloat64(at, x, le)],
};

/** A PLY of any elements, in any encoding, with comment and obj_info lines, CRLF or a byte order mark when asked. */
function ply(format: PlyFormat, elements: PlyElement[], options: { lineEnd?: string; bom?: boolean } = {}): Uint8Array {
  const nl = options.lineEnd ?? '\n';
  const head = ['ply', `format ${format} 1.0`, 'comment made by a scanner', 'obj_info generated for a test'];
  for (const e of elements) {
    head.push(`element ${e.name} ${e.rows.length}`);
    for (const p of e.properties) head.push(p.list ? `property list ${p.list} ${p.type} ${p.name}` : `property ${p.type} ${p.name}`);
  }
  head.push('end_header');
  const text = (options.bom ? '\ufeff' : '') + head.join(nl) + nl;
  if (format === 'ascii') {
    const body = elements.flatMap((e) => e.rows.map((row) => row.map((v) => (Array.isArray(v) ? [v.length, ...v].join(' ') : String(v))).join(' ')));
    return new TextEncoder().encode(text + body.join(nl) + nl);
  }
  const little = format === 'binary_little_endian';
  const out = new Uint8Array(1 << 16);
  const view = new DataView(out.buffer);
  const start = new TextEncoder().encode(text);
  out.set(start);
  let at = start.length;
  const put = (type: string, x: number): void => {
    const [size, set] = SETTERS[type]!;
    set(view, at, x, little);
    at += size;
  };
  for (const e of elements) {
    for (const row of e.rows) {
      e.properties.forEach((p, k) => {
        const v = row[k]!;
        if (Array.isArray(v)) {
          put(p.list!, v.length);
          for (const x of v) put(p.type, x);
        } else put(p.type, v);
      });
    }
  }
  return out.slice(0, at);
}

const xyz = (type = 'float'): PlyProperty[] => ['x', 'y', 'z'].map((name) => ({ type, name }));
const faces = (polygons: number[][], list = 'uchar', type = 'int', name = 'vertex_indices'): PlyElement => ({ name: 'face', properties: [{ type, name, list }], rows: polygons.map((f) => [f]) });
const vertices = (points: number[][], properties = xyz()): PlyElement => ({ name: 'vertex', properties, rows: points.map((p) => [...p]) });

/** A FileAccess that hands the file over in pieces of `size` bytes, as the Node host streams it. */
function piecesAccess(bytes: Uint8Array, size: number): FileAccess {
  return { read: () => Promise.resolve(bytes), stream: () => Promise.resolve(piecesOf(bytes, size)), write: () => Promise.reject(new Error('no writes here')) };
}

function readWhole(bytes: Uint8Array, name: string): ParsedScan {
  const format = resolveFormat(name, bytes);
  if (!isMeshFileFormat(format)) throw new Error(`${name}: read as ${format}`);
  return parseScanFile(format, bytes, name);
}

async function readStreamed(bytes: Uint8Array, name: string, size: number): Promise<ParsedScan> {
  const input = await readForImport(piecesAccess(bytes, size), name, undefined, false);
  if (input.stlMesh) return { kind: 'mesh', mesh: input.stlMesh, notes: [], declaredUnit: null };
  if (input.scanContent) return finishScan(input.scanContent.content, name);
  return readWhole(input.bytes!, name);
}

const exactly = (p: ParsedScan): unknown => ({ kind: p.kind, notes: p.notes, ...arraysExactly(p.kind === 'mesh' ? p.mesh : p.cloud) });

/** The file read whole, and streamed in pieces of 1, 7 and 4096 bytes to exactly the same arrays. */
async function read(bytes: Uint8Array, name: string): Promise<ParsedScan> {
  const whole = readWhole(bytes, name);
  for (const size of [1, 7, 4096]) expect(exactly(await readStreamed(bytes, name, size)), `${name} in pieces of ${size}`).toEqual(exactly(whole));
  return whole;
}

/** A failure read whole, and the same failure streamed. */
async function failure(bytes: Uint8Array, name: string): Promise<unknown> {
  const whole = errorOf(() => readWhole(bytes, name));
  for (const size of [1, 7, 4096]) expect(await errorOfAsync(() => readStreamed(bytes, name, size)), `${name} in pieces of ${size}`).toEqual(whole);
  return whole;
}

function bbox(positions: ArrayLike<number>): number[] {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      b[k] = Math.min(b[k]!, positions[i + k]!);
      b[k + 3] = Math.max(b[k + 3]!, positions[i + k]!);
    }
  }
  return b;
}

/** The triangle count, bounding box and signed enclosed volume (positive: wound outward) of a mesh read. */
function measure(p: ParsedScan): { triangles: number; bbox: number[]; volume: number } {
  if (p.kind !== 'mesh') throw new Error(`a mesh expected, got ${p.kind}`);
  const { positions: x, indices } = p.mesh;
  let six = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [3 * indices[t]!, 3 * indices[t + 1]!, 3 * indices[t + 2]!];
    six += x[a]! * (x[b + 1]! * x[c + 2]! - x[b + 2]! * x[c + 1]!) - x[a + 1]! * (x[b]! * x[c + 2]! - x[b + 2]! * x[c]!) + x[a + 2]! * (x[b]! * x[c + 1]! - x[b + 1]! * x[c]!);
  }
  return { triangles: indices.length / 3, bbox: bbox(x), volume: Math.round((six / 6) * 1e9) / 1e9 };
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('PLY from other writers', () => {
  const formats: PlyFormat[] = ['ascii', 'binary_little_endian', 'binary_big_endian'];

  it.each(formats)('%s: normals before x, colours, quality and a custom int; vertex_index; a texcoord list and a face colour after the indices', async (format) => {
    const properties = [...['nx', 'ny', 'nz'].map((name) => ({ type: 'float', name })), ...xyz('double'), ...['red', 'green', 'blue', 'alpha'].map((name) => ({ type: 'uchar', name })), { type: 'float', name: 'quality' }, { type: 'int', name: 'my_label' }];
    const face: PlyElement = { name: 'face', properties: [{ type: 'int', name: 'vertex_index', list: 'uchar' }, { type: 'float', name: 'texcoord', list: 'uchar' }, { type: 'uchar', name: 'red' }], rows: QUADS.map((q) => [q, [0, 0, 1, 0, 1, 1, 0, 1], 200]) };
    const file = ply(format, [{ name: 'vertex', properties, rows: BOX.map((p, i) => [0, 0, 1, ...p, 10, 20, 30, 255, 0.5, i]) }, face], { lineEnd: format === 'ascii' ? '\r\n' : '\n' });
    const read_ = await read(file, 'nfirst.ply');
    expect(measure(read_)).toEqual(BOX_TRUTH);
    if (read_.kind === 'mesh') expect([...read_.mesh.colors!.subarray(0, 3)]).toEqual([10, 20, 30]);
  });

  it.each([
    ['uchar', 'uint'],
    ['int', 'int'],
    ['ushort', 'uint'],
    ['char', 'short'],
    ['uchar', 'ushort'],
  ])('binary face lists "list %s %s"', async (list, type) => {
    for (const format of formats) expect(measure(await read(ply(format, [vertices(BOX), faces(TRIS, list, type)]), 'lists.ply'))).toEqual(BOX_TRUTH);
  });

  it('elements other than vertex and face before and after the faces are skipped', async () => {
    const material: PlyElement = { name: 'material', properties: [{ type: 'uchar', name: 'ambient_red' }, { type: 'float', name: 'power' }], rows: [[1, 2.5], [3, 4]] };
    const edge: PlyElement = { name: 'edge', properties: [{ type: 'int', name: 'vertex1' }, { type: 'int', name: 'vertex2' }, { type: 'int', name: 'crease', list: 'uchar' }], rows: [[0, 1, [1, 2]], [1, 2, []]] };
    for (const format of formats) expect(measure(await read(ply(format, [material, vertices(BOX), faces(QUADS), edge]), 'elements.ply'))).toEqual(BOX_TRUTH);
  });

  it('hexagon caps and quad sides of a prism are fanned into 20 triangles enclosing its volume', async () => {
    const ring = (z: number): number[][] => [0, 1, 2, 3, 4, 5].map((k) => [2 * Math.cos((k * Math.PI) / 3), 2 * Math.sin((k * Math.PI) / 3), z]);
    const hexFaces = [[5, 4, 3, 2, 1, 0], [6, 7, 8, 9, 10, 11], ...[0, 1, 2, 3, 4, 5].map((k) => [k, (k + 1) % 6, ((k + 1) % 6) + 6, k + 6])];
    for (const format of formats) {
      const m = measure(await read(ply(format, [vertices([...ring(0), ...ring(3)], xyz('double')), faces(hexFaces)]), 'prism.ply'));
      expect(m.triangles).toBe(20);
      expect(m.volume).toBeCloseTo(1.5 * Math.sqrt(3) * 4 * 3, 9);
    }
  });

  it('triangle strips (tristrips, -1 between strips) are read as triangles, every second one turned, the joins dropped', async () => {
    // A tetrahedron as one strip 0 1 2 3 0 1, and again as two strips with a -1 and a degenerate join.
    const tetra = [[0, 0, 0], [0, 3, 0], [2, 0, 0], [0, 0, 4]];
    const oneStrip: PlyElement = { name: 'tristrips', properties: [{ type: 'int', name: 'vertex_indices', list: 'int' }], rows: [[[0, 1, 2, 3, 0, 1]]] };
    const twoStrips: PlyElement = { name: 'tristrips', properties: [{ type: 'int', name: 'vertex_indices', list: 'int' }], rows: [[[0, 1, 2, 3, 3, -1, 2, 3, 0, 1]]] };
    for (const format of formats) {
      for (const strips of [oneStrip, twoStrips]) {
        expect(measure(await read(ply(format, [vertices(tetra), strips]), 'strips.ply'))).toEqual({ triangles: 4, bbox: [0, 0, 0, 2, 3, 4], volume: 4 });
      }
    }
    const outOfRange: PlyElement = { ...oneStrip, rows: [[[0, 1, 4]]] };
    expect(await failure(ply('binary_little_endian', [vertices(tetra), outOfRange]), 'strips.ply')).toMatchObject({ code: 'PARSE_FAILED', message: 'strips.ply: tristrips 0: vertex index 4 is not one of the 4 vertices' });
  });

  it('a nan normal or quality (as C libraries print it) is read as no normal, in text as in binary; a nan coordinate is refused', async () => {
    const properties = [...xyz(), ...['nx', 'ny', 'nz', 'quality'].map((name) => ({ type: 'float', name }))];
    const nanRows = BOX.map((p, i) => (i === 0 ? [...p, NaN, NaN, NaN, NaN] : [...p, 0, 0, 1, 0.5]));
    const asciiNan = latin1(new TextDecoder().decode(ply('ascii', [{ name: 'vertex', properties, rows: BOX.map((p) => [...p, 0, 0, 1, 0.5]) }, faces(TRIS)])).replace('1 2 3 0 0 1 0.5', '1 2 3 nan -nan(ind) 1.#QNAN inf'));
    for (const file of [asciiNan, ply('binary_little_endian', [{ name: 'vertex', properties, rows: nanRows }, faces(TRIS)])]) {
      const r = await read(file, 'nan.ply');
      expect(measure(r)).toEqual(BOX_TRUTH);
      if (r.kind === 'mesh') expect([...r.mesh.normals!.subarray(0, 6)]).toEqual([0, 0, 0, 0, 0, 1]);
    }
    const nanX = latin1(new TextDecoder().decode(ply('ascii', [vertices(BOX), faces(TRIS)])).replace('\n1 2 3\n', '\nnan 2 3\n'));
    expect(await failure(nanX, 'nan.ply')).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringContaining("'nan' is not a number (x)") });
  });

  it('a cloud point whose x y z are all nan (a structured scan) is skipped with its normal and colour; one nan coordinate is refused', async () => {
    const properties = [...xyz(), ...['nx', 'ny', 'nz'].map((name) => ({ type: 'float', name })), ...['red', 'green', 'blue'].map((name) => ({ type: 'uchar', name }))];
    const rows = [[1, 2, 3, 0, 0, 1, 10, 20, 30], [NaN, NaN, NaN, 0, 1, 0, 1, 1, 1], [4, 5, 6, 1, 0, 0, 40, 50, 60], [NaN, NaN, NaN, NaN, NaN, NaN, 0, 0, 0]];
    for (const format of formats) {
      const r = await read(ply(format, [{ name: 'vertex', properties, rows }]), 'grid.ply');
      expect(r.kind === 'points' && { count: r.cloud.count, positions: [...r.cloud.positions], normals: [...r.cloud.normals!], colors: [...r.cloud.colors!], notes: r.notes }).toEqual({
        count: 2,
        positions: [1, 2, 3, 4, 5, 6],
        normals: [0, 0, 1, 1, 0, 0],
        colors: [10, 20, 30, 40, 50, 60],
        notes: ['2 points whose x y z are nan (not measured) are skipped'],
      });
      const partial = ply(format, [{ name: 'vertex', properties, rows: [rows[0]!, [7, NaN, 9, 0, 0, 1, 0, 0, 0]] }]);
      expect(await failure(partial, 'grid.ply')).toMatchObject({ code: 'PARSE_FAILED', message: 'grid.ply: vertex 1: y is not a finite number (NaN)' });
      const infinite = ply(format, [{ name: 'vertex', properties, rows: [rows[0]!, [-Infinity, -Infinity, -Infinity, 0, 0, 1, 0, 0, 0]] }]);
      expect(await failure(infinite, 'grid.ply')).toMatchObject({ code: 'PARSE_FAILED', message: 'grid.ply: vertex 1: x is not a finite number (-Infinity)' });
    }
  });

  it('16-bit colours (ushort, as PDAL writes LAS colours) are scaled by 1/257, 8-bit kept, float 0..1 scaled by 255 (before: 16-bit clamped to 255)', async () => {
    const rgb = (type: string, prefix = ''): PlyProperty[] => ['red', 'green', 'blue'].map((name) => ({ type, name: prefix + name }));
    for (const format of formats) {
      const colorsOf = async (properties: PlyProperty[], rows: Row[]): Promise<number[]> => {
        const r = await read(ply(format, [{ name: 'vertex', properties: [...xyz(), ...properties], rows }]), 'rgb.ply');
        return r.kind === 'points' ? [...r.cloud.colors!] : [];
      };
      // 32768 / 257 = 127.502, 1000 / 257 = 3.891, 65278 / 257 = 254.
      expect(await colorsOf(rgb('ushort'), [[1, 2, 3, 0, 65535, 32768], [4, 5, 6, 257, 1000, 65278]])).toEqual([0, 255, 128, 1, 4, 254]);
      expect(await colorsOf(rgb('uint16', 'diffuse_'), [[1, 2, 3, 65535, 514, 128]])).toEqual([255, 2, 0]);
      expect(await colorsOf(rgb('uchar'), [[1, 2, 3, 0, 255, 128]])).toEqual([0, 255, 128]);
      expect(await colorsOf(rgb('float'), [[1, 2, 3, 0, 1, 0.5], [4, 5, 6, 0.25, 0.002, 1]])).toEqual([0, 255, 128, 64, 1, 255]);
    }
  });

  it('a UTF-8 byte order mark before "ply"; no faces, or zero faces, is a point cloud', async () => {
    expect(measure(await read(ply('ascii', [vertices(BOX), faces(TRIS)], { bom: true }), 'bom.ply'))).toEqual(BOX_TRUTH);
    for (const file of [ply('binary_big_endian', [vertices(BOX)]), ply('ascii', [vertices(BOX), faces([])])]) {
      const cloud = await read(file, 'cloud.ply');
      expect(cloud.kind === 'points' && [cloud.cloud.count, ...bbox(cloud.cloud.positions)]).toEqual([8, 1, 2, 3, 11, 7, 5]);
    }
  });
});

function asciiStl(triangles: number[][], options: { keywords?: string[]; name?: string; lineEnd?: string; number?: (v: number) => string; blank?: string; endsolid?: boolean } = {}): string {
  const [solid, facet, outer, vertex, endloop, endfacet, endsolid] = options.keywords ?? ['solid', 'facet normal', 'outer loop', 'vertex', 'endloop', 'endfacet', 'endsolid'];
  const sp = options.blank ?? ' ', num = options.number ?? String;
  const lines = [`${solid} ${options.name ?? 'box'}`];
  for (const t of triangles) {
    lines.push(`${sp}${facet}${sp}0${sp}0${sp}0`, `${sp}${sp}${outer}`);
    for (const i of t) lines.push(`${sp}${sp}${sp}${vertex}${sp}${BOX[i]!.map(num).join(sp)}`);
    lines.push(`${sp}${sp}${endloop}`, `${sp}${endfacet}`);
  }
  if (options.endsolid !== false) lines.push(`${endsolid} ${options.name ?? 'box'}`);
  const nl = options.lineEnd ?? '\n';
  return lines.join(nl) + nl;
}

function binaryStl(options: { header?: string; count?: number; attribute?: number; extra?: number } = {}): Uint8Array {
  const out = new Uint8Array(84 + 50 * TRIS.length + (options.extra ?? 0));
  const view = new DataView(out.buffer);
  out.set(latin1((options.header ?? 'binary').padEnd(80, ' ')));
  view.setUint32(80, options.count ?? TRIS.length, true);
  TRIS.forEach((t, k) => {
    const at = 84 + 50 * k;
    t.forEach((i, c) => BOX[i]!.forEach((v, axis) => view.setFloat32(at + 12 + 12 * c + 4 * axis, v, true)));
    view.setUint16(at + 48, options.attribute ?? 0, true);
  });
  return out;
}

describe('STL from other writers', () => {
  it.each([
    ['CRLF', { lineEnd: '\r\n' }],
    ['upper-case keywords', { keywords: ['SOLID', 'FACET NORMAL', 'OUTER LOOP', 'VERTEX', 'ENDLOOP', 'ENDFACET', 'ENDSOLID'] }],
    ['scientific notation and tabs', { number: (v: number) => v.toExponential(6), blank: '\t' }],
    ['no endsolid', { endsolid: false }],
  ])('ASCII, %s', async (_, options) => {
    expect(measure(await read(text(asciiStl(TRIS, options)), 'a.stl'))).toEqual(BOX_TRUTH);
  });

  it('ASCII: several solids, a Windows-1252 name, a UTF-8 byte order mark (short and past the 1024 bytes the head is judged by)', async () => {
    expect(measure(await read(text(asciiStl(TRIS.slice(0, 5), { name: 'a' }) + asciiStl(TRIS.slice(5), { name: 'b' })), 'two.stl'))).toEqual(BOX_TRUTH);
    expect(measure(await read(latin1(asciiStl(TRIS, { name: 'Geh\xe4use \x96 Teil \xd812 \xb0C' })), 'cp1252.stl'))).toEqual(BOX_TRUTH);
    for (const triangles of [TRIS.slice(0, 2), TRIS]) {
      const bom = text('\ufeff' + asciiStl(triangles));
      expect(bom.length > 1024).toBe(triangles.length === 12);
      expect(measure(await read(bom, 'bom.stl')).triangles).toBe(triangles.length);
    }
  });

  it('ASCII: a solid name holding the words vertex and endfacet and numbers is a name, however the pieces cut it', async () => {
    const named = asciiStl(TRIS, { name: 'vertex 1 2 3 endfacet' }).replace(/\n$/, '');
    expect(measure(await read(text(named), 'named.stl'))).toEqual(BOX_TRUTH);
    expect(measure(await read(text(named.replace(/\n/g, '\r\n').replace(/ /g, '\t')), 'named.stl'))).toEqual(BOX_TRUTH);
  });

  it('ASCII: a facet of four vertices is refused', async () => {
    const quads = 'solid q\n' + QUADS.map((q) => `facet normal 0 0 0\nouter loop\n${q.map((i) => `vertex ${BOX[i]!.join(' ')}\n`).join('')}endloop\nendfacet\n`).join('') + 'endsolid q\n';
    expect(await failure(text(quads), 'q.stl')).toMatchObject({ code: 'PARSE_FAILED', message: 'q.stl: ASCII STL has 6 complete facets but 8 vertex triples (truncated file?)' });
  });

  it('ASCII: a number after a vertex\'s x y z (vertex 0 0 0 1) is refused, naming its line (before: ignored)', async () => {
    const lines = asciiStl(TRIS).split('\n');
    // Line 13 is facet 1's third vertex: corner 5.
    expect(lines[12]).toBe('   vertex 11 2 3');
    const fourth = (edit: (line: string) => string, lineEnd = '\n'): Uint8Array => text(lines.map((l, k) => (k === 12 ? edit(l) : l)).join(lineEnd));
    const error = { code: 'PARSE_FAILED', message: 'four.stl: line 13: corner 5 has a number after its x y z (a vertex holds three)' };
    expect(await failure(fourth((l) => `${l} 1`), 'four.stl')).toMatchObject(error);
    expect(await failure(fourth((l) => `${l}\t -1e3 `, '\r\n'), 'four.stl')).toMatchObject(error);
    expect(await failure(fourth((l) => `${l} .5`), 'four.stl')).toMatchObject(error);
    // A solid name of numbers after a name line, and words after the corner on its line, are no fourth number.
    const named = text(`solid part 1 2 3 4\n${asciiStl(TRIS).split('\n').slice(1).map((l, k) => (k === 11 ? `${l} endloop-ish` : l)).join('\n')}`);
    expect(measure(await read(named, 'named.stl'))).toEqual(BOX_TRUTH);
    // A facet on one line still reads.
    const oneLine = `solid t\n${TRIS.map((t) => `facet normal 0 0 0 outer loop ${t.map((i) => `vertex ${BOX[i]!.join(' ')}`).join(' ')} endloop endfacet`).join('\n')}\nendsolid t\n`;
    expect(measure(await read(text(oneLine), 'oneline.stl'))).toEqual(BOX_TRUTH);
  });

  it('binary: a header starting "solid" (with "facet" in it), colour attribute bytes', async () => {
    expect(measure(await read(binaryStl({ header: 'solid part facet endsolid' }), 'b.stl'))).toEqual(BOX_TRUTH);
    expect(measure(await read(binaryStl({ header: 'solid COLOR=\x80\x80\x80\xff MATERIAL=', attribute: 0x7fff }), 'c.stl'))).toEqual(BOX_TRUTH);
  });

  it('binary: a triangle count that disagrees with the file is refused, saying what the file holds', async () => {
    expect(await failure(binaryStl({ count: 20 }), 'more.stl')).toMatchObject({ code: 'PARSE_FAILED', message: 'more.stl: truncated binary STL: the header announces 20 triangles (1084 bytes) but the file has 684 bytes' });
    for (const count of [0, 6]) {
      expect(await failure(binaryStl({ count }), 'fewer.stl')).toMatchObject({
        code: 'PARSE_FAILED',
        message: `fewer.stl: binary STL: the header announces ${count} triangles but the file holds 12 (684 bytes); a count that disagrees with the file is refused (export the file again)`,
      });
    }
    expect(await failure(binaryStl({ extra: 4 }), 'tail.stl')).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringContaining('tail.stl: not an STL: binary header announces 12 triangles (684 bytes) but the file has 688 bytes') });
  });
});

describe('OBJ from other writers', () => {
  const v = BOX.map((p) => `v ${p.join(' ')}`).join('\n') + '\n';

  it('line continuations (a backslash ending the line), LF and CRLF, however the pieces cut them; later lines keep their numbers', async () => {
    const continued = v + QUADS.map((q) => `f ${q[0]! + 1} ${q[1]! + 1} \\\n   ${q[2]! + 1} \\\n${q[3]! + 1}`).join('\n') + '\n';
    for (const file of [continued, continued.replaceAll('\n', '\r\n'), continued.slice(0, -1)]) expect(measure(await read(text(file), 'c.obj'))).toEqual(BOX_TRUTH);
    // A continuation glued to the last corner, and a file ending in one.
    expect(measure(await read(text(v + 'f 1 4 3\\\n 2\n' + QUADS.slice(1).map((q) => `f ${q.map((i) => i + 1).join(' ')}`).join('\n') + '\\\n'), 'g.obj'))).toEqual(BOX_TRUTH);
    expect(await failure(text(v + 'f 1 2 \\\n 3\nf 1 2 x\n'), 'c.obj')).toMatchObject({ code: 'PARSE_FAILED', message: "c.obj: line 11: 'x' is not a face corner (v, v/vt, v//vn or v/vt/vn) at byte 85" });
  });

  it('a comment after the corners of a face', async () => {
    expect(measure(await read(text(v + QUADS.map((q) => `f ${q.map((i) => i + 1).join(' ')} # quad`).join('\n')), 'comment.obj'))).toEqual(BOX_TRUTH);
  });

  it('a UTF-8 byte order mark before the first vertex keeps that vertex', async () => {
    expect(measure(await read(text('\ufeff' + v + QUADS.map((q) => `f ${q.map((i) => i + 1).join(' ')}`).join('\n')), 'bom.obj'))).toEqual(BOX_TRUTH);
  });

  it('Blender-like: mtllib, o, vt, vn, s, usemtl, v/vt/vn corners, negative indices, v with w', async () => {
    const blender = ['# Blender 3.6', 'mtllib box.mtl', 'o Cube', ...BOX.map((p) => `v ${p.join(' ')} 1.0`), 'vt 0 0', 'vt 1 0', 'vt 1 1', 'vt 0 1', 'vn 0 0 1', 's 0', 'usemtl Material', ...QUADS.map((q) => `f ${q.map((i, k) => `${i - 8}/${k + 1}/1`).join(' ')}`)].join('\n');
    const r = await read(text(blender), 'blender.obj');
    expect(measure(r)).toEqual(BOX_TRUTH);
    expect(r.notes).toEqual(['materials (mtllib, usemtl) are ignored: only the geometry is read']);
  });
});

describe('text point clouds from other writers', () => {
  it('a line of nan x y z is a point not measured, skipped with a note; a nan normal is none; one nan coordinate is refused', async () => {
    const r = await read(text('1 2 3 0 0 1\nnan nan nan nan nan nan\n-nan(ind) 1.#QNAN nan 0 0 1\n4 5 6 nan nan nan\n'), 'grid.xyz');
    expect(r.kind === 'points' && { positions: [...r.cloud.positions], normals: [...r.cloud.normals!], notes: r.notes }).toEqual({ positions: [1, 2, 3, 4, 5, 6], normals: [0, 0, 1, 0, 0, 0], notes: [
      '2 points whose x y z are nan (not measured) are skipped',
      'columns 4 to 6 read as normals (all of unit length, none pointing against an axis, as 0 to 1 colours of pure hues would be) (no header names the columns)',
    ] });
    expect(await failure(text('1 2 3\n4 nan 6\n'), 'grid.xyz')).toMatchObject({ code: 'PARSE_FAILED', message: "grid.xyz: line 2: 'nan' is not a finite number at byte 8" });
    expect(await failure(text('nan nan nan\n'), 'grid.xyz')).toMatchObject({ code: 'EMPTY_MESH', message: 'grid.xyz: every point of the file is nan (none was measured)' });
  });

  it('named colour columns of 0..1 fractions are scaled to 0..255; of integers, kept', async () => {
    const fractions = await read(text('x y z red green blue\n1 2 3 1 0.5 0\n'), 'f.txt');
    expect(fractions.kind === 'points' && [...fractions.cloud.colors!]).toEqual([255, 128, 0]);
    const integers = await read(text('x y z red green blue\n1 2 3 1 0 200\n'), 'i.txt');
    expect(integers.kind === 'points' && [...integers.cloud.colors!]).toEqual([1, 0, 200]);
  });

  it('named colour columns of integers above 255 (16-bit, as LAS stores them) are scaled by 1/257 with a note (before: clamped to 255)', async () => {
    expect(await cloudOf('x y z red green blue\n1 2 3 65535 32768 0\n4 5 6 257 1000 65278\n', 'las.txt')).toEqual({
      positions: [1, 2, 3, 4, 5, 6],
      colors: [255, 128, 0, 1, 4, 254],
      notes: ['the colour columns hold integers up to 65535: read as 16-bit colours (0 to 65535, as LAS stores them) and scaled to 0 to 255'],
    });
    // Up to 255 is 8-bit, whatever the values: kept.
    expect(await cloudOf('x y z r g b\n1 2 3 255 0 17\n', 'rgb.txt')).toEqual({ positions: [1, 2, 3], colors: [255, 0, 17], notes: [] });
  });

  it('a PTS of several scans, each after its count, is one cloud', async () => {
    const r = await read(text('2\r\n1 2 3 -5 1 2 3\r\n4 5 6 7 4 5 6\r\n1\r\n7 8 9 0 7 8 9\r\n'), 'scans.pts');
    expect(r.kind === 'points' && { positions: [...r.cloud.positions], colors: [...r.cloud.colors!], notes: r.notes }).toEqual({
      positions: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      colors: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      notes: ['1 point counts between the points (a PTS of several scans) are skipped: the scans are one cloud'],
    });
  });

  it('lines that end in CR alone (classic Mac OS) are refused, never read as one line of one point', async () => {
    // Also when the file ends in one LF (before: one line, one point of 9 columns, or one vertex of 12 numbers).
    for (const [name, file] of [['mac.xyz', '1 2 3\r4 5 6\r'], ['mac.obj', 'v 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 2 3\r'], ['lf.xyz', '1 2 3\r4 5 6\r7 8 9\n'], ['lf.obj', 'v 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 2 3\n']]) {
      expect(await failure(text(file!), name!)).toMatchObject({ code: 'PARSE_FAILED', message: `${name}: its lines end in CR alone (classic Mac OS text), which is not read: save it with LF or CRLF line ends` });
    }
    expect(await read(text('1 2 3\r'), 'one.xyz')).toMatchObject({ kind: 'points', cloud: { count: 1 } });
    // UTF-16 (Windows "Unicode" text), with or without its byte order mark: named, not taken for CR lines.
    const utf16 = (s: string, bom: boolean): Uint8Array => Uint8Array.from([...(bom ? [0xff, 0xfe] : []), ...[...s].flatMap((c) => [c.charCodeAt(0), 0])]);
    for (const [name, file] of [['wide.xyz', '1.5 2.5 3.5\r\n4 5 6\r\n'], ['wide.obj', 'v 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n']]) {
      for (const bom of [true, false]) {
        expect(await failure(utf16(file!, bom), name!)).toMatchObject({ code: 'PARSE_FAILED', message: `${name}: it is UTF-16 text, which is not read: save it as UTF-8 or ASCII` });
      }
    }
    const mixed = await read(text('1 2 3\r\n4 5 6\n7 8 9\r\n'), 'mixed.xyz');
    expect(mixed.kind === 'points' && [...mixed.cloud.positions]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("CloudCompare's .asc is a text cloud by its name, streamed", async () => {
    const bytes = text('//X Y Z\n1 2 3');
    expect(resolveFormat('scan.asc', bytes)).toBe('xyz');
    expect((await readForImport(piecesAccess(bytes, 7), 'scan.asc', undefined, false)).scanContent?.format).toBe('xyz');
    const r = await read(bytes, 'scan.asc');
    expect(r.kind === 'points' && [...r.cloud.positions]).toEqual([1, 2, 3]);
  });

  it('seven unnamed columns: Leica PTS x y z intensity r g b, or x y z r g b and a value', async () => {
    const pts = await read(text('2\n1 2 3 -1024 10 20 30\n4 5 6 512 40 50 60\n'), 'scan.pts');
    expect(pts.kind === 'points' && { colors: [...pts.cloud.colors!], notes: pts.notes }).toEqual({ colors: [10, 20, 30, 40, 50, 60], notes: [] });
    const rgbValue = await read(text('1 2 3 10 20 30 0.25\n4 5 6 40 50 60 1.5\n'), 'scan.asc');
    expect(rgbValue.kind === 'points' && { colors: [...rgbValue.cloud.colors!], notes: rgbValue.notes }).toEqual({ colors: [10, 20, 30, 40, 50, 60], notes: ['columns 4 to 6 read as colours, column 7 is ignored (no header names the columns)'] });
  });

  it('a UTF-8 byte order mark before the first point keeps that point', async () => {
    const r = await read(text('\ufeff1.5 2 3\n4 5 6\n'), 'bom.xyz');
    expect(r.kind === 'points' && [...r.cloud.positions]).toEqual([1.5, 2, 3, 4, 5, 6]);
    const named = await read(text('\ufeffX,Y,Z,Red,Green,Blue\n1,2,3,0,0,1\n'), 'bom.csv');
    expect(named.kind === 'points' && [...named.cloud.colors!]).toEqual([0, 0, 1]);
  });
});

/** Positions, normals, colours and notes of a text cloud read whole and streamed (read()). */
async function cloudOf(file: string, name = 'scan.xyz'): Promise<{ positions: number[]; normals?: number[]; colors?: number[]; notes: string[] }> {
  const r = await read(text(file), name);
  if (r.kind !== 'points') throw new Error(`a cloud expected, got ${r.kind}`);
  const { positions, normals, colors } = r.cloud;
  return { positions: [...positions], ...(normals ? { normals: [...normals].map((v) => Math.round(v * 1e6) / 1e6) } : {}), ...(colors ? { colors: [...colors] } : {}), notes: r.notes };
}

describe('text clouds that look like another dialect are refused or read with a note, never silently wrong', () => {
  it('a thousands mark or a trailing comma beside decimal commas is refused, not split at its commas', async () => {
    // Before: '1.234,5 2.345,5 3,5' was x y z = 1.234 5 2.345 and colours 5 3 5.
    const mixed = "has blanks between numbers and commas inside them: which separates and which is a decimal or thousands mark is not known, so the file is not read (save it with one separator)";
    expect(await failure(text('1.234,5 2.345,5 3,5\n1.234,6 2.345,6 3,6\n'), 'eu.xyz')).toMatchObject({ code: 'PARSE_FAILED', message: `eu.xyz: line 1: '1.234,5 2.345,5 3,5' ${mixed}` });
    expect(await failure(text('# title\n1,5 2,5 3,5,\n'), 'eu.xyz')).toMatchObject({ code: 'PARSE_FAILED', message: `eu.xyz: line 2: '1,5 2,5 3,5,' ${mixed}` });
    // Before: '1 234,5 2 345,5 3 456,5' was x y z = 1 234.5 2 and normals 345.5 3 456.5, no note.
    expect(await failure(text('1 234,5 2 345,5 3 456,5\n'), 'fr.xyz')).toMatchObject({
      code: 'PARSE_FAILED',
      message: "fr.xyz: line 1: '1 234,5 2 345,5 3 456,5' looks like numbers with a blank as thousands separator (1 234,5): not read, as the blanks would make twice the numbers meant",
    });
    // A first point without a comma: a later decimal comma is no number (before: '1,5 2,5 3,5 0 0 1' was 1 5 2 and 5 3 5, six columns like the first).
    expect(await failure(text('1.5 2.5 3.5 0 0 1\n1,5 2,5 3,5 0 0 1\n'), 'merged.xyz')).toMatchObject({ code: 'PARSE_FAILED', message: "merged.xyz: line 2: '1,5' is not a finite number at byte 18" });
    // A first row of nan (a structured grid's hole) says nothing of the separators: the first row with a number does (before: refused).
    const hole = '1 points whose x y z are nan (not measured) are skipped';
    expect(await cloudOf('nan nan nan\n1,5 2,5 3,5\n')).toEqual({ positions: [1.5, 2.5, 3.5], notes: ['decimal commas: numbers such as 1,5 are read as 1.5', hole] });
    expect(await cloudOf('nan nan nan\n1.5,2.5,3.5\n', 'grid.csv')).toEqual({ positions: [1.5, 2.5, 3.5], notes: [hole] });
    // An integer x before a decimal comma is still a point of three numbers.
    expect(await cloudOf('12 345,5 7\n1 2,5 3\n')).toEqual({ positions: [12, 345.5, 7, 1, 2.5, 3], notes: ['decimal commas: numbers such as 1,5 are read as 1.5'] });
  });

  it('a comma after a blank is a separator (1 ,2 ,3), never a decimal comma (before: 1 0.2 0.3)', async () => {
    expect(await cloudOf('1 ,2 ,3\n4 ,5 ,6\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], notes: [] });
    expect(await cloudOf('1.5, 2.5, 3.5\n4, 5, 6.5\n')).toEqual({ positions: [1.5, 2.5, 3.5, 4, 5, 6.5], notes: [] });
  });

  it('six unnamed columns that are neither colours nor unit normals (a LAS export: intensity, return, class) are ignored with a note', async () => {
    // Before: read as normals 1200 1 2, no note.
    const ignored = ['columns 4 to 6 are neither colours (0 to 255, 0 to 1) nor unit normals and are ignored (no header names the columns)'];
    expect(await cloudOf('1.5 2.5 3.5 1200 1 2\n4.5 5.5 6.5 830 2 2\n')).toEqual({ positions: [1.5, 2.5, 3.5, 4.5, 5.5, 6.5], notes: ignored });
    // Vectors not of unit length, and 0 0 0 throughout (no normals, or black): nothing read.
    expect(await cloudOf('1 2 3 2.5 -1 0.3\n4 5 6 -0.2 3 1\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], notes: ignored });
    expect(await cloudOf('1 2 3 0 0 0\n4 5 6 0 0 0\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], notes: ignored });
    // Unit normals pointing every way: normals, no note.
    expect(await cloudOf('1 2 3 0 0 1\n4 5 6 0.6 0 -0.8\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], normals: [0, 0, 1, 0.6, 0, -0.8], notes: [] });
    // Written with one decimal: within 10 % of unit length when some component is negative (never colours), within 1 % when none is.
    expect(await cloudOf('1 2 3 -0.6 0.6 0.5\n4 5 6 0.7 0.7 0.1\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], normals: [-0.6, 0.6, 0.5, 0.7, 0.7, 0.1], notes: [] });
    expect(await cloudOf('1 2 3 0.6 0.6 0.5\n4 5 6 0.7 0.7 0.1\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], colors: [153, 153, 128, 179, 179, 26], notes: ['columns 4 to 6 read as colours (0 to 1; no header names the columns)'] });
  });

  it('unit triples that never point against an axis are normals with a note: they could be 0..1 colours of pure hues', async () => {
    const note = 'columns 4 to 6 read as normals (all of unit length, none pointing against an axis, as 0 to 1 colours of pure hues would be) (no header names the columns)';
    expect(await cloudOf('1 2 3 0 0 1\n4 5 6 0 0 1\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], normals: [0, 0, 1, 0, 0, 1], notes: [note] });
    expect(await cloudOf('1 2 3 1 0 0\n4 5 6 0.6 0.8 0\n')).toEqual({ positions: [1, 2, 3, 4, 5, 6], normals: [1, 0, 0, 0.6, 0.8, 0], notes: [note] });
  });

  it('seven unnamed columns x y z nx ny nz and a value: normals (before: ny nz value read as colours, no note)', async () => {
    expect(await cloudOf('1 2 3 0 0.6 0.8 120\n4 5 6 -0.6 0 0.8 75\n')).toEqual({
      positions: [1, 2, 3, 4, 5, 6],
      normals: [0, 0.6, 0.8, -0.6, 0, 0.8],
      notes: ['columns 4 to 6 read as normals, column 7 is ignored (no header names the columns)'],
    });
    // PTS with 0..1 colours: scaled (before: rounded to 0 or 1), with a note.
    expect(await cloudOf('1 2 3 -100 0.2 0.4 0.6\n4 5 6 50 1 0.5 0\n')).toEqual({
      positions: [1, 2, 3, 4, 5, 6],
      colors: [51, 102, 153, 255, 128, 0],
      notes: ['columns 5 to 7 read as colours (0 to 1; Leica PTS x y z intensity r g b), column 4 is ignored (no header names the columns)'],
    });
    // Columns 4 to 6 could be colours too: PTS is chosen and said.
    expect(await cloudOf('2\n1 2 3 100 10 20 30\n4 5 6 90 40 50 60\n', 'scan.pts')).toEqual({
      positions: [1, 2, 3, 4, 5, 6],
      colors: [10, 20, 30, 40, 50, 60],
      notes: ['columns 5 to 7 read as colours (0 to 255; Leica PTS x y z intensity r g b), column 4 is ignored (no header names the columns)'],
    });
    // Neither: nothing read.
    expect(await cloudOf('1 2 3 1200 -5 7 0.5\n')).toEqual({ positions: [1, 2, 3], notes: ['7 columns per line without names: the first three are read as x y z, the others are ignored (neither colours nor unit normals)'] });
  });

  it('nine unnamed columns: a triple that is neither colours nor unit normals is ignored, the other kept (before: read as normals)', async () => {
    expect(await cloudOf('1 2 3 10 20 30 1200 2 3\n4 5 6 40 50 60 400 5 6\n')).toEqual({
      positions: [1, 2, 3, 4, 5, 6],
      colors: [10, 20, 30, 40, 50, 60],
      notes: ['columns 4 to 6 read as colours, columns 7 to 9 are neither colours (0 to 255, 0 to 1) nor unit normals and are ignored (no header names the columns)'],
    });
    expect(await cloudOf('1 2 3 0 0 -1 1200 2 3\n')).toEqual({
      positions: [1, 2, 3],
      normals: [0, 0, -1],
      notes: ['columns 4 to 6 read as normals, columns 7 to 9 are neither colours (0 to 255, 0 to 1) nor unit normals and are ignored (no header names the columns)'],
    });
  });

  it('survey names (northing before easting) and names with units are read as named; words that name no axis are said', async () => {
    // Before: Northing,Easting read as x y (a mirrored cloud, no note); with a point id first, the id was x.
    const survey = { positions: [3000.25, 5000.5, 12.5, 3001.25, 5001.5, 13.5], notes: [] };
    expect(await cloudOf('Northing,Easting,Elevation\n5000.5,3000.25,12.5\n5001.5,3001.25,13.5\n', 'survey.csv')).toEqual(survey);
    expect(await cloudOf('Point,Northing,Easting,Height\n1,5000.5,3000.25,12.5\n2,5001.5,3001.25,13.5\n', 'survey.csv')).toEqual(survey);
    expect(await cloudOf('Z[mm];Y[mm];X[mm]\n3;2;1\n', 'units.csv')).toEqual({ positions: [1, 2, 3], notes: [] });
    expect(await cloudOf('X (mm) Y (mm) Z (mm) Nx Ny Nz\n1 2 3 0 0 1\n')).toEqual({ positions: [1, 2, 3], normals: [0, 0, 1], notes: [] });
    expect(await cloudOf('lat lon alt\n45.5 7.25 300\n')).toEqual({
      positions: [45.5, 7.25, 300],
      notes: ["the line above the points, 'lat lon alt', has a word per column, none of them x, y or z: if they name the columns, they are not understood; the first three columns are read as x y z"],
    });
    // A title with a number in it names nothing.
    expect(await cloudOf('Scan; part 7\n1.5,2.5,3.5\n')).toEqual({ positions: [1.5, 2.5, 3.5], notes: [] });
    // Nor does a title of a word per column that holds an English title word (before: the note fired).
    expect(await cloudOf('Scan of part\n1.5 2.5 3.5\n')).toEqual({ positions: [1.5, 2.5, 3.5], notes: [] });
    expect(await cloudOf('Export from CloudCompare\n1.5 2.5 3.5\n')).toEqual({ positions: [1.5, 2.5, 3.5], notes: [] });
    expect(await cloudOf('Housing-left rev.B 2024\n1.5 2.5 3.5\n')).toEqual({ positions: [1.5, 2.5, 3.5], notes: [] });
    // Names of other columns (digits, underscores) still get the note.
    expect(await cloudOf('Lon Lat Alt Scalar_1\n7.25 45.5 300 0.5\n')).toEqual({
      positions: [7.25, 45.5, 300],
      notes: [
        "the line above the points, 'Lon Lat Alt Scalar_1', has a word per column, none of them x, y or z: if they name the columns, they are not understood; the first three columns are read as x y z",
        '4 columns per line: the first three are read as x y z, the others are ignored',
      ],
    });
  });

  it('a point count that disagrees with the points after it is said (a PTS cut short at a line end, a line of one number)', async () => {
    const disagree = 'point counts that disagree with the points after them (a file cut short, or a line of one number that is no count): ';
    expect(await cloudOf('3\n1 2 3\n4 5 6\n', 'cut.pts')).toEqual({ positions: [1, 2, 3, 4, 5, 6], notes: [`${disagree}line 1 announces 3 points, 2 follow`] });
    expect(await cloudOf('1 2 3\n4 5 6\n7\n8 9 10\n')).toEqual({
      positions: [1, 2, 3, 4, 5, 6, 8, 9, 10],
      notes: ['1 point counts between the points (a PTS of several scans) are skipped: the scans are one cloud', `${disagree}line 3 announces 7 points, 1 follow`],
    });
    // Counts that agree (a nan line is one of the points counted; a scan number before the count): no such note.
    expect(await cloudOf('1\n3\n1 2 3\nnan nan nan\n4 5 6\n1\n7 8 9\n', 'ok.pts')).toEqual({
      positions: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      notes: ['1 point counts between the points (a PTS of several scans) are skipped: the scans are one cloud', '1 points whose x y z are nan (not measured) are skipped'],
    });
  });
});

describe('an ASCII PLY whose header does not describe its body', () => {
  const xyz = ['x', 'y', 'z'].map((name) => ({ type: 'float', name }));
  const withTail = (rows: Row[], tail: string): Uint8Array => {
    const head = ply('ascii', [{ name: 'vertex', properties: xyz, rows }]);
    return Uint8Array.from([...head, ...text(tail)]);
  };

  it('a number after the last vertex (a property the header omits, a count too small) is refused, naming its line and byte', async () => {
    // The header says x y z, the writer wrote x y z intensity: before, read as 1 2 3 and 4 5 6 (the second point shifted), 7 8 ignored.
    const shifted = Uint8Array.from([...ply('ascii', [{ name: 'vertex', properties: xyz, rows: [[1, 2, 3, 4], [5, 6, 7, 8]] }])]);
    const lines = new TextDecoder().decode(shifted).split('\n');
    const last = lines.length - 2;
    expect(await failure(shifted, 'shifted.ply')).toMatchObject({
      code: 'PARSE_FAILED',
      message: `shifted.ply: line ${last + 1}: a number at byte ${shifted.length - 4} after the last element the header declares: the header does not describe the body (a property or element missing from it, or counts too small)`,
    });
    // A vertex count one short: before, the third point was dropped without a word.
    const short = withTail([[1, 2, 3], [4, 5, 6]], '\n-7.5 8 9\n');
    expect(await failure(short, 'short.ply')).toMatchObject({ code: 'PARSE_FAILED', message: expect.stringMatching(new RegExp(`^short\\.ply: line ${lines.length + 1}: a number at byte ${short.length - 9} after the last element`)) });
  });

  it('binary: bytes after the body other than padding are refused (a property the header omits, a count too small)', async () => {
    // Two points declared, three written: before, the third was dropped without a word.
    const declared = ply('binary_little_endian', [{ name: 'vertex', properties: xyz, rows: [[1, 2, 3], [4, 5, 6]] }]);
    const short = Uint8Array.from([...declared, ...new Uint8Array(Float32Array.of(7, 8, 9).buffer)]);
    expect(await failure(short, 'short.ply')).toMatchObject({
      code: 'PARSE_FAILED',
      message: `short.ply: the body the header declares ends at byte ${declared.length}, and 12 more bytes follow: the header does not describe the body (a property or element missing from it, or counts too small)`,
    });
    // Padding (a line end, NUL bytes) after the body is not read.
    const padded = ply('binary_big_endian', [{ name: 'vertex', properties: xyz, rows: [[1, 2, 3], [4, 5, 6]] }]);
    const r = await read(Uint8Array.from([...padded, 13, 10, 0, 0, 0, 0]), 'padded.ply');
    expect(r.kind === 'points' && [...r.cloud.positions]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('words, blanks or NUL padding after the last vertex are not read and do no harm', async () => {
    for (const tail of ['the end\n1 2 3\n', '\n\r\n  \t\n', '\0\0\0\0']) {
      const r = await read(withTail([[1, 2, 3], [4, 5, 6]], tail), 'tail.ply');
      expect(r.kind === 'points' && [...r.cloud.positions]).toEqual([1, 2, 3, 4, 5, 6]);
    }
  });
});
