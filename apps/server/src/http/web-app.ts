import fs from 'node:fs';
import path from 'node:path';
import type { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import {
  isMediaKey,
  isStorageUnavailable,
  STORAGE_UNAVAILABLE,
  type MediaStore,
} from '../media/media-store';
import { serveStored } from '../media/serve-stored';
import type { Logger } from '../logging/logger';

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Mates</title>
<body style="font-family:system-ui;background:#111;color:#eee;padding:2rem">
<h1>Mates</h1><p>The API is running under <code>/api</code>. The web app has not been built
yet: run <code>pnpm build</code>, then start again.</p></body></html>`;

/** Hashed build output (`/assets/name-<hash>.js`): its name changes with its content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files whose name stays when they change (index.html, the favicon): asked again each time. */
const REVALIDATE = 'no-cache';

/**
 * Serves the built web app. Hashed assets are cached for a year (immutable), everything else
 * is revalidated; each is sent Brotli- or gzip-compressed when the build made a copy and the
 * browser takes it. A file that is not there is a 404; only a navigation (a path without a file
 * extension: `/`, `/user/loginDiscord?code=…`) gets index.html, so deep links open the app.
 */
export function serveWebApp(app: Hono, distDir: string): void {
  const root = path.relative(process.cwd(), distDir) || '.';
  if (fs.existsSync(distDir)) {
    app.use(
      '/assets/*',
      serveStatic({
        root,
        precompressed: true,
        onFound: (_path, c) => c.header('Cache-Control', IMMUTABLE),
      }),
    );
    app.use(
      '*',
      serveStatic({
        root,
        precompressed: true,
        onFound: (_path, c) => c.header('Cache-Control', REVALIDATE),
      }),
    );
  }
  // Read once: the page is the same for every deep link.
  const indexFile = path.join(distDir, 'index.html');
  const page = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : NOT_BUILT;
  app.get('*', (c) => {
    // A missing file (an old hashed asset, a mistyped icon) is not the app.
    if (c.req.path.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(c.req.path))
      return c.text('Not found', 404, { 'Cache-Control': REVALIDATE });
    return c.html(page, 200, { 'Cache-Control': REVALIDATE });
  });
}

/**
 * Portraits keep their address while they exist (a new portrait gets a new random name), so
 * caches may keep them a day; the ETag lets them ask again cheaply after.
 */
const MEDIA_CACHE = 'public, max-age=86400';

/**
 * Serves the public part of the media store (`media/…`: portraits) under `/media`, from the
 * folder or the bucket, so that every server answers for a file any server stored. A file
 * that is not there (or no longer, once a portrait moved) is a 404, never the web app; a store
 * that cannot be reached is a 503 that says so.
 */
export function serveMedia(app: Hono, media: MediaStore, log: Logger): void {
  app.on(['GET', 'HEAD'], '/media/*', async (c) => {
    const key = `media/${c.req.path.slice('/media/'.length)}`;
    if (!isMediaKey(key)) return c.text('Not found', 404);
    try {
      return await serveStored(media, key, c.req.raw, {
        cacheControl: MEDIA_CACHE,
        headers: { 'x-content-type-options': 'nosniff' },
      });
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error;
      log.warn({ err: error }, `serving ${c.req.path}: ${(error as Error).message}`);
      return c.text(STORAGE_UNAVAILABLE, 503, { 'retry-after': '5' });
    }
  });
  app.all('/media/*', (c) => c.text('Not found', 404));
}
