import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { testEngine } from '../../../test/testEngine';
import { float32Text, write3mf, writeObj, writePly, writePointText, type PlyEncoding } from '../../../test/meshWriters';
import type { ErrorCode } from '../../errors';
import { box, seededRandom, uvSphere } from '../../mesh/generators';
import type { TriMesh } from '../../mesh/TriMesh';
import type { DeviationResult } from '../../tools/measureDeviation';
import type { BodySummary } from '../describeBody';
import { formatFromContent, resolveFormat } from './detectFormat';
import { parseMeshFile, readScanFile } from './scanFile';
import { parseStl, writeBinaryStl } from './stl';

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A scan-like mesh: a sphere with seeded radial noise, coordinates rounded to float32 as every scan file holds them. */
function scanMesh(): TriMesh {
  const mesh = uvSphere(10, 48, 24, [1, 2, 3]);
  const random = seededRandom(7);
  const p = mesh.positions;
  for (let v = 0; v < p.length / 3; v++) {
    const s = 1 + (random() - 0.5) * 0.01;
    for (let k = 0; k < 3; k++) p[v * 3 + k] = Math.fround(((p[v * 3 + k]! - [1, 2, 3][k]!) * s) + [1, 2, 3][k]!);
  }
  return mesh;
}

const SCAN = scanMesh();
const STL_MESH = parseStl(writeBinaryStl(SCAN), 'scan.stl');

const FORMATS: { file: string; bytes: () => Uint8Array }[] = [
  { file: 'scan.stl', bytes: () => writeBinaryStl(SCAN) },
  { file: 'scan-le.ply', bytes: () => writePly(SCAN, { encoding: 'binary_little_endian' }) },
  { file: 'scan-be.ply', bytes: () => writePly(SCAN, { encoding: 'binary_big_endian' }) },
  { file: 'scan-ascii.ply', bytes: () => writePly(SCAN, { encoding: 'ascii' }) },
  { file: 'scan.obj', bytes: () => writeObj(SCAN) },
  { file: 'scan.3mf', bytes: () => write3mf([{ mesh: SCAN }]) },
];

describe('one mesh in every mesh format', () => {
  it.each(FORMATS)('$file parses to exactly the arrays the binary STL gives', ({ file, bytes }) => {
    const data = bytes();
    const format = resolveFormat(file, data);
    expect(format).toBe(file.split('.').pop() === 'ply' ? 'ply' : file.split('.').pop());
    // Detected from the content alone too (the name is only a fallback).
    expect(resolveFormat('upload', data)).toBe(format);
    const { mesh } = parseMeshFile(format as 'stl', data, file);
    expect(mesh.positions).toEqual(STL_MESH.positions);
    expect(mesh.indices).toEqual(STL_MESH.indices);
  });

  it('measure_deviation gives the same figures to 1e-9 whichever format carries the scan, as from-body and as reference', async () => {
    const engine = testEngine();
    await engine.run('import_file', { bytes: b64(writeBinaryStl(uvSphere(10.2, 64, 32, [1, 2, 3]))), fileName: 'nominal.stl', bodyId: 'nominal' });
    const results: { file: string; forward: DeviationResult; reverse: DeviationResult }[] = [];
    for (const { file, bytes } of FORMATS) {
      const body = (await engine.run('import_file', { bytes: b64(bytes()), fileName: file })).result as BodySummary;
      expect(body).toMatchObject({ kind: 'mesh', triangles: SCAN.indices.length / 3, watertight: true, valid: true });
      const forward = (await engine.run('measure_deviation', { fromBodyId: body.bodyId, toBodyId: 'nominal' })).result as DeviationResult;
      const reverse = (await engine.run('measure_deviation', { fromBodyId: 'nominal', toBodyId: body.bodyId })).result as DeviationResult;
      results.push({ file, forward, reverse });
    }
    const stl = results[0]!;
    // The scan sits about 0.2 inside the nominal sphere: a real comparison, not zeros.
    expect(stl.forward.fromToTo.signedMean!).toBeLessThan(-0.1);
    for (const r of results.slice(1)) {
      for (const dir of ['forward', 'reverse'] as const) {
        for (const side of ['fromToTo', 'toToFrom'] as const) {
          const a = stl[dir][side] as unknown as Record<string, unknown>, b = r[dir][side] as unknown as Record<string, unknown>;
          for (const key of Object.keys(a)) {
            if (typeof a[key] === 'number') expect(Math.abs((b[key] as number) - (a[key] as number)), `${r.file} ${dir} ${side}.${key}`).toBeLessThanOrEqual(1e-9);
            else expect(b[key], `${r.file} ${dir} ${side}.${key}`).toEqual(a[key]);
          }
        }
      }
    }
  });
});

