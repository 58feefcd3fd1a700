import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // The workspace packages are bundled from their sources.
  resolve: { conditions: ['@mates/source'] },
  build: { outDir: 'dist', sourcemap: true },
  server: { proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' } },
});
