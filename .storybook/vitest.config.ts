import path from 'node:path';
import { defineProject } from 'vitest/config';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';

// Debian's Chromium, started the way this machine needs (TOOLCHAIN.md).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Animations off (the kit honours reduced motion): the checks and pictures are deterministic.
  '--force-prefers-reduced-motion',
];

export default defineProject({
  plugins: [storybookTest({ configDir: path.join(import.meta.dirname) })],
  resolve: { conditions: ['@mates/source'] },
  test: {
    name: 'storybook',
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: CHROMIUM_ARGS,
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
    setupFiles: [path.join(import.meta.dirname, 'vitest.setup.ts')],
  },
});
