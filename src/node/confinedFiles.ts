import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { FileAccess } from '../engine';
import { BrepscopeError } from '../engine/hostFacts';

/**
 * Directories as a confined host compares paths with them: absolute, symbolic links resolved. A
 * root that does not exist is refused at once (a typo would otherwise refuse every path later).
 */
export function rootDirs(dirs: readonly string[]): string[] {
  return dirs.map((dir) => {
    const full = resolve(dir);
    if (!existsSync(full)) throw new BrepscopeError('INVALID_ARGUMENT', `--root ${dir}: no such directory`);
    return realpathSync(full);
  });
}

/**
 * File access only inside `roots()` (the MCP server's --root directories and its client's roots):
 * every read and write of a path elsewhere is PATH_OUTSIDE_ROOTS; null roots confine nothing.
 * Paths are compared after resolving symbolic links, so a link inside a root cannot lead outside it.
 */
export function confinedFiles(files: FileAccess, roots: () => readonly string[] | null): FileAccess {
  const check = (path: string, verb: 'read' | 'write'): void => {
    const allowed = roots();
    if (allowed === null) return;
    const real = realPathOf(resolve(path));
    if (allowed.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))) return;
    throw new BrepscopeError(
      'PATH_OUTSIDE_ROOTS',
      `${path}: outside the directories this server may ${verb} (${allowed.length ? allowed.join(', ') : 'none'}); start it with --root <dir> to allow another one`,
      { roots: [...allowed] },
    );
  };
  return {
    async read(path) {
      check(path, 'read');
      return files.read(path);
    },
    async write(path, bytes, options) {
      check(path, 'write');
      return files.write(path, bytes, options);
    },
    canonical: (path) => files.canonical?.(path) ?? path,
  };
}

/** The path with symbolic links resolved as far as it exists (a file about to be written does not yet). */
function realPathOf(full: string): string {
  let existing = full;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) return full;
    rest.unshift(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    existing = parent;
  }
  return rest.length ? join(realpathSync(existing), ...rest) : realpathSync(existing);
}
