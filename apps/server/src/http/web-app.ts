import fs from 'node:fs';
import path from 'node:path';
import type { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Mates</title>
<body style="font-family:system-ui;background:#111;color:#eee;padding:2rem">
<h1>Mates</h1><p>The API is running under <code>/api</code>. The web app has not been built
yet: run <code>pnpm build</code>, then start again.</p></body></html>`;

/**
 * Serves the built web app: its files as they are, and index.html for every other path, so
 * that deep links and the Discord redirect (`/user/loginDiscord?code=…`) open the app.
 */
export function serveWebApp(app: Hono, distDir: string): void {
  if (fs.existsSync(distDir)) {
    app.use('*', serveStatic({ root: path.relative(process.cwd(), distDir) || '.' }));
  }
  // Read once: the page is the same for every deep link.
  const indexFile = path.join(distDir, 'index.html');
  const page = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : NOT_BUILT;
  app.get('*', (c) => c.html(page));
}

/** Serves uploaded and generated files (portraits, audio) under `/media`. */
export function serveMedia(app: Hono, mediaDir: string): void {
  app.use(
    '/media/*',
    serveStatic({
      root: path.relative(process.cwd(), mediaDir) || '.',
      rewriteRequestPath: (requestPath) => requestPath.replace(/^\/media/, ''),
    }),
  );
  // A file that is not there (or no longer, once a portrait moved) is a 404, not the app.
  app.all('/media/*', (c) => c.text('Not found', 404));
}
