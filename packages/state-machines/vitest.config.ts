import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@mates/source'] },
  ssr: { resolve: { conditions: ['@mates/source'] } },
  test: { name: 'state-machines', environment: 'node' },
});
