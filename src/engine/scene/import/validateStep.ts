import { BrepscopeError } from '../../errors';
import { cyclicComponents, findCycle } from './referenceGraph';
import { Uint32Builder, quoteBytes } from './textScanner';

/**
 * The deepest nesting of parentheses read. Real files nest lists three or four deep (a B-spline
 * surface's weights); the kernel's reader recurses into each level and overflowed its stack at
 * 20,000 (FILE_ABORTED_KERNEL, the engine lost) while 5,000 passed in Node. A browser worker's
 * stack is smaller, hence a bound far below both.
 */
export const MAX_STEP_NESTING = 100;

const HASH = 35, QUOTE = 39, DQUOTE = 34, SLASH = 47, STAR = 42, LPAREN = 40, RPAREN = 41, SEMI = 59, EQUALS = 61, NL = 10;

/**
 * Checks the structure of a STEP (ISO 10303-21) file without the kernel: the ISO-10303-21 header,
 * HEADER and DATA sections each closed by ENDSEC, the END-ISO-10303-21 trailer (a cut file lacks it),
 * every instance `#n = ...;` with balanced parentheses (at most MAX_STEP_NESTING deep) and closed strings and comments, no id
 * defined twice, every `#n` reference defined, and no reference cycle that matters (an entity that
 * contains itself, directly or through others, sends the kernel's recursive transfer into a stack
 * overflow or an abort). Entity types and attribute counts are the kernel's business.
 */
