import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { uvSphere } from '../../mesh/generators';
import type { MeshBody } from '../Body';
import { testEngine } from '../../../test/testEngine';
import { BinaryStlReader, parseStl, readStlPieces, writeBinaryStl, type FilePieces } from './stl';

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

/** The bytes as a file in pieces of the given sizes (cycled), each piece a view of one reused buffer, as a host streams. */
function piecesOf(bytes: Uint8Array, sizes: number[]): FilePieces {
  return {
    size: bytes.byteLength,
    pieces: (async function* () {
      const buffer = new Uint8Array(Math.max(...sizes));
      for (let at = 0, i = 0; at < bytes.byteLength; i++) {
        const n = Math.min(sizes[i % sizes.length]!, bytes.byteLength - at);
        buffer.set(bytes.subarray(at, at + n));
        buffer.fill(0xff, n); // what a reused buffer holds past the piece must never be read
        yield buffer.subarray(0, n);
        at += n;
      }
    })(),
  };
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

  it('hands back the bytes of anything that is not a binary STL of its size (an ASCII STL), whole', async () => {
    const text = new TextEncoder().encode('solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n');
    const read = await readStlPieces(piecesOf(text, [5]), 't.stl');
    expect(read).toEqual({ bytes: text });
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

  it('keeps the bytes of bytes handed over (a restore, the browser): the host cannot read them again', async () => {
    const bytes = writeBinaryStl(uvSphere(2, 8, 4));
    const engine = testEngine();
    await engine.load({ path: join(dir, 'not-on-disk.stl'), bodyId: 'h', bytes });
    expect(engine.scene.get('h').origin!.bytes).toBe(bytes);
  });
});
