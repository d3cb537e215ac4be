import { BrepscopeError } from '../../errors';
import type { TriMesh } from '../../mesh/TriMesh';
import { hashWords, weldVertexIds } from '../../mesh/weld';
import { checkImportMemory } from './importLimits';
import { decodeWholeText } from './textScanner';

/** What reading one binary STL triangle takes at most (readBinaryWelded), for the memory budget. */
const STL_BYTES_PER_TRIANGLE = 36 + 12 + 24 + 72;

const HEADER_BYTES = 84;
const RECORD_BYTES = 50;

/**
 * Parses a binary or ASCII STL into a welded TriMesh: corners with bit-identical coordinates
 * become one vertex, so the mesh has the facet-shell topology the spec describes (vertices are the
 * mesh corner points). Facet normals in the file are ignored; winding defines orientation.
 * `shared`: a binary STL's arrays in SharedArrayBuffers, for a host that hands the mesh to other
 * threads (the CLI: to the engine thread, which shares it with its mesh threads) without a copy.
 */
export function parseStl(bytes: Uint8Array, name = 'STL', options: { shared?: boolean } = {}): TriMesh {
  if (bytes.byteLength === 0) throw new BrepscopeError('EMPTY_FILE', `${name}: the file is empty`);
  const binaryCount = bytes.byteLength >= HEADER_BYTES ? new DataView(bytes.buffer, bytes.byteOffset + 80, 4).getUint32(0, true) : -1;
  if (binaryCount >= 0 && HEADER_BYTES + binaryCount * RECORD_BYTES === bytes.byteLength) {
    return readBinaryWelded(bytes, binaryCount, name, options.shared === true);
  }
  if (looksLikeAsciiStl(bytes)) return weldCorners(readAsciiCorners(bytes, name), name);
  if (binaryCount >= 0) {
    const need = HEADER_BYTES + binaryCount * RECORD_BYTES;
    throw new BrepscopeError(
      'PARSE_FAILED',
      need > bytes.byteLength
        ? `${name}: truncated binary STL: the header announces ${binaryCount} triangles (${need} bytes) but the file has ${bytes.byteLength} bytes`
        : `${name}: not an STL: binary header announces ${binaryCount} triangles (${need} bytes) but the file has ${bytes.byteLength} bytes, and it is not ASCII STL`,
    );
  }
  throw new BrepscopeError('PARSE_FAILED', `${name}: not an STL: ${bytes.byteLength} bytes is shorter than a binary STL header and the text is not ASCII STL`);
}

/**
 * ASCII STL starts with `solid`, but so do many binary STL headers: a NUL byte (binary header padding
 * or float data) rules text out, so a truncated binary file is reported as such, not as an empty mesh.
 */
function looksLikeAsciiStl(bytes: Uint8Array): boolean {
  const start = bytes.subarray(0, Math.min(bytes.byteLength, 1024));
  if (start.includes(0)) return false;
  const head = new TextDecoder('latin1').decode(start).trimStart().toLowerCase();
  return head.startsWith('solid') && (bytes.byteLength < 1024 || /facet|endsolid/.test(head));
}

/**
 * Reads a binary STL's corners and welds them in one pass over the file, keyed by the float32
 * bits of their coordinates (-0 folded into 0): the same mesh weldCorners makes from float64
 * copies, without 72 bytes a triangle of copies.
 */
