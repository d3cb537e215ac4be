import { BrepscopeError } from '../../errors';
import type { TriMesh } from '../../mesh/TriMesh';
import { hashWords } from '../../mesh/weld';
import { AsciiStlReader } from './asciiStl';
import { resolveFormat, SIGNATURE_BYTES } from './detectFormat';
import { firstBytes } from './firstBytes';
import { checkImportMemory } from './importLimits';
import { byteOrderMark } from './textScanner';

/** What reading one binary STL triangle takes at most (BinaryStlReader: indices, vertex bits grown, table, positions), for the memory budget. */
const STL_BYTES_PER_TRIANGLE = 36 + 12 + 24 + 36;

const HEADER_BYTES = 84;
const RECORD_BYTES = 50;
/** The bytes looksLikeAsciiStl judges a file by. */
const ASCII_HEAD_BYTES = 1024;

/**
 * Parses a binary or ASCII STL into a welded TriMesh: corners with bit-identical coordinates
 * become one vertex, so the mesh has the facet-shell topology the spec describes (vertices are the
 * mesh corner points). Facet normals in the file are ignored; winding defines orientation.
 * `shared`: the mesh's arrays in SharedArrayBuffers, for a host that hands the mesh to other
 * threads (the CLI: to the engine thread, which shares it with its mesh threads) without a copy.
 */
export function parseStl(bytes: Uint8Array, name = 'STL', options: { shared?: boolean } = {}): TriMesh {
  if (bytes.byteLength === 0) throw new BrepscopeError('EMPTY_FILE', `${name}: the file is empty`);
  const binaryCount = bytes.byteLength >= HEADER_BYTES ? new DataView(bytes.buffer, bytes.byteOffset + 80, 4).getUint32(0, true) : -1;
  if (binaryCount >= 0 && HEADER_BYTES + binaryCount * RECORD_BYTES === bytes.byteLength) {
    return readBinaryWelded(bytes, binaryCount, name, options.shared === true);
  }
  if (looksLikeAsciiStl(bytes, bytes.byteLength)) {
    const reader = new AsciiStlReader(name, options.shared === true);
    reader.push(bytes);
    return reader.finish();
  }
  throw notAnStl(name, binaryCount, bytes.byteLength);
}

/** Why a file of `size` bytes whose header announces `binaryCount` triangles (-1: no header) and that is not ASCII STL is no STL. */
function notAnStl(name: string, binaryCount: number, size: number): BrepscopeError {
  if (binaryCount >= 0) {
    const need = HEADER_BYTES + binaryCount * RECORD_BYTES;
    return new BrepscopeError(
      'PARSE_FAILED',
      need > size
        ? `${name}: truncated binary STL: the header announces ${binaryCount} triangles (${need} bytes) but the file has ${size} bytes`
        : (size - HEADER_BYTES) % RECORD_BYTES === 0
          ? // Whole records, more than announced: which count is true is unknown (a writer that never set it, or a damaged file), so neither is guessed.
            `${name}: binary STL: the header announces ${binaryCount} triangles but the file holds ${(size - HEADER_BYTES) / RECORD_BYTES} (${size} bytes); a count that disagrees with the file is refused (export the file again)`
          : `${name}: not an STL: binary header announces ${binaryCount} triangles (${need} bytes) but the file has ${size} bytes, and it is not ASCII STL`,
    );
  }
  return new BrepscopeError('PARSE_FAILED', `${name}: not an STL: ${size} bytes is shorter than a binary STL header and the text is not ASCII STL`);
}

/** Whether resolveFormat takes a file with this name and head for an STL. */
function headIsStl(name: string, head: Uint8Array): boolean {
  try {
    return resolveFormat(name, head) === 'stl';
  } catch {
    return false;
  }
}

/** A file read piece by piece: its size, then its bytes in order, each piece valid until the next is asked for. */
export interface FilePieces {
  size: number;
  pieces: AsyncIterable<Uint8Array>;
}

/**
 * An STL that streams by, read piece by piece as it arrives (BinaryStlReader, AsciiStlReader): the
 * same mesh and the same errors parseStl gives for the whole file, which is never whole in memory.
 * A file that is no STL is refused with parseStl's error from its head when the importer would
 * read it as STL anyway (`requested`: the format was asked for; else no other format's signature
 * claims its head); anything else (another format under an .stl name) is gathered whole and
 * returned as bytes, for the importer to read as it reads any file.
 */
