import { BrepscopeError } from './errors';
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

/**
 * The file access of one call: reads and writes go to `files`, and every write is kept as an output
 * (the last write of a path wins).
 */
export function recordingFiles(files: FileAccess): { files: FileAccess; outputs: () => OutputFile[] } {
  const written = new Map<string, OutputFile>();
  return {
    files: {
      read: (path) => files.read(path),
      async write(path, bytes) {
        await files.write(path, bytes);
        written.delete(path);
        written.set(path, { path, bytes, mimeType: mimeTypeOf(path) });
      },
    },
    outputs: () => [...written.values()],
  };
}

/**
 * Files in memory: what a host without a file system (the browser worker) gives the engine. Tools
 * read what was written before; anything else is FILE_NOT_FOUND naming what there is.
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
