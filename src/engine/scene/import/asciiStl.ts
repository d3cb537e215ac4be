import { BrepscopeError } from '../../errors';
import { compactPositions, type TriMesh } from '../../mesh/TriMesh';
import { hashWords } from '../../mesh/weld';
import { decimalNumber } from './textScanner';

/**
 * What an ASCII STL is read as: every `vertex` keyword (any case, even at the end of a longer
 * word) followed by blanks and three blank-separated tokens is a corner, its tokens read as
 * Number() reads them; `endfacet` (any case, anywhere) closes a facet; after `solid` or
 * `endsolid` and a space or tab, the rest of the line is the solid's name, whatever words it holds. Blanks are those of a
 * regular expression's `\s` in the file's latin1 text: tab, line feed, vertical tab, form feed,
 * carriage return, space and no-break space (0xa0). A number after a corner's three on its line
 * (`vertex 0 0 0 1`) is refused, naming the line: lines are counted by their line feeds.
 */
const BLANK = new Uint8Array(256);
for (const c of [9, 10, 11, 12, 13, 32, 0xa0]) BLANK[c] = 1;
/** Bytes that start neither keyword: read while no match is under way, they change nothing. */
const QUIET = new Uint8Array(256).fill(1);
for (const c of 'vVeEsS') QUIET[c.charCodeAt(0)] = 0;
// Line feeds are counted (one slow step a line).
QUIET[10] = 0;
/** Bytes that start a number: after a corner's third coordinate on its line, a fourth. */
const NUMBER_START = new Uint8Array(256);
for (const c of '0123456789+-.') NUMBER_START[c.charCodeAt(0)] = 1;

/** Case-insensitive matchers of a keyword, byte by byte: state k means its first k letters were just read. */
function matcher(word: string): Uint8Array {
  const w = word.toLowerCase();
  const next = new Uint8Array((w.length + 1) * 256);
  for (let k = 0; k <= w.length; k++) {
    for (let c = 0; c < 256; c++) {
      // The longest prefix of the word that ends the text read so far plus c (the word's own
      // borders: 'endface' + 'n' is 'en'). Past a whole word the search starts afresh.
      const lower = c >= 65 && c <= 90 ? c + 32 : c;
      const read = (k === w.length ? '' : w.slice(0, k)) + String.fromCharCode(lower);
      let m = Math.min(read.length, w.length);
      while (m > 0 && read.slice(read.length - m) !== w.slice(0, m)) m--;
      next[k * 256 + c] = m;
    }
  }
  return next;
}

const VERTEX = matcher('vertex');
const ENDFACET = matcher('endfacet');
const SOLID = matcher('solid');
const VERTEX_LENGTH = 6;
const ENDFACET_LENGTH = 8;
const SOLID_LENGTH = 5;
/** Characters of a coordinate token kept when it straddles two pieces (decimalNumber reads no longer ones). */
const MAX_NUMBER_TEXT = 1024;
const latin1 = new TextDecoder('latin1');

/**
 * An ASCII STL read piece by piece, in order (pieces of any size: a keyword or a number may
 * straddle two), each piece scanned as it arrives and nothing of it kept but a number cut at its
 * end; corners are welded as they are read. The whole-file parse is this reader given one piece,
 * so streamed and whole give the same mesh and the same errors. The weld is weldVertexIds':
 * bit-identical coordinates (-0 as 0) become one vertex, numbered in order of first appearance.
 */
export class AsciiStlReader {
  private vertexState = 0;
  private endfacetState = 0;
  private solidState = 0;
  /** Inside a solid's name: skipping to the end of its line. */
  private naming = false;
  private facets = 0;
  /** The line being read (1 + the line feeds read). */
  private line = 1;
  /** 1 after a corner's third coordinate, until its line ends or a word follows on it. */
  private afterCorner = 0;
  /** -1 while looking for `vertex`; else the coordinate (0..2) being read. */
  private axis = -1;
  /** A coordinate token cut by the end of the previous piece: its first bytes, and its length. */
  private readonly carry = new Uint8Array(MAX_NUMBER_TEXT);
  private carried = 0;
  private readonly xyz = new Float64Array(3);
  /** Corners read (three coordinates each), and the first coordinate that is not finite (3 corner + axis). */
  private corners = 0;
  private firstBad = -1;
  private readonly weld = new CornerWeld();

  constructor(
    private readonly name: string,
    private readonly shared = false,
  ) {}