describe('PLY', () => {
  const quad = box([0, 0, 0], [2, 3, 4]);

  it.each<PlyEncoding>(['ascii', 'binary_little_endian', 'binary_big_endian'])('%s: quads and pentagons are fanned into triangles; normals and colours are kept', (encoding) => {
    // A unit-square prism whose top is a pentagon: 5 + 5 vertices, 2 pentagons and 5 quads -> 2*3 + 5*2 = 16 triangles.
    const ring = [0, 1, 2, 3, 4].map((k) => [Math.cos((2 * Math.PI * k) / 5), Math.sin((2 * Math.PI * k) / 5)] as const);
    const positions = Float64Array.from([...ring.flatMap(([x, y]) => [x, y, 0]), ...ring.flatMap(([x, y]) => [x, y, 1])].map(Math.fround));
    const polygons = [[4, 3, 2, 1, 0], [5, 6, 7, 8, 9], ...[0, 1, 2, 3, 4].map((k) => [k, (k + 1) % 5, ((k + 1) % 5) + 5, k + 5])];
    const normals = Float32Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? (i < 15 ? -1 : 1) : 0));
    const colors = Uint8Array.from({ length: 30 }, (_, i) => (i * 17) % 256);
    const bytes = writePly({ positions, indices: new Uint32Array(0) }, { encoding, polygons, normals, colors, indexType: 'ushort' });
    const content = readScanFile('ply', bytes, 'prism.ply');
    expect(content.kind).toBe('mesh');
    if (content.kind !== 'mesh') return;
    expect(content.mesh.indices.length / 3).toBe(16);
    expect(content.mesh.normals).toEqual(normals);
    expect(content.mesh.colors).toEqual(colors);
    const { mesh } = parseMeshFile('ply', bytes, 'prism.ply');
    expect(mesh.indices.length / 3).toBe(16);
    // Welded and renumbered, each vertex keeps its own normal and colour.
    for (let v = 0; v < 10; v++) {
      const original = [...positions.subarray(v * 3, v * 3 + 3)].join();
      const w = [...Array(10).keys()].find((i) => [...mesh.positions.subarray(i * 3, i * 3 + 3)].join() === original)!;
      expect([...mesh.normals!.subarray(w * 3, w * 3 + 3)]).toEqual([...normals.subarray(v * 3, v * 3 + 3)]);
      expect([...mesh.colors!.subarray(w * 3, w * 3 + 3)]).toEqual([...colors.subarray(v * 3, v * 3 + 3)]);
    }
  });

  it('skips properties and elements it does not use, in both encodings', () => {
    for (const format of ['ascii', 'binary_little_endian']) {
      const header = [
        'ply',
        `format ${format} 1.0`,
        'obj_info made by hand',
        'element vertex 3',
        'property double x',
        'property float confidence',
        'property double y',
        'property double z',
        'property list uchar int ring',
        'element material 1',
        'property uchar shine',
        'element face 1',
        'property uchar flags',
        'property list uchar uint vertex_index',
        'end_header',
        '',
      ].join('\r\n');
      let body: Uint8Array;
      if (format === 'ascii') {
        body = text('1 0.5 2 3 2 7 8\n4 0.5 5 6 0\n7 0.5 8 9 1 1\n9\n0 3 0 1 2\n');
      } else {
        const b = new DataView(new ArrayBuffer(3 * (8 + 4 + 16 + 1) + 4 * 2 + 4 + 1 + 1 + 1 + 12));
        let at = 0;
        const rings = [[7, 8], [], [1]];
        for (let v = 0; v < 3; v++) {
          b.setFloat64(at, 1 + 3 * v, true);
          b.setFloat32(at + 8, 0.5, true);
          b.setFloat64(at + 12, 2 + 3 * v, true);
          b.setFloat64(at + 20, 3 + 3 * v, true);
          b.setUint8(at + 28, rings[v]!.length);
          at += 29;
          for (const r of rings[v]!) b.setInt32((at += 4) - 4, r, true);
        }
        b.setUint8(at++, 9); // material
        b.setUint8(at++, 0); // flags
        b.setUint8(at++, 3);
        for (const i of [0, 1, 2]) b.setUint32((at += 4) - 4, i, true);
        body = new Uint8Array(b.buffer, 0, at);
      }
      const bytes = new Uint8Array([...text(header), ...body]);
      const content = readScanFile('ply', bytes, 'odd.ply');
      expect(content.kind).toBe('mesh');
      if (content.kind === 'mesh') {
        expect([...content.mesh.positions]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect([...content.mesh.indices]).toEqual([0, 1, 2]);
      }
    }
  });

  it('a PLY with vertices and no faces is a point cloud with its normals, loaded as a points body', async () => {
    const random = seededRandom(3);
    const positions = Float64Array.from({ length: 300 }, () => Math.fround(random() * 10));
    const normals = Float32Array.from({ length: 300 }, () => random());
    for (const encoding of ['ascii', 'binary_big_endian'] as const) {
      const bytes = writePly({ positions, indices: new Uint32Array(0) }, { encoding, faces: false, normals });
      const content = readScanFile('ply', bytes, 'cloud.ply');
      expect(content).toMatchObject({ kind: 'points', cloud: { count: 100 } });
      if (content.kind === 'points') {
        // A binary file's float32 coordinates are kept as float32 (half the memory), the same values.
        expect(content.cloud.positions).toBeInstanceOf(encoding === 'ascii' ? Float64Array : Float32Array);
        expect(Float64Array.from(content.cloud.positions)).toEqual(positions);
        expect(content.cloud.normals).toEqual(normals);
      }
      const engine = testEngine();
      const summary = (await engine.run('import_file', { bytes: b64(bytes), fileName: 'cloud.ply' })).result;
      expect(summary).toMatchObject({ bodyId: 'cloud', kind: 'points', sourceFormat: 'ply', points: 100, hasNormals: true, faces: 0, valid: true });
      expect((await engine.run('list_bodies', {})).result.bodies).toEqual([summary]);
    }
  });

  it('a box written as PLY is the same closed body as its STL', async () => {
    const engine = testEngine();
    const body = (await engine.run('import_file', { bytes: b64(writePly(quad, { encoding: 'binary_little_endian' })), fileName: 'box.ply' })).result as BodySummary;
    expect(body).toMatchObject({ kind: 'mesh', sourceFormat: 'ply', faces: 12, vertices: 8, edges: 18, watertight: true });
    expect((await engine.run('compute_metrics', { bodyId: body.bodyId, metrics: ['volume'] })).result).toMatchObject({ volume: expect.closeTo(24, 12) });
  });
});

