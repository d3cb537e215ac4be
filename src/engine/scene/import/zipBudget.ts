import { Inflate } from 'fflate';
import { BrepscopeError } from '../../errors';

/**
 * What a zip (a 3MF package) may inflate to. A zip declares any size it likes and deflate reaches
 * 1032:1, so a 10 MB file can stand for 10 GB: everything is judged from the central directory
 * before one byte is inflated, and again while inflating, against what was declared.
 */
export interface ZipLimits {
  /** Uncompressed bytes of one entry. */
  entryBytes: number;
  /** Uncompressed bytes of all the entries read, together. */
  totalBytes: number;
  /**
   * Uncompressed over compressed size of a deflated entry. Deflate's own ceiling is 1032:1, reached
   * by runs of one byte (what zip bombs hold); mesh XML, mostly decimal numbers, compresses 3:1 to
   * 20:1 (a 3MF written by our writer: about 4:1).
   */
  ratio: number;
}

export const ZIP_LIMITS: ZipLimits = { entryBytes: 1.5 * 2 ** 30, totalBytes: 1.5 * 2 ** 30, ratio: 250 };

/** Deflate input handed to the inflater at a time: at most 1032 times this comes out of one push. */
const CHUNK = 16 * 1024;

interface Entry {
  name: string;
  method: number;
  compressed: number;
  declared: number;
  /** Offset of the local header. */
  offset: number;
}

/**
 * The entries `wanted` picks, inflated, by name. Refused with FILE_TOO_LARGE, in milliseconds, when
 * what they declare is over `limits` (one entry, their sum, or a ratio no real file has); with
 * PARSE_FAILED when an entry inflates past what it declared (the declaration was a lie, and the rest
 * of the stream is not inflated) or the zip is damaged.
 */
export function unzipWithin(
  bytes: Uint8Array,
  name: string,
  wanted: (entry: string) => boolean,
  kind = 'zip package',
  limits: ZipLimits = ZIP_LIMITS,
  /** Told the declared total before anything is inflated (the engine's memory budget: importLimits.ts). */
  checkDeclared?: (total: number) => void,
): Map<string, Uint8Array> {
  const entries = centralDirectory(bytes, name, kind).filter((e) => wanted(e.name));
  const mib = (n: number): string => `${(n / 2 ** 20).toFixed(0)} MiB`;
  let total = 0;
  for (const e of entries) {
    if (e.declared > limits.entryBytes) throw new BrepscopeError('FILE_TOO_LARGE', `${name}: the zip entry ${e.name} declares ${mib(e.declared)} uncompressed, over the ${mib(limits.entryBytes)} limit of one entry`);
    if (e.method === 8 && e.declared > limits.ratio * Math.max(e.compressed, 1)) {
      throw new BrepscopeError('FILE_TOO_LARGE', `${name}: the zip entry ${e.name} declares ${e.declared} bytes from ${e.compressed} compressed, a ratio over ${limits.ratio}:1 (a zip bomb?)`);
    }
    total += e.declared;
  }
  if (total > limits.totalBytes) throw new BrepscopeError('FILE_TOO_LARGE', `${name}: the zip entries read declare ${mib(total)} uncompressed together, over the ${mib(limits.totalBytes)} limit`);
  checkDeclared?.(total);
  return new Map(entries.map((e) => [e.name, inflateEntry(bytes, name, kind, e)]));
}

function inflateEntry(bytes: Uint8Array, name: string, kind: string, e: Entry): Uint8Array {
  const bad = (what: string): BrepscopeError => new BrepscopeError('PARSE_FAILED', `${name}: not a readable ${kind} (${e.name}: ${what})`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (e.offset + 30 > bytes.length || view.getUint32(e.offset, true) !== 0x04034b50) throw bad('no local header where the directory says');
  const start = e.offset + 30 + view.getUint16(e.offset + 26, true) + view.getUint16(e.offset + 28, true);
  const end = start + e.compressed;
  if (end > bytes.length) throw bad('its data runs past the end of the file');
  const data = bytes.subarray(start, end);
  if (e.method === 0) {
    if (e.compressed !== e.declared) throw bad(`stored with ${e.compressed} bytes but declares ${e.declared}`);
    return data.slice();
  }
  if (e.method !== 8) throw bad(`compression method ${e.method} is not supported (only stored and deflate)`);
  const out = new Uint8Array(e.declared);
  let written = 0;
  let ended = false;
  const inflater = new Inflate((chunk, final) => {
    if (written + chunk.length > e.declared) throw bad(`it inflates past the ${e.declared} bytes it declares`);
    out.set(chunk, written);
    written += chunk.length;
    if (final) ended = true;
  });
  try {
    for (let p = 0; p < data.length && !ended; p += CHUNK) inflater.push(data.subarray(p, Math.min(p + CHUNK, data.length)), p + CHUNK >= data.length);
  } catch (err) {
    if (err instanceof BrepscopeError) throw err;
    throw bad(`deflate: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (written !== e.declared) throw bad(`it inflates to ${written} bytes but declares ${e.declared}`);
  return out;
}

/** The central directory's entries (zip64 sizes and offsets read from their extra field). */
function centralDirectory(bytes: Uint8Array, name: string, kind: string): Entry[] {
  const bad = (what: string): BrepscopeError => new BrepscopeError('PARSE_FAILED', `${name}: not a readable ${kind} (${what})`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw bad('no end of central directory record: truncated?');
  let count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  // Zip64: the locator just before the record points at the zip64 end record, which holds the real count and offset.
  if ((count === 0xffff || at === 0xffffffff) && eocd >= 20 && view.getUint32(eocd - 20, true) === 0x07064b50) {
    const z = Number(view.getBigUint64(eocd - 12, true));
    if (z + 56 > bytes.length || view.getUint32(z, true) !== 0x06064b50) throw bad('the zip64 end record is not where its locator says');
    count = Number(view.getBigUint64(z + 32, true));
    at = Number(view.getBigUint64(z + 48, true));
  }
  const entries: Entry[] = [];
  const decoder = new TextDecoder();
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw bad(`central directory entry ${k} is damaged`);
    const nameLength = view.getUint16(at + 28, true), extraLength = view.getUint16(at + 30, true), commentLength = view.getUint16(at + 32, true);
    const entry: Entry = {
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressed: view.getUint32(at + 20, true),
      declared: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
    };
    // Zip64 extra field (id 1): 8-byte values, in this order, for each field above set to 0xffffffff.
    for (let x = at + 46 + nameLength, xEnd = x + extraLength; x + 4 <= xEnd && x + 4 <= bytes.length; ) {
      const id = view.getUint16(x, true), size = view.getUint16(x + 2, true);
      if (id === 1) {
        let v = x + 4;
        const next = (): number => {
          if (v + 8 > x + 4 + size || v + 8 > bytes.length) throw bad(`the zip64 field of ${entry.name} is short`);
          const value = Number(view.getBigUint64(v, true));
          v += 8;
          return value;
        };
        if (entry.declared === 0xffffffff) entry.declared = next();
        if (entry.compressed === 0xffffffff) entry.compressed = next();
        if (entry.offset === 0xffffffff) entry.offset = next();
      }
      x += 4 + size;
    }
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
