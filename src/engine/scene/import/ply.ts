import { BrepscopeError } from '../../errors';
import { checkImportMemory } from './importLimits';
import type { IndexedMesh } from './indexedMesh';
import { SIGNATURE_BYTES } from './detectFormat';
import { isHeadOf } from './linePieces';
import type { PointCloud } from './PointCloud';
import type { FilePieces } from './stl';
import { TextScanner, Uint32Builder, byteOrderMark, quoteBytes } from './textScanner';

/** What a scan file holds: triangles, or points with no faces. */
/** `declaredUnit`: the length unit the file declares (3MF does; PLY, OBJ and text points do not). */
export type MeshOrCloud = { kind: 'mesh'; mesh: IndexedMesh; notes: string[]; declaredUnit?: string } | { kind: 'points'; cloud: PointCloud; notes: string[] };

type ScalarType = 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'float32' | 'float64';

const TYPES: Record<string, ScalarType> = {
  char: 'int8', int8: 'int8', uchar: 'uint8', uint8: 'uint8', short: 'int16', int16: 'int16', ushort: 'uint16', uint16: 'uint16',
  int: 'int32', int32: 'int32', uint: 'uint32', uint32: 'uint32', float: 'float32', float32: 'float32', double: 'float64', float64: 'float64',
};
const SIZE: Record<ScalarType, number> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, float64: 8 };

interface Property {
  name: string;
  type: ScalarType;
  /** For a list property: the type of its item count. */
  countType?: ScalarType | undefined;
}

interface Element {
  name: string;
  count: number;
  properties: Property[];
  line: number;
}

interface Header {
  format: 'ascii' | 'binary_little_endian' | 'binary_big_endian';
  elements: Element[];
  bodyStart: number;
}

const MAX_HEADER_BYTES = 1 << 20;
const NL = 10;

/** Binary scalar types whose every value a float32 holds exactly (a cloud of them is kept as float32, PointCloud). */
const FLOAT32_EXACT = new Set<ScalarType>(['float32', 'int8', 'uint8', 'int16', 'uint16']);

/**
 * Parses a PLY file (ASCII, binary little or big endian; Stanford's format as scanners write it):
 * `vertex` x y z with optional nx ny nz and red green blue, `face` vertex_indices lists fanned into
 * triangles, `tristrips` strips into triangles. A file with vertices and no faces is a point cloud. Every count in the header is checked
 * against the bytes that follow before anything is allocated, so a truncated or lying file fails at
 * once, naming the element, never as a partial body.
 */
export function parsePly(bytes: Uint8Array, name: string): MeshOrCloud {
  const header = readHeader(bytes, name);
  const body = new PlyBody(header, bytes.length, name);
  const reader = header.format === 'ascii' ? new AsciiReader(bytes, header.bodyStart, name) : new BinaryReader(bytes, header.bodyStart, header.format === 'binary_little_endian', name);
  body.read(reader);
  if (reader instanceof AsciiReader) {
    const after = firstValue(bytes, reader.pos, reader.line);
    if (after.at !== undefined && startsNumber(bytes[after.at]!)) throw valuesAfterBody(name, after.line, after.at);
  } else if (reader instanceof BinaryReader && !padding(bytes, reader.end)) {
    throw bytesAfterBody(name, reader.end, bytes.length - reader.end);
  }
  return body.result();
}

/**
 * A PLY read piece by piece as it streams by (FilePieces; pieces of any size, a record may
 * straddle two): the header from the first bytes, then each element as its bytes arrive (an ASCII
 * body a run of whole lines at a time), never the whole file in memory. The same result and the
 * same errors as parsePly on the whole file. When `signature`, a file that does not start as a PLY
 * does is gathered whole and returned as bytes, for the importer to read as it reads any file.
 */
