import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// A job's outputs belong to the job (issue 35, item 5). A job killed after writing its PNG used to
// fail on its rerun with FILE_EXISTS on its own file, and its later runs were skipped. Each output a
// run names is now claimed for the job before the run writes it, in a small file beside it; a later
// attempt of the same job (a worker killed, a batch run again) removes its own earlier file first,
// and a file another job or the user wrote is left to the tool's rule (FILE_EXISTS without overwrite).

const CLAIM_SUFFIX = '.brepscope-job';

/**
 * The key of a manifest (its path and content): a batch's queue ids and its jobs' output claims. The
 * same manifest gives the same key, so a resumed or rerun batch finds its jobs and its own files.
 */
export function batchKeyOf(manifestPath: string, manifestText: string): string {
  return createHash('sha256').update(manifestPath).update('\0').update(manifestText).digest('hex').slice(0, 16);
}
/** Arguments that name a file a run writes (outputPath and the like; inputs are path, inputPath). */
const OUTPUT_ARG = /^output(.+)?Path$/;

/** The files a run's arguments say it writes. */
export function outputPathsOf(args: unknown): string[] {
  if (typeof args !== 'object' || args === null) return [];
  return Object.entries(args).flatMap(([key, value]) => (OUTPUT_ARG.test(key) && typeof value === 'string' ? [value] : []));
}

/** Where the claim of an output is kept: a hidden file beside it naming the job. */
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

/**
 * Before a run of job `owner` writes `outputs`: each one not yet claimed and not there is claimed for
 * the job (a claim is made once, with O_EXCL); one the job claimed before is removed so the run
 * writes it anew. Files claimed by another job, and files nobody claimed, are left as they are.
 */
export function claimOutputs(outputs: readonly string[], owner: string): void {
  for (const output of outputs) {
    const claim = claimPathOf(output);
    let holder = holderOf(claim);
    if (holder === undefined) {
      if (existsSync(output)) continue; // the user's file: the tool refuses it (FILE_EXISTS) unless told
      mkdirSync(dirname(output), { recursive: true });
      try {
        writeFileSync(claim, owner, { flag: 'wx' });
        continue;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        holder = holderOf(claim); // another job claimed it a moment ago
      }
    }
    if (holder === owner) rmSync(output, { force: true });
  }
}
