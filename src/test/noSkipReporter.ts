import type { Reporter, TestModule } from 'vitest/node';

/**
 * In CI a skipped test is a failure: a test that cannot run (missing data, a missing tool) must say
 * so loudly, never pass by not running. Locally skips are only listed.
 */
export default class NoSkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        if (test.result().state === 'skipped') skipped.push(`${module.moduleId}: ${test.fullName}`);
      }
    }
    if (skipped.length === 0) return;
    const list = skipped.map((s) => `  - ${s}`).join('\n');
    if (process.env.CI) {
      process.stderr.write(`\nnoSkipReporter: ${skipped.length} test(s) skipped, which CI does not allow:\n${list}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`\nnoSkipReporter: ${skipped.length} test(s) skipped (CI would fail):\n${list}\n`);
    }
  }
}
