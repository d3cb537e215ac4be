import { BrepscopeError } from '../../errors';
import type { MeshOrCloud } from './ply';
import { readLinePieces } from './linePieces';
import type { FilePieces } from './stl';
import { Float64Builder, TextScanner, Uint32Builder, byteOrderMark, quoteBytes, refuseCarriageReturnLines } from './textScanner';

const SLASH = 47;

/**
 * Parses a Wavefront OBJ file's geometry: `v` (with the common `v x y z r g b` colour extension),
 * `vn`, and `f` in every index form (`v`, `v/vt`, `v//vn`, `v/vt/vn`, negative indices counting
 * back from the latest vertex), polygons fanned into triangles. Every object and group becomes part
 * of one body. Materials, texture coordinates, lines and points are not geometry we measure: they
 * are ignored, with a note. A backslash at a line's end continues it. A file with vertices and no
 * faces is a point cloud.
 */
export function parseObj(bytes: Uint8Array, name: string): MeshOrCloud {
  const body = new ObjBody(name);
  body.read(bytes, 0);
  return body.result();
}

/**
 * An OBJ read piece by piece as it streams by (FilePieces; pieces of any size, a line may straddle
 * two): each run of whole lines is parsed as it arrives, the partial last line carried over to the
 * next piece, so the file is never whole in memory. The same line loop as parseObj, so the same
 * result and the same errors (line numbers and byte offsets counted over the whole file). When
 * `signature` (no format was requested), a file whose first bytes say it is another format is
 * gathered whole and returned as bytes, for the importer to read as it reads any file.
 */
export async function readObjPieces(file: FilePieces, name: string, signature = false): Promise<{ content: MeshOrCloud } | { bytes: Uint8Array }> {
  const body = new ObjBody(name);
  const other = await readLinePieces(file, name, 'obj', signature, (lines, base) => body.read(lines, base));
  return other ?? { content: body.result() };
}

/** An OBJ's geometry read into growable arrays, a run of whole lines at a time (the last may lack its newline). */
class ObjBody {
  private readonly positions = new Float64Builder();
  private readonly colors = new Float64Builder();
  private readonly normals = new Float64Builder();
  private readonly indices = new Uint32Builder();
  private readonly cornerNormals = new Uint32Builder(); // per corner: normal index + 1, 0 when none
  private withColor = 0;
  private withoutColor = 0;
  private groups = 0;
  private materials = false;
  private ignoredElements = 0;
  // Forward references, checked once every vertex is known: the corner's own index, whichever
  // corner of the polygon it is (a slot in the fanned triangles is not the corner's position).
  private readonly pending: { vertex: number; line: number; index: number }[] = [];
  private readonly face: number[] = [];
  private readonly faceNormals: number[] = [];
  /** 1-based number of the next line to read. */
  private line = 1;
  /** A line continued (`\\` at its end) past the lines read so far: read with the next ones. */
  private held: { bytes: Uint8Array; base: number } | undefined;

  constructor(private readonly name: string) {}