function readBinaryWelded(bytes: Uint8Array, count: number, name: string, shared: boolean): TriMesh {
  if (count === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the STL contains no triangles`);
  // Per triangle: corner bits and indices, the weld's table, the float64 positions (at most 3 vertices).
  checkImportMemory(count * STL_BYTES_PER_TRIANGLE, name, `the header declares ${count} triangles`);
  const weld = new BitsWeld(3 * count, shared);
  const bad = weld.add(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (bad >= 0) throw new BrepscopeError('PARSE_FAILED', `${name}: coordinate ${'xyz'[bad % 3]} of corner ${Math.floor(bad / 3)} is not a finite number`);
  return { positions: float32BitsToFloat64(weld.vertexBits, weld.count[0]!, shared), indices: weld.indices, distinctPositions: true };
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

  /** Welds every corner of the file; returns the first non-finite coordinate (3 corner + axis), or -1. */
  add(view: DataView): number {
    const n = this.indices.length;
    let c = 0;
    while (c < n) {
      // Runs until the table or the vertex store needs to grow, which happens a few times at most.
      c = weldRun(view, c, this);
      if (c < 0) return -c - 1;
      if (c < n) this.grow();
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
 * Welds corners from `from` on until one would need a new vertex that does not fit (returns its
 * corner, not welded) or all are done (returns the corner count); -(3 corner + axis) - 1 for a
 * non-finite coordinate.
 */
const RECENT_MASK = 1023;

function weldRun(view: DataView, from: number, w: BitsWeld): number {
  const indices = w.indices, table = w.table, bits = w.vertexBits, state = w.count, recent = w.recent;
  const n = indices.length;
  const mask = table.length - 1;
  const maxCount = Math.min(bits.length / 3, table.length >>> 1);
  let V = state[0]!;
  let c = from;
  corners: for (; c < n; c++) {
    const base = HEADER_BYTES + ((c / 3) | 0) * RECORD_BYTES + 12 + 12 * (c % 3); // skip the facet normal
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

function float32BitsToFloat64(bits: Uint32Array, vertices: number, shared: boolean): Float64Array {
  const floats = new Float32Array(bits.buffer, 0, 3 * vertices);
  const positions = shared ? new Float64Array(new SharedArrayBuffer(24 * vertices)) : new Float64Array(3 * vertices);
  for (let i = 0; i < 3 * vertices; i++) positions[i] = floats[i]!;
  return positions;
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

function readAsciiCorners(bytes: Uint8Array, name: string): Float64Array {
  const text = decodeWholeText(bytes, name, 'ASCII STL');
  const out: number[] = [];
  const vertex = /vertex\s+(\S+)\s+(\S+)\s+(\S+)/gi;
  for (let m = vertex.exec(text); m; m = vertex.exec(text)) {
    out.push(Number(m[1]), Number(m[2]), Number(m[3]));
  }
  if (out.length % 9 !== 0) {
    throw new BrepscopeError('PARSE_FAILED', `${name}: ASCII STL has ${out.length / 3} vertices, not a multiple of 3 (truncated facet?)`);
  }
  const facets = (text.match(/endfacet/gi) ?? []).length;
  if (facets !== out.length / 9) {
    throw new BrepscopeError('PARSE_FAILED', `${name}: ASCII STL has ${facets} complete facets but ${out.length / 9} vertex triples (truncated file?)`);
  }
  return Float64Array.from(out);
}

/** Welds corners with identical coordinates into shared vertices (-0 folded into 0). */
function weldCorners(corners: Float64Array, name: string): TriMesh {
  const n = corners.length / 3;
  if (n === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the STL contains no triangles`);
  for (let i = 0; i < corners.length; i++) {
    if (!Number.isFinite(corners[i]!)) {
      throw new BrepscopeError('PARSE_FAILED', `${name}: coordinate ${'xyz'[i % 3]} of corner ${Math.floor(i / 3)} is not a finite number`);
    }
  }
  const { ids, count } = weldVertexIds(corners);
  const positions = new Float64Array(count * 3);
  const placed = new Uint8Array(count);
  for (let c = 0; c < n; c++) {
    const v = ids[c]!;
    if (placed[v]) continue;
    placed[v] = 1;
    for (let k = 0; k < 3; k++) positions[v * 3 + k] = corners[c * 3 + k]! + 0;
  }
  return { positions, indices: ids, distinctPositions: true };
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
