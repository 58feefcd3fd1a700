import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

async function portraitPath(app: TestApp): Promise<string> {
  const row = await app.db.selectFrom('mates').select('avatar').executeTakeFirstOrThrow();
  return row.avatar;
}

describe('security headers on the web app, the API and media', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('sends a CSP that allows only what the app loads, on every path', async () => {
    app = await createTestApp('sqlite');
    for (const path of ['/', '/api/mate/hotWords', await portraitPath(app), '/room/deep-link']) {
      const response = await app.app.request(path);
      expect(response.status, path).toBe(200);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('default-src'), path).toEqual(["'self'"]);
      // WebAssembly may be compiled (a call's voice detection), no string run as code.
      expect(csp.get('script-src'), path).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp.get('object-src'), path).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(csp.get('img-src'), path).toEqual(["'self'", 'data:', 'blob:']);
      expect(csp.get('connect-src'), path).toEqual(["'self'"]);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      // Served over plain HTTP here: HSTS would be ignored at best, a trap at worst.
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it("allows Google's sign-in script, frame and avatars only when Google is configured", async () => {
    app = await createTestApp('sqlite', { env: { GOOGLE_CLIENT_ID: 'client.apps.test' } });
    const csp = directives((await app.app.request('/')).headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual([
      "'self'",
      "'wasm-unsafe-eval'",
      'https://accounts.google.com/gsi/client',
    ]);
    expect(csp.get('frame-src')).toEqual(['https://accounts.google.com/gsi/']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/']);
    expect(csp.get('style-src')).toContain('https://accounts.google.com/gsi/style');
    expect(csp.get('img-src')).toContain('https://*.googleusercontent.com');
  });

  it('asks for HTTPS only when the public address is HTTPS', async () => {
    app = await createTestApp('sqlite', { env: { PUBLIC_URL: 'https://mates.example' } });
    for (const path of ['/', '/api/mate/hotWords', await portraitPath(app)]) {
      const response = await app.app.request(path);
      expect(response.headers.get('strict-transport-security'), path).toMatch(/max-age=\d{7,}/);
    }
  });
});
