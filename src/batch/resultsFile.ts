import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { BrepscopeError, resultJson } from '../engine/hostFacts';
import type { JobResult } from './jobRunner';

export interface ResultsFile {
  /** Jobs already in the file (with --resume): they are not run again. */
  readonly done: ReadonlySet<string>;
  /** Appends one result as one line, synchronously: a finished job is never lost to a later crash. */
  append(result: JobResult): void;
}

/**
 * Opens the results file. An existing file is only reused with `resume` (its finished jobs are
 * skipped) or replaced with `overwrite`; otherwise FILE_EXISTS, so a rerun never destroys a night's results.
 */
export function openResults(path: string, mode: { resume?: boolean | undefined; overwrite?: boolean | undefined }): ResultsFile {
  const done = new Set<string>();
  if (existsSync(path) && !mode.overwrite) {
    if (!mode.resume) throw new BrepscopeError('FILE_EXISTS', `${path} exists: pass --resume to skip the jobs it holds, or --overwrite to start again`);
    const text = readFileSync(path, 'utf8');
    for (const line of text.split('\n')) {
      const id = finishedId(line);
      if (id !== undefined) done.add(id);
    }
    // A last line cut short by a crash stays a line of its own (its job runs again).
    if (text.length > 0 && !text.endsWith('\n')) appendFileSync(path, '\n');
  } else {
    writeFileSync(path, '');
  }
  return {
    done,
    append(result) {
      appendFileSync(path, resultJson(result) + '\n');
    },
  };
}

function finishedId(line: string): string | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as { id?: unknown; status?: unknown };
    return typeof value.id === 'string' && (value.status === 'ok' || value.status === 'failed') ? value.id : undefined;
  } catch {
    return undefined; // a partial line: that job is not finished
  }
}

/** Every result in a results file, by job id (tests and the queue collector's resume). */
export function readResults(path: string): Map<string, JobResult> {
  const results = new Map<string, JobResult>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (finishedId(line) === undefined) continue;
    const result = JSON.parse(line) as JobResult;
    results.set(result.id, result);
  }
  return results;
}
