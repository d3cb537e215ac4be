import type { SourceFormat } from '../Body';
import { BrepscopeError } from '../../errors';
import { resolveFormat, SIGNATURE_BYTES } from './detectFormat';
import { readHead } from './firstBytes';
import type { FilePieces } from './stl';
import { refuseCarriageReturnLines } from './textScanner';

const NL = 10;
/**
 * The longest line carried over between pieces. OBJ and point lines are short (a face of a
 * million corners is under 16 MiB); without a bound, a multi-GB file with no line end (sparse zeros,
 * a binary file named .obj) was gathered whole in memory before anything judged it.
 */
export const MAX_LINE_BYTES = 64 * 2 ** 20;

/**
 * A line-based text file (OBJ, a text point cloud) read piece by piece as it streams by (pieces of
 * any size, a line may straddle two): each run of whole lines goes to `read` with its byte offset
 * in the file, the partial last line carried over to the next piece, so the file is never whole in
 * memory; the last line reaches `read` even without its newline. When `signature` (no format was
 * requested), a file whose head resolveFormat judges another format than `format` is gathered whole
 * and returned as bytes, for the importer to read as it reads any file; so is an empty file.
 * Returns undefined when every line was read.
 */
export async function readLinePieces(
  file: FilePieces,
  name: string,
  format: SourceFormat,
  signature: boolean,
  read: (lines: Uint8Array, base: number) => void,
): Promise<{ bytes: Uint8Array } | undefined> {
  const iterator = file.pieces[Symbol.asyncIterator]();
  try {
    // The head resolveFormat judges (its first SIGNATURE_BYTES), when a signature is to be judged.
    const { first, length: firstLength } = await readHead(iterator, Math.min(file.size, SIGNATURE_BYTES), signature);
    const head = concat(first, firstLength);
    if (file.size === 0 || (signature && !isHeadOf(format, head, file.size, name))) return { bytes: await gatherRest(head, iterator) };
    refuseBinaryHead(head, name, format);
    let carry: Uint8Array[] = [];
    let carryLength = 0;
    let base = 0;
    const take = (piece: Uint8Array): void => {
      const lastNewline = piece.lastIndexOf(NL);
      if (lastNewline < 0) {
        carry.push(piece.slice());
        carryLength += piece.length;
        if (carryLength > MAX_LINE_BYTES) {
          throw new BrepscopeError('PARSE_FAILED', `${name}: the line at byte ${base} runs over ${MAX_LINE_BYTES / 2 ** 20} MiB without a line end (not a text ${format === 'obj' ? 'OBJ' : 'point'} file)`);
        }
        return;
      }
      const lines = piece.subarray(0, lastNewline + 1);
      const chunk = carryLength === 0 ? lines : concat([...carry, lines], carryLength + lines.length);
      read(chunk, base);
      base += chunk.length;
      const rest = piece.slice(lastNewline + 1);
      carry = [rest];
      carryLength = rest.length;
    };
    take(head);
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      take(next.value);
    }
    if (carryLength > 0) read(concat(carry, carryLength), base);
    return undefined;
  } finally {
    await iterator.return?.();
  }
}

/**
 * A NUL byte in the first line (or the head, when no line ends in it) is binary data, not text
 * (UTF-16 gets its own message): refused at once, where the readers found out only after the whole
 * file, for a multi-GB file of zeros past any deadline. NUL padding after lines of data stays the
 * readers' to judge.
 */
function refuseBinaryHead(head: Uint8Array, name: string, format: SourceFormat): void {
  const lineEnd = head.indexOf(NL);
  const nul = head.subarray(0, lineEnd < 0 ? head.length : lineEnd).indexOf(0);
  if (nul < 0) return;
  refuseCarriageReturnLines(head, name);
  throw new BrepscopeError('PARSE_FAILED', `${name}: byte ${nul} is NUL: binary data, not a text ${format === 'obj' ? 'OBJ' : 'point'} file`);
}

/** Whether a file read without a requested format is `format` by its head, as resolveFormat judges the whole file. */
export function isHeadOf(format: SourceFormat, head: Uint8Array, size: number, name: string): boolean {
  // A binary STL is known by its size, which the head alone does not give.
  if (size >= 84 && head.length >= 84 && 84 + new DataView(head.buffer, head.byteOffset + 80, 4).getUint32(0, true) * 50 === size) return false;
  try {
    return resolveFormat(name, head) === format;
  } catch {
    return false;
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0]!.length === length) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function gatherRest(head: Uint8Array, iterator: AsyncIterator<Uint8Array>): Promise<Uint8Array> {
  const parts = [head];
  let length = head.length;
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    parts.push(next.value.slice());
    length += next.value.length;
  }
  return concat(parts, length);
}
