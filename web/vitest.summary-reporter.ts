import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line, `N passed, N failed`, after Vitest's own report, so that CI
 * (which reads that plain line) can count the web unit tests.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      passed += [...testModule.children.allTests('passed')].length;
      failed += [...testModule.children.allTests('failed')].length;
      skipped += [...testModule.children.allTests('skipped')].length;
    }
    const skippedPart = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\n${passed} passed, ${failed} failed${skippedPart}\n`);
  }
}
