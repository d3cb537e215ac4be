import type { FileAccess } from '../../context';
import type { SourceFormat } from '../Body';
import type { ImportRequest } from './importBody';
import { readObjPieces } from './obj';
import { readPlyPieces } from './ply';
import { readPointTextPieces } from './pointText';
import { readStlPieces } from './stl';

/** What importBody is given for a file read by path. */
export type ImportInput = Pick<ImportRequest, 'bytes' | 'stlMesh' | 'plyContent' | 'objContent' | 'cloudContent' | 'fileBytes' | 'keepBytes'>;

/**
 * A file read by path for importBody. Where the host streams files (Node), an STL is welded (and a
 * PLY, an OBJ or a text point cloud read) as it streams by, binary or ASCII, never whole in memory, and a mesh body keeps no bytes (the host reads the file
 * again by its path when something needs them); elsewhere (the browser, whose files are in memory
 * already) the file is read whole and kept. `shared`: the mesh in SharedArrayBuffers, for hosts
 * whose mesh threads read it.
 */
export async function readForImport(files: FileAccess, path: string, format: SourceFormat | undefined, shared: boolean): Promise<ImportInput> {
  if (!files.stream) return { bytes: await files.read(path) };
  if (format === 'stl' || (format === undefined && /\.stl$/i.test(path))) {
    const file = await files.stream(path);
    const read = await readStlPieces(file, path, { shared });
    return 'mesh' in read ? { stlMesh: read.mesh, fileBytes: file.size, keepBytes: false } : { bytes: read.bytes, keepBytes: false };
  }
  if (format === 'ply' || (format === undefined && /\.ply$/i.test(path))) {
    const file = await files.stream(path);
    // Without a requested format, the file is a PLY by its first line (resolveFormat), whatever its name.
    const read = await readPlyPieces(file, path, format === undefined);
    return 'content' in read ? { plyContent: read.content, fileBytes: file.size, keepBytes: false } : { bytes: read.bytes, keepBytes: false };
  }
  if (format === 'obj' || (format === undefined && /\.obj$/i.test(path))) {
    const file = await files.stream(path);
    // Without a requested format, a file named .obj may be another format by its first bytes (resolveFormat).
    const read = await readObjPieces(file, path, format === undefined);
    return 'content' in read ? { objContent: read.content, fileBytes: file.size, keepBytes: false } : { bytes: read.bytes, keepBytes: false };
  }
  if (format === 'xyz' || (format === undefined && /\.(xyz|pts|txt|csv)$/i.test(path))) {
    const file = await files.stream(path);
    // Without a requested format, a file named as a point cloud may be another format by its first bytes (resolveFormat).
    const read = await readPointTextPieces(file, path, format === undefined);
    return 'content' in read ? { cloudContent: read.content, fileBytes: file.size, keepBytes: false } : { bytes: read.bytes, keepBytes: false };
  }
  return { bytes: await files.read(path), keepBytes: false };
}
