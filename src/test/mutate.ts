import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { seededRandom } from '../engine/mesh/generators';

/** A good file the corpus mutates. `kind` picks the format-aware mutations. */
export interface SourceFile {
  fileName: string;
  bytes: Uint8Array;
  kind: 'stl-binary' | 'stl-ascii' | 'brep' | 'step' | 'iges' | 'ply-binary' | 'ply-ascii' | 'obj' | '3mf' | 'xyz';
}

export interface Mutant {
  /** Reproduces this mutant: `mutant(sources, seed)`. */
  seed: number;
  source: string;
  mutation: string;
  fileName: string;
  bytes: Uint8Array;
}

type Random = () => number;
type Mutation = (bytes: Uint8Array, r: Random, source: SourceFile) => Uint8Array | undefined;

const int = (r: Random, n: number): number => Math.floor(r() * n);
const latin1 = (b: Uint8Array): string => new TextDecoder('latin1').decode(b);
const bytesOf = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 255);
const TEXT = new Set<SourceFile['kind']>(['stl-ascii', 'brep', 'step', 'iges', 'ply-ascii', 'obj', 'xyz']);
const EXTENSIONS = ['stl', 'brep', 'step', 'igs', 'ply', 'obj', '3mf', 'xyz', 'csv', 'xbf'];

/** The mutations of the hostile-input issue: truncations, bit flips, zeroed blocks, random bytes, wrong extensions, huge counts, self-references. */
const MUTATIONS: Record<string, Mutation> = {
  truncate: (b, r) => b.slice(0, Math.max(1, Math.floor(b.length * (0.02 + 0.96 * r())))),
  'bit flips': (b, r) => {
    const out = b.slice();
    for (let k = 1 + int(r, 8); k > 0; k--) out[int(r, out.length)]! ^= 1 << int(r, 8);
    return out;
  },
  'zeroed block': (b, r) => {
    const out = b.slice();
    const at = int(r, out.length);
    out.fill(0, at, Math.min(out.length, at + 16 + int(r, 4096)));
    return out;
  },
  'random block': (b, r) => {
    const out = b.slice();
    const at = int(r, out.length);
    for (let i = at; i < Math.min(out.length, at + 8 + int(r, 512)); i++) out[i] = int(r, 256);
    return out;
  },
  'random bytes': (b, r) => Uint8Array.from({ length: Math.min(b.length, 64 + int(r, 8192)) }, () => int(r, 256)),
  'digit changes': (b, r, s) => {
    if (!TEXT.has(s.kind)) return undefined;
    const out = b.slice();
    const digits: number[] = [];
    for (let i = 0; i < out.length; i++) if (out[i]! >= 48 && out[i]! <= 57) digits.push(i);
    if (digits.length === 0) return undefined;
    for (let k = 1 + int(r, 3); k > 0; k--) out[digits[int(r, digits.length)]!] = 48 + int(r, 10);
    return out;
  },
  'line deleted': (b, r, s) => {
    if (!TEXT.has(s.kind)) return undefined;
    const lines = latin1(b).split('\n');
    lines.splice(int(r, lines.length), 1 + int(r, 3));
    return bytesOf(lines.join('\n'));
  },
  'huge count': (b, r, s) => hugeCount(b, r, s),
  'self reference': (b, r, s) => selfReference(b, r, s),
  'inner text mutated': (b, r, s) => {
    if (s.kind !== '3mf') return undefined;
    const files = unzipSync(b);
    const model = Object.keys(files).find((f) => f.endsWith('.model'))!;
    const inner = MUTATIONS[['truncate', 'digit changes', 'line deleted', 'bit flips'][int(r, 4)]!]!(strToU8(strFromU8(files[model]!)), r, { ...s, kind: 'obj' })!;
    return zipSync({ ...files, [model]: inner });
  },
};