  /** The next piece of the file (valid only during the call). */
  push(piece: Uint8Array): void {
    // Two tight loops (looking for 'vertex', reading a coordinate token), the keyword matchers'
    // states in locals; a blank ends any match of 'endfacet', so runs of blanks skip its matcher.
    const n = piece.length, blank = BLANK, quiet = QUIET, vertex = VERTEX, endfacet = ENDFACET, solid = SOLID;
    let vertexState = this.vertexState, endfacetState = this.endfacetState, solidState = this.solidState, axis = this.axis, facets = this.facets;
    let line = this.line, after = this.afterCorner;
    let i = 0;
    if (this.naming) {
      i = piece.indexOf(10);
      if (i < 0) return;
      this.naming = false;
    }
    while (i < n) {
      if (axis < 0) {
        for (; i < n; i++) {
          const c = piece[i]!;
          if (quiet[c] === 1 && (vertexState | endfacetState | solidState | after) === 0) continue;
          if (c === 10) {
            line++;
            after = 0;
          } else if (after === 1 && blank[c] === 0) {
            if (NUMBER_START[c] === 1) throw this.fourthNumber(line);
            after = 0;
          }
          if (solidState === SOLID_LENGTH && (c === 32 || c === 9)) {
            // A solid's name: the rest of its line, never a corner or a facet's end.
            solidState = vertexState = endfacetState = 0;
            const end = piece.indexOf(10, i);
            if (end < 0) {
              this.naming = true;
              i = n;
              break;
            }
            // The line feed is read next, and counted.
            i = end - 1;
            continue;
          }
          solidState = solid[solidState * 256 + c]!;
          endfacetState = endfacet[endfacetState * 256 + c]!;
          if (endfacetState === ENDFACET_LENGTH) {
            facets++;
            endfacetState = 0;
          }
          if (vertexState === VERTEX_LENGTH && blank[c] === 1) {
            axis = 0;
            vertexState = 0;
            i++;
            break;
          }
          vertexState = vertex[vertexState * 256 + c]!;
        }
        continue;
      }
      // A token carried over from the last piece goes on at this piece's first byte.
      if (this.carried === 0) {
        for (; i < n && blank[piece[i]!] === 1; i++) if (piece[i] === 10) line++;
        endfacetState = 0;
        if (i === n) break;
      }
      const start = i;
      for (; i < n; i++) {
        const c = piece[i]!;
        if (blank[c] === 1) break;
        endfacetState = endfacet[endfacetState * 256 + c]!;
        if (endfacetState === ENDFACET_LENGTH) {
          facets++;
          endfacetState = 0;
        }
      }
      if (i === n) {
        this.keep(piece, start, n);
        break;
      }
      this.coordinate(piece, start, i, axis);
      if (++axis === 3) {
        axis = -1;
        after = 1;
      }
      endfacetState = 0;
      // The blank: no part of either keyword.
      if (piece[i] === 10) {
        line++;
        after = 0;
      }
      i++;
    }
    this.vertexState = vertexState;
    this.endfacetState = endfacetState;
    this.solidState = solidState;
    this.axis = axis;
    this.facets = facets;
    this.line = line;
    this.afterCorner = after;
  }

  private fourthNumber(line: number): BrepscopeError {
    return new BrepscopeError('PARSE_FAILED', `${this.name}: line ${line}: corner ${this.corners - 1} has a number after its x y z (a vertex holds three)`);
  }

