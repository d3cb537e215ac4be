import { constants, existsSync, lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { link, lstat, mkdir, open, readlink, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve as resolvePath, sep } from 'node:path';
import { totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { BrepscopeError, formatFromExtension, importLimit, tooLargeMessage, type FileAccess, type ReadOptions } from '../engine';

// Confinement by the file actually opened, not by a path checked before it (issue 35, item 1): a
// check on a path and an open of the same path are two lookups, and a symbolic link swapped between
// them (or a dangling one, which a path check sees as "a new file in the root") led outside. So every
// read opens first and checks the real path of the open descriptor; every write creates a temporary
// file with O_EXCL (which never follows a link) in a directory it opened and checked, then renames it
// over the target (a rename replaces a link, it never writes through one). On Linux the directory is
// named through /proc/self/fd, so the temporary file and the rename land in the directory checked,
// whatever happens to its path meanwhile.

/** Whether this system names an open descriptor's file in /proc/self/fd (Linux). */
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
/** Links followed while resolving one path (Linux's own limit, SYMLOOP_MAX, is 40). */
const MAX_LINKS = 40;
/** O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);
/** O_EXCL with O_CREAT never follows a link at the final name: the file is new, or the open fails. */
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const DIRECTORY_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);

/** The directories files are confined to, as real paths; null confines nothing. */
export type Roots = () => readonly string[] | null;

/**
 * File access on the real file system, with errors turned into stable codes, confined to `roots`
 * (every read and write elsewhere is PATH_OUTSIDE_ROOTS). Only regular files are read: a FIFO, a
 * device, a socket or a directory is refused before any byte is read, and a FIFO never blocks.
 */
export function nodeFileAccess(roots: Roots = () => null, base?: string): FileAccess {
  // Relative paths from `base` (a test's temp root), else from the cwd at each call; a file:// URL
  // (as MCP clients name their roots) is the path it names.
  const resolve = (path: string): string => {
    const local = localPath(path);
    return base === undefined ? resolvePath(local) : resolvePath(base, local);
  };
  const confine = (real: string, path: string, verb: 'read' | 'write'): void => {
    const allowed = roots();
    if (allowed === null || allowed.some((root) => isWithin(real, root))) return;
    throw new BrepscopeError(
      'PATH_OUTSIDE_ROOTS',
      `${path}: outside the directories this server may ${verb} (${allowed.length ? allowed.join(', ') : 'none'}); start it with --root <dir> to allow another one`,
      { roots: [...allowed] },
    );
  };
  /** The file opened and checked (confined, regular, within its limit): its handle and size; the caller closes it. */
  const openChecked = async (path: string, options: ReadOptions = {}): Promise<{ handle: FileHandle; size: number }> => {
    const full = resolve(path);
    // A first check by path keeps the open itself from touching anything outside (a device's open has effects).
    confine(intendedRealPath(full, path), path, 'read');
    let handle: FileHandle;
    try {
      handle = await open(full, READ_FLAGS);
    } catch (e) {
      throw fileError(e, path);
    }
    try {
      // The check that holds: the file this descriptor reads, whatever its path points at now.
      confine(await descriptorPath(handle, full, path), path, 'read');
      const info = await handle.stat();
      refuseSpecial(info, path);
      // Kernel formats stop at the kernel's heap; mesh files at the memory budget (importLimits.ts).
      // A requested format decides, as it decides how the file is read.
      const format = options.format ?? formatFromExtension(path);
      const limit = importLimit(format, memoryBudget());
      if (info.size > limit) throw new BrepscopeError('FILE_TOO_LARGE', tooLargeMessage(path, info.size, limit, format));
      return { handle, size: info.size };
    } catch (e) {
      await handle.close();
      throw e;
    }
  };
  return {
    async read(path, options) {
      const { handle, size } = await openChecked(path, options);
      try {
        return await readAll(handle, size, path);
      } finally {
        await handle.close();
      }
    },
    async stream(path, options) {
      const { handle, size } = await openChecked(path, options);
      return { size, pieces: readPieces(handle, path) };
    },
    async write(path, bytes, options = {}) {
      const target = intendedRealPath(resolve(path), path);
      confine(target, path, 'write');
      const dir = await openDirectory(dirname(target), path, (real) => confine(real, path, 'write'));
      try {
        await replaceIn(dir, basename(target), bytes, options.overwrite === true, path);
      } finally {
        await dir.handle.close();
      }
    },
    // Two names of one file (a link and its target) are one file: FILE_IN_USE compares these.
    canonical: (path) => intendedRealPath(resolve(path), path),
  };
}

/** The unconfined file system: what the CLI and the batch runner use. */
export const nodeFiles: FileAccess = nodeFileAccess();

/** The unconfined file system with relative paths resolved from `root` (tests: a temp folder). */
/** A file:// URL as the local path it names (other paths as they are); one this machine cannot name is a bad argument. */
function localPath(path: string): string {
  if (!/^file:/i.test(path)) return path;
  try {
    return fileURLToPath(path);
  } catch (e) {
    throw new BrepscopeError('INVALID_ARGUMENT', `${path}: not a file URL of this machine (${(e as Error).message})`);
  }
}

export function nodeFilesIn(root: string): FileAccess {
  return nodeFileAccess(() => null, root);
}

export function isWithin(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The real path a write to `full` lands on: links followed (dangling ones too, to where they
 * point), as far as the path exists. `shown` names the path in errors.
 */
export function intendedRealPath(full: string, shown: string): string {
  let links = 0;
  const walk = (path: string): string => {
    try {
      return realpathSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw tooManyLinks(shown);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return path;
    }
    const parent = dirname(path);
    if (parent === path) return path;
    const candidate = join(walk(parent), basename(path));
    let info: Stats;
    try {
      info = lstatSync(candidate);
    } catch {
      return candidate; // not there: a new file
    }
    if (!info.isSymbolicLink()) return candidate;
    // A dangling link: where it points is where a write through it would land.
    if (++links > MAX_LINKS) throw tooManyLinks(shown);
    return walk(resolvePath(dirname(candidate), readlinkSync(candidate)));
  };
  return walk(full);
}

function tooManyLinks(path: string): BrepscopeError {
  return new BrepscopeError('INVALID_ARGUMENT', `${path}: more than ${MAX_LINKS} symbolic links to follow (a loop?)`);
}

/** The real path of the file a descriptor has open. */
async function descriptorPath(handle: FileHandle, opened: string, shown: string): Promise<string> {
  if (PROC_FD) return readlink(`/proc/self/fd/${handle.fd}`);
  // Elsewhere: the path's real path, trusted only when it names the very file that is open.
  const real = await realpath(opened).catch((e: unknown) => {
    throw fileError(e, shown);
  });
  const [held, named] = await Promise.all([handle.stat(), stat(real)]);
  if (held.dev !== named.dev || held.ino !== named.ino) throw new BrepscopeError('FILE_NOT_FOUND', `${shown}: the file changed while it was opened`);
  return real;
}

function refuseSpecial(info: Stats, path: string): void {
  if (info.isFile()) return;
  const kind = info.isDirectory()
    ? 'a directory'
    : info.isFIFO()
      ? 'a FIFO (named pipe)'
      : info.isSocket()
        ? 'a socket'
        : info.isCharacterDevice() || info.isBlockDevice()
          ? 'a device'
          : 'not a regular file';
  throw new BrepscopeError('INVALID_ARGUMENT', `${path}: is ${kind}, not a file; only regular files are read or written`);
}

/** What this process may spend on one file's body: three quarters of the memory it can have. */
function memoryBudget(): number {
  return 0.75 * Math.min(totalmem(), process.constrainedMemory?.() || Infinity);
}

/** One piece of a streamed file: big enough that a read call costs nothing beside its parsing, small beside any mesh. */
export const PIECE_BYTES = 4 * 2 ** 20;

/**
 * The file's bytes in pieces of PIECE_BYTES, all in one buffer reused (a piece is valid until the
 * next is asked for); the handle is closed at the end, or when the reader stops early.
 */
export async function* readPieces(handle: FileHandle, path: string): AsyncGenerator<Uint8Array> {
  const buffer = new Uint8Array(PIECE_BYTES);
  try {
    for (let at = 0; ; ) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, PIECE_BYTES, at));
      } catch (e) {
        throw fileError(e, path);
      }
      if (bytesRead === 0) return;
      at += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

async function readAll(handle: FileHandle, size: number, path: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let done = 0;
  try {
    while (done < size) {
      // At most 1 GiB a read: one read call stops at 2 GiB, and a mesh file may be 4.
      const { bytesRead } = await handle.read(bytes, done, Math.min(size - done, 2 ** 30), done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
  } catch (e) {
    throw fileError(e, path);
  }
  return done === size ? bytes : bytes.subarray(0, done);
}

interface OpenDirectory {
  handle: FileHandle;
  /** How to name a file in it: through the descriptor on Linux, else by its real path. */
  path: string;
}

/**
 * A directory opened and checked (`confine` sees its real path), missing ones created one level at
 * a time, each inside a directory opened and checked first.
 */
async function openDirectory(dir: string, shown: string, confine: (real: string) => void): Promise<OpenDirectory> {
  const cannotWrite = (e: unknown) => writeError(e, shown);
  const opened = async (path: string): Promise<OpenDirectory> => {
    const handle = await open(path, DIRECTORY_FLAGS);
    try {
      const real = await descriptorPath(handle, path, shown);
      confine(real);
      return { handle, path: PROC_FD ? `/proc/self/fd/${handle.fd}` : real };
    } catch (e) {
      await handle.close();
      throw e;
    }
  };
  try {
    return await opened(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e instanceof BrepscopeError ? e : cannotWrite(e);
  }
  const parent = dirname(dir);
  if (parent === dir) throw cannotWrite(new Error('no root directory'));
  const above = await openDirectory(parent, shown, confine);
  try {
    const child = join(above.path, basename(dir));
    await mkdir(child).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotWrite(e);
    });
    return await opened(child).catch((e: unknown) => {
      throw e instanceof BrepscopeError ? e : cannotWrite(e);
    });
  } finally {
    await above.handle.close();
  }
}

/**
 * Writes `bytes` as `name` in `dir`: into a new temporary file first, then renamed over the name
 * (overwrite) or linked to it (a link fails if the name exists: no window in which one could
 * appear). What stands at the name is replaced, never written through.
 */
async function replaceIn(dir: OpenDirectory, name: string, bytes: Uint8Array, overwrite: boolean, shown: string): Promise<void> {
  const cannotWrite = (e: unknown) => writeError(e, shown);
  const exists = () => new BrepscopeError('FILE_EXISTS', `${shown}: the file exists and this call did not create it; pass overwrite: true to replace it`);
  const targetPath = join(dir.path, name);
  const present = await lstat(targetPath).catch(() => undefined);
  if (present && !present.isFile() && !present.isSymbolicLink()) refuseSpecial(present, shown);
  if (present && !overwrite) throw exists();
  const temp = join(dir.path, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let file: FileHandle;
  try {
    file = await open(temp, CREATE_FLAGS, 0o666);
  } catch (e) {
    throw cannotWrite(e);
  }
  let placed = false;
  try {
    await file.writeFile(bytes);
    await file.close();
    if (overwrite) {
      await rename(temp, targetPath);
      placed = true;
      return;
    }
    try {
      await link(temp, targetPath);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw exists();
      // A file system without hard links: the name was free a moment ago, the rename takes it.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
      if (await lstat(targetPath).then(() => true, () => false)) throw exists();
      await rename(temp, targetPath);
      placed = true;
    }
  } catch (e) {
    await file.close().catch(() => undefined);
    throw e instanceof BrepscopeError ? e : cannotWrite(e);
  } finally {
    if (!placed) await unlink(temp).catch(() => undefined);
  }
}

/** Why a write failed: a name no file can have (a NUL byte, too long) is a bad argument, as it is for a read. */
function writeError(e: unknown, shown: string): BrepscopeError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ERR_INVALID_ARG_VALUE' || code === 'ENAMETOOLONG' || shown.includes('\0')) return fileError(e, shown);
  return new BrepscopeError('WRITE_FAILED', `${shown}: cannot write (${code ?? String(e)})`);
}

function fileError(e: unknown, path: string): BrepscopeError {
  if (e instanceof BrepscopeError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new BrepscopeError('FILE_NOT_FOUND', `${path}: no such file`);
  if (code === 'EACCES') return new BrepscopeError('FILE_NOT_FOUND', `${path}: permission denied`);
  if (code === 'ELOOP') return tooManyLinks(path);
  // A socket's open fails so (a device without its driver too): there is no file to read.
  if (code === 'ENXIO') return new BrepscopeError('INVALID_ARGUMENT', `${path}: is a socket or a device, not a file; only regular files are read or written`);
  if (code === 'EISDIR') return new BrepscopeError('INVALID_ARGUMENT', `${path}: is a directory, not a file; only regular files are read or written`);
  // Not a file that is missing: a name no file can have (Node refuses a NUL byte before the system sees it).
  if (code === 'ERR_INVALID_ARG_VALUE' || path.includes('\0')) return new BrepscopeError('INVALID_ARGUMENT', `${JSON.stringify(path)}: a path cannot contain a NUL character`);
  if (code === 'ENAMETOOLONG') return new BrepscopeError('INVALID_ARGUMENT', `${path.slice(0, 80)}...: the path (${path.length} characters) or one of its names is too long for the file system`);
  return new BrepscopeError('FILE_NOT_FOUND', `${path}: cannot read (${code ?? String(e)})`);
}
