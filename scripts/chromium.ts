import { playwright } from '@vitest/browser-playwright';

// Debian's Chromium, started the way this machine needs (TOOLCHAIN.md), with animations
// off (the kit honours reduced motion) so that checks and pictures are deterministic.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--force-prefers-reduced-motion',
  '--font-render-hinting=none',
];

/** The vitest browser provider for every browser test project. */
export const chromium = () =>
  playwright({
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  });

/** The `test.browser` settings of a browser test project: headless Chromium at 1280×800. */
export const browserTests = () => ({
  enabled: true,
  headless: true,
  provider: chromium(),
  instances: [{ browser: 'chromium' as const, viewport: { width: 1280, height: 800 } }],
});
