import { BrepscopeError } from '../../errors';
import { deepestChain, findCycle } from './referenceGraph';
import { Uint32Builder, decodeWholeText } from './textScanner';

/**
 * Where the pointers to other entities sit in the parameter data of the entities that hold others
 * (1-based parameter positions after the entity type; `n` lists: [count position, first item, stride]).
 * A cycle through these (a composite curve containing itself, a trimmed surface bounded by a curve on
 * itself) sends the kernel's recursive transfer into a stack overflow.
 */
const POINTERS: Record<number, { at?: number[]; list?: [number, number, number][] }> = {
  102: { list: [[1, 2, 1]] }, // composite curve: N, curves
  118: { at: [1, 2] }, // ruled surface
  120: { at: [1, 2] }, // surface of revolution: axis, generatrix
  122: { at: [1] }, // tabulated cylinder: directrix
  130: { at: [1] }, // offset curve
  140: { at: [5] }, // offset surface
  141: { at: [3] }, // boundary: the surface (curve lists vary in shape)
  142: { at: [2, 3, 4] }, // curve on surface: surface, parameter-space curve, model-space curve
  143: { at: [2], list: [[3, 4, 1]] }, // bounded surface: surface, N, boundaries
  144: { at: [1, 4], list: [[3, 5, 1]] }, // trimmed surface: surface, N1, N2, outer, inner boundaries
  186: { at: [1] }, // manifold solid: shell
  308: { list: [[3, 4, 1]] }, // subfigure definition: depth, name, N, entities
  408: { at: [1] }, // subfigure instance
  430: { at: [1] }, // solid instance
  514: { list: [[1, 2, 2]] }, // shell: N, (face, orientation) pairs
};

/**
 * The longest chain of entities holding or transforming others. Real files nest a few deep (a
 * trimmed surface's boundary's composite curve's segments); composite curves nested 20,000 deep
 * overflowed the kernel's stack (FILE_ABORTED_KERNEL, the engine lost).
 */
export const MAX_IGES_NESTING = 256;

/**
 * Checks the structure of an IGES file (ASCII fixed form) without the kernel: 80-column records with
 * the section letter in column 73, sections in the order S G D P T, the Terminate record's counts
 * matching the file (a cut file fails here), directory entries in pairs with their parameter data
 * inside the P section and pointing back at them, every directory pointer at an existing entry, and
 * no cycle through transformation matrices or through the pointers of the entities that hold others,
 * nor a chain of them longer than MAX_IGES_NESTING.
 */
