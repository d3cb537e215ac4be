import { readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { BrepscopeError, duplicateJsonKey } from '../engine/hostFacts';

/** One job as a manifest line gives it (docs/batch.md). */
const jobLine = z.strictObject({
  id: z.string().min(1).max(200),
  bodies: z.record(z.string().min(1), z.string().min(1)).refine((b) => Object.keys(b).length > 0, 'a job needs at least one body'),
  runs: z
    .array(
      z.strictObject({
        tool: z.string().min(1),
        args: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .min(1, 'a job needs at least one run'),
  /** This job's deadline instead of the batch's, in seconds. */
  deadline: z.number().positive().optional(),
});

export interface BatchRun {
  tool: string;
  args: Record<string, unknown>;
}

/** A job with every file path made absolute, so that any worker that sees the same file system reads the same files. */
export interface BatchJob {
  id: string;
  /** 1-based line in the manifest, for messages. */
  line: number;
  bodies: Record<string, string>;
  runs: BatchRun[];
  deadlineMs?: number | undefined;
}

/**
 * Argument keys that name files (path, inputPath, outputPath, outputDir and any other *Path / *Dir):
 * relative ones are taken from the manifest's directory, as body paths are, not from the worker's
 * working directory, which differs between machines.
 */
const FILE_ARG = /^(path|.+Path|.+Dir)$/;

function absoluteArgs(args: Record<string, unknown>, base: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    out[key] = typeof value === 'string' && FILE_ARG.test(key) && !isAbsolute(value) ? resolve(base, value) : value;
  }
  return out;
}

/** A root as given and, when it exists, with its links resolved: a path may name it either way. */
function rootForms(root: string): string[] {
  const full = resolve(root);
  try {
    const real = realpathSync(full);
    return real === full ? [full] : [full, real];
  } catch {
    return [full];
  }
}

function inside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  });
}

/**
 * The job's body files and file arguments that lie outside the roots, by their absolute paths. A
 * lexical check, so a manifest that leads out (`..`, an absolute path) is refused before anything
 * runs; a link inside a root that leads out is the engine's to refuse (its files are confined too).
 */
function outsideRoots(job: Pick<BatchJob, 'bodies' | 'runs'>, roots: readonly string[]): string[] {
  const found: string[] = [];
  for (const [bodyId, path] of Object.entries(job.bodies)) if (!inside(path, roots)) found.push(`body ${bodyId}: ${path}`);
  job.runs.forEach((run, index) => {
    for (const [key, value] of Object.entries(run.args)) {
      if (typeof value === 'string' && FILE_ARG.test(key) && !inside(value, roots)) found.push(`run ${index + 1} (${run.tool}) ${key}: ${value}`);
    }
  });
  return found;
}

function lineError(line: number, message: string): BrepscopeError {
  return new BrepscopeError('MANIFEST_INVALID', `manifest line ${line}: ${message}`);
}

/**
 * Reads JSON Lines text (blank lines and lines starting with # skipped); every problem found, one
 * message each. Every file a job reads or names must lie inside `roots` (default: the manifest's
 * directory): a manifest must not lead a batch to read or write elsewhere (`..`, absolute paths).
 */
export function parseManifest(text: string, baseDir: string, roots: readonly string[] = [baseDir]): BatchJob[] {
  const allowed = roots.flatMap(rootForms);
  const jobs: BatchJob[] = [];
  const problems: BrepscopeError[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      problems.push(lineError(line, `not JSON (${(e as Error).message})`));
      return;
    }
    const twice = duplicateJsonKey(trimmed);
    if (twice !== undefined) {
      problems.push(lineError(line, `${twice}: given twice (JSON would keep the last without a word)`));
      return;
    }
    const parsed = jobLine.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      problems.push(lineError(line, `${issue.path.join('.') || 'job'}: ${issue.message}`));
      return;
    }
    const job = parsed.data;
    const first = seen.get(job.id);
    if (first !== undefined) {
      problems.push(lineError(line, `job id "${job.id}" is also on line ${first}: ids name results and must be unique`));
      return;
    }
    seen.set(job.id, line);
    const bodies = Object.fromEntries(Object.entries(job.bodies).map(([bodyId, path]) => [bodyId, resolve(baseDir, path)]));
    const runs = job.runs.map((run) => ({ tool: run.tool, args: absoluteArgs(run.args, baseDir) }));
    const outside = outsideRoots({ bodies, runs }, allowed);
    if (outside.length > 0) {
      problems.push(lineError(line, `PATH_OUTSIDE_ROOTS: ${outside.join('; ')}: outside the batch's roots (${roots.map((r) => resolve(r)).join(', ')}); give --root <dir> to allow another directory`));
      return;
    }
    jobs.push({ id: job.id, line, bodies, runs, deadlineMs: job.deadline === undefined ? undefined : Math.round(job.deadline * 1000) });
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, 20).map((p) => p.message);
    const more = problems.length > shown.length ? [`... and ${problems.length - shown.length} more`] : [];
    throw new BrepscopeError('MANIFEST_INVALID', [`the manifest has ${problems.length} bad line(s); nothing was run:`, ...shown, ...more].join('\n'), {
      lines: problems.map((p) => p.message),
    });
  }
  if (jobs.length === 0) throw new BrepscopeError('MANIFEST_INVALID', 'the manifest has no jobs');
  return jobs;
}

/** The manifest's jobs; their files must lie in the manifest's directory or one of `extraRoots`. */
export function readManifest(path: string, extraRoots: readonly string[] = []): BatchJob[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new BrepscopeError('FILE_NOT_FOUND', `cannot read the manifest ${path}: ${(e as Error).message}`);
  }
  const base = dirname(resolve(path));
  return parseManifest(text, base, [base, ...extraRoots]);
}
