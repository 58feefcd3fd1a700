import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { browserTests } from '../../scripts/chromium';

// Visual baselines and responsive checks of the kit, in headless Chromium.
export default defineProject({
  plugins: [react()],
  resolve: { conditions: ['@mates/source'] },
  // Serves the sample portraits the msw fixtures point at (/portraits/*.svg), as Storybook does.
  publicDir: '../../.storybook/public',
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react-dom/server.browser',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      '@stitches/react',
      'react-markdown',
      '@radix-ui/react-dialog',
      '@radix-ui/react-visually-hidden',
      '@radix-ui/react-toast',
    ],
  },
  test: {
    name: 'ui',
    include: ['src/**/*.browser.test.tsx'],
    browser: browserTests(),
  },
});
