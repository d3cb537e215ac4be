import { BrepscopeError } from '../../errors';

const NL = 10, CR = 13, SPACE = 32, TAB = 9, COMMA = 44, SEMICOLON = 59, POINT = 46, BACKSLASH = 92;
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const latin1 = new TextDecoder('latin1');
/** Characters of a token a message quotes: a 100 MB token must not become a 100 MB message. */
export const MAX_QUOTE = 80;
/** Digits and signs of the longest number text we read (longer ones are not numbers we measure). */
const MAX_NUMBER_TEXT = 1024;
/** V8's longest string (2^29 - 24 characters): a file decoded whole into a string must fit. */
const MAX_STRING_LENGTH = 2 ** 29 - 24;

/**
 * Bytes as a quoted message fragment: at most MAX_QUOTE characters (a longer run is cut and its length
 * given), control characters shown as '?', so a message stays one short line whatever the file holds.
 */
export function quoteBytes(bytes: Uint8Array, start: number, end: number): string {
  const length = end - start;
  const shown = latin1.decode(bytes.subarray(start, start + Math.min(length, MAX_QUOTE)).map((c) => (c < 32 || c === 127 ? 63 : c)));
  return length > MAX_QUOTE ? `'${shown}…' (${length} bytes)` : `'${shown}'`;
}

/** The bytes of a UTF-8 byte order mark at the start of `bytes` (3, or 0 when there is none): Windows tools write one before text. */
export function byteOrderMark(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** How C libraries print NaN (glibc `nan`, `-nan`; MSVC `-nan(ind)`, `1.#QNAN`, `-1.#IND`). */
export const NAN_TEXT = /^[-+]?(nan(\([a-z0-9_]*\))?|1\.#(ind|qnan|snan)0*)$/i;

/**
 * Refuses UTF-16 text, and text whose lines end in CR alone (classic Mac OS): read as lines of LF, its lines would be
 * one, silently a single vertex or point. Judged on the first line: a CR with more text after it
 * before the line's LF (or the end, when there is no LF at all; a file of CR lines that ends with
 * one LF is as much Mac text). `bytes` are a file's first whole lines (a streamed reader is handed
 * at least the first).
 */
export function refuseCarriageReturnLines(bytes: Uint8Array, name: string): void {
  let end = bytes.indexOf(NL);
  if (end < 0) end = bytes.length;
  // UTF-16 (Windows "Unicode" text, PowerShell's Out-File): its byte order mark, or a NUL beside the first character (a file of NULs is no text at all).
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes.length > 1 && (bytes[0] === 0) !== (bytes[1] === 0))) {
    throw new BrepscopeError('PARSE_FAILED', `${name}: it is UTF-16 text, which is not read: save it as UTF-8 or ASCII`);
  }
  const cr = bytes.subarray(0, end).indexOf(CR);
  if (cr < 0) return;
  for (let i = cr + 1; i < end; i++) {
    const c = bytes[i]!;
    if (c !== CR && c !== SPACE && c !== TAB) {
      throw new BrepscopeError('PARSE_FAILED', `${name}: its lines end in CR alone (classic Mac OS text), which is not read: save it with LF or CRLF line ends`);
    }
  }
}

/** A whole file as latin1 text, or FILE_TOO_LARGE when it is longer than a string can be. */
export function decodeWholeText(bytes: Uint8Array, name: string, what: string): string {
  if (bytes.length > MAX_STRING_LENGTH) {
    throw new BrepscopeError('FILE_TOO_LARGE', `${name}: ${(bytes.length / 2 ** 20).toFixed(0)} MiB of ${what} text is more than one string can hold (${MAX_STRING_LENGTH} characters)`);
  }
  return latin1.decode(bytes);
}

/** Blank bytes, by separators: [none, comma, semicolon, both] besides space, tab and CR (a scanner is made per span of a streamed file). */
const BLANKS = [0, 1, 2, 3].map((k) => {
  const blank = new Uint8Array(256);
  for (const c of [SPACE, TAB, CR]) blank[c] = 1;
  if (k & 1) blank[COMMA] = 1;
  if (k & 2) blank[SEMICOLON] = 1;
  return blank;
});

