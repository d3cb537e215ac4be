import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { FileAccess } from '../engine';
import { BrepscopeError } from '../engine/hostFacts';

// A batch job's outputs belong to the job (issue 35, item 5). A job killed after writing its PNG used
// to fail on its rerun with FILE_EXISTS on its own file, and its later runs were skipped. Every file
// a job's run writes (one its arguments name, or one a tool names itself inside an outputDir: a
// section overlay, a heat-map snapshot, a report's pictures) is claimed for the job as it is written,
// in a small file beside it. A later attempt of the same job replaces its own file; another job's of
// the same batch is never replaced (FILE_EXISTS, whatever `overwrite` says: two jobs naming one file
// would clobber each other's results); a file nobody claimed (the user's) or one of another batch (a
// run of an edited manifest) follows the tool's rule (FILE_EXISTS unless `overwrite: true`).

const CLAIM_SUFFIX = '.brepscope-job';

/** Where the claim of an output is kept: a hidden file beside it naming its job. */
export function claimPathOf(output: string): string {
  return join(dirname(output), `.${basename(output)}${CLAIM_SUFFIX}`);
}

function holderOf(claim: string): string | undefined {
  try {
    return readFileSync(claim, 'utf8');
  } catch {
    return undefined;
  }
}

/** Claims `output` for `owner` unless someone holds it; the holder afterwards (a claim is made once, with O_EXCL). */
function claim(output: string, owner: string): string {
  const path = claimPathOf(output);
  const holder = holderOf(path);
  if (holder !== undefined) return holder;
  mkdirSync(dirname(output), { recursive: true });
  try {
    writeFileSync(path, owner, { flag: 'wx' });
    return owner;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new BrepscopeError('WRITE_FAILED', `${output}: cannot claim it for the job (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    return holderOf(path) ?? owner; // another job claimed it a moment ago
  }
}

/**
 * `files` with every write claimed for the job `owner()` names (none: writes pass as they are).
 * Owners are `<batch key>/<job id>`; the batch key names the manifest (its path and content).
 */
export function ownedFiles(files: FileAccess, owner: () => string | undefined): FileAccess {
  return {
    read: (path, options) => files.read(path, options),
    ...(files.stream ? { stream: files.stream.bind(files) } : {}),
    ...(files.canonical ? { canonical: (path: string) => files.canonical!(path) } : {}),
    async write(path, bytes, options = {}) {
      const job = owner();
      if (job === undefined) return files.write(path, bytes, options);
      // The claim sits beside the file the write lands on, whichever name the run gave it.
      const target = files.canonical?.(path) ?? resolve(path);
      const existed = existsSync(target);
      const holder = existed ? holderOf(claimPathOf(target)) : claim(target, job);
      if (holder === job) return files.write(path, bytes, { ...options, overwrite: true });
      if (holder !== undefined && sameBatch(holder, job)) {
        throw new BrepscopeError('FILE_EXISTS', `${path}: written by job ${JSON.stringify(jobIdOf(holder))} of this batch; a job never replaces another job's output (give each job its own output paths)`);
      }
      if (holder !== undefined && existed && options.overwrite !== true) {
        throw new BrepscopeError('FILE_EXISTS', `${path}: written by job ${JSON.stringify(jobIdOf(holder))} of another batch (another manifest, or this one before it was edited); pass overwrite: true to replace it`);
      }
      // The user's file or another batch's: replaced only when the run says overwrite; then it is this job's.
      await files.write(path, bytes, options);
      writeFileSync(claimPathOf(target), job);
    },
  };
}

const jobIdOf = (owner: string): string => owner.slice(owner.indexOf('/') + 1);
const sameBatch = (a: string, b: string): boolean => a.slice(0, a.indexOf('/')) === b.slice(0, b.indexOf('/'));
