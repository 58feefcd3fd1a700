import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
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
