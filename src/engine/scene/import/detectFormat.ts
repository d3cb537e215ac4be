import { BrepscopeError } from '../../errors';
import type { SourceFormat } from '../Body';
import { byteOrderMark } from './textScanner';

/** The bytes of a file's head that resolveFormat's signatures look at. */
export const SIGNATURE_BYTES = 4096;

const EXTENSIONS: Record<string, SourceFormat> = {
  brep: 'brep',
  brp: 'brep',
  stl: 'stl',
  step: 'step',
  stp: 'step',
  iges: 'iges',
  igs: 'iges',
  xbf: 'xbf',
  ply: 'ply',
  obj: 'obj',
  '3mf': '3mf',
  xyz: 'xyz',
  pts: 'xyz',
  txt: 'xyz',
  csv: 'xyz',
  asc: 'xyz', // CloudCompare's ASCII cloud
};

export const SUPPORTED_EXTENSIONS = Object.keys(EXTENSIONS);

export function formatFromExtension(fileName: string): SourceFormat | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(fileName.split(/[?#]/)[0] ?? '');
  return m ? EXTENSIONS[m[1]!.toLowerCase()] : undefined;
}

/** Recognizes a format from the first bytes: by its signature, else by what its text lines look like. */
export function formatFromContent(bytes: Uint8Array): SourceFormat | undefined {
  return formatFromSignature(bytes) ?? textGeometryFormat(bytes);
}

/** Recognizes a format that has a signature in its first bytes. */
function formatFromSignature(bytes: Uint8Array): SourceFormat | undefined {
  const head = headText(bytes);
  const trimmed = head.trimStart();
  if (trimmed.startsWith('ISO-10303-21')) return 'step';
  if (/^(DBRep_DrawableShape|CASCADE Topology V)/.test(trimmed)) return 'brep';
  if (head.startsWith('BINFILE')) return 'xbf';
  // IGES: fixed 80-column records with the section letter in column 73 (S start, G global).
  const firstLine = head.split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.length >= 73 && firstLine[72] === 'S' && /\n.{72}G/.test(head)) return 'iges';
  if (/^ply\r?\n/.test(head)) return 'ply';
  if (head.startsWith('PK\u0003\u0004')) return '3mf'; // the only zip-packaged format we read
  if (/^solid\b/i.test(trimmed) && /facet|endsolid/i.test(head)) return 'stl';
  if (bytes.byteLength >= 84) {
    const count = new DataView(bytes.buffer, bytes.byteOffset + 80, 4).getUint32(0, true);
    if (84 + count * 50 === bytes.byteLength) return 'stl';
  }
  return undefined;
}

/** The first SIGNATURE_BYTES bytes as latin1 text, after a UTF-8 byte order mark (which text exports from Windows tools start with). */
function headText(bytes: Uint8Array): string {
  return new TextDecoder('latin1').decode(bytes.subarray(byteOrderMark(bytes), Math.min(bytes.byteLength, SIGNATURE_BYTES)));
}

/**
 * OBJ and text point files have no signature; their lines do: OBJ is keyword lines (`v`, `f`, `o`
 * ...) with at least one vertex, a point file is lines of 3 or more numbers. Only whole lines of the
 * head are judged (the last may be cut), and a NUL byte rules text out.
 */
function textGeometryFormat(bytes: Uint8Array): SourceFormat | undefined {
  const head = headText(bytes);
  if (head.includes('\u0000')) return undefined;
  const lines = head.split(/\r?\n/).slice(0, -1).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (lines.length === 0) return undefined;
  if (lines.some((l) => /^v\s/.test(l)) && lines.every((l) => /^(v|vn|vt|vp|f|l|p|o|g|s|usemtl|mtllib)(\s|$)/.test(l))) return 'obj';
  const number = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
  const numeric = lines.filter((l) => {
    const fields = l.split(/[\s,;]+/);
    return fields.length >= 3 && fields.every((f) => number.test(f));
  });
  if (numeric.length > 0 && numeric.length >= lines.length - 2 && lines.slice(lines.length - numeric.length).every((l) => numeric.includes(l))) return 'xyz';
  return undefined;
}

/**
 * The format to read a file as: the one asked for; else the content's signature; else the
 * extension; else what the text lines look like (OBJ keywords, rows of numbers). A signature is
 * evidence and a name is not, but a name beats a guess from the look of text lines.
 */
export function resolveFormat(fileName: string, bytes: Uint8Array, requested?: SourceFormat): SourceFormat {
  if (requested) return requested;
  const found = formatFromSignature(bytes) ?? formatFromExtension(fileName) ?? textGeometryFormat(bytes);
  if (found) return found;
  throw new BrepscopeError(
    'UNSUPPORTED_FORMAT',
    `${fileName}: unknown format; supported extensions are ${SUPPORTED_EXTENSIONS.map((e) => '.' + e).join(', ')} (or pass format)`,
  );
}

/** The file name without folders and extension: `.../box.stl` -> `box`. */
export function baseName(fileName: string): string {
  const last = (fileName.split(/[?#]/)[0] ?? '').split(/[\\/]/).pop() ?? '';
  const dot = last.lastIndexOf('.');
  return decodeURIComponentSafe(dot > 0 ? last.slice(0, dot) : last) || 'body';
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
