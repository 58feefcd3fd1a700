import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    // Two test files at a time. Vitest's default on a 2-core machine is one (cores less one),
    // and most files wait on something else (a database, a browser, a child server): two at a
    // time took `pnpm test`'s Vitest run from 31 to 14 minutes here, every file passing.
    maxWorkers: 2,
    // Each package and app owns its test setup; a new one joins by adding its config.
    projects: [
      'packages/*/vitest.config*.ts',
      'apps/*/vitest.config*.ts',
      'e2e/vitest.config*.ts',
      // Not the static-Storybook check (`.storybook/vitest.config.static.ts`): `pnpm test` runs
      // it after these, on its own, since its one browser opens some 540 entries in turn and
      // is not to share the machine with the other browser projects (docs/contributing.md).
      '.storybook/vitest.config.ts',
    ],
  },
});
