import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/** Where a test needs its own copy of the server's modules: it replaces one with `vi.mock`. */
export const ISOLATED = ['test/login-guessing.test.ts', 'test/shared-calls-failures.test.ts'];

/** What both server projects share: the sources of the workspace's packages, and the timeouts. */
export const SERVER_PROJECT = {
  resolve: { conditions: ['@mates/source'] },
  ssr: { resolve: { conditions: ['@mates/source'] } },
  test: {
    environment: 'node',
    // Each file gets its own databases; argon2 and PostgreSQL make some tests slower.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
} satisfies UserWorkspaceConfig;

export default defineProject({
  ...SERVER_PROJECT,
  test: {
    ...SERVER_PROJECT.test,
    name: 'server',
    exclude: ['**/node_modules/**', ...ISOLATED],
    // The files share one copy of the server's modules: each builds its own app and databases
    // (test/harness.ts), so nothing a test relies on lives in a module. Loading the modules
    // again for every file cost about a second a file, a minute and a half of each run.
    isolate: false,
  },
});
