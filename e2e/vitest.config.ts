import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    include: ['*.e2e.test.ts'],
    environment: 'node',
    // Each journey drives a real server and a real browser through many steps.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
