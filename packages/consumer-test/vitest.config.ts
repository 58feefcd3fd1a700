import { defineProject } from 'vitest/config';

// The published packages as another team gets them: packed tarballs installed with npm into a
// fresh project outside the workspace. It reads the built dist (`pnpm test` builds first).
export default defineProject({
  test: {
    name: 'consumer',
    environment: 'node',
    include: ['*.test.ts'],
    // One npm install of the tarballs and their peers (a warm npm cache makes it seconds),
    // and tsc over every package's types with skipLibCheck off (a minute on a busy 2-core box).
    hookTimeout: 180_000,
    testTimeout: 300_000,
  },
});
