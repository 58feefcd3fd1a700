import type { Decorator, Preview } from '@storybook/react-vite';
import { initialize, mswLoader } from 'msw-storybook-addon';
import { ThemeProvider } from '../packages/ui/src/theme/theme-provider';

// Stories that call the API get answers from @mates/api-client/msw; anything else is an error.
initialize({ onUnhandledRequest: 'error', quiet: true });

// Docs pages draw each story on Storybook's own white page: give it the theme's background
// there, or light text (the dark theme) would be invisible.
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
      toolbar: { title: 'Theme', items: ['dark', 'light'], dynamicTitle: true },
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
  },
};

export default preview;
