// The reference the catalog is measured against: the smallest server on this stack, Hono on
// @hono/node-server reading one row from better-sqlite3 with a prepared statement and
// answering it in the API's envelope.
import type { AddressInfo } from 'node:net';
import SqliteDatabase from 'better-sqlite3';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';

/** Starts the minimal server on a free port; returns its base URL and a way to stop it. */
export async function startMinimalServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sqlite = new SqliteDatabase(':memory:');
  sqlite.exec(`CREATE TABLE mates (id TEXT PRIMARY KEY, name TEXT, tagline TEXT)`);
  sqlite.prepare(`INSERT INTO mates VALUES ('one', 'Ada', 'Keeper of the lighthouse')`).run();
  const one = sqlite.prepare(`SELECT * FROM mates WHERE id = ?`);
  const app = new Hono();
  app.get('/one', (c) => c.json({ c: 200, m: '', d: one.get('one') }));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      sqlite.close();
    },
  };
}
