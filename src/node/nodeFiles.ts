import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { BrepscopeError, MAX_IMPORT_BYTES, type FileAccess } from '../engine';

/** File access on the real file system, with errors turned into stable codes; relative paths from the cwd. */
export const nodeFiles: FileAccess = nodeFilesIn();

/**
 * File access on the real file system with relative paths resolved from `root` (default: the cwd
 * at each call). Messages name the path as given.
 */
export function nodeFilesIn(root?: string): FileAccess {
  const full = (path: string): string => (root === undefined ? resolve(path) : resolve(root, path));
  return {
    async read(path) {
      const file = full(path);
      let size: number;
      try {
        const info = await stat(file);
        if (info.isDirectory()) throw new BrepscopeError('INVALID_ARGUMENT', `${path}: is a directory, not a file`);
        size = info.size;
      } catch (e) {
        if (e instanceof BrepscopeError) throw e;
        throw fileError(e, path);
      }
      if (size > MAX_IMPORT_BYTES) {
        throw new BrepscopeError('FILE_TOO_LARGE', `${path}: ${(size / 2 ** 20).toFixed(0)} MiB is over the ${MAX_IMPORT_BYTES / 2 ** 20} MiB import limit`);
      }
      try {
        const buf = await readFile(file);
        return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      } catch (e) {
        throw fileError(e, path);
      }
    },
    async write(path, bytes, options = {}) {
      const cannotWrite = (e: unknown) => new BrepscopeError('WRITE_FAILED', `${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      await mkdir(dirname(full(path)), { recursive: true }).catch((e: unknown) => {
        throw cannotWrite(e);
      });
      try {
        // 'wx' creates or fails: no window between a check and the write in which a file could appear.
        await writeFile(full(path), bytes, { flag: options.overwrite ? 'w' : 'wx' });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new BrepscopeError('FILE_EXISTS', `${path}: the file exists and this call did not create it; pass overwrite: true to replace it`);
        }
        throw cannotWrite(e);
      }
    },
    canonical: full,
  };
}

function fileError(e: unknown, path: string): BrepscopeError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new BrepscopeError('FILE_NOT_FOUND', `${path}: no such file`);
  if (code === 'EACCES') return new BrepscopeError('FILE_NOT_FOUND', `${path}: permission denied`);
  return new BrepscopeError('FILE_NOT_FOUND', `${path}: cannot read (${code ?? String(e)})`);
}