export async function readStlPieces(
  file: FilePieces,
  name = 'STL',
  options: { shared?: boolean; requested?: boolean } = {},
): Promise<{ mesh: TriMesh } | { bytes: Uint8Array }> {
  const iterator = file.pieces[Symbol.asyncIterator]();
  try {
    // The binary header, and the head by which parseStl tells ASCII STL.
    const head = new Uint8Array(Math.min(file.size, ASCII_HEAD_BYTES));
    let filled = 0;
    let rest: Uint8Array | undefined;
    // At least one piece is asked for, so that a file source starts (and closes its file) even when empty.
    for (let asked = false; !asked || filled < head.length; asked = true) {
      const next = await iterator.next();
      if (next.done) break;
      const take = Math.min(head.length - filled, next.value.byteLength);
      head.set(next.value.subarray(0, take), filled);
      filled += take;
      if (take < next.value.byteLength) rest = next.value.subarray(take);
    }
    const count = filled >= HEADER_BYTES ? new DataView(head.buffer, 80, 4).getUint32(0, true) : -1;
    const reader =
      count >= 0 && HEADER_BYTES + count * RECORD_BYTES === file.size
        ? new BinaryStlReader(count, name, options.shared === true)
        : filled === head.length && looksLikeAsciiStl(head, file.size)
          ? new AsciiStlReader(name, options.shared === true)
          : undefined;
    if (reader) {
      reader.push(head.subarray(0, filled));
      if (rest) reader.push(rest);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) reader.push(next.value);
      return { mesh: reader.finish() };
    }
    // No STL (neither a binary one of this size nor ASCII). When the format was asked for, or no other
    // format's signature claims the head resolveFormat judges, the whole-file path would read it as
    // STL and refuse it just so: refused now, not after gathering a multi-GB file (a sparse file of
    // zeros ran past the deadline). A file shorter than its size said is left to the whole-file path.
    if (file.size > 0 && filled === head.length && options.requested === true) throw notAnStl(name, count, file.size);
    const more: Uint8Array[] = rest ? [rest.slice()] : [];
    let seen = filled + (rest?.byteLength ?? 0);
    const signatureBytes = Math.min(file.size, SIGNATURE_BYTES);
    while (seen < signatureBytes) {
      const next = await iterator.next();
      if (next.done) break;
      more.push(next.value.slice());
      seen += next.value.byteLength;
    }
    if (file.size > 0 && filled === head.length && seen >= signatureBytes && headIsStl(name, firstBytes([head.subarray(0, filled), ...more], signatureBytes))) {
      throw notAnStl(name, count, file.size);
    }
    // Another format under an .stl name: read whole.
    const whole = new Uint8Array(file.size);
    whole.set(head.subarray(0, filled));
    let at = filled;
    const append = (piece: Uint8Array): void => {
      const take = Math.min(piece.byteLength, whole.byteLength - at);
      whole.set(piece.subarray(0, take), at);
      at += take;
    };
    for (const piece of more) append(piece);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) append(next.value);
    return { bytes: whole.subarray(0, at) };
  } finally {
    await iterator.return?.();
  }
}

/**
 * ASCII STL starts with `solid`, but so do many binary STL headers: a NUL byte (binary header padding
 * or float data) rules text out, so a truncated binary file is reported as such, not as an empty mesh.
 */
function looksLikeAsciiStl(bytes: Uint8Array, size: number): boolean {
  const start = bytes.subarray(byteOrderMark(bytes), Math.min(bytes.byteLength, ASCII_HEAD_BYTES));
  if (start.includes(0)) return false;
  const head = new TextDecoder('latin1').decode(start).trimStart().toLowerCase();
  return head.startsWith('solid') && (size < ASCII_HEAD_BYTES || /facet|endsolid/.test(head));
}

/**
 * Reads a binary STL's corners and welds them in one pass over the file, keyed by the float32
 * bits of their coordinates (-0 folded into 0): the same mesh weldVertexIds makes from float64
 * copies, without 72 bytes a triangle of copies.
 */
function readBinaryWelded(bytes: Uint8Array, count: number, name: string, shared: boolean): TriMesh {
  const reader = new BinaryStlReader(count, name, shared);
  reader.push(bytes);
  return reader.finish();
}

/**
 * A binary STL read piece by piece, in order, as a file streams by (the header included; pieces
 * of any size, a record may straddle two): each piece's triangles are welded when it arrives and
 * nothing of it is kept, so the whole file is never in memory. The positions are the file's
 * float32 values, stored as float32 (Positions).
 */
export class BinaryStlReader {
  private readonly weld: BitsWeld;
  /** A record split between two pieces. */
  private readonly carry = new Uint8Array(RECORD_BYTES);
  private carried = 0;
  /** File bytes seen so far. */
  private seen = 0;
  /** Triangles welded so far. */
  private triangles = 0;

