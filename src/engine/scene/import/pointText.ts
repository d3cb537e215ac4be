import { BrepscopeError } from '../../errors';
import { readLinePieces } from './linePieces';
import type { MeshOrCloud } from './ply';
import type { PointCloud } from './PointCloud';
import type { FilePieces } from './stl';
import { Float64Builder, MAX_QUOTE, NAN_TEXT, TextScanner, byteOrderMark, quoteBytes, refuseCarriageReturnLines, type TextSyntax } from './textScanner';

/** Header lines tolerated before the first point: a title, a count, column names. */
const MAX_HEADER_LINES = 5;

/**
 * Parses a text point file (`.xyz`, `.pts`, `.txt`, `.csv`, `.asc`): one point per line, `x y z`
 * with optional normals and colours, separated by blanks, commas or semicolons, decimal commas read
 * where no comma separates (separatorsOf). Lines before the first numeric one are a header:
 * tolerated, and used to find the columns when it names them (`x,y,z,nx,ny,nz`, quoted, or in a
 * `//` or `#` comment). Unnamed columns are judged by their values (judgeTriples). Every data line
 * must have the same number of columns; a non-number, NaN or infinity fails naming the line, except
 * a line whose x y z are all nan (a point not measured), which is skipped with a note.
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
  private headerLines = 0;
  private readonly row: number[] = [];
  private columns = 0;
  private layout: Layout | undefined;
  /** Separators and decimal mark: judged on each line until the first point with a number, then kept. */
  private separators: TextSyntax = { commaIsBlank: true };
  private judged = false;
  private positions = new Float64Builder();
  private normals = new Float64Builder();
  private colors = new Float64Builder();
  /** Unnamed column triples (x y z a b c [d e f]) kept until every line is in, then judged normals or colours. */
  private readonly guessed: Float64Builder[] = [];
  private readonly notes: string[] = [];
  /** Lone counts between points (a PTS of several scans), skipped. */
  private countLines = 0;
  /** The last lone count (a PTS count line: before the points, or between scans) and its line. */
  private announced: { count: number; line: number } | undefined;
  /** Point lines (measured or nan) since that count. */
  private sinceCount = 0;
  /** Counts that disagree with the points after them, as notes. */
  private readonly countMismatches: string[] = [];
  /** Lines whose x y z are all nan, skipped. */
  private unmeasured = 0;
  /** 1-based number of the next line to read. */
  private line = 1;

  /** `fileSize`: the whole file's bytes, for the preallocation. */
  constructor(
    private readonly name: string,
    private readonly fileSize: number,
  ) {}

  /** Reads whole lines: `bytes` starts a line, at byte `base` of the file. */
  read(bytes: Uint8Array, base: number): void {
    const { header, row, name } = this;
    if (base === 0) refuseCarriageReturnLines(bytes, name);
    const s = new TextScanner(bytes, base === 0 ? byteOrderMark(bytes) : 0, this.separators);
    s.line = this.line;
    const bad = (what: string): BrepscopeError => new BrepscopeError('PARSE_FAILED', `${name}: line ${s.line}: ${what}`);

    for (; !s.atEnd(); s.nextLine()) {
      row.length = 0;
      const lineStart = s.pos;
      if (!s.token()) continue;
      const b0 = s.bytes[s.tokenStart], b1 = s.bytes[s.tokenStart + 1];
      if (b0 === 35 /* # */ || (b0 === 47 && b1 === 47) /* // */) {
        // A comment; before the first point it may name the columns (CloudCompare's `//X Y Z`).
        if (!this.layout) header.push(lineText(s.bytes, s.tokenStart));
        continue;
      }
      if (!this.judged) {
        const separators = separatorsOf(lineText(s.bytes, s.tokenStart));
        if (!sameSeparators(separators, this.separators)) {
          this.separators = separators;
          s.separate(separators);
          s.pos = lineStart;
          s.token();
        }
      }
      let text: string | undefined;
      let at = 0;
      // The first `nan` of the line: a row of them is a point the scanner did not measure (a structured grid's hole).
      let nanText: string | undefined;
      let nanAt = 0;
      do {
        const v = s.tokenNumber();
        if (!Number.isFinite(v)) {
          if (Number.isNaN(v) && NAN_TEXT.test(s.tokenText())) {
            if (nanText === undefined) {
              nanText = quoteBytes(s.bytes, s.tokenStart, s.tokenEnd);
              nanAt = base + s.tokenStart;
            }
            row.push(NaN);
            continue;
          }
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
          if (this.headerLines >= MAX_HEADER_LINES) throw bad(text !== undefined ? `${text} is not a number at byte ${at}` : `a point needs x y z, this line has ${row.length} numbers`);
          this.headerLines++;
          // A lone count before the points (the last, if several: a scan number may come first).
          if (text === undefined && row.length === 1) this.announced = Number.isInteger(row[0]) && row[0]! >= 0 ? { count: row[0]!, line: s.line } : undefined;
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
        for (let k = 0; k < (layout.guess?.length ?? 0); k++) this.guessed.push(new Float64Builder(lines * 3));
      } else if (text !== undefined) {
        throw bad(`${text} is not a finite number at byte ${at}`);
      } else if (row.length === 1 && Number.isInteger(row[0]) && row[0]! >= 0) {
        // The count line of the next scan in a PTS of several.
        this.countLines++;
        this.announce(row[0]!, s.line);
        continue;
      } else if (row.length !== this.columns) {
        throw bad(`${row.length} numbers where the lines before have ${this.columns}`);
      }
      if (!this.judged && row.some((v) => !Number.isNaN(v))) {
        // The first point with a number: its separators are kept (a row of nan says nothing of them).
        this.judged = true;
        const mixed = mixedSeparators(lineText(s.bytes, lineStart), this.separators);
        if (mixed) throw bad(mixed);
        if (this.separators.decimalComma && DECIMAL_COMMA_IN.test(lineText(s.bytes, lineStart))) this.notes.push('decimal commas: numbers such as 1,5 are read as 1.5');
      }
      this.sinceCount++;
      if (nanText !== undefined) {
        const unmeasured = layout.xyz.filter((c) => Number.isNaN(row[c])).length;
        if (unmeasured === 3) {
          this.unmeasured++;
          continue;
        }
        if (unmeasured > 0) throw bad(`${nanText} is not a finite number at byte ${nanAt}`);
        // A nan normal or colour of a measured point: none (0).
        for (let k = 0; k < row.length; k++) if (Number.isNaN(row[k])) row[k] = 0;
      }
      if (this.positions.length === this.positions.data.length) this.reserveRest(base + s.pos);
      for (const c of layout.xyz) this.positions.push(row[c]!);
      if (layout.normal) for (const c of layout.normal) this.normals.push(row[c]!);
      if (layout.color) for (const c of layout.color) this.colors.push(row[c]!);
      if (layout.guess) {
        for (let k = 0; k < layout.guess.length; k++) {
          const first = layout.guess[k]!, into = this.guessed[k]!;
          into.push(row[first]!);
          into.push(row[first + 1]!);
          into.push(row[first + 2]!);
        }
      }
    }
    this.line = s.line;
  }

  /**
   * A lone count at `line`: the points after it are counted, and a count that disagrees with them
   * (a file cut short at a line end, a damaged line that is one number) is said in a note.
   */
  private announce(count: number, line: number): void {
    this.closeCount();
    this.announced = Number.isInteger(count) && count >= 0 ? { count, line } : undefined;
  }

  private closeCount(): void {
    const { announced, sinceCount } = this;
    if (announced && sinceCount !== announced.count) this.countMismatches.push(`line ${announced.line} announces ${announced.count} points, ${sinceCount} follow`);
    this.sinceCount = 0;
    this.announced = undefined;
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
    for (const b of [this.positions, this.normals, this.colors, ...this.guessed]) if (b.length > 0) b.reserve(3 * (points + more));
  }

  result(): { cloud: PointCloud; notes: string[] } {
    const { layout, positions, notes, name } = this;
    if (layout && positions.length === 0 && this.unmeasured > 0) throw new BrepscopeError('EMPTY_MESH', `${name}: every point of the file is nan (none was measured)`);
    if (!layout || positions.length === 0) throw new BrepscopeError('EMPTY_MESH', `${name}: the file has no lines of x y z numbers`);
    const count = positions.length / 3;
    if (this.countLines > 0) notes.push(`${this.countLines} point counts between the points (a PTS of several scans) are skipped: the scans are one cloud`);
    this.closeCount();
    const mismatches = this.countMismatches;
    if (mismatches.length > 0) {
      const shown = mismatches.slice(0, 3).join('; ') + (mismatches.length > 3 ? `; and ${mismatches.length - 3} more` : '');
      notes.push(`point counts that disagree with the points after them (a file cut short, or a line of one number that is no count): ${shown}`);
    }
    if (this.unmeasured > 0) notes.push(`${this.unmeasured} points whose x y z are nan (not measured) are skipped`);
    let normals = layout.normal ? this.normals.toArray() : undefined;
    let colors = layout.color ? namedColours(this.colors.toArray(), notes) : undefined;
    if (layout.guess) ({ normals, colors } = judgeTriples(layout.guess, this.guessed, this.columns, notes));
    return {
      cloud: {
        positions: positions.toArray(),
        normals: normals ? Float32Array.from(normals) : undefined,
        colors: colors ? Uint8Array.from(colors, (c) => Math.min(255, Math.max(0, Math.round(c)))) : undefined,
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
  /** Unnamed triples (their first columns), judged normals or colours by their values once all are read. */
  guess?: number[] | undefined;
}

/** A number with a decimal comma (`-1,25`, `3,5e-2`), as European-locale exports write them (a digit before the comma: `1 ,2` is comma-separated). */
const DECIMAL_COMMA = /^[-+]?\d+,\d+([eE][-+]?\d+)?$/;
const INTEGER = /^[-+]?\d+([eE][-+]?\d+)?$/;
const DECIMAL_COMMA_IN = /\d,\d/;

/**
 * The separators of a line before the first point, as exports write them: `;` separates (and then
 * no comma does, so a comma is a decimal mark as a point is: `1,5;2,5;3,5`); else fields that are
 * all numbers, some with a decimal comma, between blanks (`1,5 2,5 3,5`, a tab-separated European
 * export) are read so (a point still a decimal mark too); else a comma separates, as in
 * `1.5,2.5,3.5`, if the line has one; else only blanks do. Decided before a line is split into numbers, so `1,5 2,5 3,5` is never six numbers.
 */
function separatorsOf(line: string): TextSyntax {
  if (line.includes(';')) return { semicolonIsBlank: true, decimalComma: true };
  const fields = line.split(/\s+/).filter(Boolean);
  if (fields.length >= 3 && fields.some((f) => DECIMAL_COMMA.test(f)) && fields.every((f) => DECIMAL_COMMA.test(f) || INTEGER.test(f))) return { decimalComma: true };
  // A first point without a comma: none separates, so a later `1,5 2,5 3,5` is no number, never 1 5 2 5 3 5.
  return line.includes(',') ? { commaIsBlank: true } : {};
}

/**
 * Why the first point's line cannot be split with confidence, or undefined: a comma inside a
 * blank-separated field that is no decimal comma (`1.234,5 2.345,5 3,5`: a thousands point, or a
 * trailing comma after decimal commas), which splitting at commas would read as other numbers; or
 * blank-separated pairs of a short integer and a three-digit decimal comma (`1 234,5 2 345,5`: a
 * blank as thousands separator), which would be twice the numbers meant.
 */
function mixedSeparators(line: string, separators: TextSyntax): string | undefined {
  if (separators.semicolonIsBlank) return undefined;
  const fields = line.split(/\s+/).filter(Boolean);
  if (separators.commaIsBlank && fields.length >= 2 && fields.some((f) => DECIMAL_COMMA_IN.test(f))) {
    return `${quoteText(line)} has blanks between numbers and commas inside them: which separates and which is a decimal or thousands mark is not known, so the file is not read (save it with one separator)`;
  }
  if (separators.decimalComma && fields.length >= 4 && fields.length % 2 === 0 && fields.every((f, i) => (i % 2 === 0 ? /^[-+]?\d{1,3}$/ : /^\d{3},\d+$/).test(f))) {
    return `${quoteText(line)} looks like numbers with a blank as thousands separator (1 234,5): not read, as the blanks would make twice the numbers meant`;
  }
  return undefined;
}

function quoteText(line: string): string {
  return line.length > MAX_QUOTE ? `'${line.slice(0, MAX_QUOTE)}…'` : `'${line}'`;
}

function sameSeparators(a: TextSyntax, b: TextSyntax): boolean {
  return !!a.commaIsBlank === !!b.commaIsBlank && !!a.semicolonIsBlank === !!b.semicolonIsBlank && !!a.decimalComma === !!b.decimalComma;
}

function chooseLayout(header: string[], columns: number, notes: string[]): Layout {
  const names = (header.at(-1) ?? '')
    .toLowerCase()
    .split(/[\s,;]+/)
    // A unit after the name (`X[mm]`, `z(m)`) is no part of it.
    .map((n) => n.replace(/^\/\/|^#/, '').replace(/^["']|["']$/g, '').replace(/[[(].*$/, ''))
    .filter(Boolean);
  if (names.length === columns) {
    const find = (...options: string[]): number => names.findIndex((n) => options.includes(n));
    const triple = (a: string[], b: string[], c: string[]): number[] | undefined => {
      const t = [find(...a), find(...b), find(...c)];
      return t.every((i) => i >= 0) ? t : undefined;
    };
    // Survey exports name the axes and often put northing first: read as written, never swapped (a mirrored cloud).
    const xyz = triple(['x', 'easting', 'east'], ['y', 'northing', 'north'], ['z', 'elevation', 'elev', 'height']);
    // Words that may name the columns, none an axis: said, as a guess follows. A title (`Scan of part`) is not.
    if (!xyz && names.every(looksLikeColumnName)) {
      notes.push(`the line above the points, ${quoteText(header.at(-1)!)}, has a word per column, none of them x, y or z: if they name the columns, they are not understood; the first three columns are read as x y z`);
    }
    if (xyz) return { xyz, normal: triple(['nx', 'normal_x'], ['ny', 'normal_y'], ['nz', 'normal_z']), color: triple(['r', 'red'], ['g', 'green'], ['b', 'blue']) };
  }
  if (columns === 6) return { xyz: [0, 1, 2], guess: [3] };
  if (columns === 9) return { xyz: [0, 1, 2], guess: [3, 6] };
  if (columns === 7) return { xyz: [0, 1, 2], guess: [4, 3] };
  if (columns !== 3) notes.push(`${columns} columns per line: the first three are read as x y z, the others are ignored`);
  return { xyz: [0, 1, 2] };
}

/**
 * A word that may name a column: a letter or underscore, then up to 15 letters, digits or
 * underscores (`lat`, `intensity`, `scalar_1`), and not an English word of a title (an article,
 * a preposition, a conjunction, or a word titles of scans use: `Scan of part`, `Export from cloud`).
 * A number makes the line a title too (`Scan; part 7`).
 */
function looksLikeColumnName(word: string): boolean {
  return /^[a-z_][a-z0-9_]{0,15}$/.test(word) && !TITLE_WORDS.has(word);
}
const TITLE_WORDS = new Set(['a', 'an', 'the', 'of', 'and', 'or', 'for', 'in', 'on', 'at', 'to', 'by', 'with', 'from', 'is', 'scan', 'part', 'cloud', 'file', 'export', 'data']);

/**
 * Unnamed columns after x y z, judged by every value they hold (kindOf): colours when every value
 * is an integer 0..255 (some above 1) or lies in 0..1 (Open3D's `.xyzrgb`) without every triple
 * of unit length; normals when every triple is of unit length (or 0 0 0, no normal); anything else
 * (a LAS export's intensity, return number and class; unnormalised vectors) is neither and is
 * ignored with a note, never read as normals. Normals that never point against an axis (a flat
 * patch facing +z, or 0..1 colours of pure red) are read as normals with a note. Of two triples
 * (9 columns), the colours and the normals (CloudCompare's `x y z r g b nx ny nz`, or normals
 * first), each only if it is one. Seven columns: x y z nx ny nz and a value; Leica PTS' x y z
 * intensity r g b; x y z r g b and a value. A note says what was chosen unless it is normals
 * pointing every way, or PTS colours that only PTS fits.
 */
function judgeTriples(firsts: number[], triples: Float64Builder[], columns: number, notes: string[]): { normals?: Float64Array; colors?: Float64Array } {
  const kinds = triples.map((t) => kindOf(t));
  const span = (k: number): string => `columns ${firsts[k]! + 1} to ${firsts[k]! + 3}`;
  const colours = (k: number): Float64Array => {
    const values = triples[k]!.toArray();
    return kinds[k] === '255' ? values : values.map((v) => v * 255);
  };
  const isColour = (k: number): boolean => kinds[k] === '255' || kinds[k] === '1';
  const isNormal = (k: number): boolean => kinds[k] === 'normal' || kinds[k] === 'positiveNormal';
  const scale = (k: number): string => (kinds[k] === '255' ? '0 to 255' : '0 to 1');
  // Normals pointing every way are never colours: said only when something else is ignored.
  const normalsNote = (k: number, rest: string): void => {
    const positive = kinds[k] === 'positiveNormal' ? ' (all of unit length, none pointing against an axis, as 0 to 1 colours of pure hues would be)' : '';
    if (positive || rest) notes.push(`${span(k)} read as normals${positive}${rest} (no header names the columns)`);
  };
  const neither = (k: number): string => `${span(k)} are neither colours (0 to 255, 0 to 1) nor unit normals and are ignored`;
  if (columns === 7) {
    // x y z nx ny nz and a scalar; Leica PTS (x y z intensity r g b); CloudCompare's x y z r g b and a scalar.
    if (isNormal(1)) {
      normalsNote(1, ', column 7 is ignored');
      return { normals: triples[1]!.toArray() };
    }
    if (isColour(0)) {
      if (isColour(1) || kinds[0] !== '255') notes.push(`${span(0)} read as colours (${scale(0)}; Leica PTS x y z intensity r g b), column 4 is ignored (no header names the columns)`);
      return { colors: colours(0) };
    }
    if (isColour(1)) {
      notes.push(`${span(1)} read as colours, column 7 is ignored (no header names the columns)`);
      return { colors: colours(1) };
    }
    notes.push(`7 columns per line without names: the first three are read as x y z, the others are ignored (neither colours nor unit normals)`);
    return {};
  }
  if (triples.length === 1) {
    if (isNormal(0)) {
      normalsNote(0, '');
      return { normals: triples[0]!.toArray() };
    }
    if (isColour(0)) {
      notes.push(`${span(0)} read as colours (${scale(0)}; no header names the columns)`);
      return { colors: colours(0) };
    }
    notes.push(`${neither(0)} (no header names the columns)`);
    return {};
  }
  const c = [0, 1].filter(isColour), n = [0, 1].filter(isNormal);
  if (c.length === 1 && n.length === 1) {
    notes.push(`${span(c[0]!)} read as colours, ${span(n[0]!)} as normals (no header names the columns)`);
    return { normals: triples[n[0]!]!.toArray(), colors: colours(c[0]!) };
  }
  if (c.length === 1 && n.length === 0) {
    notes.push(`${span(c[0]!)} read as colours, ${neither(1 - c[0]!)} (no header names the columns)`);
    return { colors: colours(c[0]!) };
  }
  if (n.length === 1 && c.length === 0) {
    notes.push(`${span(n[0]!)} read as normals, ${neither(1 - n[0]!)} (no header names the columns)`);
    return { normals: triples[n[0]!]!.toArray() };
  }
  notes.push(`${columns} columns per line without names: the first three are read as x y z, the others are ignored`);
  return {};
}

/**
 * Colour columns a header names: 0..255; 0..1 when none exceeds 1 and some is a fraction (scaled
 * by 255); 16-bit (0..65535, as LAS stores them) when all are integers and some exceed 255 (scaled
 * by 1 / 257, with a note). Anything else is clamped to 0..255 later.
 */
function namedColours(values: Float64Array, notes: string[]): Float64Array {
  let max = 0, fraction = false;
  for (const v of values) {
    if (v > max) max = v;
    if (!Number.isInteger(v)) fraction = true;
  }
  if (max <= 1 && fraction) return values.map((v) => v * 255);
  if (max > 255 && max <= 65535 && !fraction) {
    notes.push(`the colour columns hold integers up to ${max}: read as 16-bit colours (0 to 65535, as LAS stores them) and scaled to 0 to 255`);
    return values.map((v) => v / 257);
  }
  return values;
}

/**
 * What an unnamed triple column holds, by every value: `normal` when every triple is of unit length
 * or 0 0 0 and some is not 0 0 0 (`positiveNormal` when no component is negative: these fit 0..1
 * colours too); else `255` when every value is an integer 0..255 and some exceed 1; `1` when every
 * value lies in 0..1; else `other` (so is a column of 0 0 0 only: no normals, or all black).
 */
function kindOf(triple: Float64Builder): 'normal' | 'positiveNormal' | '255' | '1' | 'other' {
  const v = triple.data, n = triple.length;
  let integers = true, unit = true, above1 = false, negative = false, nonZero = false;
  // The largest |length - 1| of a triple other than 0 0 0 (how writers say a point has no normal).
  let worst = 0;
  for (let i = 0; i < n; i += 3) {
    const a = v[i]!, b = v[i + 1]!, c = v[i + 2]!;
    if (a !== 0 || b !== 0 || c !== 0) {
      nonZero = true;
      worst = Math.max(worst, Math.abs(Math.hypot(a, b, c) - 1));
    }
    for (const x of [a, b, c]) {
      if (x < 0) negative = true;
      if (x < 0 || x > 255) unit = integers = false;
      if (x > 1) {
        unit = false;
        above1 = true;
      }
      if (!Number.isInteger(x)) integers = false;
    }
    if (worst > UNIT_SIGNED && !integers && !unit) return 'other';
  }
  // All 0 0 0: no normals, or black; either way nothing to show.
  if (!nonZero) return 'other';
  // A negative component rules colours out, so normals written with one decimal (`-0.6 0.6 0.5`) pass; else 1 %.
  if (negative ? worst <= UNIT_SIGNED : worst <= UNIT_POSITIVE) return negative ? 'normal' : 'positiveNormal';
  return integers && above1 ? '255' : unit ? '1' : 'other';
}

/** How far from unit length a triple of normals may be: with a negative component (never colours), and without. */
const UNIT_SIGNED = 0.1;
const UNIT_POSITIVE = 0.01;

/** The whole line around byte `at`. */
function lineText(bytes: Uint8Array, at: number): string {
  let start = at;
  while (start > 0 && bytes[start - 1] !== 10) start--;
  let end = bytes.indexOf(10, at);
  if (end < 0) end = bytes.length;
  // Column names fit in a few hundred characters; a header line of megabytes is not decoded whole.
  // A UTF-8 byte order mark before the first line is no part of its names.
  return new TextDecoder('latin1').decode(bytes.subarray(start, Math.min(end, start + 64 * MAX_QUOTE))).replace(/^\u00ef\u00bb\u00bf/, '').trim();
}