  /** The welded mesh, or the error the file's text earns. */
  finish(): TriMesh {
    // The file's end ends a last coordinate; a corner with fewer than three is no corner.
    if (this.axis === 2 && this.carried > 0) this.coordinate(new Uint8Array(0), 0, 0, 2);
    this.carried = 0;
    this.axis = -1;
    const { name, corners, facets } = this;
    if (corners % 3 !== 0) {
      throw new BrepscopeError('PARSE_FAILED', `${name}: ASCII STL has ${corners} vertices, not a multiple of 3 (truncated facet?)`);
    }
    if (facets !== corners / 3) {
      throw new BrepscopeError('PARSE_FAILED', `${name}: ASCII STL has ${facets} complete facets but ${corners / 3} vertex triples (truncated file?)`);
    }
    if (corners === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the STL contains no triangles`);
    const bad = this.firstBad;
    if (bad >= 0) {
      throw new BrepscopeError('PARSE_FAILED', `${name}: coordinate ${'xyz'[bad % 3]} of corner ${Math.floor(bad / 3)} is not a finite number`);
    }
    return this.weld.mesh(this.shared);
  }

  /** Keeps the start of a coordinate token the piece cut (its length counted in full). */
  private keep(piece: Uint8Array, from: number, to: number): void {
    const room = MAX_NUMBER_TEXT - this.carried;
    if (room > 0) this.carry.set(piece.subarray(from, from + Math.min(room, to - from)), this.carried);
    this.carried += to - from;
  }

  /** The coordinate token that ends at `end` of this piece (after what was carried, if any). */
  private coordinate(piece: Uint8Array, start: number, end: number, axis: number): void {
    let value: number;
    if (this.carried > 0) {
      this.keep(piece, start, end);
      value = this.carried > MAX_NUMBER_TEXT ? NaN : numberOf(this.carry, 0, this.carried);
      this.carried = 0;
    } else {
      value = end - start > MAX_NUMBER_TEXT ? NaN : numberOf(piece, start, end);
    }
    this.xyz[axis] = value;
    if (axis < 2) return;
    const xyz = this.xyz;
    if (this.firstBad < 0) {
      for (let k = 0; k < 3; k++) {
        if (!Number.isFinite(xyz[k]!)) {
          this.firstBad = 3 * this.corners + k;
          break;
        }
      }
      if (this.firstBad < 0) this.weld.add(xyz[0]!, xyz[1]!, xyz[2]!);
    }
    this.corners++;
  }
}

/** A token as Number() reads its text: the decimal fast path, else Number() itself (hex, `Infinity`, garbage). */
function numberOf(bytes: Uint8Array, start: number, end: number): number {
  const v = decimalNumber(bytes, start, end);
  return Number.isNaN(v) ? Number(latin1.decode(bytes.subarray(start, end))) : v;
}

/**
 * Corners welded as they come: open addressing on the coordinates' float64 bits (-0 as 0), the
 * vertices numbered in order of first appearance, as weldVertexIds numbers them.
 */
class CornerWeld {
  private positions = new Float64Array(3 * 1024);
  private vertices = 0;
  private indices = new Uint32Array(3 * 1024);
  private corners = 0;
  private table = new Int32Array(2048).fill(-1);
  private readonly key = new Float64Array(3);
  private readonly keyBits = new Uint32Array(this.key.buffer);

  add(x: number, y: number, z: number): void {
    // Finite values only (the reader stops welding at the first that is not); + 0 folds -0 into 0.
    x += 0;
    y += 0;
    z += 0;
    const key = this.key, bits = this.keyBits;
    key[0] = x;
    key[1] = y;
    key[2] = z;
    const table = this.table, positions = this.positions, mask = table.length - 1;
    let slot = hashWords(bits[0]!, bits[1]!, bits[2]!, bits[3]!, bits[4]!, bits[5]!) & mask;
    let id: number;
    for (;;) {
      const v = table[slot]!;
      if (v < 0) {
        id = this.newVertex(slot, x, y, z);
        break;
      }
      if (positions[3 * v] === x && positions[3 * v + 1] === y && positions[3 * v + 2] === z) {
        id = v;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (this.corners === this.indices.length) this.indices = grown(this.indices);
    this.indices[this.corners++] = id;
  }

  private newVertex(slot: number, x: number, y: number, z: number): number {
    const v = this.vertices++;
    if (3 * v === this.positions.length) this.positions = grown(this.positions);
    this.positions[3 * v] = x;
    this.positions[3 * v + 1] = y;
    this.positions[3 * v + 2] = z;
    this.table[slot] = v;
    if (2 * this.vertices > this.table.length) this.rehash();
    return v;
  }

  private rehash(): void {
    const table = new Int32Array(2 * this.table.length).fill(-1);
    const mask = table.length - 1, key = this.key, bits = this.keyBits, positions = this.positions;
    for (let v = 0; v < this.vertices; v++) {
      key.set(positions.subarray(3 * v, 3 * v + 3));
      let slot = hashWords(bits[0]!, bits[1]!, bits[2]!, bits[3]!, bits[4]!, bits[5]!) & mask;
      while (table[slot]! >= 0) slot = (slot + 1) & mask;
      table[slot] = v;
    }
    this.table = table;
  }

  /** The mesh, its arrays exactly as long as their content (in SharedArrayBuffers when `shared`). */
  mesh(shared: boolean): TriMesh {
    const V = 3 * this.vertices, C = this.corners;
    const positions = shared ? new Float64Array(new SharedArrayBuffer(8 * V)) : new Float64Array(V);
    positions.set(this.positions.subarray(0, V));
    const indices = shared ? new Uint32Array(new SharedArrayBuffer(4 * C)) : new Uint32Array(C);
    indices.set(this.indices.subarray(0, C));
    return { positions: compactPositions(positions), indices, distinctPositions: true };
  }
}

function grown<T extends Float64Array | Uint32Array>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(2 * array.length);
  next.set(array);
  return next;
}