  constructor(
    readonly count: number,
    private readonly name: string,
    private readonly shared = false,
  ) {
    if (count === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the STL contains no triangles`);
    // Per triangle: corner bits and indices, the weld's table, the float32 positions (at most 3 vertices).
    checkImportMemory(count * STL_BYTES_PER_TRIANGLE, name, `the header declares ${count} triangles`);
    this.weld = new BitsWeld(3 * count, shared);
  }

  /** The next piece of the file (valid only during the call: nothing of it is kept). */
  push(piece: Uint8Array): void {
    let at = 0;
    if (this.seen < HEADER_BYTES) at = Math.min(piece.byteLength, HEADER_BYTES - this.seen);
    this.seen += piece.byteLength;
    if (this.carried > 0 && at < piece.byteLength) {
      const take = Math.min(RECORD_BYTES - this.carried, piece.byteLength - at);
      this.carry.set(piece.subarray(at, at + take), this.carried);
      this.carried += take;
      at += take;
      if (this.carried === RECORD_BYTES) {
        this.weldRecords(new DataView(this.carry.buffer), 1);
        this.carried = 0;
      }
    }
    const whole = Math.min(Math.floor((piece.byteLength - at) / RECORD_BYTES), this.count - this.triangles);
    if (whole > 0) {
      this.weldRecords(new DataView(piece.buffer, piece.byteOffset + at, whole * RECORD_BYTES), whole);
      at += whole * RECORD_BYTES;
    }
    const rest = Math.min(piece.byteLength - at, RECORD_BYTES - this.carried);
    if (rest > 0 && this.triangles < this.count) {
      this.carry.set(piece.subarray(at, at + rest), this.carried);
      this.carried += rest;
    }
  }

  /** The welded mesh; PARSE_FAILED when the pieces held fewer triangles than the header declares. */
  finish(): TriMesh {
    if (this.triangles < this.count) {
      const need = HEADER_BYTES + this.count * RECORD_BYTES;
      throw new BrepscopeError('PARSE_FAILED', `${this.name}: truncated binary STL: the header announces ${this.count} triangles (${need} bytes) but the file has ${this.seen} bytes`);
    }
    const V = this.weld.count[0]!;
    const floats = new Float32Array(this.weld.vertexBits.buffer, 0, 3 * V);
    const positions = this.shared ? new Float32Array(new SharedArrayBuffer(12 * V)) : new Float32Array(3 * V);
    positions.set(floats);
    return { positions, indices: this.weld.indices, distinctPositions: true };
  }

  private weldRecords(view: DataView, records: number): void {
    const first = 3 * this.triangles;
    const bad = this.weld.add(view, first, first + 3 * records);
    if (bad >= 0) throw new BrepscopeError('PARSE_FAILED', `${this.name}: coordinate ${'xyz'[bad % 3]} of corner ${Math.floor(bad / 3)} is not a finite number`);
    this.triangles += records;
  }
}

/**
 * Welding by float32 coordinate bits. Each hot loop lives in a function of its own: a parse runs
 * each loop once, so V8 compiles it on the fly, and code after such a loop in the same function
 * would run without feedback and deoptimise.
 */
class BitsWeld {
  readonly indices: Uint32Array;
  vertexBits: Uint32Array;
  table: Int32Array;
  /** Vertices so far, in a typed array: a property store after weldRun's loop would deoptimise it. */
  readonly count = new Int32Array(1);
  readonly recent = new Int32Array(RECENT_MASK + 1).fill(-1);

  constructor(corners: number, shared = false) {
    this.indices = shared ? new Uint32Array(new SharedArrayBuffer(4 * corners)) : new Uint32Array(corners);
    // A closed mesh has about one vertex per six corners; a soup one per corner: grow on demand.
    let cap = 16;
    while (cap < corners / 2) cap *= 2;
    this.table = new Int32Array(cap).fill(-1);
    this.vertexBits = new Uint32Array(3 * Math.max(16, cap >>> 2));
  }

  /**
   * Welds corners from .. to - 1, read from `view` (whose first record is corner from's triangle);
   * returns the first non-finite coordinate (3 corner + axis), or -1.
   */
  add(view: DataView, from: number, to: number): number {
    let c = from;
    while (c < to) {
      // Runs until the table or the vertex store needs to grow, which happens a few times at most.
      c = weldRun(view, from, c, to, this);
      if (c < 0) return -c - 1;
      if (c < to) this.grow();
    }
    return -1;
  }

  grow(): void {
    const count = this.count[0]!;
    if (3 * count === this.vertexBits.length) {
      const grown = new Uint32Array(2 * this.vertexBits.length);
      grown.set(this.vertexBits);
      this.vertexBits = grown;
    }
    if (2 * (count + 1) > this.table.length) this.table = rehash(this.vertexBits, count, 2 * this.table.length);
  }
}

/**
 * Welds corners from `from` to `to` - 1 (`view` starts at corner `first`'s record, `first` a
 * multiple of 3) until one would need a new vertex that does not fit (returns its corner, not
 * welded) or all are done (returns `to`); -(3 corner + axis) - 1 for a non-finite coordinate.
 */
const RECENT_MASK = 1023;

function weldRun(view: DataView, first: number, from: number, to: number, w: BitsWeld): number {
  const indices = w.indices, table = w.table, bits = w.vertexBits, state = w.count, recent = w.recent;
  const mask = table.length - 1;
  const maxCount = Math.min(bits.length / 3, table.length >>> 1);
  let V = state[0]!;
  let c = from;
  corners: for (; c < to; c++) {
    const local = c - first;
    const base = ((local / 3) | 0) * RECORD_BYTES + 12 + 12 * (local % 3); // skip the facet normal
    let x = view.getUint32(base, true), y = view.getUint32(base + 4, true), z = view.getUint32(base + 8, true);
    if (x === 0x80000000) x = 0;
    if (y === 0x80000000) y = 0;
    if (z === 0x80000000) z = 0;
    if ((x & 0x7f800000) === 0x7f800000) return -(3 * c) - 1;
    if ((y & 0x7f800000) === 0x7f800000) return -(3 * c + 1) - 1;
    if ((z & 0x7f800000) === 0x7f800000) return -(3 * c + 2) - 1;
    const h = hashWords(x, y, z, 0, 0, 0);
    // Neighbouring triangles share corners: a small cache of recent vertices answers most corners
    // without touching the large table.
    const r = recent[h & RECENT_MASK]!;
    if (r >= 0 && bits[3 * r] === x && bits[3 * r + 1] === y && bits[3 * r + 2] === z) {
      indices[c] = r;
      continue;
    }
    let slot = h & mask;
    for (;;) {
      const v = table[slot]!;
      if (v < 0) {
        if (V === maxCount) break corners; // corner c is left for after the growth
        bits[3 * V] = x;
        bits[3 * V + 1] = y;
        bits[3 * V + 2] = z;
        table[slot] = V;
        recent[h & RECENT_MASK] = V;
        indices[c] = V++;
        break;
      }
      if (bits[3 * v] === x && bits[3 * v + 1] === y && bits[3 * v + 2] === z) {
        recent[h & RECENT_MASK] = v;
        indices[c] = v;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  state[0] = V;
  return c;
}

function rehash(vertexBits: Uint32Array, V: number, cap: number): Int32Array {
  const table = new Int32Array(cap).fill(-1);
  const mask = cap - 1;
  for (let v = 0; v < V; v++) {
    let slot = hashWords(vertexBits[3 * v]!, vertexBits[3 * v + 1]!, vertexBits[3 * v + 2]!, 0, 0, 0) & mask;
    while (table[slot]! >= 0) slot = (slot + 1) & mask;
    table[slot] = v;
  }
  return table;
}

/** Writes a binary STL (used by tests and the demo to make scan-like meshes). */
export function writeBinaryStl(mesh: TriMesh, header = 'brepscope'): Uint8Array {
  const count = mesh.indices.length / 3;
  const out = new Uint8Array(HEADER_BYTES + count * RECORD_BYTES);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(header.slice(0, 80)));
  view.setUint32(80, count, true);
  const p = mesh.positions;
  for (let t = 0; t < count; t++) {
    const base = HEADER_BYTES + t * RECORD_BYTES;
    const a = mesh.indices[t * 3]! * 3, b = mesh.indices[t * 3 + 1]! * 3, c = mesh.indices[t * 3 + 2]! * 3;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const wx = p[c]! - p[a]!, wy = p[c + 1]! - p[a + 1]!, wz = p[c + 2]! - p[a + 2]!;
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    const l = Math.hypot(nx, ny, nz) || 1;
    view.setFloat32(base, nx / l, true);
    view.setFloat32(base + 4, ny / l, true);
    view.setFloat32(base + 8, nz / l, true);
    let o = base + 12;
    for (const v of [a, b, c]) {
      view.setFloat32(o, p[v]!, true);
      view.setFloat32(o + 4, p[v + 1]!, true);
      view.setFloat32(o + 8, p[v + 2]!, true);
      o += 12;
    }
  }
  return out;
}