describe('OBJ', () => {
  const cube = box([0, 0, 0], [1, 2, 3]);

  it.each([
    { form: 'v', negative: false },
    { form: 'v/vt', negative: false },
    { form: 'v//vn', negative: false },
    { form: 'v/vt/vn', negative: false },
    { form: 'v', negative: true },
    { form: 'v/vt/vn', negative: true },
  ] as const)('index form $form (negative: $negative) reads the same triangles', ({ form, negative }) => {
    const { mesh } = parseMeshFile('obj', writeObj(cube, { form, negative }), 'cube.obj');
    const stl = parseStl(writeBinaryStl(cube));
    expect(mesh.positions).toEqual(stl.positions);
    expect(mesh.indices).toEqual(stl.indices);
    if (form.endsWith('vn')) expect([...mesh.normals!.subarray(0, 3)]).toEqual([0, 0, 1]);
  });

  it('several objects and groups are one body; materials are ignored with a note', async () => {
    const bytes = writeObj(cube, { groups: 3, materials: true });
    const { mesh, notes } = parseMeshFile('obj', bytes, 'cube.obj');
    expect(mesh.indices.length / 3).toBe(12);
    expect(notes).toEqual([expect.stringMatching(/materials .* ignored/), expect.stringMatching(/3 objects and groups are read as one body/)]);
    const engine = testEngine();
    const body = (await engine.run('import_file', { bytes: b64(bytes), fileName: 'cube.obj' })).result as BodySummary;
    expect(body).toMatchObject({ sourceFormat: 'obj', faces: 12, watertight: true, notes });
  });

  it('polygons are fanned, vertex colours kept, comments and blank lines skipped', () => {
    const obj = ['# a quad and a pentagon', '', 'v 0 0 0 1 0 0', 'v 1 0 0 0 1 0', 'v 1 1 0 0 0 1', 'v 0 1 0 1 1 1', 'v 0.5 1.5 0 0.5 0.5 0.5', 'f 1 2 3 4', 'f -4 -3 -1 -2', 'f 4 3 5'].join('\n');
    const content = readScanFile('obj', text(obj), 'shapes.obj');
    expect(content.kind).toBe('mesh');
    if (content.kind !== 'mesh') return;
    expect([...content.mesh.indices]).toEqual([0, 1, 2, 0, 2, 3, 1, 2, 4, 1, 4, 3, 3, 2, 4]);
    expect([...content.mesh.colors!]).toEqual([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 128, 128, 128]);
  });
});

