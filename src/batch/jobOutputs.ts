import { createHash } from 'node:crypto';

// A job's outputs belong to the job (issue 35, item 5): every file a job's run writes is claimed for
// the job as it is written (src/node/ownedFiles.ts, in the engine thread, where the writes happen).
// The owner key is `<batch key>/<job id>` (localBatch.jobOwner), with the batch key made here.

export { claimPathOf } from '../node/ownedFiles';

/**
 * The key of a manifest (its path and content): a batch's queue ids and its jobs' output claims. The
 * same manifest gives the same key, so a resumed or rerun batch finds its jobs and its own files.
 */
export function batchKeyOf(manifestPath: string, manifestText: string): string {
  return createHash('sha256').update(manifestPath).update('\0').update(manifestText).digest('hex').slice(0, 16);
}