export async function readPlyPieces(file: FilePieces, name: string, signature = false): Promise<{ content: MeshOrCloud } | { bytes: Uint8Array }> {
  const iterator = file.pieces[Symbol.asyncIterator]();
  try {
    const gathered = new PieceQueue();
    // The header: until its end_header line is in, or the most parsePly looks at; at least one piece, so the source starts.
    for (let asked = false; !asked || (gathered.length < Math.min(file.size, MAX_HEADER_BYTES) && !hasHeaderEnd(gathered)); asked = true) {
      const next = await iterator.next();
      if (next.done) break;
      gathered.push(next.value);
    }
    const head = gathered.take(gathered.length);
    if (file.size === 0 || (signature && !/^(\u00ef\u00bb\u00bf)?ply\r?\n/.test(new TextDecoder('latin1').decode(head.subarray(0, 8))))) {
      // Only a head another format's signature claims is worth the whole file: one the name alone
      // makes a PLY fails its magic now, not after a multi-GB file was gathered in memory.
      if (file.size > 0 && head.length >= Math.min(file.size, SIGNATURE_BYTES) && isHeadOf('ply', head, file.size, name)) readHeader(head, name);
      return { bytes: await gatherRest(head, iterator) };
    }
    const header = readHeader(head, name);
    const body = new PlyBody(header, file.size, name);
    const next = async (): Promise<Uint8Array | undefined> => {
      const piece = await iterator.next();
      return piece.done ? undefined : piece.value;
    };
    const content = header.format === 'ascii' ? await readAsciiBody(body, head, header.bodyStart, name, next) : await readBinaryBody(body, head, header, name, next);
    return { content };
  } finally {
    await iterator.return?.();
  }
}

/** A binary body from `head` (which holds the header and the body's first bytes) and the pieces `next` gives. */
async function readBinaryBody(body: PlyBody, head: Uint8Array, header: Header, name: string, next: () => Promise<Uint8Array | undefined>): Promise<MeshOrCloud> {
  const little = header.format === 'binary_little_endian';
  let span = head.subarray(header.bodyStart);
  let base = header.bodyStart;
  let final = false;
  for (;;) {
    const reader = new BinaryReader(span, 0, little, name, base, final);
    if (body.read(reader)) {
      // The rest of the file, a piece at a time, must be padding, as parsePly requires of the whole.
      const end = base + reader.end;
      let after = span.length - reader.end, blank = padding(span, reader.end);
      for (let piece = await next(); piece; piece = await next()) {
        after += piece.length;
        blank &&= padding(piece, 0);
      }
      if (!blank) throw bytesAfterBody(name, end, after);
      return body.result();
    }
    // The record that did not fit: its bytes so far, and pieces until its shortfall is in (or the file ends).
    const keep = reader.recordStart;
    const queue = new PieceQueue();
    queue.push(span.subarray(keep));
    base += keep;
    while (queue.length < span.length - keep + reader.shortfall) {
      const piece = await next();
      if (!piece) {
        final = true;
        break;
      }
      queue.push(piece);
    }
    span = queue.take(queue.length);
  }
}

/**
 * An ASCII body, a run of whole lines at a time: each span read ends at its last line end (the
 * file's end for the last), and the record it cut is read again with the next lines.
 */
async function readAsciiBody(body: PlyBody, head: Uint8Array, bodyStart: number, name: string, next: () => Promise<Uint8Array | undefined>): Promise<MeshOrCloud> {
  let span = head.subarray(bodyStart);
  let base = bodyStart;
  let line = lineAt(head, bodyStart);
  let final = false;
  for (;;) {
    const end = final ? span.length : span.lastIndexOf(NL) + 1;
    let keep = 0;
    // A span without a line end is read only at the file's end (then even empty: a truncation).
    if (end > 0 || final) {
      const reader = new AsciiReader(span.subarray(0, end), 0, name, base, line, final);
      if (body.read(reader)) {
        // The rest of the file, a piece at a time, must not start with a number, as parsePly requires of the whole.
        let piece = span, offset = base;
        let after = firstValue(piece, reader.pos, reader.line);
        while (after.at === undefined) {
          const more = await next();
          if (!more) break;
          offset += piece.length;
          piece = more;
          after = firstValue(piece, 0, after.line);
        }
        if (after.at !== undefined && startsNumber(piece[after.at]!)) throw valuesAfterBody(name, after.line, offset + after.at);
        return body.result();
      }
      keep = reader.recordStart;
      line = reader.recordLine;
      base += keep;
    }
    // The cut record and the partial last line, and pieces until one brings a line end (or the file ends).
    const queue = new PieceQueue();
    queue.push(span.subarray(keep));
    do {
      const piece = await next();
      if (!piece) {
        final = true;
        break;
      }
      queue.push(piece);
    } while (!queue.lastHadNewline);
    span = queue.take(queue.length);
  }
}

