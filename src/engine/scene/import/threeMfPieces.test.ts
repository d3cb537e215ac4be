import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { settle } from '../../errors';
import { errorOf, piecesOf } from '../../../test/streamedPieces';
import type { FilePieces } from './stl';
import { parse3mf } from './threeMf';
import { read3mfPieces } from './threeMfPieces';

const PIECE = 2 ** 20;
const SIZE = 3 * 2 ** 30;

/** 3 GiB of zeros in 1 MiB pieces, counting the pieces pulled. */
function zeros(): { file: FilePieces; pulled: () => number } {
  let pulled = 0;
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < SIZE; at += PIECE) {
      pulled++;
      yield new Uint8Array(PIECE);
    }
  }
  return { file: { size: SIZE, pieces: pieces() }, pulled: () => pulled };
}

/**
 * Bad-input sweep: a 3 GiB file of zeros named .3mf was read whole (7 to 12 s, 3 GiB of memory)
 * before the zip reader found no end record in it.
 */
describe('a streamed 3MF is judged by its head', () => {
  const message = "zeros.3mf: not a readable 3MF package (a 3MF is a zip, which starts with 'PK'; this file starts with '????????')";

  for (const requested of [false, true]) {
    it(`3 GiB of zeros (format ${requested ? 'requested' : 'from the name'}): PARSE_FAILED after the first piece`, async () => {
      const { file, pulled } = zeros();
      expect(await settle(read3mfPieces(file, 'zeros.3mf', requested))).toEqual({ ok: false, error: { code: 'PARSE_FAILED', message } });
      expect(pulled()).toBe(1);
    });
  }

  it('the whole-file reader gives the same error for the same head', () => {
    expect(errorOf(() => parse3mf(new Uint8Array(5000), 'zeros.3mf'))).toMatchObject({ code: 'PARSE_FAILED', message });
  });

  it('a 3MF comes back whole, byte for byte, in pieces of any size; so does another format under a .3mf name', async () => {
    const zip = zipSync({ '3D/3dmodel.model': strToU8(`<model>${' '.repeat(9000)}</model>`) }, { level: 0 });
    const step = strToU8(`ISO-10303-21;\nHEADER;\n${'/* pad */\n'.repeat(500)}ENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n`);
    for (const size of [1, 100, 4096, 2 ** 20]) {
      expect(await read3mfPieces(piecesOf(zip, size), 'a.3mf', false)).toEqual(zip);
      expect(await read3mfPieces(piecesOf(step, size), 's.3mf', false)).toEqual(step);
    }
    // Asked for as 3MF, the STEP is no zip: refused as parse3mf refuses it.
    expect(await settle(read3mfPieces(piecesOf(step, 100), 's.3mf', true))).toEqual({ ok: false, error: { code: 'PARSE_FAILED', message: "s.3mf: not a readable 3MF package (a 3MF is a zip, which starts with 'PK'; this file starts with 'ISO-1030')" } });
  });
});
