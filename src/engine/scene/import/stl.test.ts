import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TriMesh } from '../../mesh/TriMesh';
import type { MetricsResult } from '../../tools/computeMetrics';
import { testEngine } from '../../../test/testEngine';
import { dataPath } from '../../../test/data';
import type { BodySummary } from '../describeBody';
import { parseStl, writeBinaryStl } from './stl';

/** An axis-aligned box a x b x c at the origin: 8 corners, 12 triangles wound outward. */
function boxMesh(a: number, b: number, c: number): TriMesh {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) positions.push(i & 1 ? a : 0, i & 2 ? b : 0, i & 4 ? c : 0);
  // Corner i has x bit 1, y bit 2, z bit 4. Each quad listed counter-clockwise seen from outside.
  const quads = [
    [0, 2, 3, 1], // z = 0, normal -z
    [4, 5, 7, 6], // z = c, normal +z
    [0, 1, 5, 4], // y = 0, normal -y
    [2, 6, 7, 3], // y = b, normal +y
    [0, 4, 6, 2], // x = 0, normal -x
    [1, 3, 7, 5], // x = a, normal +x
  ];
  const indices: number[] = [];
  for (const [p, q, r, s] of quads) indices.push(p!, q!, r!, p!, r!, s!);
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}

/** A hand-written ASCII STL of the unit right tetrahedron (volume 1/6), CRLF line ends, mixed case and exponents. */
const TETRA_ASCII = [
  'solid tetra',
  '  facet normal 0 0 -1',
  '    outer loop',
  '      vertex 0 0 0',
  '      vertex 0 1 0',
  '      vertex 1 0 0',
  '    endloop',
  '  endfacet',
  '  facet normal 0 -1 0',
  '    outer loop',
  '      vertex 0 0 0',
  '      vertex 1.0e+000 0 0',
  '      vertex 0 0 1',
  '    endloop',
  '  endfacet',
  '  FACET NORMAL -1 0 0',
  '    OUTER LOOP',
  '      VERTEX 0 0 0',
  '      VERTEX 0 0 1E0',
  '      VERTEX 0 1 0',
  '    ENDLOOP',
  '  ENDFACET',
  '  facet normal 0.577 0.577 0.577',
  '    outer loop',
  '      vertex 1 0 0',
  '      vertex 0 1 0',
  '      vertex 0 0 1.000',
  '    endloop',
  '  endfacet',
  'endsolid tetra',
  '',
].join('\r\n');

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');

