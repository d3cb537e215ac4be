import { describe, expect, it } from 'vitest';
import { settle } from '../../errors';
import { MAX_LINE_BYTES } from './linePieces';
import { readObjPieces } from './obj';
import { readPlyPieces } from './ply';
import { readPointTextPieces } from './pointText';
import { readStlPieces, type FilePieces } from './stl';

/**
 * Bad-input sweep: a multi-GB file that is no text (a sparse file of zeros, binary data under a .obj,
 * .xyz or .ply name) was gathered whole in memory before the reader judged it, so import_file ran
 * past the host's deadline (TIMEOUT at 60 s on 3 GB of zeros). Here the file is a generator of 1 MiB
 * pieces claiming 3 GiB, and the count of pieces pulled says how far a reader got.
 */
const PIECE = 2 ** 20;
const SIZE = 3 * 2 ** 30;

function generated(fill: number): { file: FilePieces; pulled: () => number } {
  let pulled = 0;
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < SIZE; at += PIECE) {
      pulled++;
      yield new Uint8Array(PIECE).fill(fill);
    }
  }
  return { file: { size: SIZE, pieces: pieces() }, pulled: () => pulled };
}

describe('a huge file that is no text is refused from its head', () => {
  const zeros = [
    { name: 'zeros.obj', read: readObjPieces, message: 'zeros.obj: byte 0 is NUL: binary data, not a text OBJ file' },
    { name: 'zeros.xyz', read: readPointTextPieces, message: 'zeros.xyz: byte 0 is NUL: binary data, not a text point file' },
    { name: 'zeros.ply', read: readPlyPieces, message: 'zeros.ply: not a PLY file (it does not start with "ply")' },
  ];
  for (const { name, read, message } of zeros) {
    for (const signature of [true, false]) {
      it(`${name} of 3 GiB of zeros (format ${signature ? 'from the name' : 'requested'}): PARSE_FAILED after the first pieces`, async () => {
        const { file, pulled } = generated(0);
        const outcome = await settle(read(file, name, signature));
        expect(outcome).toEqual({ ok: false, error: { code: 'PARSE_FAILED', message } });
        expect(pulled()).toBeLessThanOrEqual(2);
      });
    }
  }

  it('a text file with no line end: PARSE_FAILED once a line passes MAX_LINE_BYTES, not after 3 GiB', async () => {
    for (const [name, read, kind] of [['long.obj', readObjPieces, 'OBJ'], ['long.xyz', readPointTextPieces, 'point']] as const) {
      const { file, pulled } = generated(0x31); // '1'
      const outcome = await settle(read(file, name, true));
      expect(outcome).toEqual({ ok: false, error: { code: 'PARSE_FAILED', message: `${name}: the line at byte 0 runs over 64 MiB without a line end (not a text ${kind} file)` } });
      expect(pulled()).toBe(MAX_LINE_BYTES / PIECE + 1);
    }
  });
});

describe('NUL bytes after lines of data are left to the readers, as before', () => {
  it('an .xyz of two points and NUL padding: the reader names the line, not the head check', async () => {
    const bytes = new TextEncoder().encode('1 2 3\n4 5 6\n\0\0\0\0');
    const outcome = await settle(readPointTextPieces({ size: bytes.length, pieces: (async function* () { yield bytes; })() }, 'padded.xyz', true));
    expect(outcome).toEqual({ ok: false, error: { code: 'PARSE_FAILED', message: "padded.xyz: line 3: '????' is not a finite number at byte 12" } });
  });
});

describe('a huge .stl that is neither binary STL of its size nor ASCII', () => {
  it('3 GiB of zeros: the whole-file error (0 triangles announced) from the head, not after gathering 3 GiB', async () => {
    const { file, pulled } = generated(0);
    const outcome = await settle(readStlPieces(file, 'zeros.stl'));
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'PARSE_FAILED', message: `zeros.stl: not an STL: binary header announces 0 triangles (84 bytes) but the file has ${SIZE} bytes, and it is not ASCII STL` },
    });
    expect(pulled()).toBe(1);
  });

  it('3 GiB of zeros read as STL by request, whatever its name: the same error after the first piece', async () => {
    const { file, pulled } = generated(0);
    const outcome = await settle(readStlPieces(file, 'zeros.step', { requested: true }));
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'PARSE_FAILED', message: `zeros.step: not an STL: binary header announces 0 triangles (84 bytes) but the file has ${SIZE} bytes, and it is not ASCII STL` },
    });
    expect(pulled()).toBe(1);
  });
});