/**
 * Reads whitespace-separated tokens and numbers straight from file bytes, line by line, without
 * decoding the file into a string: ASCII PLY, OBJ and text point clouds run to hundreds of MB.
 * Numbers are parsed exactly: the short decimal forms scanners write take Clinger's fast path
 * (an integer mantissa below 2^53 scaled by an exact power of ten is one correctly rounded
 * operation); anything longer falls back to `Number()` on the token.
 */
export class TextScanner {
  pos: number;
  /** 1-based line number of `pos`, for messages. */
  line = 1;
  tokenStart = 0;
  tokenEnd = 0;
  private blank!: Uint8Array;
  private comma = false;
  private continuation = false;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    options: TextSyntax = {},
  ) {
    this.pos = start;
    this.separate(options);
  }

  /** What separates tokens and marks decimals from here on (a text point file decides it from its first lines). */
  separate(options: TextSyntax): void {
    this.continuation = options.lineContinuation ?? false;
    this.blank = BLANKS[(options.commaIsBlank ? 1 : 0) + (options.semicolonIsBlank ? 2 : 0)]!;
    this.comma = options.decimalComma ?? false;
  }

  atEnd(): boolean {
    return this.pos >= this.bytes.length;
  }

  private isBlank(c: number): boolean {
    return this.blank[c] === 1;
  }

  /** Skips blanks on the current line; true if a token follows on it. */
  hasToken(): boolean {
    const b = this.bytes;
    let p = this.pos;
    for (;;) {
      while (p < b.length && this.isBlank(b[p]!)) p++;
      const next = b[p] === BACKSLASH && this.continuation ? this.continued(p) : -1;
      if (next < 0) break;
      p = next;
      this.line++;
    }
    this.pos = p;
    return p < b.length && b[p] !== NL;
  }

  /** Past a line continuation (a backslash that ends its line) at `p`, or -1 when there is none. */
  private continued(p: number): number {
    const b = this.bytes;
    if (b[p + 1] === NL) return p + 2;
    if (b[p + 1] === CR && b[p + 2] === NL) return p + 3;
    return -1;
  }

  /** Moves past the rest of the current line. */
  nextLine(): void {
    const i = this.bytes.indexOf(NL, this.pos);
    this.pos = i < 0 ? this.bytes.length : i + 1;
    this.line++;
  }

  /** Reads the next token on the current line; false at the end of the line. */
  token(): boolean {
    if (!this.hasToken()) return false;
    const b = this.bytes;
    let p = this.pos;
    this.tokenStart = p;
    while (p < b.length && b[p] !== NL && !this.isBlank(b[p]!) && !(b[p] === BACKSLASH && this.continuation && this.continued(p) >= 0)) p++;
    this.tokenEnd = p;
    this.pos = p;
    return true;
  }

  tokenText(): string {
    return latin1.decode(this.bytes.subarray(this.tokenStart, this.tokenEnd));
  }

  /** The current token for a message: quoted, cut to MAX_QUOTE characters, with its byte offset. */
  tokenQuote(): string {
    return `${quoteBytes(this.bytes, this.tokenStart, this.tokenEnd)} at byte ${this.tokenStart}`;
  }

  /** True if the current token is exactly `word` (ASCII, case-sensitive). */
  tokenIs(word: string): boolean {
    if (this.tokenEnd - this.tokenStart !== word.length) return false;
    for (let i = 0; i < word.length; i++) if (this.bytes[this.tokenStart + i] !== word.charCodeAt(i)) return false;
    return true;
  }

  /** Reads the next token wherever it is, crossing line ends (ASCII PLY does not tie elements to lines). */
  tokenAnywhere(): boolean {
    const b = this.bytes;
    for (;;) {
      if (this.token()) return true;
      if (this.pos >= b.length) return false;
      this.pos++; // the newline hasToken stopped at
      this.line++;
    }
  }

  /** The next token on the line as a number; NaN when there is none or it is not a decimal number. */
  number(): number {
    return this.token() ? this.tokenNumber() : NaN;
  }

  /** The current token as a decimal number (NaN for anything else: `nan`, `inf`, `0x1f`, `1,5`). */
  tokenNumber(): number {
    return decimalNumber(this.bytes, this.tokenStart, this.tokenEnd, this.comma);
  }
}

