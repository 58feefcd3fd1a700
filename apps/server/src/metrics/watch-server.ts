import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Db } from '../db/connect';
import type { ChatService } from '../chat/chat-service';
import { watchedGauge, type Metrics } from './metrics';

/** What {@link watchServer} reads at each scrape. */
export interface WatchedParts {
  chat: ChatService;
  db: Kysely<Database>;
  /** The open database: its PostgreSQL pool or its SQLite file. */
  database: Pick<Db, 'dialect' | 'pool'>;
}

const JOB_STATES = ['queued', 'running'] as const;

/**
 * Adds the gauges read from the running server: replies being streamed, the language model's
 * generations (running, waiting for a slot), jobs queued and running by kind (from the `jobs`
 * table, so every server reports the whole queue), and the database's pool (PostgreSQL) or
 * size (SQLite, one connection and no pool).
 */
export function watchServer(metrics: Metrics, parts: WatchedParts): void {
  watchedGauge(
    metrics,
    { name: 'chat_streams_open', help: 'Chat replies being written and streamed now.' },
    (gauge) => gauge.set(parts.chat.open()),
  );
  watchedGauge(
    metrics,
    {
      name: 'model_generations',
      help: 'Generations of the language model: running, or waiting in its queue for a slot.',
      labelNames: ['state'],
    },
    (gauge) => {
      const load = parts.chat.model.load?.() ?? { running: 0, waiting: 0 };
      gauge.set({ state: 'running' }, load.running);
      gauge.set({ state: 'waiting' }, load.waiting);
    },
  );
  watchedGauge(
    metrics,
    {
      name: 'model_queue_depth',
      help: 'Generations waiting for a slot of the language model.',
    },
    (gauge) => gauge.set(parts.chat.model.load?.().waiting ?? 0),
  );
  const jobKinds = new Set<string>();
  watchedGauge(
    metrics,
    {
      name: 'jobs',
      help: 'Background jobs queued or running (all servers), by kind and state.',
      labelNames: ['kind', 'state'],
    },
    async (gauge) => {
      const rows = await parts.db
        .selectFrom('jobs')
        .select(['kind', 'state', (eb) => eb.fn.countAll<number>().as('count')])
        .where('state', 'in', [...JOB_STATES])
        .groupBy(['kind', 'state'])
        .execute();
      // Kinds whose jobs all ended read 0 rather than their last count.
      for (const row of rows) jobKinds.add(row.kind);
      for (const kind of jobKinds) for (const state of JOB_STATES) gauge.set({ kind, state }, 0);
      for (const row of rows) gauge.set({ kind: row.kind, state: row.state }, Number(row.count));
    },
  );
  const { pool } = parts.database;
  if (pool) {
    watchedGauge(
      metrics,
      {
        name: 'db_pool_connections',
        help: 'PostgreSQL pool connections: all open, idle, and requests waiting for one.',
        labelNames: ['state'],
      },
      (gauge) => {
        gauge.set({ state: 'total' }, pool.totalCount);
        gauge.set({ state: 'idle' }, pool.idleCount);
        gauge.set({ state: 'waiting' }, pool.waitingCount);
      },
    );
  } else if (parts.database.dialect === 'sqlite') {
    watchedGauge(
      metrics,
      {
        name: 'sqlite_database_bytes',
        help: 'Size of the SQLite database (its pages; the write-ahead log aside).',
      },
      async (gauge) => {
        const { rows } = await sql<{
          bytes: number;
        }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(
          parts.db,
        );
        gauge.set(Number(rows[0]?.bytes ?? 0));
      },
    );
  }
}
