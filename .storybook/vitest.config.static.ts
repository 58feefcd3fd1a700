import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    // The static Storybook (`pnpm build-storybook`, built here when older than its sources)
    // opened in the manager in Chromium, every entry in turn.
    name: 'storybook-static',
    include: ['static-storybook.test.ts'],
    environment: 'node',
    // A guard against a hang: each entry runs its `play`, some for several seconds on 2 cores.
    testTimeout: 480_000,
    hookTimeout: 120_000,
  },
});
