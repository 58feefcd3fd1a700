import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { browserTests } from '../../scripts/chromium';
import { VOICE_DETECTION_DEPS } from './voice-detection-deps';

export default defineProject({
  plugins: [react()],
  resolve: { conditions: ['@mates/source'] },
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      'react-router-dom',
      '@tanstack/react-query',
      '@xstate/react',
      '@xstate/store-react',
      '@xstate/store',
      'xstate',
      'msw',
      '@stitches/react',
      'react-markdown',
      'i18next',
      'react-i18next',
      '@radix-ui/react-select',
      '@radix-ui/react-switch',
      '@radix-ui/react-tabs',
      '@radix-ui/react-tooltip',
      '@radix-ui/react-dialog',
      '@radix-ui/react-visually-hidden',
      '@radix-ui/react-toast',
      ...VOICE_DETECTION_DEPS,
    ],
  },
  test: {
    name: 'web',
    include: ['src/**/*.browser.test.tsx'],
    browser: browserTests(),
  },
});