/** Token separators besides space, tab and CR; whether a comma is a decimal mark too (`decimalComma`); line continuations. */
export interface TextSyntax {
  commaIsBlank?: boolean;
  semicolonIsBlank?: boolean;
  decimalComma?: boolean;
  /** A backslash that ends a line joins the next line to it (OBJ). */
  lineContinuation?: boolean;
}

/**
 * Bytes start .. end - 1 as a decimal number (NaN for anything else: `nan`, `inf`, `0x1f`, `1,5`, or
 * more than MAX_NUMBER_TEXT characters): exactly Number() on their text where that is a decimal.
 * `comma`: a comma is a decimal mark as well as a point (European decimal-comma files, where no comma separates).
 */
export function decimalNumber(b: Uint8Array, start: number, end: number, comma = false): number {
  let p = start;
  let negative = false;
  if (b[p] === 45 || b[p] === 43) negative = b[p++] === 45;
  let mantissa = 0, digits = 0, scale = 0, any = false, afterPoint = false;
  for (; p < end; p++) {
    if ((b[p] === POINT || (comma && b[p] === COMMA)) && !afterPoint) {
      afterPoint = true;
      continue;
    }
    const d = b[p]! - 48;
    if (d < 0 || d > 9) break;
    any = true;
    if (digits < 15) {
      mantissa = mantissa * 10 + d;
      if (mantissa > 0) digits++;
      if (afterPoint) scale--;
    } else {
      digits++;
      if (!afterPoint) scale++;
    }
  }
  if (!any) return NaN;
  if (p < end && (b[p] === 101 || b[p] === 69)) {
    p++;
    let expNegative = false;
    if (b[p] === 45 || b[p] === 43) expNegative = b[p++] === 45;
    let exponent = 0, expDigits = 0;
    for (; p < end; p++) {
      const d = b[p]! - 48;
      if (d < 0 || d > 9) break;
      exponent = Math.min(exponent * 10 + d, 100000);
      expDigits++;
    }
    if (expDigits === 0) return NaN;
    scale += expNegative ? -exponent : exponent;
  }
  if (p !== end) return NaN;
  // A number text a megabyte long is no coordinate: not decoded into a string for Number().
  if (end - start > MAX_NUMBER_TEXT) return NaN;
  if (digits > 15) return numberText(b, start, end);
  let value: number;
  if (scale === 0) value = mantissa;
  else if (scale > 0 && scale <= 22) value = mantissa * POW10[scale]!;
  else if (scale < 0 && scale >= -22) value = mantissa / POW10[-scale]!;
  else return numberText(b, start, end);
  return negative ? -value : value;
}

/** Number() on a decimal text the loop above checked (its one decimal mark a point or, where allowed, a comma). */
function numberText(b: Uint8Array, start: number, end: number): number {
  return Number(latin1.decode(b.subarray(start, end)).replace(',', '.'));
}

/** A growable typed array: parsers of text formats do not know counts in advance. */
class ArrayBuilder<T extends Float64Array | Uint32Array> {
  data: T;
  length = 0;
  constructor(
    private readonly make: (length: number) => T,
    capacity: number,
  ) {
    this.data = make(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  /** Room for at least `capacity` values, the ones there kept. */
  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = this.make(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  toArray(): T {
    return this.data.length === this.length ? this.data : (this.data.slice(0, this.length) as T);
  }
}

export class Float64Builder extends ArrayBuilder<Float64Array> {
  constructor(capacity = 1024) {
    super((n) => new Float64Array(n), capacity);
  }
}

export class Uint32Builder extends ArrayBuilder<Uint32Array> {
  constructor(capacity = 1024) {
    super((n) => new Uint32Array(n), capacity);
  }
}
