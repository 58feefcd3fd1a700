import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { DialectName } from '../db/dialect';
import type { JobQueue } from './job-queue';
import { RecordedQueue } from './recorded-queue';
import { createSqliteBackend } from './sqlite-backend';
import { createPostgresBackend } from './postgres-backend';
import type { Logger } from '../logging/logger';

/**
 * The job queue for the configured database: pg-boss in the same PostgreSQL database when
 * `databaseUrl` is set, else plainjob on `$DATA_DIR/jobs.db`. Job records live in the app's
 * `jobs` table either way. Call `start()` before enqueuing and `stop()` on shutdown.
 */
export function createJobQueue(options: {
  db: Kysely<Database>;
  dialect: DialectName;
  databaseUrl?: string;
  dataDir: string;
  log: Logger;
  /** Called once for each job that ends failed (the failures metric). */
  onJobFailed?: (kind: string) => void;
  /** How often idle workers look for work (default 250 ms on SQLite, 500 ms on PostgreSQL). */
  pollMs?: number;
  /** How often the library looks for runs whose process died (default 30 s). */
  maintenanceSeconds?: number;
}): JobQueue {
  const backend =
    options.dialect === 'postgres'
      ? createPostgresBackend({
          connectionString: options.databaseUrl!,
          log: options.log,
          pollMs: options.pollMs,
          maintenanceSeconds: options.maintenanceSeconds,
        })
      : createSqliteBackend({
          file: path.join(options.dataDir, 'jobs.db'),
          log: options.log,
          pollMs: options.pollMs,
          maintenanceSeconds: options.maintenanceSeconds,
        });
  return new RecordedQueue({
    db: options.db,
    dialect: options.dialect,
    backend,
    log: options.log,
    onJobFailed: options.onJobFailed,
  });
}
