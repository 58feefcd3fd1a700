import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './schema';
import type { DialectName } from './dialect';
import { PreparedSqliteDialect } from './sqlite-dialect';
import { namingClient } from './named-statements';
import type { Logger } from '../logging/logger';

/** An open database with the dialect it speaks. */
export interface Db {
  db: Kysely<Database>;
  dialect: DialectName;
  /** PostgreSQL's connection pool (its use is a metric); absent on SQLite. */
  pool?: pg.Pool;
  close: () => Promise<void>;
}

const require = createRequire(import.meta.url);

/**
 * node-postgres, loaded by the first PostgreSQL connection rather than imported: a server on
 * SQLite never needs it, and it costs several megabytes resident.
 */
function loadPg(): typeof pg {
  const pgModule = require('pg') as typeof pg;
  // timestamptz comes back as an ISO string like SQLite's, not a Date.
  pgModule.types.setTypeParser(1184, (value) => new Date(value).toISOString());
  // COUNT(*) and SUM() are bigint; our counts fit in a JavaScript number.
  pgModule.types.setTypeParser(20, (value) => Number(value));
  return pgModule;
}

// A database that stops answering fails the request instead of holding it (and a pooled
// connection) forever; a busy one still has ample time.
const POSTGRES_TIMEOUTS = {
  connectionTimeoutMillis: 10_000,
  statement_timeout: 30_000,
  idle_in_transaction_session_timeout: 60_000,
} as const;

/**
 * A pool whose connections never end the process when PostgreSQL drops them. A connection
 * that breaks while a query runs rejects that query (the request answers 5000) and then emits
 * 'error' on its client; the pool listens only while the client is idle in it, so each new
 * client gets its own listener (node-postgres issues #3202, #1324).
 */
function postgresPool(databaseUrl: string, log: Logger | undefined): pg.Pool {
  const pgModule = loadPg();
  const pool = new pgModule.Pool({
    // The chat path's statements are named: parsed and planned once per connection.
    Client: namingClient(pgModule),
    connectionString: databaseUrl,
    max: 10,
    keepAlive: true,
    ...POSTGRES_TIMEOUTS,
  });
  pool.on('connect', (client) =>
    client.on('error', (error) => {
      if (log) log.error(`PostgreSQL connection lost: ${error.message}`);
      else console.error(`PostgreSQL connection lost: ${error.message}`);
    }),
  );
  // Idle clients report through the pool as well; their own listener above has logged it.
  pool.on('error', () => {});
  return pool;
}

/** Opens PostgreSQL at `databaseUrl`, or the SQLite file `sqliteFile` (WAL) when absent. */
export function connect(options: {
  databaseUrl?: string;
  sqliteFile: string;
  /** Where a lost PostgreSQL connection is reported (default: standard error). */
  log?: Logger;
}): Db {
  if (options.databaseUrl) {
    const pool = postgresPool(options.databaseUrl, options.log);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pool, close: () => db.destroy() };
  }
  if (options.sqliteFile !== ':memory:') {
    fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  }
  const sqlite = new SqliteDatabase(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new PreparedSqliteDialect(sqlite),
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
