import { mkdir, open, stat, writeFile } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { BrepscopeError, formatFromExtension, importLimit, tooLargeMessage, type FileAccess } from '../engine';

/** File access on the real file system, with errors turned into stable codes. */
export const nodeFiles: FileAccess = {
  async read(path) {
    const full = resolve(path);
    let size: number;
    try {
      const info = await stat(full);
      if (info.isDirectory()) throw new BrepscopeError('INVALID_ARGUMENT', `${path}: is a directory, not a file`);
      size = info.size;
    } catch (e) {
      if (e instanceof BrepscopeError) throw e;
      throw fileError(e, path);
    }
    const format = formatFromExtension(path);
    const limit = importLimit(format, memoryBudget());
    if (size > limit) throw new BrepscopeError('FILE_TOO_LARGE', tooLargeMessage(path, size, limit, format));
    try {
      return await readWhole(full, size);
    } catch (e) {
      throw fileError(e, path);
    }
  },
  async write(path, bytes, options = {}) {
    const cannotWrite = (e: unknown) => new BrepscopeError('WRITE_FAILED', `${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    await mkdir(dirname(resolve(path)), { recursive: true }).catch((e: unknown) => {
      throw cannotWrite(e);
    });
    try {
      // 'wx' creates or fails: no window between a check and the write in which a file could appear.
      await writeFile(resolve(path), bytes, { flag: options.overwrite ? 'w' : 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new BrepscopeError('FILE_EXISTS', `${path}: the file exists and this call did not create it; pass overwrite: true to replace it`);
      }
      throw cannotWrite(e);
    }
  },
  canonical: (path) => resolve(path),
};

/** What this process may spend on one file's body: three quarters of the memory it can have. */
function memoryBudget(): number {
  return 0.75 * Math.min(totalmem(), process.constrainedMemory?.() || Infinity);
}

/** Reads a file of `size` bytes in large reads (readFile stops at 2 GiB; a mesh file may be 4). */
async function readWhole(full: string, size: number): Promise<Uint8Array> {
  const file = await open(full, 'r');
  try {
    const bytes = new Uint8Array(size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await file.read(bytes, done, Math.min(size - done, 2 ** 30), done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === size ? bytes : bytes.subarray(0, done);
  } finally {
    await file.close();
  }
}

function fileError(e: unknown, path: string): BrepscopeError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new BrepscopeError('FILE_NOT_FOUND', `${path}: no such file`);
  if (code === 'EACCES') return new BrepscopeError('FILE_NOT_FOUND', `${path}: permission denied`);
  return new BrepscopeError('FILE_NOT_FOUND', `${path}: cannot read (${code ?? String(e)})`);
}
