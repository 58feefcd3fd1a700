import type { Decorator, Preview } from '@storybook/react-vite';
import { initialize, mswLoader } from 'msw-storybook-addon';
import { MINIMAL_VIEWPORTS } from 'storybook/viewport';
import { ThemeProvider } from '../packages/ui/src/theme/theme-provider';
import { matesTheme } from './mates-theme';
import { allModes, PHONE } from './modes';

// Stories that call the API get answers from @mates/api-client/msw; anything else is an error.
initialize({ onUnhandledRequest: 'error', quiet: true });

// Docs pages draw each story on the docs page (in the dark theme's colours, `mates-theme.ts`):
// give each story the chosen theme's own background, so the light theme shows as it is.
const docsCanvas = {
  backgroundColor: 'var(--mates-colors-bg)',
  color: 'var(--mates-colors-text)',
  padding: '16px',
  borderRadius: '4px',
};

const withTheme: Decorator = (Story, context) => (
  <ThemeProvider theme={context.globals.theme === 'light' ? 'light' : 'dark'} page>
    {context.viewMode === 'docs' ? (
      <div style={docsCanvas}>
        <Story />
      </div>
    ) : (
      <Story />
    )}
  </ThemeProvider>
);

const preview: Preview = {
  decorators: [withTheme],
  loaders: [mswLoader],
  globalTypes: {
    theme: {
      description: 'Colour theme',
      toolbar: {
        title: 'Theme',
        icon: 'contrast',
        items: [
          { value: 'dark', title: 'Dark', icon: 'moon' },
          { value: 'light', title: 'Light', icon: 'sun' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: 'dark' },
  parameters: {
    layout: 'centered',
    options: {
      // The Introduction opens first (a static Storybook opens on the first entry), then the
      // tokens, the kit from small parts to product parts, then the app's screens.
      storySort: {
        order: [
          'Introduction',
          'Design tokens',
          'Foundations',
          [
            'Colour',
            'Typography',
            'Spacing and breakpoints',
            'Motion',
            'Icons',
            'Content and voice',
            'Components',
          ],
          'Layout',
          'Controls',
          'Feedback',
          'Catalog',
          'Chat',
          'Auth',
          'Shell',
          'Screens',
        ],
      },
    },
    // Accessibility violations fail the story tests.
    a11y: { test: 'error' },
    // The toolbar's sizes: Storybook's own, and the phone the product is checked on.
    viewport: {
      options: {
        phone: {
          name: `Phone (${PHONE.width} × ${PHONE.height})`,
          styles: { width: `${PHONE.width}px`, height: `${PHONE.height}px` },
          type: 'mobile',
        },
        ...MINIMAL_VIEWPORTS,
      },
    },
    // Chromatic snapshots every story in both themes, on a desktop and on a phone.
    chromatic: { modes: allModes },
    // Docs pages in the product's look (the same theme as the manager, `manager.ts`).
    docs: { theme: matesTheme },
  },
};

export default preview;