export function validateIges(bytes: Uint8Array, name: string): void {
  const text = decodeWholeText(bytes, name, 'IGES');
  const lines = text.split(/\r?\n|\r/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const fail = (line: number, what: string): BrepscopeError =>
    new BrepscopeError('PARSE_FAILED', `${name}: line ${line}: ${what} (not a readable IGES file: corrupt or truncated)`);
  const first = lines[0] ?? '';
  if (first.length >= 73 && (first[72] === 'B' || first[72] === 'C')) return; // binary or compressed form: the kernel's own reader

  const sections: Record<string, string[]> = { S: [], G: [], D: [], P: [], T: [] };
  const order = 'SGDPT';
  let current = 0;
  const firstLine: Record<string, number> = {};
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.length < 73 || l.length > 82) throw fail(i + 1, `a record of ${l.length} characters; IGES records have 80 with the section letter in column 73`);
    const letter = l[72]!;
    const at = order.indexOf(letter);
    if (at < 0) throw fail(i + 1, `'${letter}' in column 73 is not an IGES section letter (S, G, D, P, T)`);
    if (at < current) throw fail(i + 1, `section ${letter} after section ${order[current]}`);
    current = at;
    firstLine[letter] ??= i + 1;
    sections[letter]!.push(l);
  }
  const terminate = sections.T!;
  if (terminate.length !== 1) throw fail(lines.length, terminate.length === 0 ? 'no Terminate (T) record: the file is cut short' : 'more than one Terminate record');
  const t = terminate[0]!;
  for (const [k, letter] of ['S', 'G', 'D', 'P'].entries()) {
    const field = t.slice(k * 8, k * 8 + 8);
    const declared = Number(field.slice(1));
    if (field[0] !== letter || !Number.isInteger(declared)) throw fail(lines.length, `the Terminate record '${t.slice(0, 32)}' is malformed`);
    if (declared !== sections[letter]!.length) {
      throw fail(lines.length, `the Terminate record declares ${declared} ${letter} records but the file has ${sections[letter]!.length} (truncated or spliced file)`);
    }
  }

  const D = sections.D!, P = sections.P!;
  if (D.length % 2 !== 0) throw fail(firstLine.D! + D.length - 1, `the directory has ${D.length} records; entries come in pairs`);
  const entries = D.length / 2;
  const dLine = (e: number): number => firstLine.D! + 2 * e;
  const field = (l: string, k: number): string => l.slice(k * 8, k * 8 + 8).trim();
  const int = (l: string, k: number, e: number, what: string): number => {
    const s = field(l, k);
    const v = s === '' ? 0 : Number(s);
    if (!Number.isInteger(v)) throw fail(dLine(e), `directory entry ${2 * e + 1}: ${what} '${s}' is not an integer`);
    return v;
  };
  // A pointer to a directory entry is its odd sequence number 1 .. 2 * entries - 1.
  const entryOf = (pointer: number, e: number, what: string): number => {
    if (pointer % 2 !== 1 || pointer > 2 * entries - 1) throw fail(dLine(e), `directory entry ${2 * e + 1}: ${what} ${pointer} is not a directory entry`);
    return (pointer - 1) / 2;
  };

  const starts = new Uint32Builder();
  const targets = new Uint32Builder();
  const types = new Int32Array(entries);
  const params: [number, number][] = [];
  for (let e = 0; e < entries; e++) {
    const a = D[2 * e]!, b = D[2 * e + 1]!;
    const type = int(a, 0, e, 'entity type');
    if (type !== int(b, 0, e, 'entity type') || type <= 0) throw fail(dLine(e), `directory entry ${2 * e + 1}: entity type '${field(a, 0)}' / '${field(b, 0)}' is not one type`);
    types[e] = type;
    const pStart = int(a, 1, e, 'parameter data pointer');
    const pCount = int(b, 3, e, 'parameter line count');
    if (pStart < 1 || pCount < 1 || pStart + pCount - 1 > P.length) {
      throw fail(dLine(e), `directory entry ${2 * e + 1}: parameter data at P${pStart} (+${pCount}) lies outside the ${P.length} P records`);
    }
    const back = Number(P[pStart - 1]!.slice(64, 72).trim());
    if (back !== 2 * e + 1) throw fail(firstLine.P! + pStart - 1, `parameter record P${pStart} belongs to D${back}, but directory entry ${2 * e + 1} points at it`);
    params.push([pStart, pCount]);
    starts.push(targets.length);
    // Structure, line font, level, view, transformation, label display: positive or negative pointers.
    for (const [k, what, signed] of [
      [2, 'structure', true],
      [3, 'line font pointer', true],
      [4, 'level pointer', true],
      [5, 'view pointer', false],
      [6, 'transformation matrix pointer', false],
      [7, 'label display pointer', false],
    ] as const) {
      const v = int(a, k, e, what);
      if (v < 0 && !signed) throw fail(dLine(e), `directory entry ${2 * e + 1}: ${what} ${v} is negative`);
      const pointer = signed ? (v < 0 ? -v : 0) : v;
      if (pointer > 0) {
        const target = entryOf(pointer, e, what);
        if (k === 6) targets.push(target); // transformation chains are followed recursively
      }
    }
    const color = int(b, 2, e, 'color');
    if (color < 0) entryOf(-color, e, 'color pointer');
  }
  // Parameter data pointers of entities that hold others.
  const delimiter = globalDelimiters(sections.G!);
  const graphStarts = new Uint32Array(entries + 1);
  const graphTargets = new Uint32Builder();
  for (let e = 0; e < entries; e++) {
    graphStarts[e] = graphTargets.length;
    for (let k = starts.data[e]!; k < (e + 1 < entries ? starts.data[e + 1]! : targets.length); k++) graphTargets.push(targets.data[k]!);
    const shape = POINTERS[types[e]!];
    if (!shape) continue;
    const [pStart, pCount] = params[e]!;
    const values = parameterValues(P.slice(pStart - 1, pStart - 1 + pCount), delimiter);
    const pointerAt = (position: number): void => {
      const v = values[position];
      if (v === undefined || v === 0) return; // absent or null pointer
      if (!Number.isInteger(v)) throw fail(firstLine.P! + pStart - 1, `entity D${2 * e + 1} (type ${types[e]}): parameter ${position} '${v}' is not a pointer`);
      graphTargets.push(entryOf(Math.abs(v), e, `parameter ${position} of type ${types[e]}`));
    };
    for (const position of shape.at ?? []) pointerAt(position);
    for (const [countAt, firstAt, stride] of shape.list ?? []) {
      const n = values[countAt] ?? 0;
      if (!Number.isInteger(n) || n < 0 || firstAt + (n - 1) * stride >= values.length + 1) {
        throw fail(firstLine.P! + pStart - 1, `entity D${2 * e + 1} (type ${types[e]}): a list of ${n} does not fit its ${values.length - 1} parameters`);
      }
      for (let i = 0; i < n; i++) pointerAt(firstAt + i * stride);
    }
  }
  graphStarts[entries] = graphTargets.length;
  const graph = graphTargets.toArray();
  const cycle = findCycle(graphStarts, graph);
  if (cycle) {
    throw fail(
      dLine(cycle[0]!),
      `a reference cycle: ${cycle.map((e) => `D${2 * e + 1} (type ${types[e]})`).join(' -> ')} -> D${2 * cycle[0]! + 1} (an entity containing or transforming itself)`,
    );
  }
  const deepest = deepestChain(graphStarts, graph);
  if (deepest.depth > MAX_IGES_NESTING) {
    const e = deepest.node;
    throw fail(dLine(e), `entity D${2 * e + 1} (type ${types[e]}) starts a chain of ${deepest.depth} entities each holding or transforming the next, more than ${MAX_IGES_NESTING} (no model nests that deep; the kernel's transfer would overflow its stack)`);
  }
}

