import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { browserTests } from '../../scripts/chromium';

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
      // A call's voice activity detection (loaded at a call's microphone, never with the page).
      'onnxruntime-web/wasm',
      '@ricky0123/vad-web/dist/models/silero',
      '@ricky0123/vad-web/dist/frame-processor',
      '@ricky0123/vad-web/dist/messages',
      '@ricky0123/vad-web/dist/resampler',
      '@ricky0123/vad-web/dist/logging',
    ],
  },
  test: {
    name: 'web',
    include: ['src/**/*.browser.test.tsx'],
    browser: browserTests(),
  },
});
