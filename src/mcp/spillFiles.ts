import { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Results too large to send inline are written to files (issue 35, item 3); these files used to stay
// forever. They live in a directory of the server's own, which goes when the session ends or the
// process exits; while the session runs, the oldest files go once there are more than a count or a
// size of them, so a long session that asks for big results again and again does not fill the disk.

/** Result files kept at once: the newest this many. */
export const MAX_SPILL_FILES = 16;
/** Bytes of result files kept at once: the oldest go beyond this (the newest file is always kept). */
export const MAX_SPILL_BYTES = 512 * 2 ** 20;

const PREFIX = 'brepscope-mcp-results-';

export interface SpillLimits {
  files: number;
  bytes: number;
}

/** The result files of one MCP session. */
export interface SpillFiles {
  /** Writes `text` as a new file named `name` and returns its path; older files may go (oldest first). */
  write(name: string, text: string): string;
  /** The files still kept, oldest first. */
  kept(): string[];
  /** Removes the directory and every file in it (the session ended). */
  dispose(): void;
}

/**
 * Result files in a new directory under `parent` (created on the first write, readable by this user
 * only, named with this process's id). Directories such files left behind by servers that were
 * killed (their process is gone) are removed at the first write too.
 */
export function spillFiles(parent: string = tmpdir(), limits: SpillLimits = { files: MAX_SPILL_FILES, bytes: MAX_SPILL_BYTES }): SpillFiles {
  let dir: string | undefined;
  const files: { path: string; bytes: number }[] = [];
  let total = 0;
  // A server ended without closing its session (process.exit, an uncaught error) still cleans up.
  const onExit = (): void => dispose();
  const dispose = (): void => {
    process.off('exit', onExit);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
    files.length = 0;
    total = 0;
  };
  return {
    write(name, text) {
      if (dir === undefined) {
        removeOrphans(parent);
        dir = mkdtempSync(join(parent, `${PREFIX}${process.pid}-`));
        process.on('exit', onExit);
      }
      const path = join(dir, name);
      writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
      files.push({ path, bytes: Buffer.byteLength(text) });
      total += files.at(-1)!.bytes;
      while (files.length > 1 && (files.length > limits.files || total > limits.bytes)) {
        const oldest = files.shift()!;
        total -= oldest.bytes;
        rmSync(oldest.path, { force: true });
      }
      return path;
    },
    kept: () => files.map((f) => f.path),
    dispose,
  };
}

/** Result directories of this user's servers whose process is gone (a server killed with SIGKILL). */
function removeOrphans(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const pid = Number(/^brepscope-mcp-results-(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || alive(pid)) continue;
    const path = join(parent, name);
    try {
      const info = lstatSync(path);
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
      rmSync(path, { recursive: true, force: true });
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // someone else's process: alive
  }
}