describe('3MF', () => {
  it('every mesh object placed by its build transform, mirrored placements kept outward, units in millimetres', async () => {
    const cube = box([0, 0, 0], [1, 1, 1]);
    const bytes = write3mf([
      { mesh: cube },
      { mesh: cube, transform: [2, 0, 0, 0, 1, 0, 0, 0, 1, 10, 0, 0] }, // 2 x 1 x 1 at x = 10
      { mesh: cube, transform: [-1, 0, 0, 0, 1, 0, 0, 0, 1, -5, 0, 0] }, // mirrored: x in [-6, -5]
    ]);
    const engine = testEngine();
    const body = (await engine.run('import_file', { bytes: b64(bytes), fileName: 'parts.3mf' })).result as BodySummary;
    expect(body).toMatchObject({ sourceFormat: '3mf', faces: 36, watertight: true });
    const m = (await engine.run('compute_metrics', { bodyId: body.bodyId, metrics: ['volume', 'boundingBox'] })).result as { volume: number; boundingBox: { min: number[]; max: number[] } };
    // Volumes 1 + 2 + 1: the mirrored cube counts positive only if its triangles were turned.
    expect(m.volume).toBeCloseTo(4, 12);
    expect(m.boundingBox.min[0]).toBeCloseTo(-6, 12);
    expect(m.boundingBox.max[0]).toBeCloseTo(12, 12);

    const inches = parseMeshFile('3mf', write3mf([{ mesh: cube }], 'inch'), 'in.3mf');
    expect(Math.max(...inches.mesh.positions)).toBeCloseTo(25.4, 12);
    expect(inches.notes).toEqual([expect.stringMatching(/inch/)]);
  });

  it('components with their own transforms, nested under a build item', () => {
    const model = `<?xml version="1.0"?><model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources>
      <object id="1"><mesh><vertices><vertex x="0" y="0" z="0"/><vertex x="1" y="0" z="0"/><vertex x="0" y="1" z="0"/></vertices><triangles><triangle v1="0" v2="1" v3="2"/></triangles></mesh></object>
      <object id="2"><components><component objectid="1"/><component objectid="1" transform="1 0 0 0 1 0 0 0 1 0 0 5"/></components></object>
      </resources><build><item objectid="2" transform="1 0 0 0 1 0 0 0 1 100 0 0"/></build></model>`;
    const bytes = zipSync({ '3D/3dmodel.model': strToU8(model) });
    const content = readScanFile('3mf', bytes, 'asm.3mf');
    expect(content.kind).toBe('mesh');
    if (content.kind === 'mesh') {
      expect([...content.mesh.positions]).toEqual([100, 0, 0, 101, 0, 0, 100, 1, 0, 100, 0, 5, 101, 0, 5, 100, 1, 5]);
      expect([...content.mesh.indices]).toEqual([0, 1, 2, 3, 4, 5]);
    }
  });
});

