import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    // The static Storybook (`pnpm build-storybook`, built here when older than its sources)
    // opened in the manager in Chromium, every entry in turn.
    name: 'storybook-static',
    // Two shares of the entries, each in its own worker with its own browser: the check runs
    // alone, and one browser drawing one entry at a time kept one of the two cores idle.
    include: ['static-storybook-*.test.ts'],
    globalSetup: ['static-storybook.setup.ts'],
    maxWorkers: 2,
    environment: 'node',
    // A guard against a hang: each entry runs its `play`, some for several seconds on 2 cores.
    testTimeout: 480_000,
    hookTimeout: 120_000,
  },
});
