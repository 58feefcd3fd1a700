import path from 'node:path';
import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  stories: [
    './docs/*.mdx',
    '../packages/ui/src/**/*.stories.tsx',
    '../apps/web/src/**/*.stories.tsx',
  ],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', '@storybook/addon-vitest'],
  framework: { name: '@storybook/react-vite', options: {} },
  // Holds MSW's service worker (mockServiceWorker.js), so stories can mock the API, and the
  // sample portraits the fixtures of @mates/api-client/msw point at (portraits/).
  staticDirs: ['./public'],
  typescript: {
    // The prop tables read each prop's TSDoc through the TypeScript compiler, which follows
    // the kit's props interfaces across files (react-docgen only sees the component's file).
    reactDocgen: 'react-docgen-typescript',
    reactDocgenTypescriptOptions: {
      // The kit's project: the root one holds only scripts, so docgen would skip every component.
      tsconfigPath: path.join(import.meta.dirname, '../packages/ui/tsconfig.json'),
      shouldExtractLiteralValuesFromEnum: true,
      shouldRemoveUndefinedFromOptional: true,
      // The kit's own props only: the hundreds of inherited DOM attributes would bury them.
      propFilter: (prop) => !prop.parent || !/node_modules/.test(prop.parent.fileName),
    },
  },
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
