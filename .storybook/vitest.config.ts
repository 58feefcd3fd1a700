import path from 'node:path';
import { defaultClientConditions } from 'vite';
import { defineProject } from 'vitest/config';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { browserTests } from '../scripts/chromium';
import { VOICE_DETECTION_DEPS } from '../apps/web/voice-detection-deps';

export default defineProject({
  plugins: [storybookTest({ configDir: path.join(import.meta.dirname) })],
  resolve: { conditions: ['@mates/source', ...defaultClientConditions] },
  // Declared up front (the web app's own dependencies are root devDependencies too, so that
  // they resolve from here): a dependency Vite discovers mid-run reloads the page and fails the
  // stories that were running, which a fresh clone (an empty cache) would hit every time.
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      '@stitches/react',
      '@radix-ui/react-dialog',
      '@radix-ui/react-switch',
      '@radix-ui/react-toast',
      '@radix-ui/react-visually-hidden',
      '@radix-ui/react-tabs',
      '@radix-ui/react-select',
      '@radix-ui/react-tooltip',
      'react-markdown',
      'react-router-dom',
      '@tanstack/react-query',
      'i18next',
      'react-i18next',
      'xstate',
      '@xstate/react',
      '@xstate/store',
      '@xstate/store-react',
      'msw',
      'msw-storybook-addon',
      'storybook/test',
      'storybook/theming/create',
      'storybook/viewport',
      ...VOICE_DETECTION_DEPS,
    ],
  },
  test: {
    name: 'storybook',
    browser: browserTests(),
    // A guard against a story that hangs, not a speed check: the longest stories (a 120-message
    // chat, read through by axe) took 16-18 s on a busy 2-core machine.
    testTimeout: 45_000,
    setupFiles: [path.join(import.meta.dirname, 'vitest.setup.ts')],
    // The story files run one after another in one page, sharing its modules: each story
    // renders its own app (a memory router, a query client, its MSW answers), so nothing a
    // story relies on lives in a module. A fresh page and module graph per file took 430 s of
    // a run against 250 s shared (2026-11-26, 2 cores).
    isolate: false,
  },
});
