import type { CompiledQuery, Compilable, Kysely, QueryResult, RawBuilder } from 'kysely';
import type { Database } from './schema';
import { registerHotStatement } from './named-statements';
import { runNowOnSqlite } from './sqlite-dialect';

const SLOT = Symbol('prepared query slot');

/** Stands in for a value when the query is compiled; replaced by the value at each run. */
interface Slot {
  [SLOT]: string;
}

const isSlot = (value: unknown): value is Slot =>
  typeof value === 'object' && value !== null && SLOT in value;

/** One slot for each name asked for: the builder puts them where the values will go. */
const slots = new Proxy({}, { get: (_, name) => ({ [SLOT]: String(name) }) });

/**
 * A query that Kysely builds and compiles once per dialect, then runs with new values: the
 * chat path runs the same statements for every message, and building and compiling each
 * anew cost more than SQLite took to run it. `build` receives stand-ins for the values (use
 * each only as a value: in `where`, `set`, `values`); the SQL is Kysely's own for the
 * dialect, so it stays correct on SQLite and PostgreSQL alike. On PostgreSQL the statement is
 * also named, so that each connection parses and plans it once (see `named-statements.ts`).
 */
export function preparedQuery<V extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, values: V) => Compilable<R> | RawBuilder<R>,
): PreparedQuery<V, R> {
  // By the dialect's adapter, which a transaction shares with the database it runs in.
  const compiled = new WeakMap<object, CompiledQuery<R>>();
  const withValues = (db: Kysely<Database>, values: V): CompiledQuery<R> => {
    const { adapter } = db.getExecutor();
    let query = compiled.get(adapter);
    if (!query) {
      const built = build(db, slots as V);
      // Raw SQL (`sql` templates) is compiled by the database it runs on.
      query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
      compiled.set(adapter, query);
      registerHotStatement(query.sql);
    }
    const parameters = query.parameters.map((value) =>
      isSlot(value) ? values[value[SLOT]] : value,
    );
    return { ...query, parameters };
  };
  return Object.assign(
    (db: Kysely<Database>, values: V) => {
      const query = withValues(db, values);
      // On SQLite with the connection free, at once (see `runNowOnSqlite`).
      return runNowOnSqlite(db, query) ?? db.executeQuery<R>(query);
    },
    { withValues },
  );
}

/** A query compiled once per dialect (see {@link preparedQuery}). */
export interface PreparedQuery<V extends Record<string, unknown>, R> {
  /** Runs the query with `values`. */
  (db: Kysely<Database>, values: V): Promise<QueryResult<R>>;
  /** The query with `values`, compiled, to run on the spot (see `atOnceOnSqlite`). */
  withValues: (db: Kysely<Database>, values: V) => CompiledQuery<R>;
}