describe('text point clouds', () => {
  const random = seededRandom(11);
  const positions = Float64Array.from({ length: 60 }, () => Math.fround((random() - 0.5) * 100));
  // Unit normals pointing every way, as a scanner writes them (all-positive values in 0..1 would read as colours).
  const normals = new Float32Array(60);
  for (let i = 0; i < 20; i++) {
    const v = [random() - 0.5, random() - 0.5, random() - 0.5], l = Math.hypot(...v);
    for (let k = 0; k < 3; k++) normals[3 * i + k] = v[k]! / l;
  }

  it.each([
    { what: 'x y z, blanks', file: 'a.xyz', bytes: () => writePointText(positions), normals: false },
    { what: 'x,y,z with a header line', file: 'a.csv', bytes: () => writePointText(positions, { separator: ',', header: 'x,y,z' }), normals: false },
    { what: 'x y z nx ny nz, tabs', file: 'a.txt', bytes: () => writePointText(positions, { normals, separator: '\t' }), normals: true },
    { what: 'named columns in another order', file: 'a.pts', bytes: () => text('nx ny nz x y z\n' + [...Array(20).keys()].map((i) => [...normals.subarray(i * 3, i * 3 + 3), ...positions.subarray(i * 3, i * 3 + 3)].map(float32Text).join(' ')).join('\n')), normals: true },
  ])('$what', ({ file, bytes, normals: withNormals }) => {
    const data = bytes();
    expect(resolveFormat(file, data)).toBe('xyz');
    const content = readScanFile('xyz', data, file);
    expect(content.kind).toBe('points');
    if (content.kind !== 'points') return;
    expect(content.cloud.count).toBe(20);
    expect(content.cloud.positions).toEqual(positions);
    if (withNormals) expect(content.cloud.normals).toEqual(normals);
    else expect(content.cloud.normals).toBeUndefined();
  });

  it('a PTS file: a count line, then x y z intensity r g b', () => {
    const content = readScanFile('xyz', text('2\n1 2 3 -500 10 20 30\n4 5 6 12 40 50 60\n'), 'scan.pts');
    expect(content).toMatchObject({ kind: 'points', cloud: { count: 2 } });
    if (content.kind === 'points') {
      expect([...content.cloud.positions]).toEqual([1, 2, 3, 4, 5, 6]);
      expect([...content.cloud.colors!]).toEqual([10, 20, 30, 40, 50, 60]);
    }
  });

  it('a binary cloud keeps double coordinates as float64 and short ones as float32, every value exact', () => {
    const ply = (type: string, write: (view: DataView, offset: number, v: number) => void, size: number, values: number[]): Uint8Array => {
      const head = new TextEncoder().encode(`ply\nformat binary_little_endian 1.0\nelement vertex ${values.length / 3}\nproperty ${type} x\nproperty ${type} y\nproperty ${type} z\nend_header\n`);
      const out = new Uint8Array(head.length + size * values.length);
      out.set(head);
      const view = new DataView(out.buffer);
      values.forEach((v, i) => write(view, head.length + size * i, v));
      return out;
    };
    const doubles = [0.1, 1e9 + 0.3, -2.000000001, 3, 4, 5];
    const d = readScanFile('ply', ply('double', (v, o, x) => v.setFloat64(o, x, true), 8, doubles), 'd.ply');
    expect(d.kind === 'points' && d.cloud.positions).toBeInstanceOf(Float64Array);
    if (d.kind === 'points') expect([...d.cloud.positions]).toEqual(doubles);
    const shorts = [-32768, 32767, 7, 0, -1, 12];
    const s16 = readScanFile('ply', ply('short', (v, o, x) => v.setInt16(o, x, true), 2, shorts), 's.ply');
    expect(s16.kind === 'points' && s16.cloud.positions).toBeInstanceOf(Float32Array);
    if (s16.kind === 'points') expect([...s16.cloud.positions]).toEqual(shorts);
  });

  it('the same cloud as XYZ and as PLY parses to identical arrays', () => {
    const xyz = readScanFile('xyz', writePointText(positions, { normals }), 'c.xyz');
    const ply = readScanFile('ply', writePly({ positions, indices: new Uint32Array(0) }, { encoding: 'binary_little_endian', faces: false, normals }), 'c.ply');
    expect(xyz.kind === 'points' && ply.kind === 'points').toBe(true);
    if (xyz.kind === 'points' && ply.kind === 'points') {
      expect(xyz.cloud.positions).toEqual(Float64Array.from(ply.cloud.positions));
      expect(xyz.cloud.normals).toEqual(ply.cloud.normals);
    }
  });
});

