import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, postgresAvailable, startTestServer } from './harness';

// Issue #18: probes that answer JSON (never the web app), and the web app's files served with
// the right cache headers, compressed, and a 404 for a file that is not there.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('health and readiness on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(dialect);
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  it.skipIf(skip)(
    'says the process is alive, and ready with the database and migrations',
    async () => {
      for (const probe of ['/api/health', '/healthz']) {
        const response = await fetch(`${server.base}${probe}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await response.json()).toMatchObject({ status: 'alive' });
      }
      for (const probe of ['/api/ready', '/readyz']) {
        const response = await fetch(`${server.base}${probe}`);
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({
          status: 'ready',
          database: 'up',
          migrations: 'applied',
          model: 'unavailable',
          storage: 'up',
        });
      }
    },
  );

  it.skipIf(skip)('is not ready while a migration is pending, and says which', async () => {
    await server.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', '2026-11-24-0018-password-resets' as never)
      .execute();
    try {
      const response = await fetch(`${server.base}/api/ready`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        status: 'not ready',
        database: 'up',
        migrations: { pending: ['2026-11-24-0018-password-resets'] },
      });
    } finally {
      await server.db
        .insertInto('kysely_migration' as never)
        .values({
          name: '2026-11-24-0018-password-resets',
          timestamp: new Date().toISOString(),
        } as never)
        .execute();
    }
    expect((await fetch(`${server.base}/api/ready`)).status).toBe(200);
  });
});

describe('readiness without a database', () => {
  it('answers 503 with the database down, and the process goes on', async () => {
    const server = await startTestServer('sqlite');
    try {
      await server.db.destroy();
      const response = await fetch(`${server.base}/api/ready`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: 'not ready', database: 'down' });
      expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
    } finally {
      await server.close().catch(() => {});
    }
  });
});

describe('the web app files', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-dist-'));
  const script = `console.log(${JSON.stringify('mates '.repeat(400))});`;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Mates</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-Ab12Cd34.js'), script);
    const zlib = await import('node:zlib');
    fs.writeFileSync(
      path.join(dist, 'assets', 'app-Ab12Cd34.js.br'),
      zlib.brotliCompressSync(Buffer.from(script)),
    );
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\n');
    server = await startTestServer('sqlite', { env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends hashed assets compressed and cached for a year', async () => {
    const response = await fetch(`${server.base}/assets/app-Ab12Cd34.js`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await response.text()).toBe(script);
  });

  it('revalidates index.html and other files, for every deep link', async () => {
    for (const link of ['/', '/user/loginDiscord?code=abc']) {
      const response = await fetch(`${server.base}${link}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<title>Mates</title>');
    }
    const robots = await fetch(`${server.base}/robots.txt`);
    expect(robots.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 for a file that is not there, not the app', async () => {
    for (const missing of ['/assets/app-Old99999.js', '/favicon.ico', '/assets/nothing']) {
      const response = await fetch(`${server.base}${missing}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('<title>Mates</title>');
    }
  });
});