describe('parseStl', () => {
  it('binary: a 2 x 3 x 4 box has 12 triangles and welds to its 8 corners', () => {
    const stl = writeBinaryStl(boxMesh(2, 3, 4));
    expect(stl.byteLength).toBe(84 + 12 * 50);
    const mesh = parseStl(stl, 'box.stl');
    expect(mesh.indices.length / 3).toBe(12);
    expect(mesh.positions.length / 3).toBe(8);
    // Every corner of the box, each exactly once.
    const corners = new Set<string>();
    for (let v = 0; v < 8; v++) corners.add([mesh.positions[v * 3], mesh.positions[v * 3 + 1], mesh.positions[v * 3 + 2]].join(','));
    const expected = new Set<string>();
    for (let i = 0; i < 8; i++) expected.add([i & 1 ? 2 : 0, i & 2 ? 3 : 0, i & 4 ? 4 : 0].join(','));
    expect(corners).toEqual(expected);
  });

  it('binary: winding is kept (triangle corners in file order)', () => {
    const source = boxMesh(1, 1, 1);
    const mesh = parseStl(writeBinaryStl(source));
    for (let t = 0; t < 12; t++) {
      for (let k = 0; k < 3; k++) {
        const got = mesh.indices[t * 3 + k]! * 3;
        const want = source.indices[t * 3 + k]! * 3;
        expect([mesh.positions[got], mesh.positions[got + 1], mesh.positions[got + 2]]).toEqual([
          source.positions[want],
          source.positions[want + 1],
          source.positions[want + 2],
        ]);
      }
    }
  });

  it('ASCII: the hand-written tetrahedron has 4 triangles and 4 welded vertices', () => {
    const mesh = parseStl(new TextEncoder().encode(TETRA_ASCII), 'tetra.stl');
    expect(mesh.indices.length / 3).toBe(4);
    expect(mesh.positions.length / 3).toBe(4);
    expect([...mesh.positions].sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
  });

  it('-0 and 0 weld to one vertex', () => {
    const text = TETRA_ASCII.replace('vertex 0 0 0\r\n      vertex 0 1 0', 'vertex -0 -0 -0\r\n      vertex 0 1 0');
    expect(text).not.toBe(TETRA_ASCII);
    expect(parseStl(new TextEncoder().encode(text)).positions.length / 3).toBe(4);
  });

  it('refuses empty, truncated and non-STL input with stable codes', () => {
    const stl = writeBinaryStl(boxMesh(1, 1, 1));
    expect(() => parseStl(new Uint8Array(0))).toThrow(expect.objectContaining({ code: 'EMPTY_FILE' }));
    expect(() => parseStl(stl.subarray(0, stl.byteLength - 7))).toThrow(expect.objectContaining({ code: 'PARSE_FAILED' }));
    expect(() => parseStl(stl.subarray(0, 50))).toThrow(expect.objectContaining({ code: 'PARSE_FAILED' }));
    const cut = TETRA_ASCII.slice(0, TETRA_ASCII.indexOf('vertex 0 0 1.000'));
    expect(() => parseStl(new TextEncoder().encode(cut))).toThrow(expect.objectContaining({ code: 'PARSE_FAILED' }));
    expect(() => parseStl(new TextEncoder().encode('solid empty\nendsolid empty\n'))).toThrow(expect.objectContaining({ code: 'EMPTY_MESH' }));
    const nan = TETRA_ASCII.replace('vertex 0 1 0', 'vertex 0 nan 0');
    expect(() => parseStl(new TextEncoder().encode(nan))).toThrow(expect.objectContaining({ code: 'PARSE_FAILED' }));
  });

  it('a small truncated binary STL whose header starts with "solid" is PARSE_FAILED, not an empty ASCII mesh', () => {
    const stl = writeBinaryStl(boxMesh(1, 1, 1), 'solid written by a CAD exporter');
    expect(parseStl(stl).indices.length / 3).toBe(12);
    expect(() => parseStl(stl.subarray(0, 84 + 5 * 50 + 10))).toThrow(expect.objectContaining({ code: 'PARSE_FAILED' }));
  });
});

describe('STL bodies through import_file', () => {
  it('binary box: a watertight mesh body with the box volume, area and counts', async () => {
    const engine = testEngine();
    const body = (await engine.run('import_file', { bytes: b64(writeBinaryStl(boxMesh(2, 3, 4))), fileName: 'box.stl' })).result as BodySummary;
    expect(body).toMatchObject({ bodyId: 'box', kind: 'mesh', sourceFormat: 'stl', valid: true, faces: 12, triangles: 12, vertices: 8, edges: 18, watertight: true });
    const m = (await engine.run('compute_metrics', { bodyId: 'box', metrics: ['volume', 'surfaceArea'] })).result as MetricsResult;
    expect(m.volume).toBeCloseTo(24, 12);
    expect(m.surfaceArea).toBeCloseTo(2 * (6 + 8 + 12), 12);
  });

  it('ASCII tetrahedron: volume 1/6, Euler characteristic 2', async () => {
    const engine = testEngine();
    const body = (await engine.run('import_file', { bytes: b64(TETRA_ASCII), fileName: 'tetra.stl' })).result as BodySummary;
    expect(body).toMatchObject({ kind: 'mesh', triangles: 4, vertices: 4, edges: 6, watertight: true, valid: true });
    expect(body.vertices - body.edges + body.faces).toBe(2);
    const m = (await engine.run('compute_metrics', { bodyId: body.bodyId, metrics: ['volume', 'centerOfMass'] })).result as MetricsResult;
    expect(m.volume).toBeCloseTo(1 / 6, 14);
    expect(m.centerOfMass![0]).toBeCloseTo(0.25, 14);
  });

  it.each(['occt/shape.stl', 'occt/sh1.stl'])('%s loads as a mesh body with the file\'s facet count and distinct corners', async (file) => {
    const engine = testEngine();
    const body = (await engine.run('import_file', { path: dataPath(file) })).result as BodySummary;
    // Independent counts from the text: one "facet normal" per triangle; distinct vertex lines after number parsing.
    const text = readFileSync(dataPath(file), 'latin1');
    const facets = (text.match(/facet\s+normal/gi) ?? []).length;
    const corners = new Set<string>();
    for (const m of text.matchAll(/vertex\s+(\S+)\s+(\S+)\s+(\S+)/gi)) corners.add([Number(m[1]), Number(m[2]), Number(m[3])].join(','));
    expect(facets).toBeGreaterThan(0);
    expect(body).toMatchObject({ kind: 'mesh', sourceFormat: 'stl', triangles: facets, faces: facets, vertices: corners.size });
  });
});
