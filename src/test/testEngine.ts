import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, isAbsolute } from 'node:path';
import type { Engine, FileAccess } from '../engine';
import { createNodeEngine, type NodeEngineOptions } from '../node/nodeEngine';
import { nodeFilesIn } from '../node/nodeFiles';
import { SCRATCH_ENV } from './scratchRoot';

let root: string | undefined;

/** The repository this file belongs to: tests never write into it. */
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * This test process's scratch directory, made on first use and removed when the process exits (and
 * with the run's scratch folder, scratchRoot.ts, when the process is stopped instead): the root test
 * engines resolve relative paths from and the cwd of the CLI and MCP processes tests start, so that
 * no test writes into the checkout.
 */
export function testRoot(): string {
  if (root === undefined) {
    const made = mkdtempSync(join(process.env[SCRATCH_ENV] ?? tmpdir(), 'brepscope-test-'));
    process.on('exit', () => rmSync(made, { recursive: true, force: true }));
    root = made;
  }
  return root;
}

/** True when `path` is `dir` or inside it. */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The real file system with relative paths resolved from `dir`; a write outside the system's temp
 * directory throws, so a test that would write into the checkout fails instead.
 */
export function testFiles(dir: string = testRoot()): FileAccess {
  const files = nodeFilesIn(dir);
  return {
    read: (path, options) => files.read(path, options),
    stream: (path, options) => files.stream!(path, options),
    async write(path, bytes, options) {
      const full = resolve(dir, path);
      // The checkout may itself lie in the temp folder (CI clones into one): it is refused by name.
      if (isInside(CHECKOUT, full) || !isInside(tmpdir(), full)) {
        throw new Error(`a test wrote ${full}, outside the temp folder ${tmpdir()} or inside the checkout ${CHECKOUT}: tests write under testRoot() or a mkdtemp directory`);
      }
      return files.write(path, bytes, options);
    },
    canonical: (path) => files.canonical?.(path) ?? path,
  };
}

/** A Node engine for tests: createNodeEngine with its files rooted in testRoot() (testFiles). */
export function testEngine(options: Omit<NodeEngineOptions, 'files'> = {}): Engine {
  return createNodeEngine({ ...options, files: testFiles() });
}
