import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

/**
 * React Router 7 points every import at its development build, whose warnings stay on in
 * production (remix-run/react-router#14102, open); its package ships the production build
 * beside it, the same code with the warnings off. The app's build takes that one.
 */
function reactRouterProduction(): Plugin {
  return {
    name: 'mates:react-router-production',
    enforce: 'pre',
    apply: 'build',
    async resolveId(source, importer, options) {
      if (source !== 'react-router' && source !== 'react-router/dom') return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return (
        resolved && {
          ...resolved,
          id: resolved.id.replace('/dist/development/', '/dist/production/'),
        }
      );
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    reactRouterProduction(),
    // Brotli and gzip copies of every text asset, made once at build time: the server sends
    // the one the browser accepts (precompressed), spending no CPU per request.
    compression({
      include: /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/,
      algorithms: ['brotliCompress', 'gzip'],
      threshold: 1024,
    }),
  ],
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
  server: {
    proxy: {
      // `ws`: a voice call's socket (`/api/call/socket`) goes through as well.
      '/api': { target: 'http://localhost:3000', ws: true },
      '/media': 'http://localhost:3000',
    },
  },
});