/** The parameter and record delimiters from the Global section (defaults ',' and ';'). */
function globalDelimiters(global: string[]): { param: string; record: string } {
  const g = global.map((l) => l.slice(0, 72)).join('');
  let param = ',', record = ';';
  if (g.startsWith('1H')) {
    param = g[2]!;
    const rest = g.slice(4);
    if (rest.startsWith('1H')) record = rest[2]!;
  } else if (g[0] !== ',') {
    const rest = g.slice(g.indexOf(',') + 1);
    if (rest.startsWith('1H')) record = rest[2]!;
  }
  return { param, record };
}

/**
 * The parameters of one entity as numbers (NaN for strings and anything else), index 0 being the
 * entity type. Hollerith strings (`5Hhello`) are skipped by their declared length.
 */
function parameterValues(records: string[], d: { param: string; record: string }): number[] {
  const text = records.map((l) => l.slice(0, 64)).join('');
  const values: number[] = [];
  let i = 0;
  while (i < text.length) {
    let j = i;
    const h = /^\s*(\d+)H/.exec(text.slice(i, i + 12));
    if (h) {
      j = i + h[0].length + Number(h[1]);
      values.push(NaN);
    } else {
      while (j < text.length && text[j] !== d.param && text[j] !== d.record) j++;
      const s = text.slice(i, j).trim().replace(/[dD]/, 'e');
      values.push(s === '' ? 0 : Number(s));
    }
    while (j < text.length && text[j] !== d.param && text[j] !== d.record) j++;
    if (text[j] === d.record) break;
    i = j + 1;
  }
  return values;
}
