import { BrepscopeError } from './errors';
import type { FilePieces } from './scene/import/stl';
import type { FileAccess } from './tools/defineTool';

/** A file a tool call wrote, returned with its result: no host has to look for it. */
export interface OutputFile {
  path: string;
  bytes: Uint8Array;
  mimeType: string;
}

const MIME: Record<string, string> = {
  png: 'image/png',
  json: 'application/json',
  svg: 'image/svg+xml',
  csv: 'text/csv',
  txt: 'text/plain',
  html: 'text/html',
  sqlite: 'application/vnd.sqlite3',
  sqlite3: 'application/vnd.sqlite3',
  db: 'application/vnd.sqlite3',
  brep: 'model/x-brep',
  stl: 'model/stl',
};

export function mimeTypeOf(path: string): string {
  return MIME[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** What one call may write over (issue 13, item 4). */
export interface WritePolicy {
  /** The caller passed overwrite: true: a file that exists may be replaced. */
  overwrite: boolean;
  /** The bodyId of a scene body loaded from this file: such a file is never written. */
  loadedAs(path: string): string | undefined;
}

/**
 * The file access of one call: reads and writes go to `files`, and every write is kept as an output
 * (the last write of a path wins). A file the call wrote itself may be written again; any other
 * file that exists is replaced only with `policy.overwrite`, and a file loaded in the scene never.
 */
export function recordingFiles(files: FileAccess, policy: WritePolicy): { files: FileAccess; outputs: () => OutputFile[] } {
  const written = new Map<string, OutputFile>();
  return {
    files: {
      read: (path, options) => files.read(path, options),
      ...(files.stream ? { stream: files.stream.bind(files) } : {}),
      async write(path, bytes) {
        const again = written.has(path);
        const loaded = again ? undefined : policy.loadedAs(path);
        if (loaded !== undefined) {
          throw new BrepscopeError('FILE_IN_USE', `${path}: is loaded in the scene as body '${loaded}'; a tool never writes over a loaded file (write elsewhere, or remove the body first)`);
        }
        await files.write(path, bytes, { overwrite: again || policy.overwrite });
        written.delete(path);
        written.set(path, { path, bytes, mimeType: mimeTypeOf(path) });
      },
      ...(files.canonical ? { canonical: files.canonical } : {}),
    },
    outputs: () => [...written.values()],
  };
}

/**
 * Files in memory: what a host without a file system (the browser worker) gives the engine. Tools
 * read what was written before; anything else is FILE_NOT_FOUND naming what there is. They are the
 * engine's own scratch files (the page offers them as downloads), so a later write replaces one
 * whether or not the call passed overwrite.
 */
export function memoryFiles(): FileAccess {
  const stored = new Map<string, Uint8Array>();
  return {
    async read(path) {
      const bytes = stored.get(path);
      if (!bytes) throw new BrepscopeError('FILE_NOT_FOUND', `no file named '${path}'${stored.size ? ` (written so far: ${[...stored.keys()].join(', ')})` : ''}`);
      return bytes;
    },
    async write(path, bytes) {
      stored.set(path, bytes);
    },
  };
}

/** How much of a Blob one piece of `blobFile` reads. */
export const BLOB_PIECE_BYTES = 4 * 1024 * 1024;

/**
 * A Blob (the browser's dropped File) as a file read piece by piece: each piece is a slice read on
 * demand, so a parser that streams never has the whole file in one buffer.
 */
export function blobFile(blob: Blob, path: string, pieceBytes = BLOB_PIECE_BYTES): FilePieces {
  return {
    size: blob.size,
    pieces: (async function* () {
      for (let at = 0; at < blob.size; at += pieceBytes) {
        yield await readBlob(blob.slice(at, Math.min(blob.size, at + pieceBytes)), path);
      }
    })(),
  };
}

/**
 * A Blob's bytes. A dropped File moved or deleted since the drop can no longer be read: that is
 * FILE_NOT_FOUND naming the file, as it was when the worker read the whole File at once.
 */
export async function readBlob(blob: Blob, path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await blob.arrayBuffer());
  } catch (e) {
    throw new BrepscopeError('FILE_NOT_FOUND', `could not read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
