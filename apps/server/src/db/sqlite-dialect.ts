import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { Mutex, type MutexInterface } from 'async-mutex';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';

/** How many distinct statements stay prepared (an `in (…)` list of each length is one). */
const STATEMENTS_KEPT = 1000;

/**
 * better-sqlite3 statements kept by their SQL (lru-cache, least recently used dropped first).
 * Kysely's own driver prepares every query again; a chat send runs the same twenty statements
 * each time, and SQLite re-prepares a kept statement itself when the schema changes. Safe
 * because better-sqlite3 runs `all` and `run` to completion synchronously; streamed rows, which
 * hold a statement busy, get a statement of their own.
 */
function statementCache(database: BetterSqlite3.Database) {
  const kept = new LRUCache<string, BetterSqlite3.Statement>({ max: STATEMENTS_KEPT });
  return (sql: string): BetterSqlite3.Statement => {
    let statement = kept.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      kept.set(sql, statement);
    }
    return statement;
  };
}

/**
 * better-sqlite3 refuses JavaScript booleans as parameters: they go as 0/1. Done here rather
 * than by a plugin that rewrites every query's tree before it is compiled.
 */
const toSqliteValue = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value);

function connectionOf(database: BetterSqlite3.Database): DatabaseConnection {
  const prepare = statementCache(database);
  return {
    executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const statement = prepare(query.sql);
      const parameters = query.parameters.map(toSqliteValue);
      if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
      const { changes, lastInsertRowid } = statement.run(parameters);
      return Promise.resolve({
        numAffectedRows: BigInt(changes),
        insertId: BigInt(lastInsertRowid),
        rows: [],
      });
    },
    async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
      if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams only select queries');
      // Not a kept statement: one that is being iterated cannot run for anyone else.
      for (const row of database.prepare(query.sql).iterate(query.parameters.map(toSqliteValue)))
        yield { rows: [row as R] };
    },
  };
}

/**
 * The one connection, handed to one holder at a time in the order they asked (async-mutex:
 * a first-come-first-served queue that wakes only the next waiter). Kysely's own lock wakes
 * every waiter at each release, and all but one go back to sleep: with a few hundred requests
 * waiting behind a transaction that is quadratic.
 */
function fairLock() {
  const mutex = new Mutex();
  let release: MutexInterface.Releaser | null = null;
  return {
    async acquire(): Promise<void> {
      release = await mutex.acquire();
    },
    release(): void {
      const done = release;
      release = null;
      done?.();
    },
  };
}

function driverOf(database: BetterSqlite3.Database): Driver {
  const connection = connectionOf(database);
  const lock = fairLock();
  const run = (sql: string) => connection.executeQuery(CompiledQuery.raw(sql)).then(() => {});
  return {
    init: async () => {},
    acquireConnection: async () => {
      await lock.acquire();
      return connection;
    },
    beginTransaction: () => run('begin'),
    commitTransaction: () => run('commit'),
    rollbackTransaction: () => run('rollback'),
    // Kysely quotes savepoint names itself; they are its own identifiers, never input.
    savepoint: (_connection, name) => run(`savepoint "${name}"`),
    rollbackToSavepoint: (_connection, name) => run(`rollback to "${name}"`),
    releaseSavepoint: (_connection, name) => run(`release "${name}"`),
    releaseConnection: async () => lock.release(),
    destroy: async () => void database.close(),
  };
}

/**
 * Kysely's SQLite dialect over better-sqlite3 with each statement prepared once, booleans sent
 * as 0/1, and the connection handed out first come, first served (see {@link fairLock}).
 */
export class PreparedSqliteDialect extends SqliteDialect {
  readonly #database: BetterSqlite3.Database;

  constructor(database: BetterSqlite3.Database) {
    super({ database });
    this.#database = database;
  }

  override createDriver(): Driver {
    return driverOf(this.#database);
  }
}
