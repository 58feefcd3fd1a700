import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config';

// Google Identity Services, as its documentation lists it for a Content-Security-Policy.
const GIS_SCRIPT = 'https://accounts.google.com/gsi/client';
const GIS = 'https://accounts.google.com/gsi/';
const GIS_STYLE = 'https://accounts.google.com/gsi/style';
// Where the pictures of accounts signed in through Google and Discord live.
const GOOGLE_AVATARS = 'https://*.googleusercontent.com';
const DISCORD_AVATARS = 'https://cdn.discordapp.com';

/**
 * Security headers for every answer (`/`, `/api`, `/media`): a Content-Security-Policy that
 * allows only what the web app loads (its own files, images from this server or inline
 * `data:`/`blob:`, and Google's sign-in pieces only when Google is configured), no framing,
 * no MIME sniffing, a referrer that keeps paths and codes to this site, and HSTS only when
 * the public address is HTTPS.
 */
export function securityHeaders(config: Config): MiddlewareHandler {
  const google = Boolean(config.google.clientId);
  const discord = Boolean(config.discord.clientId);
  const https = new URL(config.publicUrl).protocol === 'https:';
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
      // 'wasm-unsafe-eval' compiles WebAssembly (a call's voice activity detection runs its
      // model in ONNX Runtime Web); it runs no string as code, as 'unsafe-eval' would.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...(google ? [GIS_SCRIPT] : [])],
      // Stitches and Radix's scroll lock write <style> elements at run time; inline style
      // cannot run code, and a nonce would have to reach every library that writes one.
      styleSrc: ["'self'", "'unsafe-inline'", ...(google ? [GIS_STYLE] : [])],
      imgSrc: [
        "'self'",
        'data:',
        'blob:',
        ...(google ? [GOOGLE_AVATARS] : []),
        ...(discord ? [DISCORD_AVATARS] : []),
      ],
      connectSrc: ["'self'", ...(google ? [GIS] : [])],
      frameSrc: google ? [GIS] : ["'none'"],
      mediaSrc: ["'self'", 'blob:'],
    },
    xFrameOptions: 'DENY',
    // The Discord redirect carries `?code=` in the address: other sites get the origin only.
    referrerPolicy: 'strict-origin-when-cross-origin',
    // Google's sign-in talks to its popup; `same-origin` would cut that line.
    crossOriginOpenerPolicy: 'same-origin-allow-popups',
    strictTransportSecurity: https ? 'max-age=31536000; includeSubDomains' : false,
    // Nothing here sets X-Powered-By: no need to look for it in every answer.
    removePoweredBy: false,
  });
  return async (c, next) => {
    await headers(c, next);
    // A picture its owner shared is meant to be shown anywhere, e.g. in an <img> on a forum.
    if (c.req.path === SHARED_PICTURE_PATH && c.res.ok)
      c.res.headers.set('cross-origin-resource-policy', 'cross-origin');
  };
}

/** The public address of shared pictures (`images/picture-routes.ts`), the one cross-origin resource. */
export const SHARED_PICTURE_PATH = '/api/room/sharedPicture';

/**
 * The headers {@link securityHeaders} sets on an answer (any but a shared picture), read once
 * from the middleware itself answering a probe. They are the same on every answer (no nonce),
 * so the calls answered ahead of the middlewares (`shared-calls.ts`) send the very same ones.
 */
export async function securityHeaderRecord(config: Config): Promise<Record<string, string>> {
  const probe = new Hono();
  probe.use(securityHeaders(config));
  probe.get('/', (c) => c.body(null));
  return Object.fromEntries((await probe.request('/')).headers);
}