/** Whether the header's end is in (looked for only when the last piece brought a line end). */
function hasHeaderEnd(queue: PieceQueue): boolean {
  return queue.lastHadNewline && /(^|\n)end_header[ \t]*\r?\n/.test(new TextDecoder('latin1').decode(queue.take(Math.min(queue.length, MAX_HEADER_BYTES))));
}

async function gatherRest(head: Uint8Array, iterator: AsyncIterator<Uint8Array>): Promise<Uint8Array> {
  const queue = new PieceQueue();
  queue.push(head);
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) queue.push(next.value);
  return queue.take(queue.length);
}

/** Pieces copied as they come (a piece is valid only until the next is asked for), joined once when taken. */
class PieceQueue {
  private parts: Uint8Array[] = [];
  length = 0;
  lastHadNewline = false;

  push(piece: Uint8Array): void {
    this.lastHadNewline = piece.includes(10);
    if (piece.length === 0) return;
    this.parts.push(piece.slice());
    this.length += piece.length;
  }

  /** Everything so far, joined (kept as the one part, so a later take or peek does not join again). */
  peek(): Uint8Array {
    if (this.parts.length !== 1) {
      const joined = new Uint8Array(this.length);
      let at = 0;
      for (const part of this.parts) {
        joined.set(part, at);
        at += part.length;
      }
      this.parts = this.length ? [joined] : [];
    }
    return this.parts[0] ?? new Uint8Array(0);
  }

  take(n: number): Uint8Array {
    return this.peek().subarray(0, n);
  }
}

/** The elements of a PLY body read into typed arrays, record by record; resumable where a streamed span ran out. */
class PlyBody {
  private readonly vertex: Element;
  private readonly face: Element | undefined;
  private readonly faceList: number;
  /** Triangle strips (old Stanford and Cyberware scans): `tristrips` with a vertex_indices list, -1 between strips. */
  private readonly strips: Element | undefined;
  private readonly stripList: number;
  private readonly layout: VertexLayout;
  private readonly vertices: VertexSink;
  private readonly faces: FaceSink | undefined;
  /** Where reading resumes: an element of the header, a record of it. */
  private element = 0;
  private index = 0;

