import { BrepscopeError } from '../../errors';
import { readLinePieces } from './linePieces';
import type { MeshOrCloud } from './ply';
import type { PointCloud } from './PointCloud';
import type { FilePieces } from './stl';
import { Float64Builder, MAX_QUOTE, TextScanner, quoteBytes } from './textScanner';

/** Header lines tolerated before the first point: a title, a count, column names. */
const MAX_HEADER_LINES = 5;

/**
 * Parses a text point file (`.xyz`, `.pts`, `.txt`, `.csv`): one point per line, `x y z` with
 * optional `nx ny nz`, separated by blanks or commas. Lines before the first numeric one are a
 * header: tolerated, and used to find the columns when it names them (`x,y,z,nx,ny,nz`). Without
 * names, 6 columns are x y z nx ny nz and 7 are Leica PTS (x y z intensity r g b). Every data line
 * must have the same number of columns; a non-number, NaN or infinity fails naming the line.
 * The streamed reader (readPointTextPieces) given the whole file as one run of lines.
 */
export function parsePointText(bytes: Uint8Array, name: string): { cloud: PointCloud; notes: string[] } {
  const reader = new PointTextReader(name, bytes.length);
  reader.read(bytes, 0);
  return reader.result();
}

/**
 * A text point file read piece by piece as it streams by (readLinePieces: runs of whole lines, the
 * partial last line carried over), never whole in memory; the same line loop as parsePointText, so
 * the same cloud and the same errors (line numbers and byte offsets over the whole file). When
 * `signature` (no format was requested), a file whose head resolveFormat judges another format is
 * gathered whole and returned as bytes, for the importer to read as it reads any file.
 */
export async function readPointTextPieces(file: FilePieces, name: string, signature = false): Promise<{ content: MeshOrCloud } | { bytes: Uint8Array }> {
  const reader = new PointTextReader(name, file.size);
  const other = await readLinePieces(file, name, 'xyz', signature, (lines, base) => reader.read(lines, base));
  if (other) return other;
  const { cloud, notes } = reader.result();
  return { content: { kind: 'points', cloud, notes } };
}

/** A text point file read into growable arrays, a run of whole lines at a time (the last may lack its newline). */
class PointTextReader {
  private readonly header: string[] = [];
  private readonly row: number[] = [];
  private columns = 0;
  private layout: Layout | undefined;
  private positions = new Float64Builder();
  private normals = new Float64Builder();
  private colors = new Float64Builder();
  private readonly notes: string[] = [];
  /** 1-based number of the next line to read. */
  private line = 1;

  /** `fileSize`: the whole file's bytes, for the preallocation. */
  constructor(
    private readonly name: string,
    private readonly fileSize: number,
  ) {}

  /** Reads whole lines: `bytes` starts a line, at byte `base` of the file. */
  read(bytes: Uint8Array, base: number): void {
    const s = new TextScanner(bytes, 0, { commaIsBlank: true });
    s.line = this.line;
    const { header, row, name } = this;
    const bad = (what: string): BrepscopeError => new BrepscopeError('PARSE_FAILED', `${name}: line ${s.line}: ${what}`);

    for (; !s.atEnd(); s.nextLine()) {
      row.length = 0;
      const lineStart = s.pos;
      if (!s.token()) continue;
      if (s.bytes[s.tokenStart] === 35 /* # */ || s.tokenIs('//')) continue;
      let text: string | undefined;
      let at = 0;
      do {
        const v = s.tokenNumber();
        if (!Number.isFinite(v)) {
          text = `${quoteBytes(s.bytes, s.tokenStart, s.tokenEnd)}`;
          at = base + s.tokenStart;
          break;
        }
        row.push(v);
      } while (s.token());
      let layout = this.layout;
      if (!layout) {
        // Still in the header: a line with a word, or a lone count (PTS starts with the point count).
        if (text !== undefined || row.length < 3) {
          if (header.length >= MAX_HEADER_LINES) throw bad(text !== undefined ? `${text} is not a number at byte ${at}` : `a point needs x y z, this line has ${row.length} numbers`);
          header.push(lineText(s.bytes, s.tokenStart));
          continue;
        }
        this.columns = row.length;
        layout = this.layout = chooseLayout(header, this.columns, this.notes);
        // Room for as many points as lines of this length fit in the file, so a 5M-point file does not grow by doubling.
        const lines = Math.ceil((this.fileSize - (base + lineStart)) / Math.max(1, s.pos - lineStart)) + 16;
        this.positions = new Float64Builder(lines * 3);
        if (layout.normal) this.normals = new Float64Builder(lines * 3);
        if (layout.color) this.colors = new Float64Builder(lines * 3);
      } else if (text !== undefined) {
        throw bad(`${text} is not a finite number at byte ${at}`);
      } else if (row.length !== this.columns) {
        throw bad(`${row.length} numbers where the lines before have ${this.columns}`);
      }
      if (this.positions.length === this.positions.data.length) this.reserveRest(base + s.pos);
      for (const c of layout.xyz) this.positions.push(row[c]!);
      if (layout.normal) for (const c of layout.normal) this.normals.push(row[c]!);
      if (layout.color) for (const c of layout.color) this.colors.push(row[c]!);
    }
    this.line = s.line;
  }

