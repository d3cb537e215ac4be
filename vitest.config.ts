import { defineConfig } from 'vitest/config';

// The kernel costs 4 s and 0.5 GB per worker: few workers, no isolation, so each worker loads it once.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // One scratch folder per run, removed at its end (src/test/scratchRoot.ts).
    globalSetup: ['./src/test/scratchRoot.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // CI fails on any skipped test (src/test/noSkipReporter.ts) and on a stray `.only`.
    reporters: ['default', './src/test/noSkipReporter.ts'],
    allowOnly: !process.env.CI,
    // A test passes or fails on its first run: no retries (a flaky test is a bug to fix).
    retry: 0,
  },
});
