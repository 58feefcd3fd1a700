import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@mates/source'] },
  ssr: { resolve: { conditions: ['@mates/source'] } },
  test: {
    name: 'server',
    environment: 'node',
    // Each file gets its own databases; argon2 and PostgreSQL make some tests slower.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
