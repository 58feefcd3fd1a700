import { playwright } from '@vitest/browser-playwright';

// Debian's Chromium, started with the flags it needs in a container, with animations
// off (the kit honours reduced motion) so that checks and pictures are deterministic.
/** Chromium's flags here; the browser tests, e2e and the web bench all use them. */
export const CHROMIUM_ARGS = [
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
  // Stories press buttons with synthetic events, which give no user activation: without this
  // a voice's play() would be refused there, though a person's press plays it.
  '--autoplay-policy=no-user-gesture-required',
];

/** Where Chromium is: `CHROMIUM_PATH`, or Debian's. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The vitest browser provider for every browser test project. */
export const chromium = () =>
  playwright({
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    // The page itself asks for less motion too (the flag above did not always reach it: a
    // dialog's opening fade was caught mid-way, "not visible", in loaded clean-clone runs).
    contextOptions: { reducedMotion: 'reduce' },
  });

/** The `test.browser` settings of a browser test project: headless Chromium at 1280×800. */
export const browserTests = () => ({
  enabled: true,
  headless: true,
  provider: chromium(),
  instances: [{ browser: 'chromium' as const, viewport: { width: 1280, height: 800 } }],
});