function hugeCount(b: Uint8Array, r: Random, s: SourceFile): Uint8Array | undefined {
  const text = (): string => latin1(b);
  switch (s.kind) {
    case 'stl-binary': {
      const out = b.slice();
      new DataView(out.buffer).setUint32(80, [0x7fffffff, 0xffffffff, 1e8][int(r, 3)]!, true);
      return out;
    }
    case 'ply-binary':
    case 'ply-ascii':
      return bytesOf(text().replace(/element (vertex|face) (\d+)/, (_, e: string, n: string) => `element ${e} ${Number(n) * 1000 + [0, 7, 4e9][int(r, 3)]!}`));
    case 'brep':
      return bytesOf(text().replace(/^(Curve2ds|Curves|Surfaces|TShapes|Triangulations) (\d+)/m, (_, k: string) => `${k} ${[2147483647, 99999999, 4000000000][int(r, 3)]}`));
    case 'step': {
      const refs = [...text().matchAll(/#(\d+)/g)];
      const m = refs[int(r, refs.length)]!;
      return bytesOf(text().slice(0, m.index) + '#99999999999' + text().slice(m.index + m[0].length));
    }
    case 'iges': {
      // The Terminate record's P count, or a directory entry's parameter line count.
      const lines = text().split('\n');
      const d = lines.map((l, i) => (l[72] === 'D' && Number(l.slice(73)) % 2 === 0 ? i : -1)).filter((i) => i >= 0);
      const at = d[int(r, d.length)]!;
      lines[at] = lines[at]!.slice(0, 24) + '99999999' + lines[at]!.slice(32);
      return bytesOf(lines.join('\n'));
    }
    case 'obj':
      return bytesOf(text().replace(/\nf (\d+)/, '\nf 2147483647'));
    case 'xyz':
      return bytesOf(text().replace(/\n(\S+)/, '\n1e999999'));
    default:
      return undefined;
  }
}

function selfReference(b: Uint8Array, r: Random, s: SourceFile): Uint8Array | undefined {
  const text = latin1(b);
  if (s.kind === 'step') {
    // An instance that refers to itself, or (half the time) a pair that refer to each other.
    const instances = [...text.matchAll(/#(\d+)\s*=[^;#]*#(\d+)/g)];
    const m = instances[int(r, instances.length)]!;
    const [self, first] = [m[1]!, m[2]!];
    const retarget = (t: string, id: string, to: string): string =>
      t.replace(new RegExp(`(#${id}\\s*=[^;#]*#)\\d+`), `$1${to}`);
    return bytesOf(r() < 0.5 ? retarget(text, self, self) : retarget(text, first, self));
  }
  if (s.kind === 'iges') {
    // A directory entry whose transformation matrix (or structure) is itself.
    const lines = text.split('\n');
    const d = lines.map((l, i) => (l[72] === 'D' && Number(l.slice(73)) % 2 === 1 ? i : -1)).filter((i) => i >= 0);
    const at = d[int(r, d.length)]!;
    const own = String(Number(lines[at]!.slice(73))).padStart(8);
    const field = r() < 0.5 ? 48 : 16;
    lines[at] = lines[at]!.slice(0, field) + (field === 16 ? own.replace(/ (\d)/, '-$1') : own) + lines[at]!.slice(field + 8);
    return bytesOf(lines.join('\n'));
  }
  return undefined;
}

/** The mutant of `sources` for one seed: which source, which mutation, and the mutated bytes. */
export function mutant(sources: SourceFile[], seed: number): Mutant {
  const r = seededRandom(seed);
  const source = sources[seed % sources.length]!;
  const names = Object.keys(MUTATIONS);
  for (let attempt = 0; ; attempt++) {
    const mutation = attempt < 8 && r() < 0.15 ? 'wrong extension' : names[int(r, names.length)]!;
    if (mutation === 'wrong extension') {
      const ext = EXTENSIONS[int(r, EXTENSIONS.length)]!;
      return { seed, source: source.fileName, mutation: `${mutation} .${ext}`, fileName: source.fileName.replace(/\.[^.]+$/, `.${ext}`), bytes: source.bytes };
    }
    const bytes = MUTATIONS[mutation]!(source.bytes, r, source);
    if (bytes) return { seed, source: source.fileName, mutation, fileName: source.fileName, bytes };
  }
}
