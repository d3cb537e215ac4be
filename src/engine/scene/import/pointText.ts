import { BrepscopeError } from '../../errors';
import type { PointCloud } from './PointCloud';
import { Float64Builder, MAX_QUOTE, TextScanner, quoteBytes } from './textScanner';

/** Header lines tolerated before the first point: a title, a count, column names. */
const MAX_HEADER_LINES = 5;

/**
 * Parses a text point file (`.xyz`, `.pts`, `.txt`, `.csv`): one point per line, `x y z` with
 * optional `nx ny nz`, separated by blanks or commas. Lines before the first numeric one are a
 * header: tolerated, and used to find the columns when it names them (`x,y,z,nx,ny,nz`). Without
 * names, 6 columns are x y z nx ny nz and 7 are Leica PTS (x y z intensity r g b). Every data line
 * must have the same number of columns; a non-number, NaN or infinity fails naming the line.
 */
export function parsePointText(bytes: Uint8Array, name: string): { cloud: PointCloud; notes: string[] } {
  const s = new TextScanner(bytes, 0, { commaIsBlank: true });
  const header: string[] = [];
  const row: number[] = [];
  let columns = 0;
  let layout: Layout | undefined;
  let positions = new Float64Builder(), normals = new Float64Builder(), colors = new Float64Builder();
  const notes: string[] = [];
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
        at = s.tokenStart;
        break;
      }
      row.push(v);
    } while (s.token());
    if (!layout) {
      // Still in the header: a line with a word, or a lone count (PTS starts with the point count).
      if (text !== undefined || row.length < 3) {
        if (header.length >= MAX_HEADER_LINES) throw bad(text !== undefined ? `${text} is not a number at byte ${at}` : `a point needs x y z, this line has ${row.length} numbers`);
        header.push(lineText(s.bytes, s.tokenStart));
        continue;
      }
      columns = row.length;
      layout = chooseLayout(header, columns, notes);
      // Room for as many points as lines of this length fit in the file, so a 5M-point file does not grow by doubling.
      const lines = Math.ceil((bytes.length - lineStart) / Math.max(1, s.pos - lineStart)) + 16;
      positions = new Float64Builder(lines * 3);
      if (layout.normal) normals = new Float64Builder(lines * 3);
      if (layout.color) colors = new Float64Builder(lines * 3);
    } else if (text !== undefined) {
      throw bad(`${text} is not a finite number at byte ${at}`);
    } else if (row.length !== columns) {
      throw bad(`${row.length} numbers where the lines before have ${columns}`);
    }
    for (const c of layout.xyz) positions.push(row[c]!);
    if (layout.normal) for (const c of layout.normal) normals.push(row[c]!);
    if (layout.color) for (const c of layout.color) colors.push(row[c]!);
  }
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
