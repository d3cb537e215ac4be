import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FileAccess } from '../engine';
import { BrepscopeError } from '../engine/hostFacts';
import { nodeFileAccess } from './nodeFiles';

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
 * every read and write of a file elsewhere is PATH_OUTSIDE_ROOTS; null roots confine nothing. The
 * file opened is what is checked, not its path (nodeFiles.ts), so no link inside a root leads out,
 * not even one swapped while the call runs.
 */
export function confinedFiles(roots: () => readonly string[] | null): FileAccess {
  return nodeFileAccess(roots);
}