export function validateStep(bytes: Uint8Array, name: string): void {
  const b = bytes;
  let line = 1;
  const fail = (what: string): BrepscopeError => new BrepscopeError('PARSE_FAILED', `${name}: line ${line}: ${what} (not a readable STEP file: corrupt or truncated)`);
  const ids = new Map<number, number>(); // instance id -> dense index
  const lines: number[] = [];
  const types: string[] = []; // simple entity type per instance; '' for a complex instance `(A() B())`
  const edgeStart = new Uint32Builder();
  const edgeTargets = new Uint32Builder(); // referenced instance ids, resolved to indices after the scan
  let p = 0;

  const skipBlank = (): void => {
    for (;;) {
      while (p < b.length && (b[p] === 32 || b[p] === 9 || b[p] === 13 || b[p] === NL)) if (b[p++] === NL) line++;
      if (b[p] === SLASH && b[p + 1] === STAR) {
        const end = indexOfPair(b, STAR, SLASH, p + 2);
        if (end < 0) throw fail('a comment is never closed');
        for (let i = p; i < end; i++) if (b[i] === NL) line++;
        p = end + 2;
      } else return;
    }
  };
  const keyword = (): string => {
    skipBlank();
    const start = p;
    while (p < b.length && ((b[p]! >= 65 && b[p]! <= 90) || (b[p]! >= 97 && b[p]! <= 122) || (b[p]! >= 48 && b[p]! <= 57) || b[p] === 45 || b[p] === 95)) p++;
    return String.fromCharCode(...b.subarray(start, Math.min(p, start + 40)));
  };
  const expectSemicolon = (after: string): void => {
    skipBlank();
    if (b[p] !== SEMI) throw fail(`';' expected after ${after}`);
    p++;
  };
  /** Skips one instance body or header entry up to its ';' at depth 0, collecting `#n` references. */
  const body = (collect: boolean): void => {
    let depth = 0;
    for (;;) {
      if (p >= b.length) throw fail(`the file ends inside an entity (${depth ? `${depth} parentheses open` : 'before its closing \';\''})`);
      const c = b[p]!;
      if (c === NL) line++;
      if (c === QUOTE || c === DQUOTE) {
        // Strings: '' is an escaped quote. Binary values use double quotes.
        for (p++; ; p++) {
          if (p >= b.length) throw fail('a string is never closed');
          if (b[p] === NL) line++;
          else if (b[p]! < 32 && b[p] !== 9 && b[p] !== 13) throw fail(`control byte 0x${b[p]!.toString(16)} inside a string`);
          if (b[p] === c) {
            if (b[p + 1] === c) p++;
            else break;
          }
        }
      } else if (c === SLASH && b[p + 1] === STAR) {
        const end = indexOfPair(b, STAR, SLASH, p + 2);
        if (end < 0) throw fail('a comment is never closed');
        for (let i = p; i < end; i++) if (b[i] === NL) line++;
        p = end + 1;
      } else if ((c < 32 && c !== 9 && c !== 13 && c !== NL) || c > 126) {
        // Part 21 is printable ASCII outside strings; other bytes are damage (the kernel's lexer can abort on them).
        throw fail(`byte 0x${c.toString(16)} is not allowed in a STEP file outside a string`);
      } else if (c === LPAREN) {
        if (++depth > MAX_STEP_NESTING) throw fail(`parentheses nested more than ${MAX_STEP_NESTING} deep (no STEP entity nests lists that deep; the kernel's reader would overflow its stack)`);
      } else if (c === RPAREN) {
        if (--depth < 0) throw fail("a ')' without its '('");
      } else if (c === SEMI && depth === 0) {
        p++;
        return;
      } else if (c === HASH && collect) {
        let v = 0, digits = 0;
        for (p++; p < b.length && b[p]! >= 48 && b[p]! <= 57; p++, digits++) v = v * 10 + b[p]! - 48;
        if (digits === 0 || digits > 15) throw fail("'#' not followed by an instance number");
        edgeTargets.push(v);
        continue;
      } else if (isDigit(c) && !isWordByte(b[p - 1])) {
        // A real out of the double range (1e400) reaches the kernel as infinity: refused here.
        const start = p;
        while (p < b.length && (isDigit(b[p]!) || b[p] === 46 || b[p] === 69 || b[p] === 101 || ((b[p] === 43 || b[p] === 45) && (b[p - 1] === 69 || b[p - 1] === 101)))) p++;
        const text = p - start <= 1024 ? String.fromCharCode(...b.subarray(start, p)) : '';
        if (text === '' || (REAL.test(text) && !Number.isFinite(Number(text)))) {
          throw fail(`${quoteBytes(b, start, p)} at byte ${start} is not a finite number`);
        }
        continue;
      } else if (c === EQUALS && depth === 0 && collect) {
        throw fail("'=' inside an instance: a ';' is missing before it");
      }
      p++;
    }
  };

  if (keyword() !== 'ISO-10303-21') throw new BrepscopeError('PARSE_FAILED', `${name}: not a STEP file (no ISO-10303-21 header)`);
  expectSemicolon('ISO-10303-21');
  if (keyword() !== 'HEADER') throw fail("'HEADER;' expected");
  expectSemicolon('HEADER');
  for (;;) {
    const k = keyword();
    if (k === 'ENDSEC') break;
    if (!k) throw fail(p >= b.length ? 'the file ends inside the HEADER section' : `unexpected '${String.fromCharCode(b[p]!)}' in the HEADER section`);
    body(false);
  }
  expectSemicolon('ENDSEC');
  let dataSections = 0, dataLine = 0;
  for (;;) {
    const k = keyword();
    if (k === 'END-ISO-10303-21') break;
    if (k !== 'DATA') throw fail(p >= b.length ? 'the file ends without END-ISO-10303-21 (truncated)' : `'DATA' or 'END-ISO-10303-21' expected, found '${k || String.fromCharCode(b[p]!)}'`);
    if (dataSections++ === 0) dataLine = line;
    skipBlank();
    if (b[p] === LPAREN) body(false);
    else expectSemicolon('DATA');
    for (;;) {
      skipBlank();
      if (b[p] !== HASH) {
        if (keyword() !== 'ENDSEC') throw fail(p >= b.length ? 'the file ends inside the DATA section (truncated)' : "an instance '#n = ...;' or ENDSEC expected");
        expectSemicolon('ENDSEC');
        break;
      }
      let id = 0, digits = 0;
      for (p++; p < b.length && b[p]! >= 48 && b[p]! <= 57; p++, digits++) id = id * 10 + b[p]! - 48;
      if (digits === 0 || digits > 15) throw fail("'#' not followed by an instance number");
      skipBlank();
      if (b[p] !== EQUALS) throw fail(`'=' expected after #${id}`);
      p++;
      if (ids.has(id)) throw fail(`#${id} is defined twice`);
      ids.set(id, lines.length);
      lines.push(line);
      edgeStart.push(edgeTargets.length);
      skipBlank();
      types.push(b[p] === LPAREN ? '' : keyword().toUpperCase());
      body(true);
    }
  }
  if (dataSections === 0) throw fail('no DATA section');
  // The kernel reads an empty DATA section as a syntax error (on stderr) and transfers nothing, after
  // seconds of loading itself: refused here, naming the cause.
  if (ids.size === 0) {
    line = dataLine;
    throw fail('the DATA section holds no entity instances (a header with nothing to read)');
  }
  edgeStart.push(edgeTargets.length);

  const starts = edgeStart.toArray();
  const targets = new Uint32Array(edgeTargets.length);
  const idOf = [...ids.keys()];
  for (let n = 0; n < idOf.length; n++) {
    for (let e = starts[n]!; e < starts[n + 1]!; e++) {
      const t = ids.get(edgeTargets.data[e]!);
      if (t === undefined) {
        line = lines[n]!;
        throw fail(`#${idOf[n]} refers to #${edgeTargets.data[e]}, which is not defined`);
      }
      targets[e] = t;
    }
  }
  const cycle = findCycle(starts, targets) && cycleThatMatters(starts, targets, types);
  if (cycle) {
    line = lines[cycle[0]!]!;
    throw fail(`a reference cycle: ${cycle.map((n) => `#${idOf[n]}`).join(' -> ')} -> #${idOf[cycle[0]!]} (an entity containing itself)`);
  }
}

/**
 * Entities that carry no geometry, topology or assembly structure: material and property records
 * (names, densities, units). A cycle made of these alone is harmless: each of their references is to
 * another kind (a representation's items are representation items, its context a context), so the
 * kernel's reader drops the looping reference as the wrong type and never follows it. CAx-IF
 * dm1-oc-214.stp has `#3381 = REPRESENTATION('density',(#3381),#1454)`; native OCCT and our kernel
 * read its 7 solids. Any cycle through another type (a complex instance included) is refused.
 */
const PROPERTY_TYPES = new Set([
  'REPRESENTATION',
  'PROPERTY_DEFINITION',
  'PROPERTY_DEFINITION_REPRESENTATION',
  'MEASURE_REPRESENTATION_ITEM',
  'DESCRIPTIVE_REPRESENTATION_ITEM',
  'VALUE_REPRESENTATION_ITEM',
  'MATERIAL_DESIGNATION',
  'GENERAL_PROPERTY',
  'GENERAL_PROPERTY_ASSOCIATION',
  'DERIVED_UNIT',
  'DERIVED_UNIT_ELEMENT',
]);

/** One cycle through an entity that is not a property record, or undefined when every cycle is among property records alone. */
function cycleThatMatters(starts: Uint32Array, targets: Uint32Array, types: readonly string[]): number[] | undefined {
  const { component, count } = cyclicComponents(starts, targets);
  const matters = new Uint8Array(count);
  for (let n = 0; n < types.length; n++) if (component[n]! >= 0 && !PROPERTY_TYPES.has(types[n]!)) matters[component[n]!] = 1;
  if (!matters.includes(1)) return undefined;
  // The edges inside the components that matter: any cycle among them runs through one of those.
  const kept = new Uint32Array(starts.length);
  const keptTargets: number[] = [];
  for (let v = 0; v < types.length; v++) {
    kept[v] = keptTargets.length;
    const c = component[v]!;
    if (c >= 0 && matters[c]) for (let e = starts[v]!; e < starts[v + 1]!; e++) if (component[targets[e]!] === c) keptTargets.push(targets[e]!);
  }
  kept[types.length] = keptTargets.length;
  return findCycle(kept, Uint32Array.from(keptTargets));
}

const REAL = /^\d+(\.\d*)?([eE][+-]?\d+)?$/;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A byte a number cannot follow and still be a number of its own (a name's letters and digits, '#', '.'). */
function isWordByte(c: number | undefined): boolean {
  return c !== undefined && (isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === HASH || c === 46 || c === 36);
}

function indexOfPair(b: Uint8Array, first: number, second: number, from: number): number {
  for (let i = b.indexOf(first, from); i >= 0; i = b.indexOf(first, i + 1)) if (b[i + 1] === second) return i;
  return -1;
}