describe('content first, then the extension', () => {
  it('recognizes each new format by content and leaves unknown text alone', () => {
    expect(formatFromContent(text('ply\nformat ascii 1.0\n'))).toBe('ply');
    expect(formatFromContent(write3mf([{ mesh: box([0, 0, 0], [1, 1, 1]) }]))).toBe('3mf');
    expect(formatFromContent(text('# made by X\nmtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'))).toBe('obj');
    expect(formatFromContent(text('X Y Z\n1 2 3\n4.5 -6 7e2\n'))).toBe('xyz');
    expect(formatFromContent(text('hello world\nthis is prose\n'))).toBeUndefined();
    // Text that merely looks like rows of numbers does not override a known extension.
    expect(resolveFormat('notes.brep', text('this is not a BREP\n1 2 3\n'))).toBe('brep');
    expect(resolveFormat('upload', text('this is a header\n1 2 3\n'))).toBe('xyz');
    // A PLY named .stl is read as the PLY it is.
    expect(resolveFormat('scan.stl', writePly(box([0, 0, 0], [1, 1, 1]), { encoding: 'binary_little_endian' }))).toBe('ply');
  });
});

/** Bad input: each a coded error naming the file and where, before any partial body. */
describe('bad scan files', () => {
  const cube = box([0, 0, 0], [1, 1, 1]);
  const ply = writePly(cube, { encoding: 'binary_little_endian' });
  const plyAscii = new TextDecoder().decode(writePly(cube, { encoding: 'ascii' }));
  const cases: { what: string; file: string; bytes: () => Uint8Array; code: ErrorCode; message: RegExp }[] = [
    { what: 'binary PLY cut inside the faces', file: 'cut.ply', bytes: () => ply.subarray(0, ply.length - 7), code: 'PARSE_FAILED', message: /cut\.ply: face 11 of 12: the file ends/ },
    { what: 'binary PLY cut inside the vertices', file: 'cut.ply', bytes: () => ply.subarray(0, Buffer.from(ply).indexOf('end_header\n') + 11 + 40), code: 'PARSE_FAILED', message: /cut\.ply: header line 4: the header declares 24 'vertex' elements, more than the 40 bytes/ },
    { what: 'ASCII PLY cut mid-face', file: 'cut.ply', bytes: () => text(plyAscii.slice(0, plyAscii.length - 4)), code: 'PARSE_FAILED', message: /cut\.ply: line 46: face 11 of 12: the file ends/ },
    { what: 'header declaring a billion vertices', file: 'lie.ply', bytes: () => text(plyAscii.replace('element vertex 24', 'element vertex 1000000000')), code: 'PARSE_FAILED', message: /lie\.ply: header line 4: the header declares 1000000000 'vertex' elements/ },
    { what: 'unknown property type', file: 'odd.ply', bytes: () => text(plyAscii.replace('property float y', 'property float128 y')), code: 'PARSE_FAILED', message: /odd\.ply: header line 6: unknown property type/ },
    { what: 'face indexing a missing vertex', file: 'idx.ply', bytes: () => text(plyAscii.replace(/\n3 (\d+) (\d+) (\d+)\n/, '\n3 $1 $2 24\n')), code: 'PARSE_FAILED', message: /idx\.ply: face 0: vertex index 24 is not one of the 24 vertices/ },
    { what: 'NaN coordinate in PLY', file: 'nan.ply', bytes: () => text(plyAscii.replace(/\n0 0 0\n/, '\nnan 0 0\n')), code: 'PARSE_FAILED', message: /nan\.ply: line \d+: vertex \d: 'nan' is not a number/ },
    { what: 'no end_header', file: 'head.ply', bytes: () => text('ply\nformat ascii 1.0\nelement vertex 3\n'), code: 'PARSE_FAILED', message: /head\.ply: .*no end_header/ },
    { what: 'OBJ face indexing a missing vertex', file: 'bad.obj', bytes: () => text('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n'), code: 'PARSE_FAILED', message: /bad\.obj: line 4: face index 4 refers to no vertex \(the file defines 3\)/ },
    { what: 'OBJ negative index before the first vertex', file: 'bad.obj', bytes: () => text('v 0 0 0\nv 1 0 0\nf -1 -2 -3\nv 0 1 0\n'), code: 'PARSE_FAILED', message: /bad\.obj: line 3: face index -3 refers to no vertex/ },
    { what: 'OBJ vertex with a non-number', file: 'bad.obj', bytes: () => text('v 0 0 0\nv 1 zero 0\n'), code: 'PARSE_FAILED', message: /bad\.obj: line 2: 'zero' is not a finite number \(y\)/ },
    { what: 'OBJ face index that is not a number', file: 'bad.obj', bytes: () => text('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n'), code: 'PARSE_FAILED', message: /bad\.obj: line 4: 'x' is not a face corner/ },
    { what: 'text cloud with a word', file: 'bad.xyz', bytes: () => text('1 2 3\n4 five 6\n'), code: 'PARSE_FAILED', message: /bad\.xyz: line 2: 'five' is not a finite number/ },
    { what: 'text cloud with NaN', file: 'bad.xyz', bytes: () => text('x y z\n1 2 3\n4 NaN 6\n'), code: 'PARSE_FAILED', message: /bad\.xyz: line 3: 'NaN' is not a finite number/ },
    { what: 'text cloud with a short line', file: 'bad.csv', bytes: () => text('1,2,3\n4,5\n'), code: 'PARSE_FAILED', message: /bad\.csv: line 2: 2 numbers where the lines before have 3/ },
    { what: '3MF triangle indexing a missing vertex', file: 'bad.3mf', bytes: () => zipSync({ '3D/3dmodel.model': strToU8('<model><resources><object id="1"><mesh><vertices><vertex x="0" y="0" z="0"/></vertices><triangles><triangle v1="0" v2="0" v3="3"/></triangles></mesh></object></resources><build><item objectid="1"/></build></model>') }), code: 'PARSE_FAILED', message: /bad\.3mf:\/3D\/3dmodel\.model: object 1 triangle 0: v3=3 is not one of the 1 vertices/ },
    { what: '3MF with broken XML', file: 'bad.3mf', bytes: () => zipSync({ '3D/3dmodel.model': strToU8('<model><resources><object id="1"></resources>') }), code: 'PARSE_FAILED', message: /bad\.3mf:\/3D\/3dmodel\.model: not well-formed XML/ },
    { what: '3MF that is a truncated zip', file: 'bad.3mf', bytes: () => write3mf([{ mesh: cube }]).subarray(0, 200), code: 'PARSE_FAILED', message: /bad\.3mf: not a readable 3MF package/ },
    { what: '3MF component cycle', file: 'loop.3mf', bytes: () => zipSync({ '3D/3dmodel.model': strToU8('<model><resources><object id="1"><components><component objectid="1"/></components></object></resources><build><item objectid="1"/></build></model>') }), code: 'PARSE_FAILED', message: /loop\.3mf: 3MF components nest deeper/ },
    { what: 'ASCII STL with Inf', file: 'inf.stl', bytes: () => text('solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 inf 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n'), code: 'PARSE_FAILED', message: /inf\.stl: coordinate y of corner 1 is not a finite number/ },
    { what: 'ASCII STL with 1e999', file: 'big.stl', bytes: () => text('solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1e999 0\nendloop\nendfacet\nendsolid t\n'), code: 'PARSE_FAILED', message: /big\.stl: coordinate y of corner 2 is not a finite number/ },
    { what: 'binary STL announcing 2^31 triangles', file: 'huge.stl', bytes: () => { const b = writeBinaryStl(cube); new DataView(b.buffer).setUint32(80, 0x7fffffff, true); return b; }, code: 'PARSE_FAILED', message: /huge\.stl: truncated binary STL: the header announces 2147483647 triangles/ },
    { what: 'text point cloud without points', file: 'none.xyz', bytes: () => text('x y z\n'), code: 'EMPTY_MESH', message: /none\.xyz: the file has no lines of x/ },
  ];

  it.each(cases)('$what -> $code', async ({ file, bytes, code, message }) => {
    const engine = testEngine();
    const error = await engine.run('import_file', { bytes: b64(bytes()), fileName: file }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toMatch(message);
    expect((await engine.run('list_bodies', {})).result).toEqual({ bodies: [] });
  });
});