  /**
   * Reads whole lines: `bytes` starts a line, at byte `base` of the file. A last line that a
   * backslash continues is held back and read with the next lines (or by result()), so a
   * continued line is read whole however the file was cut into pieces.
   */
  read(lines: Uint8Array, lineBase: number, final = false): void {
    let bytes = lines, base = lineBase;
    if (this.held) {
      bytes = new Uint8Array(this.held.bytes.length + lines.length);
      bytes.set(this.held.bytes);
      bytes.set(lines, this.held.bytes.length);
      base = this.held.base;
      this.held = undefined;
    }
    if (!final) {
      const start = continuedStart(bytes);
      if (start < bytes.length) {
        this.held = { bytes: bytes.slice(start), base: base + start };
        bytes = bytes.subarray(0, start);
      }
    }
    if (base === 0) refuseCarriageReturnLines(bytes, this.name);
    const s = new TextScanner(bytes, base === 0 ? byteOrderMark(bytes) : 0, { lineContinuation: true });
    s.line = this.line;
    const { positions, colors, normals, indices, cornerNormals, pending, face, faceNormals } = this;
    const bad = (what: string): BrepscopeError => new BrepscopeError('PARSE_FAILED', `${this.name}: line ${s.line}: ${what}`);
    const coordinate = (what: string): number => {
      if (!s.token()) throw bad(`${what} is missing`);
      const v = s.tokenNumber();
      if (!Number.isFinite(v)) throw bad(`${quoteBytes(s.bytes, s.tokenStart, s.tokenEnd)} is not a finite number (${what}) at byte ${base + s.tokenStart}`);
      return v;
    };

    for (; !s.atEnd(); s.nextLine()) {
      if (!s.token()) continue;
      const b0 = bytes[s.tokenStart]!, len = s.tokenEnd - s.tokenStart;
      if (b0 === 35 /* # */) continue;
      if (len === 1 && b0 === 118 /* v */) {
        positions.push(coordinate('x'));
        positions.push(coordinate('y'));
        positions.push(coordinate('z'));
        const w = s.number();
        if (Number.isNaN(w)) {
          this.withoutColor++;
          continue;
        }
        const g = s.number(), b = s.number();
        if (Number.isNaN(g) || Number.isNaN(b)) {
          this.withoutColor++;
          continue;
        }
        this.withColor++;
        if (this.withoutColor === 0) for (const c of [w, g, b]) colors.push(c);
      } else if (s.tokenIs('vn')) {
        normals.push(coordinate('nx'));
        normals.push(coordinate('ny'));
        normals.push(coordinate('nz'));
      } else if (len === 1 && b0 === 102 /* f */) {
        face.length = 0;
        faceNormals.length = 0;
        const vertexCount = positions.length / 3, normalCount = normals.length / 3;
        while (s.token()) {
          if (bytes[s.tokenStart] === 35 /* # */) break; // a comment after the corners
          const [v, n] = readCorner(s, base, bad);
          const vi = v < 0 ? vertexCount + v : v - 1;
          if (vi < 0) throw bad(`face index ${v} refers to no vertex (${vertexCount} defined so far)`);
          if (vi >= vertexCount) pending.push({ vertex: vi, line: s.line, index: v });
          face.push(vi);
          const ni = n === 0 ? -1 : n < 0 ? normalCount + n : n - 1;
          if (n !== 0 && (ni < 0 || ni >= normalCount)) throw bad(`face normal index ${n} refers to no normal (${normalCount} defined so far)`);
          faceNormals.push(ni + 1);
        }
        if (face.length < 3) throw bad(`a face needs at least 3 vertices, this one has ${face.length}`);
        for (let k = 2; k < face.length; k++) {
          for (const c of [0, k - 1, k]) {
            indices.push(face[c]!);
            cornerNormals.push(faceNormals[c]!);
          }
        }
      } else if (s.tokenIs('o') || s.tokenIs('g')) {
        this.groups++;
      } else if (s.tokenIs('usemtl') || s.tokenIs('mtllib')) {
        this.materials = true;
      } else if (s.tokenIs('l') || s.tokenIs('p') || s.tokenIs('curv') || s.tokenIs('surf')) {
        this.ignoredElements++;
      }
    }
    this.line = s.line;
  }

