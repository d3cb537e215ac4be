import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variable that carries the test run's scratch folder to every test process. */
export const SCRATCH_ENV = 'BREPSCOPE_TEST_SCRATCH';

/**
 * Vitest global setup: one scratch folder for the whole run, under the system's temp folder, removed
 * when the run ends. The test processes make their own folders inside it (testRoot): a forked test
 * worker is stopped without its 'exit' handlers running, so a folder it made for itself would stay
 * behind in /tmp after every run.
 */
export default function setup(): () => void {
  const made = mkdtempSync(join(tmpdir(), 'brepscope-vitest-'));
  process.env[SCRATCH_ENV] = made;
  return () => rmSync(made, { recursive: true, force: true });
}
