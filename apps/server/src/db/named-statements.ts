import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * The statements the server runs over and over (every chat send's), by their SQL: on
 * PostgreSQL each gets a name, and node-postgres then has it parsed and planned once per
 * connection and afterwards only bound and run. Everything else stays an unnamed statement,
 * parsed and planned at each run: queries of ever-changing shapes (`in` lists of any length,
 * searches) would otherwise pile up prepared statements in every connection for good. Bounded:
 * only SQL compiled once per process is registered (`preparedQuery`, and the chat turn).
 */
const hot = new Map<string, string>();

/** Marks `sql` as run at every send: named on PostgreSQL (see {@link namingClient}). */
export function registerHotStatement(sql: string): void {
  if (!hot.has(sql))
    hot.set(sql, `mates_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`);
}

/** The SQLSTATE of "cached plan must not change result type" (feature_not_supported). */
const PLAN_CHANGED = '0A000';

/**
 * node-postgres' client, naming the registered hot statements. A statement prepared before a
 * migration changed what its rows hold (`select *` on a table that gained a column, during a
 * rolling upgrade) fails once on each connection with "cached plan must not change result
 * type"; from then on that connection runs it unnamed, and a statement outside a transaction
 * is run again at once (inside one, PostgreSQL has aborted the transaction, which fails as any
 * failed statement does).
 */
export function namingClient(pgModule: typeof pg): typeof pg.Client {
  // node-postgres' own, as the promise form Kysely uses (the client answers the others alike).
  const plainQuery = pgModule.Client.prototype.query as unknown as (
    this: pg.Client,
    config: unknown,
    values?: unknown,
    callback?: unknown,
  ) => Promise<pg.QueryResult>;
  class NamingClient extends pgModule.Client {
    /** Names this connection stopped using: their prepared plans no longer fit. */
    readonly stale = new Set<string>();
  }
  const named = async function (
    this: NamingClient,
    name: string,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult> {
    try {
      return await plainQuery.call(this, { name, text, values });
    } catch (error) {
      if ((error as { code?: string }).code !== PLAN_CHANGED) throw error;
      this.stale.add(name);
      // Outside a transaction ('I': idle) nothing was aborted: run it again, unnamed.
      if (this.getTransactionStatus() !== 'I') throw error;
      return plainQuery.call(this, text, values);
    }
  };
  NamingClient.prototype.query = function (
    this: NamingClient,
    config: unknown,
    values?: unknown,
    callback?: unknown,
  ) {
    const name = typeof config === 'string' ? hot.get(config) : undefined;
    if (name && callback === undefined && Array.isArray(values) && !this.stale.has(name))
      return named.call(this, name, config as string, values);
    return plainQuery.call(this, config, values, callback);
  } as typeof pgModule.Client.prototype.query;
  return NamingClient;
}
