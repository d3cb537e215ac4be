import { SIGNATURE_BYTES } from './detectFormat';
import { firstBytes, readHead } from './firstBytes';
import { isHeadOf } from './linePieces';
import type { FilePieces } from './stl';
import { refuseNonZipHead } from './threeMf';

/**
 * A 3MF file gathered whole as it streams by (a zip is read from its end, so it needs every byte),
 * but judged by its head first: a file the importer would read as 3MF (`requested`, or no other
 * format's signature claims its first bytes) that is no zip is refused with parse3mf's error then,
 * not after a multi-GB file was gathered (3 GiB of zeros took 7 to 12 s and 3 GiB of memory).
 */
export async function read3mfPieces(file: FilePieces, name: string, requested: boolean): Promise<Uint8Array> {
  const iterator = file.pieces[Symbol.asyncIterator]();
  try {
    const { first, length } = await readHead(iterator, Math.min(file.size, SIGNATURE_BYTES));
    const head = firstBytes(first, SIGNATURE_BYTES);
    if (file.size > 0 && (requested || isHeadOf('3mf', head, file.size, name))) refuseNonZipHead(head, name);
    const whole = new Uint8Array(Math.max(file.size, length));
    let at = 0;
    for (const piece of first) {
      whole.set(piece, at);
      at += piece.byteLength;
    }
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      // A file that grew while read is read to its size when opened.
      const n = Math.min(next.value.byteLength, whole.byteLength - at);
      whole.set(next.value.subarray(0, n), at);
      at += n;
      if (n < next.value.byteLength) break;
    }
    return whole.subarray(0, at);
  } finally {
    await iterator.return?.();
  }
}