  result(): MeshOrCloud {
    if (this.held) this.read(new Uint8Array(0), 0, true);
    const { name, positions, colors, normals, indices, cornerNormals, withColor, withoutColor, groups, materials, ignoredElements } = this;
    const vertexCount = positions.length / 3;
    for (const p of this.pending) {
      if (p.vertex >= vertexCount) {
        throw new BrepscopeError('PARSE_FAILED', `${name}: line ${p.line}: face index ${p.index} refers to no vertex (the file defines ${vertexCount})`);
      }
    }
    if (vertexCount === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the OBJ file has no vertices`);

    const notes: string[] = [];
    if (materials) notes.push('materials (mtllib, usemtl) are ignored: only the geometry is read');
    if (groups > 1) notes.push(`${groups} objects and groups are read as one body`);
    if (ignoredElements > 0) notes.push(`${ignoredElements} line, point or free-form elements are ignored`);
    const colorArray = withColor > 0 && withoutColor === 0 ? toColorBytes(colors.toArray()) : undefined;
    if (withColor > 0 && withoutColor > 0) notes.push('vertex colours are ignored: only some vertices have them');

    if (indices.length === 0) {
      return { kind: 'points', cloud: { positions: positions.toArray(), colors: colorArray, count: vertexCount }, notes };
    }
    return {
      kind: 'mesh',
      mesh: { positions: positions.toArray(), indices: indices.toArray(), normals: vertexNormals(normals.toArray(), indices, cornerNormals, vertexCount), colors: colorArray },
      notes,
    };
  }
}

/** Where the last line of `bytes` starts when a backslash continues it (and the lines it continues), else bytes.length. */
function continuedStart(bytes: Uint8Array): number {
  let end = bytes.length;
  for (;;) {
    if (end === 0 || bytes[end - 1] !== 10) return end;
    const before = bytes[end - 2] === 13 ? end - 3 : end - 2;
    if (before < 0 || bytes[before] !== 92) return end;
    // The physical line this continuation ends; the line before it may continue into it too.
    end = bytes.lastIndexOf(10, before) + 1;
  }
}

/** One `v`, `v/vt`, `v//vn` or `v/vt/vn` corner: the vertex and normal indices as written (0: no normal). */
function readCorner(s: TextScanner, base: number, bad: (what: string) => BrepscopeError): [number, number] {
  const b = s.bytes;
  const fields: number[] = [];
  let p = s.tokenStart;
  while (fields.length < 3) {
    let sign = 1, value = 0, digits = 0;
    if (b[p] === 45) {
      sign = -1;
      p++;
    }
    for (; p < s.tokenEnd && b[p]! >= 48 && b[p]! <= 57; p++, digits++) value = value * 10 + b[p]! - 48;
    if (digits === 0 && !(fields.length === 1 && b[p] === SLASH)) break;
    fields.push(digits === 0 ? 0 : sign * value);
    if (p === s.tokenEnd || b[p] !== SLASH) break;
    p++;
  }
  if (p === s.tokenEnd && fields[0] === 0) throw bad(`face index 0 in ${quoteBytes(s.bytes, s.tokenStart, s.tokenEnd)} refers to no vertex (OBJ counts vertices from 1, or back from -1) at byte ${base + s.tokenStart}`);
  if (p !== s.tokenEnd || fields.length === 0 || fields[0] === 0 || !Number.isSafeInteger(fields[0])) throw bad(`${quoteBytes(s.bytes, s.tokenStart, s.tokenEnd)} is not a face corner (v, v/vt, v//vn or v/vt/vn) at byte ${base + s.tokenStart}`);
  return [fields[0]!, fields[2] ?? 0];
}

/** Per vertex, the normal of the first corner that gives one (OBJ normals belong to corners). */
function vertexNormals(normals: Float64Array, indices: Uint32Builder, cornerNormals: Uint32Builder, vertexCount: number): Float32Array | undefined {
  if (normals.length === 0) return undefined;
  const out = new Float32Array(vertexCount * 3);
  const set = new Uint8Array(vertexCount);
  let any = false;
  for (let c = 0; c < indices.length; c++) {
    const n = cornerNormals.data[c]!;
    const v = indices.data[c]!;
    if (n === 0 || set[v]) continue;
    set[v] = 1;
    any = true;
    out.set(normals.subarray((n - 1) * 3, n * 3), v * 3);
  }
  return any ? out : undefined;
}

/** Colours come as 0..1 (most writers) or 0..255. */
function toColorBytes(colors: Float64Array): Uint8Array {
  let max = 0;
  for (const c of colors) max = Math.max(max, c);
  const scale = max <= 1 ? 255 : 1;
  return Uint8Array.from(colors, (c) => Math.min(255, Math.max(0, Math.round(c * scale))));
}