  constructor(
    private readonly header: Header,
    size: number,
    private readonly name: string,
  ) {
    const vertex = header.elements.find((e) => e.name === 'vertex');
    if (!vertex || vertex.count === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the PLY file has no vertices`);
    const face = header.elements.find((e) => e.name === 'face' && e.count > 0);
    const strips = header.elements.find((e) => e.name === 'tristrips' && e.count > 0);
    const layout = vertexLayout(vertex, name);
    this.faceList = face ? faceListIndex(face, name) : -1;
    this.stripList = strips ? faceListIndex(strips, name) : -1;
    checkCountsFit(size, header, name);
    // The header's counts, as the arrays they become (positions, normals, colours; a triangle per face at least).
    checkImportMemory(
      vertex.count * (24 + (layout.normal ? 12 : 0) + (layout.color ? 3 : 0)) + (face ? face.count * 12 : 0),
      name,
      `the header declares ${vertex.count} vertices${face ? ` and ${face.count} faces` : ''}`,
    );
    this.vertex = vertex;
    this.face = face;
    this.strips = strips;
    this.layout = layout;
    const triangles = face || strips;
    this.vertices = new VertexSink(vertex.count, layout, name, !triangles && header.format !== 'ascii' && layout.xyz.every((i) => FLOAT32_EXACT.has(vertex.properties[i]!.type)), !triangles);
    this.faces = triangles ? new FaceSink(face?.count ?? 0, vertex.count, name) : undefined;
  }

  /**
   * Reads records until the body ends (true) or a binary span runs out inside one (false: the
   * record is undone, to be read again from `reader.recordStart` when more bytes are in).
   */
  read(reader: ElementReader): boolean {
    const { vertex, face, faceList, strips, stripList, vertices, faces } = this;
    const role = vertices.role;
    const elements = this.header.elements;
    let triangles = faces ? faces.indices.length : 0, skipped = faces ? faces.skipped : 0;
    try {
      for (; this.element < elements.length; this.element++, this.index = 0) {
        const element = elements[this.element]!;
        for (; this.index < element.count; this.index++) {
          const i = this.index;
          reader.beginElement(element, i);
          if (faces) {
            triangles = faces.indices.length;
            skipped = faces.skipped;
          }
          for (let p = 0; p < element.properties.length; p++) {
            const prop = element.properties[p]!;
            if (prop.countType) {
              const n = reader.listCount(prop);
              if (element === face && p === faceList) faces!.face(reader, prop, n, i);
              else if (element === strips && p === stripList) faces!.strip(reader, prop, n, i);
              else reader.skipList(prop, n);
            } else if (element === vertex) {
              // Only a coordinate must be a number: a writer's `nan` normal or quality is read, as in a binary file.
              const r = role[p] ?? 0;
              vertices.set(i, p, reader.scalar(prop, r === 0 || r > 3 || !faces), element);
            } else {
              reader.skipScalar(prop);
            }
          }
          reader.endElement();
        }
      }
      return true;
    } catch (e) {
      if (e !== OUT_OF_SPAN) throw e;
      if (faces) {
        faces.indices.length = triangles;
        faces.skipped = skipped;
      }
      return false;
    }
  }

  result(): MeshOrCloud {
    const { faces, vertices, layout, vertex } = this;
    const notes: string[] = [];
    if (faces && faces.skipped > 0) notes.push(`${faces.skipped} faces with fewer than 3 vertices were skipped`);
    const normals = layout.normal ? vertices.normals : undefined;
    const colors = layout.color ? vertices.colors : undefined;
    if (!faces) {
      const cloud = vertices.measured(vertex.count);
      if (cloud.skipped > 0) notes.push(`${cloud.skipped} points whose x y z are nan (not measured) are skipped`);
      return { kind: 'points', cloud: { positions: cloud.positions, normals: normals && cloud.normals, colors: colors && cloud.colors, count: cloud.count }, notes };
    }
    // float32 positions are chosen for clouds only (no face element), so a mesh's are float64.
    return { kind: 'mesh', mesh: { positions: vertices.positions as Float64Array, indices: faces.indices.toArray(), normals, colors }, notes };
  }
}

/** Thrown by a streamed BinaryReader whose span ends inside a record while more of the file is to come. */
const OUT_OF_SPAN = new Error('PLY record straddles the streamed span');

function fail(name: string, where: string, what: string): BrepscopeError {
  return new BrepscopeError('PARSE_FAILED', `${name}: ${where}: ${what}`);
}

function readHeader(bytes: Uint8Array, name: string): Header {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, MAX_HEADER_BYTES)));
  const endMatch = /(^|\n)end_header[ \t]*\r?\n/.exec(head);
  // A UTF-8 byte order mark before `ply` (a header edited on Windows) is no part of the header.
  if (!head.startsWith('ply', byteOrderMark(bytes))) throw new BrepscopeError('PARSE_FAILED', `${name}: not a PLY file (it does not start with "ply")`);
  if (!endMatch) throw new BrepscopeError('PARSE_FAILED', `${name}: the PLY header has no end_header line in its first ${MAX_HEADER_BYTES} bytes (truncated or not PLY)`);
  const bodyStart = endMatch.index + endMatch[0].length;
  const lines = head.slice(0, bodyStart).split(/\r?\n/);
  let format: Header['format'] | undefined;
  const elements: Element[] = [];
  for (let n = 1; n < lines.length; n++) {
    const words = lines[n]!.trim().split(/\s+/);
    const where = `header line ${n + 1}`;
    switch (words[0]) {
      case 'format':
        if (words[1] !== 'ascii' && words[1] !== 'binary_little_endian' && words[1] !== 'binary_big_endian') {
          throw fail(name, where, `unknown PLY format '${words[1] ?? ''}'`);
        }
        format = words[1];
        break;
      case 'element': {
        const count = Number(words[2]);
        if (words.length !== 3 || !Number.isSafeInteger(count) || count < 0) throw fail(name, where, `bad element line '${lines[n]!.trim()}'`);
        elements.push({ name: words[1]!, count, properties: [], line: n + 1 });
        break;
      }
      case 'property': {
        const element = elements.at(-1);
        if (!element) throw fail(name, where, 'a property before any element');
        if (words[1] === 'list') {
          const countType = TYPES[words[2] ?? ''], type = TYPES[words[3] ?? ''];
          if (!countType || !type || words.length !== 5) throw fail(name, where, `unknown property type in '${lines[n]!.trim()}'`);
          element.properties.push({ name: words[4]!, type, countType });
        } else {
          const type = TYPES[words[1] ?? ''];
          if (!type || words.length !== 3) throw fail(name, where, `unknown property type in '${lines[n]!.trim()}'`);
          element.properties.push({ name: words[2]!, type });
        }
        break;
      }
      case 'comment':
      case 'obj_info':
      case 'end_header':
      case '':
        break;
      default:
        throw fail(name, where, `unexpected header line '${lines[n]!.trim()}'`);
    }
  }
  if (!format) throw new BrepscopeError('PARSE_FAILED', `${name}: the PLY header has no format line`);
  return { format, elements, bodyStart };
}

interface VertexLayout {
  xyz: [number, number, number];
  normal: [number, number, number] | undefined;
  color: [number, number, number] | undefined;
}

function vertexLayout(vertex: Element, name: string): VertexLayout {
  const at = (...names: string[]): number => vertex.properties.findIndex((p) => names.includes(p.name) && !p.countType);
  const triple = (a: string[], b: string[], c: string[]): [number, number, number] | undefined => {
    const t: [number, number, number] = [at(...a), at(...b), at(...c)];
    return t.every((i) => i >= 0) ? t : undefined;
  };
  const xyz = triple(['x'], ['y'], ['z']);
  if (!xyz) throw fail(name, `header line ${vertex.line}`, 'the vertex element has no x, y and z properties');
  return {
    xyz,
    normal: triple(['nx'], ['ny'], ['nz']),
    color: triple(['red', 'diffuse_red', 'r'], ['green', 'diffuse_green', 'g'], ['blue', 'diffuse_blue', 'b']),
  };
}

function faceListIndex(face: Element, name: string): number {
  const i = face.properties.findIndex((p) => p.countType && (p.name === 'vertex_indices' || p.name === 'vertex_index'));
  if (i < 0) throw fail(name, `header line ${face.line}`, 'the face element has no vertex_indices list');
  return i;
}

/** Refuses a header whose element counts need more bytes than the file has, before any allocation. */
function checkCountsFit(size: number, header: Header, name: string): void {
  const available = size - header.bodyStart;
  let need = 0;
  for (const e of header.elements) {
    // Smallest size of one element: binary, every scalar and every list count; ASCII, a digit and a separator each.
    const min = header.format === 'ascii' ? 2 * e.properties.length : e.properties.reduce((s, p) => s + SIZE[p.countType ?? p.type], 0);
    need += e.count * Math.max(min, 1);
    if (need > available) {
      throw fail(
        name,
        `header line ${e.line}`,
        `the header declares ${e.count} '${e.name}' elements, more than the ${available} bytes after the header can hold (truncated file?)`,
      );
    }
  }
}

class VertexSink {
  readonly positions: Float64Array | Float32Array;
  readonly normals: Float32Array | undefined;
  readonly colors: Uint8Array | undefined;
  /** Per property of the vertex element: 0 ignore, 1..3 position, 4..6 normal, 7..9 colour. */
  readonly role: Uint8Array;

  constructor(
    count: number,
    layout: VertexLayout,
    private readonly name: string,
    /** Keep the positions as float32 (a binary cloud whose coordinates are float32 or smaller). */
    float32 = false,
    /** A cloud: a NaN coordinate is kept, for measured() to drop a point of three or refuse one of fewer. */
    private readonly cloud = false,
  ) {
    this.positions = float32 ? new Float32Array(count * 3) : new Float64Array(count * 3);
    this.normals = layout.normal ? new Float32Array(count * 3) : undefined;
    this.colors = layout.color ? new Uint8Array(count * 3) : undefined;
    const n = Math.max(...layout.xyz, ...(layout.normal ?? []), ...(layout.color ?? [])) + 1;
    this.role = new Uint8Array(n);
    layout.xyz.forEach((p, k) => (this.role[p] = 1 + k));
    layout.normal?.forEach((p, k) => (this.role[p] = 4 + k));
    layout.color?.forEach((p, k) => (this.role[p] = 7 + k));
  }

  /**
   * A cloud's points without those whose x y z are all NaN (a structured scan's holes), how many
   * those were; PARSE_FAILED for a point with some NaN coordinates and not all.
   */
  measured(count: number): { positions: Float64Array | Float32Array; normals: Float32Array | undefined; colors: Uint8Array | undefined; count: number; skipped: number } {
    const { positions: p, normals: n, colors: c } = this;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const nan = (Number.isNaN(p[3 * i]!) ? 1 : 0) + (Number.isNaN(p[3 * i + 1]!) ? 1 : 0) + (Number.isNaN(p[3 * i + 2]!) ? 1 : 0);
      if (nan === 3) continue;
      if (nan > 0) {
        const axis = [0, 1, 2].find((k) => Number.isNaN(p[3 * i + k]!))!;
        throw new BrepscopeError('PARSE_FAILED', `${this.name}: vertex ${i}: ${'xyz'[axis]} is not a finite number (NaN)`);
      }
      if (kept !== i) {
        p.copyWithin(3 * kept, 3 * i, 3 * i + 3);
        n?.copyWithin(3 * kept, 3 * i, 3 * i + 3);
        c?.copyWithin(3 * kept, 3 * i, 3 * i + 3);
      }
      kept++;
    }
    if (kept === count) return { positions: p, normals: n, colors: c, count, skipped: 0 };
    return { positions: p.slice(0, 3 * kept), normals: n?.slice(0, 3 * kept), colors: c?.slice(0, 3 * kept), count: kept, skipped: count - kept };
  }

  set(i: number, property: number, value: number, element: Element): void {
    const role = this.role[property] ?? 0;
    if (role === 0) return;
    if (role <= 3) {
      if (!Number.isFinite(value) && !(this.cloud && Number.isNaN(value))) throw new BrepscopeError('PARSE_FAILED', `${this.name}: vertex ${i}: ${element.properties[property]!.name} is not a finite number (${value})`);
      this.positions[i * 3 + role - 1] = value;
    } else if (role <= 6) {
      // A writer's NaN for a point without a normal: no normal (0 0 0), never NaN in what tools read.
      this.normals![i * 3 + role - 4] = Number.isFinite(value) ? value : 0;
    } else {
      const type = element.properties[property]!.type;
      // Float colours are 0..1; 16-bit colours (PDAL's from LAS) 0..65535, scaled by 255 / 65535 = 1 / 257; other integers 0..255.
      const v = type === 'float32' || type === 'float64' ? value * 255 : type === 'uint16' ? value / 257 : value;
      this.colors![i * 3 + role - 7] = Math.min(255, Math.max(0, Math.round(v)));
    }
  }
}

class FaceSink {
  readonly indices: Uint32Builder;
  skipped = 0;
  constructor(
    count: number,
    private readonly vertexCount: number,
    private readonly name: string,
  ) {
    this.indices = new Uint32Builder(Math.max(3, Math.min(count * 3, 1 << 26)));
  }

  /** Reads one face's n indices and fans them into n - 2 triangles. */
  face(reader: ElementReader, prop: Property, n: number, faceIndex: number): void {
    if (n < 3) {
      this.skipped++;
      reader.skipList(prop, n);
      return;
    }
    let first = 0, previous = 0;
    for (let k = 0; k < n; k++) {
      const v = reader.scalar(prop);
      if (!Number.isInteger(v) || v < 0 || v >= this.vertexCount) {
        throw new BrepscopeError('PARSE_FAILED', `${this.name}: face ${faceIndex}: vertex index ${v} is not one of the ${this.vertexCount} vertices`);
      }
      if (k === 0) first = v;
      else if (k >= 2) {
        this.indices.push(first);
        this.indices.push(previous);
        this.indices.push(v);
      }
      previous = v;
    }
  }

  /**
   * Reads one triangle strip's n indices: -1 ends a strip; each next index makes a triangle with
   * the two before it, every second one turned (b a c) so the strip keeps one winding; the
   * degenerate triangles that join strips are dropped.
   */
  strip(reader: ElementReader, prop: Property, n: number, stripIndex: number): void {
    let a = -1, b = -1, k = 0;
    for (let j = 0; j < n; j++) {
      const v = reader.scalar(prop);
      if (v === -1) {
        a = b = -1;
        k = 0;
        continue;
      }
      if (!Number.isInteger(v) || v < 0 || v >= this.vertexCount) {
        throw new BrepscopeError('PARSE_FAILED', `${this.name}: tristrips ${stripIndex}: vertex index ${v} is not one of the ${this.vertexCount} vertices`);
      }
      if (k >= 2 && a !== b && b !== v && a !== v) {
        const odd = (k & 1) === 1;
        this.indices.push(odd ? b : a);
        this.indices.push(odd ? a : b);
        this.indices.push(v);
      }
      a = b;
      b = v;
      k++;
    }
  }
}

interface ElementReader {
  beginElement(element: Element, index: number): void;
  endElement(): void;
  /** `lenient`: a text `nan` or `inf` is that value, not an error (binary files hold them as they are). */
  scalar(prop: Property, lenient?: boolean): number;
  skipScalar(prop: Property): void;
  listCount(prop: Property): number;
  skipList(prop: Property, n: number): void;
}

/**
 * Binary records from a span of the file: the whole body, or (streamed) the bytes at file
 * offset `base` on, with more to come unless `final`, where a record that does not fit throws
 * OUT_OF_SPAN (its start and shortfall say what to read next) rather than a truncation.
 */
class BinaryReader implements ElementReader {
  private readonly view: DataView;
  private at: number;
  private element: Element | undefined;
  private index = 0;
  /** Where the current record starts in the span. */
  recordStart = 0;
  /** The bytes missing from the span when OUT_OF_SPAN was thrown. */
  shortfall = 0;

  constructor(
    private readonly bytes: Uint8Array,
    start: number,
    private readonly little: boolean,
    private readonly name: string,
    private readonly base = 0,
    private readonly final = true,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.at = start;
  }

  beginElement(element: Element, index: number): void {
    this.element = element;
    this.index = index;
    this.recordStart = this.at;
  }

  endElement(): void {}

  /** Where the reader is in the span: after the last element, the start of what follows the body. */
  get end(): number {
    return this.at;
  }

  private need(n: number): void {
    if (this.at + n > this.bytes.length) {
      if (!this.final) {
        this.shortfall = this.at + n - this.bytes.length;
        throw OUT_OF_SPAN;
      }
      throw new BrepscopeError(
        'PARSE_FAILED',
        `${this.name}: ${this.element!.name} ${this.index} of ${this.element!.count}: the file ends at byte ${this.base + this.bytes.length}, inside this element (truncated file)`,
      );
    }
  }

  private read(type: ScalarType): number {
    const v = this.view, at = this.at, le = this.little;
    this.at += SIZE[type];
    switch (type) {
      case 'float32':
        return v.getFloat32(at, le);
      case 'float64':
        return v.getFloat64(at, le);
      case 'int32':
        return v.getInt32(at, le);
      case 'uint32':
        return v.getUint32(at, le);
      case 'uint8':
        return v.getUint8(at);
      case 'int8':
        return v.getInt8(at);
      case 'int16':
        return v.getInt16(at, le);
      case 'uint16':
        return v.getUint16(at, le);
    }
  }

  scalar(prop: Property): number {
    this.need(SIZE[prop.type]);
    return this.read(prop.type);
  }

  skipScalar(prop: Property): void {
    this.need(SIZE[prop.type]);
    this.at += SIZE[prop.type];
  }

  listCount(prop: Property): number {
    this.need(SIZE[prop.countType!]);
    const n = this.read(prop.countType!);
    if (!Number.isInteger(n) || n < 0) throw new BrepscopeError('PARSE_FAILED', `${this.name}: ${this.element!.name} ${this.index}: list length ${n} is not a count`);
    this.need(n * SIZE[prop.type]);
    return n;
  }

  skipList(prop: Property, n: number): void {
    this.at += n * SIZE[prop.type];
  }
}

/**
 * ASCII records from a span of the file: the whole body, or (streamed) whole lines from file
 * offset `base` (line `line`) on, with more to come unless `final`, where a record the span does
 * not finish throws OUT_OF_SPAN (it is read again from `recordStart`, line `recordLine`, once the
 * next lines are in) rather than a truncation. A span ends at a line end, so no token is cut.
 */
class AsciiReader implements ElementReader {
  private readonly scanner: TextScanner;
  private element: Element | undefined;
  private index = 0;
  /** Where the current record starts in the span, and its line. */
  recordStart = 0;
  recordLine = 0;

  constructor(
    bytes: Uint8Array,
    start: number,
    private readonly name: string,
    private readonly base = 0,
    line?: number,
    private readonly final = true,
  ) {
    this.scanner = new TextScanner(bytes, start);
    // Line numbers in messages count from the top of the file.
    this.scanner.line = line ?? lineAt(bytes, start);
  }

  beginElement(element: Element, index: number): void {
    this.element = element;
    this.index = index;
    this.recordStart = this.scanner.pos;
    this.recordLine = this.scanner.line;
  }

  endElement(): void {}

  /** Where the scanner is in the span, and its line: after the last element, the start of what follows the body. */
  get pos(): number {
    return this.scanner.pos;
  }

  get line(): number {
    return this.scanner.line;
  }

  scalar(prop: Property, lenient = false): number {
    const s = this.scanner;
    if (!s.tokenAnywhere()) {
      if (!this.final) throw OUT_OF_SPAN;
      throw new BrepscopeError(
        'PARSE_FAILED',
        `${this.name}: line ${s.line}: ${this.element!.name} ${this.index} of ${this.element!.count}: the file ends before its '${prop.name}' (truncated file)`,
      );
    }
    const v = s.tokenNumber();
    if (!Number.isFinite(v)) {
      if (lenient) {
        const text = s.tokenText();
        // As a binary file holds them: an infinity is one (and still no coordinate), the rest NaN.
        if (NOT_A_NUMBER.test(text)) return /inf/i.test(text) ? (text.startsWith('-') ? -Infinity : Infinity) : NaN;
      }
      throw new BrepscopeError(
        'PARSE_FAILED',
        `${this.name}: line ${s.line}: ${this.element!.name} ${this.index}: ${quoteBytes(s.bytes, s.tokenStart, s.tokenEnd)} is not a ${Number.isNaN(v) ? '' : 'finite '}number (${prop.name}) at byte ${this.base + s.tokenStart}`,
      );
    }
    return v;
  }

  skipScalar(prop: Property): void {
    this.scalar(prop, true);
  }

  listCount(prop: Property): number {
    const n = this.scalar({ name: `${prop.name} count`, type: prop.countType! });
    if (!Number.isInteger(n) || n < 0) throw new BrepscopeError('PARSE_FAILED', `${this.name}: line ${this.scanner.line}: ${this.element!.name} ${this.index}: list length ${n} is not a count`);
    return n;
  }

  skipList(prop: Property, n: number): void {
    for (let k = 0; k < n; k++) this.scalar(prop, true);
  }
}

/** How C libraries print NaN and infinity (glibc `nan`, `-nan`, `inf`; MSVC `-nan(ind)`, `1.#QNAN`, `-1.#IND`, `1.#INF`). */
const NOT_A_NUMBER = /^[-+]?(nan(\([a-z0-9_]*\))?|inf(inity)?|1\.#(inf|ind|qnan|snan)0*)$/i;

/**
 * The first byte from `from` on that is not blank (space, tab, CR, NUL padding, a DOS end-of-file
 * mark) or a line end: its offset in `bytes` and line, or only the line reached at the end.
 */
function firstValue(bytes: Uint8Array, from: number, line: number): { line: number; at?: number } {
  for (let i = from; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === NL) line++;
    else if (c !== 32 && c !== 9 && c !== 13 && c !== 0 && c !== 26) return { line, at: i };
  }
  return { line };
}

/**
 * A number after the last element the header declares: the header does not describe the body (a
 * property it omits would shift every value after the first record; a vertex count too small
 * drops points), so nothing is read rather than something wrong. Words there (a writer's trailer)
 * are not read and do no harm.
 */
function valuesAfterBody(name: string, line: number, at: number): BrepscopeError {
  return new BrepscopeError('PARSE_FAILED', `${name}: line ${line}: a number at byte ${at} after the last element the header declares: the header does not describe the body (a property or element missing from it, or counts too small)`);
}

/** Whether bytes[from..] are only what writers pad a binary body with: NUL, line ends, blanks. */
function padding(bytes: Uint8Array, from: number): boolean {
  for (let i = from; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c !== 0 && c !== NL && c !== 13 && c !== 32) return false;
  }
  return true;
}

/** A binary body followed by more than padding: as valuesAfterBody, the header does not describe the file. */
function bytesAfterBody(name: string, end: number, after: number): BrepscopeError {
  return new BrepscopeError('PARSE_FAILED', `${name}: the body the header declares ends at byte ${end}, and ${after} more bytes follow: the header does not describe the body (a property or element missing from it, or counts too small)`);
}

/** Whether a token starting with byte `c` can be a number (a digit, a sign or a point). */
function startsNumber(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46;
}

/** The 1-based line number of byte `at`. */
function lineAt(bytes: Uint8Array, at: number): number {
  let line = 1;
  for (let i = bytes.indexOf(NL); i >= 0 && i < at; i = bytes.indexOf(NL, i + 1)) line++;
  return line;
}
