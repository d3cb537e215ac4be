import type { FileAccess } from '../../context';
import type { SourceFormat } from '../Body';
import type { FilePieces } from './stl';
import type { ImportRequest, StreamedScan } from './importBody';
import type { MeshOrCloud } from './ply';
import { readObjPieces } from './obj';
import { readPlyPieces } from './ply';
import { readPointTextPieces } from './pointText';
import { readStlPieces } from './stl';
import { read3mfPieces } from './threeMfPieces';

/** What importBody is given for a file read by path. */
export type ImportInput = Pick<ImportRequest, 'bytes' | 'stlMesh' | 'scanContent' | 'fileBytes' | 'keepBytes'>;

/**
 * The other scan formats read piece by piece, by the name a file has when no format is asked for.
 * Without a requested format each reader first checks the file is its format by its first bytes
 * (resolveFormat's rule): a file that is another format whatever its name comes back as bytes.
 */
const STREAMED: readonly {
  format: StreamedScan['format'];
  name: RegExp;
  read: (file: FilePieces, name: string, signature: boolean) => Promise<{ content: MeshOrCloud } | { bytes: Uint8Array }>;
}[] = [
  { format: 'ply', name: /\.ply$/i, read: readPlyPieces },
  { format: 'obj', name: /\.obj$/i, read: readObjPieces },
  { format: 'xyz', name: /\.(xyz|pts|txt|csv|asc)$/i, read: readPointTextPieces },
];

/**
 * A file read by path for importBody. Where the host streams files (Node), an STL is welded (and a
 * PLY, an OBJ or a text point cloud read) as it streams by, binary or ASCII, never whole in memory, and a mesh body keeps no bytes (the host reads the file
 * again by its path when something needs them); elsewhere (the browser, whose files are in memory
 * already) the file is read whole and kept. `shared`: the mesh in SharedArrayBuffers, for hosts
 * whose mesh threads read it.
 */
export async function readForImport(files: FileAccess, path: string, format: SourceFormat | undefined, shared: boolean): Promise<ImportInput> {
  // A requested format sets the host's size limit too: the file is read as that format whatever its name.
  const asked = format === undefined ? {} : { format };
  if (!files.stream) return { bytes: await files.read(path, asked) };
  if (format === 'stl' || (format === undefined && /\.stl$/i.test(path))) {
    const file = await files.stream(path, asked);
    const read = await readStlPieces(file, path, { shared, requested: format === 'stl' });
    return 'mesh' in read ? { stlMesh: read.mesh, fileBytes: file.size, keepBytes: false } : { bytes: read.bytes, keepBytes: false };
  }
  if (format === '3mf' || (format === undefined && /\.3mf$/i.test(path))) {
    const file = await files.stream(path, asked);
    return { bytes: await read3mfPieces(file, path, format === '3mf'), keepBytes: false };
  }
  const streamed = STREAMED.find((s) => format === s.format || (format === undefined && s.name.test(path)));
  if (streamed) {
    const file = await files.stream(path, asked);
    const read = await streamed.read(file, path, format === undefined);
    return 'content' in read ? { scanContent: { format: streamed.format, content: read.content }, fileBytes: file.size, keepBytes: false } : { bytes: read.bytes, keepBytes: false };
  }
  return { bytes: await files.read(path, asked), keepBytes: false };
}
