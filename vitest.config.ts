import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    // Each package and app owns its test setup; a new one joins by adding its config.
    projects: [
      'packages/*/vitest.config*.ts',
      'apps/*/vitest.config*.ts',
      'e2e/vitest.config*.ts',
      // Not the static-Storybook check (`.storybook/vitest.config.static.ts`): it is run on
      // its own with `pnpm test:storybook-static` until it passes whole (docs/contributing.md).
      '.storybook/vitest.config.ts',
    ],
  },
});
