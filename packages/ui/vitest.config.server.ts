import { defineProject } from 'vitest/config';

// What the kit does outside a browser: server rendering, and the built package under React 18.
export default defineProject({
  resolve: { conditions: ['@mates/source'] },
  test: {
    name: 'ui-server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    exclude: ['src/**/*.browser.test.tsx'],
  },
});
