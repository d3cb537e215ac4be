import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:fast`: the kernel-free tier, the test files that start no kernel, engine, worker
 * thread or process (under a minute); `npm test` runs every file. A file is in the tier unless it
 * imports one of the modules below, which start such work; src/test/kernelFreeTier.ts fails a file of
 * the tier that starts the kernel by a path this list does not see.
 */
const STARTS_WORK = [
  /from '[./]*(node\/)?(nodeEngine|nodeKernel|EngineHost|meshWorkers)'/,
  /from '[./]*(test\/)?(testEngine|page|kernelShapes|exactParts|featureBlock|singularSurfaces|interferenceShapes|assemblyFixture|deviationFixtures|scanFixture|fuzzCorpus|batchJobs)'/,
  /from 'node:(child_process|worker_threads)'/,
  /@modelcontextprotocol\/sdk\/client/,
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });
}

export const kernelFreeTests = testFiles('src')
  .filter((file) => !STARTS_WORK.some((pattern) => pattern.test(readFileSync(file, 'utf8'))))
  .sort();

// The full configuration with its file list replaced (mergeConfig would add the lists together).
export default defineConfig({ ...base, test: { ...base.test, include: kernelFreeTests, setupFiles: ['./src/test/kernelFreeTier.ts'] } });
