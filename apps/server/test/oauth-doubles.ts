import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/** Listens on 127.0.0.1 with `handler`; resolves to its base URL and a close function. */
async function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>,
) {
  // A double that throws answers 500, as a real service would, instead of a floating rejection.
  const server = http.createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    // Also ends requests a fault left hanging, which would otherwise hold the close forever.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Stands in for Google: serves a JWKS as Google's certs endpoint does, and signs ID tokens
 * (RS256, issuer accounts.google.com) like Google Identity Services hands to the browser.
 */
export async function startGoogleDouble() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = await listen((_, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  const sign = (
    claims: Record<string, unknown>,
    options: { audience: string; issuer?: string; key?: CryptoKey },
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'JWT' })
      .setIssuer(options.issuer ?? 'https://accounts.google.com')
      .setAudience(options.audience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(options.key ?? privateKey);
  return { jwksUrl: `${server.url}/oauth2/v3/certs`, sign, close: server.close };
}

/** A Discord user as `GET /users/@me` answers it with the scope "identify email". */
export interface DiscordUser {
  id: string;
  username: string;
  global_name: string | null;
  email: string | null;
  verified: boolean;
  avatar: string | null;
}

/**
 * Stands in for Discord's API: `POST /oauth2/token` (form-encoded authorization-code grant,
 * checked like Discord checks it) and `GET /users/@me` with the bearer token it issued.
 */
export async function startDiscordDouble(options: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}) {
  const codes = new Map<string, DiscordUser>();
  const tokens = new Map<string, DiscordUser>();
  const requests: { path: string; form?: Record<string, string> }[] = [];
  const faults: { next: { fault: DiscordFault; path?: string } | null } = { next: null };
  const server = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (misbehave(faults, req, res)) return;
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.method === 'POST' && req.url === '/api/oauth2/token') {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
      requests.push({ path: req.url, form });
      const user = codes.get(form.code ?? '');
      if (
        form.grant_type !== 'authorization_code' ||
        form.client_id !== options.clientId ||
        form.client_secret !== options.clientSecret ||
        form.redirect_uri !== options.redirectUri ||
        !user
      ) {
        json(400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
        return;
      }
      codes.delete(form.code!);
      const accessToken = `token-${user.id}-${Math.random().toString(36).slice(2)}`;
      tokens.set(accessToken, user);
      json(200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 604800,
        refresh_token: 'refresh',
        scope: 'identify email',
      });
      return;
    }
    if (req.method === 'GET' && req.url === '/api/users/@me') {
      requests.push({ path: req.url });
      const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!user) json(401, { message: '401: Unauthorized', code: 0 });
      else
        json(200, { ...user, discriminator: '0', mfa_enabled: false, locale: 'en-US', flags: 0 });
      return;
    }
    json(404, { message: '404: Not Found', code: 0 });
  });
  return {
    apiUrl: `${server.url}/api`,
    /** Issues a one-time code for `user`, as Discord's authorize page would. */
    authorize: (user: DiscordUser) => {
      const code = `code-${Math.random().toString(36).slice(2)}`;
      codes.set(code, user);
      return code;
    },
    requests,
    /**
     * Makes the next request (to `path`, e.g. `/api/users/@me`, when given) misbehave as
     * {@link DiscordFault} says; later ones behave again.
     */
    failNext: (fault: DiscordFault, path?: string) => {
      faults.next = { fault, path };
    },
    close: server.close,
  };
}

/**
 * How the double can misbehave once: `hang` accepts the request and never answers; `html`
 * answers 200 with an HTML page, as a proxy or an outage page in front of Discord does.
 */
export type DiscordFault = 'hang' | 'html';

function misbehave(
  faults: { next: { fault: DiscordFault; path?: string } | null },
  req: http.IncomingMessage,
  res: http.ServerResponse,
): boolean {
  const { fault, path } = faults.next ?? {};
  if (!fault || (path && req.url !== path)) return false;
  faults.next = null;
  if (fault === 'html') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>502 Bad Gateway</body></html>');
  } else {
    // Never answered; closing the server ends the socket.
    req.socket.setTimeout(0);
  }
  return true;
}
