import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // The workspace packages are bundled from their sources. The defaults stay: without
  // them, packages resolve to their CommonJS or development builds and nothing tree-shakes.
  resolve: { conditions: ['@mates/source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // What the first screen needs ships as one chunk (the screens' own chunks load on
        // navigation): one request, one compression window, instead of some thirty pieces.
        codeSplitting: { groups: [{ name: 'first-screen', tags: ['$initial'] }] },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' } },
});