  /**
   * The first line's length guessed the point count short: room for the rest of the file at the
   * bytes a point the lines read so far took (and 2 % more), not a doubling, which at 20M points
   * would hold hundreds of megabytes it never fills.
   */
  private reserveRest(readTo: number): void {
    const points = this.positions.length / 3;
    const perPoint = Math.max(1, readTo / Math.max(1, points));
    const more = Math.ceil(((this.fileSize - readTo) / perPoint) * 1.02) + 16;
    for (const b of [this.positions, this.normals, this.colors]) if (b.length > 0) b.reserve(3 * (points + more));
  }

  result(): { cloud: PointCloud; notes: string[] } {
    const { layout, positions, normals, colors, notes, name } = this;
    if (!layout || positions.length === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the file has no lines of x y z numbers`);
    const count = positions.length / 3;
    return {
      cloud: {
        positions: positions.toArray(),
        normals: layout.normal ? Float32Array.from(normals.toArray()) : undefined,
        colors: layout.color ? Uint8Array.from(colors.toArray(), (c) => Math.min(255, Math.max(0, Math.round(c)))) : undefined,
        count,
      },
      notes,
    };
  }
}

interface Layout {
  xyz: number[];
  normal?: number[] | undefined;
  color?: number[] | undefined;
}

function chooseLayout(header: string[], columns: number, notes: string[]): Layout {
  const names = (header.at(-1) ?? '').toLowerCase().split(/[\s,;]+/).filter(Boolean).map((n) => n.replace(/^\/\/|^#/, ''));
  if (names.length === columns) {
    const find = (...options: string[]): number => names.findIndex((n) => options.includes(n));
    const triple = (a: string[], b: string[], c: string[]): number[] | undefined => {
      const t = [find(...a), find(...b), find(...c)];
      return t.every((i) => i >= 0) ? t : undefined;
    };
    const xyz = triple(['x', '//x'], ['y'], ['z']);
    if (xyz) return { xyz, normal: triple(['nx', 'normal_x'], ['ny', 'normal_y'], ['nz', 'normal_z']), color: triple(['r', 'red'], ['g', 'green'], ['b', 'blue']) };
  }
  if (columns === 6) return { xyz: [0, 1, 2], normal: [3, 4, 5] };
  if (columns === 7) return { xyz: [0, 1, 2], color: [4, 5, 6] };
  if (columns !== 3) notes.push(`${columns} columns per line: the first three are read as x y z, the others are ignored`);
  return { xyz: [0, 1, 2] };
}

/** The whole line around byte `at`. */
function lineText(bytes: Uint8Array, at: number): string {
  let start = at;
  while (start > 0 && bytes[start - 1] !== 10) start--;
  let end = bytes.indexOf(10, at);
  if (end < 0) end = bytes.length;
  // Column names fit in a few hundred characters; a header line of megabytes is not decoded whole.
  return new TextDecoder('latin1').decode(bytes.subarray(start, Math.min(end, start + 64 * MAX_QUOTE))).trim();
}
