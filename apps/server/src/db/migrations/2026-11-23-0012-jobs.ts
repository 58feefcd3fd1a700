import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * What the API reads about a background job (pictures, later voice): its state, progress,
 * result or error. The queue library (plainjob on SQLite, pg-boss on PostgreSQL) keeps its own
 * tables for dispatching; this one is the record a caller polls by id.
 * `singleton_key`: at most one queued or running job of a kind per key (a partial unique index).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('payload', t.json, (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('result', t.json)
    .addColumn('error', 'text')
    .addColumn('singleton_key', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('started_at', t.timestamp)
    .addColumn('finished_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('jobs_singleton')
    .on('jobs')
    .columns(['kind', 'singleton_key'])
    .unique()
    .where(sql<boolean>`singleton_key is not null and state in ('queued', 'running')`)
    .execute();
}
