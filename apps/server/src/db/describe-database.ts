import path from 'node:path';
import type { Config } from '../config';

/**
 * The database a server or command works on, for its log: the SQLite file, or PostgreSQL's
 * host and database name (never the user or password of `DATABASE_URL`).
 */
export function describeDatabase(config: Pick<Config, 'dataDir' | 'databaseUrl'>): string {
  if (!config.databaseUrl) return `SQLite ${path.join(config.dataDir, 'mates.db')}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL ${url.host}${url.pathname}`;
}
