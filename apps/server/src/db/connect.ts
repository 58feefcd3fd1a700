import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './schema';
import { SqliteBooleanPlugin, type DialectName } from './dialect';

/** An open database with the dialect it speaks. */
export interface Db {
  db: Kysely<Database>;
  dialect: DialectName;
  close: () => Promise<void>;
}

// timestamptz comes back as an ISO string like SQLite's, not a Date.
pg.types.setTypeParser(1184, (value) => new Date(value).toISOString());
// COUNT(*) and SUM() are bigint; our counts fit in a JavaScript number.
pg.types.setTypeParser(20, (value) => Number(value));

/** Opens PostgreSQL at `databaseUrl`, or the SQLite file `sqliteFile` (WAL) when absent. */
export function connect(options: {
  databaseUrl?: string;
  sqliteFile: string;
  log?: (line: string) => void;
}): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that breaks (a restart, an admin ending it) is dropped by the pool;
    // without a listener the error would end the whole process.
    pool.on('error', (error) =>
      (options.log ?? console.error)(`PostgreSQL connection lost: ${error.message}`),
    );
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (options.sqliteFile !== ':memory:') {
    fs.mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  }
  const sqlite = new SqliteDatabase(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new SqliteBooleanPlugin()],
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
