import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  stories: ['../packages/ui/src/**/*.stories.tsx', '../apps/web/src/**/*.stories.tsx'],
  addons: ['@storybook/addon-a11y', '@storybook/addon-vitest'],
  framework: { name: '@storybook/react-vite', options: {} },
  // Holds MSW's service worker (mockServiceWorker.js), so stories can mock the API.
  staticDirs: ['./public'],
  // The workspace packages resolve to their sources, as in the tests.
  viteFinal: async (viteConfig) => ({
    ...viteConfig,
    resolve: {
      ...viteConfig.resolve,
      conditions: ['@mates/source', 'module', 'browser', 'development|production'],
    },
  }),
};

export default config;
