import type { Decorator, Preview } from '@storybook/react-vite';
import { initialize, mswLoader } from 'msw-storybook-addon';
import { ThemeProvider } from '../packages/ui/src/theme/theme-provider';

// Stories that call the API get answers from @mates/api-client/msw; anything else is an error.
initialize({ onUnhandledRequest: 'error', quiet: true });

const withTheme: Decorator = (Story, context) => (
  <ThemeProvider theme={context.globals.theme === 'light' ? 'light' : 'dark'}>
    <Story />
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
    // Accessibility violations fail the story tests.
    a11y: { test: 'error' },
  },
};

export default preview;
