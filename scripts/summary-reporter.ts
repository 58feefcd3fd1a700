import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the summary names. */
const SLOWEST = 15;

// Closes the run with one plain line, "Tests: N passed, N failed, N skipped", which CI
// reads to know that tests ran; vitest's own summary is shaped for people. Before it, the
// slowest files, so what makes CI long is on record in every run.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
    }
    const slowest = [...testModules]
      .map((testModule) => {
        const { collectDuration, setupDuration, duration } = testModule.diagnostic();
        return {
          seconds: (collectDuration + setupDuration + duration) / 1000,
          name: `${testModule.project.name} ${path.relative(process.cwd(), testModule.moduleId)}`,
        };
      })
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST);
    process.stdout.write(`\nSlowest test files (import + setup + tests):\n`);
    for (const { seconds, name } of slowest)
      process.stdout.write(`${seconds.toFixed(1).padStart(8)} s  ${name}\n`);
    process.stdout.write(
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
