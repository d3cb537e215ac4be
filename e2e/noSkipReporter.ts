import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** In CI a skipped e2e test fails the run (src/test/noSkipReporter.ts is the vitest twin). */
export default class NoSkipReporter implements Reporter {
  private readonly skipped: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'skipped') this.skipped.push(test.titlePath().join(' > '));
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    if (this.skipped.length === 0) return undefined;
    const list = this.skipped.map((s) => `  - ${s}`).join('\n');
    process.stderr.write(`\nnoSkipReporter: ${this.skipped.length} e2e test(s) skipped${process.env.CI ? ', which CI does not allow' : ' (CI would fail)'}:\n${list}\n`);
    return process.env.CI && result.status === 'passed' ? { status: 'failed' } : undefined;
  }
}
