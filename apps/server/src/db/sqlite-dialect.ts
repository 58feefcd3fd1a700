import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { Mutex, type MutexInterface } from 'async-mutex';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type Kysely,
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

/** What a statement answered, and whether it wrote to the database. */
interface Ran<R> {
  result: QueryResult<R>;
  wrote: boolean;
}

/** Runs compiled queries on `database`, each prepared once. */
function statementRunner(database: BetterSqlite3.Database) {
  const prepare = statementCache(database);
  return {
    run<R>(query: CompiledQuery): Ran<R> {
      const statement = prepare(query.sql);
      const parameters = query.parameters.map(toSqliteValue);
      const wrote = !statement.readonly;
      if (statement.reader) return { result: { rows: statement.all(parameters) as R[] }, wrote };
      const { changes, lastInsertRowid } = statement.run(parameters);
      return {
        result: { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] },
        wrote,
      };
    },
    *stream<R>(query: CompiledQuery): IterableIterator<QueryResult<R>> {
      if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams only select queries');
      // Not a kept statement: one that is being iterated cannot run for anyone else.
      for (const row of database.prepare(query.sql).iterate(query.parameters.map(toSqliteValue)))
        yield { rows: [row as R] };
    },
  };
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/**
 * Group commit: the function answered resolves once a `sync` that began after it was called
 * has ended (and rejects if that sync fails). Callers that arrive while a sync runs all wait
 * for the next one, so any number of commits made meanwhile cost one sync.
 */
export function groupSync(sync: () => Promise<void>): () => Promise<void> {
  let waiting: Deferred | null = null;
  let running = false;
  const drain = async () => {
    running = true;
    while (waiting) {
      const batch = waiting;
      waiting = null;
      try {
        await sync();
        batch.resolve();
      } catch (error) {
        batch.reject(error);
      }
    }
    running = false;
  };
  return () => {
    waiting ??= deferred();
    const { promise } = waiting;
    if (!running) void drain();
    return promise;
  };
}

/** Syncs one file to disk, again and again; `close` lets go of it. */
export interface FileSync {
  sync: () => Promise<void>;
  close: () => void;
}

/**
 * Writes `file`'s data to the disk (fdatasync) on libuv's threads, through a descriptor kept
 * open (opening and closing it for each sync doubled its cost), and the first time its
 * directory too, where SQLite itself syncs the directory of a new WAL file once. A file not
 * there has nothing to sync: SQLite removes its WAL only once it is checkpointed. SQLite locks
 * the database and `-shm` files, never the WAL, so closing this descriptor drops none of its
 * locks.
 */
export function fileSync(file: string): FileSync {
  let fd: number | null = null;
  let directorySynced = process.platform === 'win32'; // Windows cannot open a directory.
  const call = <T>(work: (done: (error: Error | null, value?: T) => void) => void) =>
    new Promise<T>((resolve, reject) =>
      work((error, value) => (error ? reject(error) : resolve(value as T))),
    );
  const syncDirectory = async () => {
    const directory = await call<number>((done) => fs.open(path.dirname(file), 'r', done));
    try {
      await call((done) => fs.fdatasync(directory, done));
    } finally {
      fs.close(directory, () => {});
    }
  };
  let last: Promise<unknown> = Promise.resolve();
  const syncNow = async () => {
    if (fd === null) {
      try {
        fd = await call<number>((done) => fs.open(file, 'r+', done));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
    }
    await call((done) => fs.fdatasync(fd!, done));
    if (directorySynced) return;
    await syncDirectory();
    directorySynced = true;
  };
  return {
    sync() {
      const run = syncNow();
      last = run.catch(() => {});
      return run;
    },
    close() {
      const open = fd;
      fd = null;
      // After the sync under way, if any: its descriptor is this one.
      if (open !== null) void last.then(() => fs.close(open, () => {}));
    },
  };
}

/**
 * How commits become durable. On a file in WAL mode, SQLite runs with `synchronous = NORMAL`
 * (a commit writes the WAL but does not sync it) and each commit that wrote waits for a sync of
 * the WAL file made on libuv's threads, shared by the commits made meanwhile: the same syncs as
 * `synchronous = FULL` (https://sqlite.org/pragma.html#pragma_synchronous: FULL adds one sync
 * of the WAL after each commit), without holding the event loop and the connection for each.
 * Elsewhere (in memory, another journal mode) SQLite keeps its own setting: `null`.
 */
function durability(
  database: BetterSqlite3.Database,
  syncFile: (file: string) => FileSync,
): { durable: () => Promise<void>; close: () => void } | null {
  if (database.memory || database.pragma('journal_mode', { simple: true }) !== 'wal') return null;
  database.pragma('synchronous = NORMAL');
  const wal = syncFile(`${database.name}-wal`);
  return { durable: groupSync(wal.sync), close: wal.close };
}

/** What every {@link Turn} on one database shares. */
interface Shared {
  database: BetterSqlite3.Database;
  /**
   * The one connection's queue (async-mutex: first come, first served, waking only the next
   * waiter). Kysely's own lock wakes every waiter at each release, and all but one go back to
   * sleep: with a few hundred requests waiting behind a transaction that is quadratic.
   */
  lock: Mutex;
  runner: ReturnType<typeof statementRunner>;
  /** Resolves once what was committed is on disk; `null` where SQLite syncs it itself. */
  durable: (() => Promise<void>) | null;
  /** Work for {@link together} waiting for the connection: run as one transaction when it comes. */
  waiting: Together[];
  /** Whether a query has held the connection (the driver started: commits made durable as {@link durability} says). */
  started: boolean;
}

/** Work asked of {@link atOnceOnSqlite} outside a transaction, waiting its turn. */
interface Together {
  work: (run: RunNow) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * One holder's turn on the connection. A write that commits gives the connection to the next
 * holder at once and waits for its sync apart; a holder that goes on using the connection
 * afterwards (Kysely's `connection()`) queues for it again. Whether a transaction is open is
 * SQLite's own word (`inTransaction`), so one begun by raw SQL counts too.
 */
class Turn implements DatabaseConnection {
  #release: MutexInterface.Releaser | null;
  #acquiring: Promise<void> | null = null;
  /** Whether this turn wrote something not yet committed. */
  #wrote = false;

  constructor(
    release: MutexInterface.Releaser,
    readonly shared: Shared,
  ) {
    this.#release = release;
  }

  /** Queues for the connection again, once for any number of queries asking at once. */
  async #hold(): Promise<void> {
    this.#acquiring ??= this.shared.lock.acquire().then((release) => {
      this.#release = release;
      this.#acquiring = null;
    });
    await this.#acquiring;
  }

  release(): void {
    this.#release?.();
    this.#release = null;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.#release) await this.#hold();
    const { result, wrote } = this.shared.runner.run<R>(query);
    this.#wrote ||= wrote;
    if (!this.#wrote || this.shared.database.inTransaction) return result;
    // Committed: by a statement outside a transaction, or by `commit` itself.
    this.#wrote = false;
    if (!this.shared.durable) return result;
    // On disk before the caller hears of it; the connection is someone else's meanwhile.
    this.release();
    await this.shared.durable();
    return result;
  }

  /**
   * Runs `work` as one transaction without giving the event loop a turn (better-sqlite3's
   * `transaction`: committed when it returns, rolled back when it throws), then waits for its
   * sync as any commit does. See {@link atOnceOnSqlite}.
   */
  async atOnce<T>(work: (run: RunNow) => T): Promise<T> {
    if (!this.#release) await this.#hold();
    const { database, runner } = this.shared;
    // Inside a transaction of the caller's (a savepoint then): its commit waits for the sync.
    const inner = database.inTransaction;
    let wrote = false;
    const run: RunNow = (query) => {
      const { result, wrote: writer } = runner.run<never>(query);
      // A write that changed no row (a refused turn's update) leaves nothing to sync.
      wrote ||= writer && (result.rows.length > 0 || (result.numAffectedRows ?? 0n) > 0n);
      return result;
    };
    const result = database.transaction(() => work(run))();
    if (inner) this.#wrote ||= wrote;
    if (!wrote || inner || !this.shared.durable) return result;
    this.release();
    await this.shared.durable();
    return result;
  }

  /**
   * Runs the work waiting in {@link Shared.waiting} as one transaction, each a savepoint of it
   * (one failing is rolled back alone), committed and synced once for all. See {@link together}.
   */
  async together(): Promise<void> {
    if (!this.#release) await this.#hold();
    const { database, runner } = this.shared;
    const batch = this.shared.waiting;
    this.shared.waiting = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    let wrote = false;
    try {
      let wroteNow = false;
      const run: RunNow = (query) => {
        const { result, wrote: writer } = runner.run<never>(query);
        // A write that changed no row (a refused turn's update) leaves nothing to sync.
        wroteNow ||= writer && (result.rows.length > 0 || (result.numAffectedRows ?? 0n) > 0n);
        return result;
      };
      const one = (item: Together) => {
        wroteNow = false;
        try {
          // Alone, the work is the transaction; with others, a savepoint of it.
          const value = batch.length === 1 ? item.work(run) : database.transaction(item.work)(run);
          outcomes.push({ ok: true, value });
          wrote ||= wroteNow;
        } catch (error) {
          if (batch.length === 1) throw error;
          outcomes.push({ ok: false, error });
        }
      };
      database.transaction(() => batch.forEach(one))();
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    if (wrote && this.shared.durable) {
      this.release();
      try {
        await this.shared.durable();
      } catch (error) {
        for (const item of batch) item.reject(error);
        return;
      }
    }
    batch.forEach((item, at) => {
      const outcome = outcomes[at]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!this.#release) await this.#hold();
    yield* this.shared.runner.stream<R>(query);
  }

  /** Runs SQL of the driver's own (`begin`, `savepoint` …). */
  async raw(sql: string): Promise<void> {
    await this.executeQuery(CompiledQuery.raw(sql));
  }

  async rollback(): Promise<void> {
    // Only this turn's own transaction: a commit whose sync failed had handed the connection
    // on, and what is open now may be someone else's.
    if (!this.#release || !this.shared.database.inTransaction) return;
    this.#wrote = false;
    await this.raw('rollback');
  }
}

function driverOf(shared: Shared, syncFile: (file: string) => FileSync): Driver {
  const { database } = shared;
  const turn = (connection: DatabaseConnection) => connection as Turn;
  let wal: ReturnType<typeof durability> = null;
  return {
    init: async () => {
      wal = durability(database, syncFile);
      shared.durable = wal?.durable ?? null;
    },
    acquireConnection: async () => {
      const release = await shared.lock.acquire();
      // Started once the first query holds the connection, not when the driver's start began:
      // a statement on the spot must not run before a query asked earlier.
      shared.started = true;
      return new Turn(release, shared);
    },
    beginTransaction: (connection) => turn(connection).raw('begin'),
    commitTransaction: (connection) => turn(connection).raw('commit'),
    rollbackTransaction: (connection) => turn(connection).rollback(),
    // Kysely quotes savepoint names itself; they are its own identifiers, never input.
    savepoint: (connection, name) => turn(connection).raw(`savepoint "${name}"`),
    rollbackToSavepoint: (connection, name) => turn(connection).raw(`rollback to "${name}"`),
    releaseSavepoint: (connection, name) => turn(connection).raw(`release "${name}"`),
    releaseConnection: async (connection) => turn(connection).release(),
    destroy: async () => {
      shared.started = false;
      database.close();
      wal?.close();
    },
  };
}

/**
 * Kysely's SQLite adapter, but saying that SQLite's schema changes are transactional, which
 * they are: `create`, `alter` and `drop` roll back with the rest. Kysely's own says they are
 * not, so its migrator ran each statement in a transaction of its own, and a server killed
 * part-way through a migration left it half applied, never to start again ("table … already
 * exists", issue #36). With this, the migrator runs the pending migrations in one transaction,
 * as on PostgreSQL: a kill leaves all of them applied or none. Inside a transaction SQLite
 * ignores `pragma foreign_keys` (and `journal_mode`), so a migration cannot switch them; none
 * does.
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  constructor(
    /** The connection the dialect's driver hands out (see {@link together}). */
    readonly shared: Shared,
  ) {
    super();
  }

  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Runs `work` in one transaction with the other work asked meanwhile (each a savepoint of it,
 * so that one failing is rolled back alone), committed and synced once for all: a commit writes
 * each page it changed to the WAL, and sends at once change the same pages (the messages'
 * indexes, the ledger's), so several sends' turns cost about what one's did. Work asked while
 * the connection is busy waits for it, and joins the next batch.
 */
function together<T>(
  executor: ReturnType<Kysely<unknown>['getExecutor']>,
  shared: Shared,
  work: (run: RunNow) => T,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    shared.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
    if (shared.waiting.length > 1) return;
    // Through Kysely, which starts the driver on its first use.
    executor
      .provideConnection(async (connection) => (connection as Turn).together())
      .catch((error: unknown) => {
        for (const item of shared.waiting.splice(0)) item.reject(error);
      });
  });
}

/** Runs one compiled query on the spot (see {@link atOnceOnSqlite}): its rows, or what it changed. */
export type RunNow = <R>(query: CompiledQuery<R>) => QueryResult<R>;

/**
 * Runs `work`'s statements as one SQLite transaction, back to back, without an `await` between
 * them, when `db` is on {@link PreparedSqliteDialect} (else `null`, and nothing runs). Each
 * statement through Kysely's executor costs more of the event loop than SQLite takes to run it:
 * a chat send's turn took 0.56–0.60 ms of CPU that way, and takes 0.44–0.50 ms this way
 * (SQLite's own work in its statements: about 0.17). For the hot paths only; `work` runs
 * compiled queries (a `preparedQuery`'s `withValues`), each statement prepared once. Like any
 * commit, it resolves once on disk; inside a transaction (`db` a Kysely transaction) it is a
 * savepoint, on disk when that transaction commits.
 */
export async function atOnceOnSqlite<T>(
  db: Pick<Kysely<unknown>, 'getExecutor' | 'isTransaction'>,
  work: (run: RunNow) => T,
): Promise<T | null> {
  const executor = db.getExecutor();
  const { adapter } = executor;
  if (!(adapter instanceof TransactionalSqliteAdapter)) return null;
  if (!db.isTransaction) return together(executor, adapter.shared, work);
  return db.getExecutor().provideConnection(async (connection) => {
    if (!(connection instanceof Turn)) return null;
    return connection.atOnce(work);
  });
}

/**
 * Runs one compiled query on the spot when `db` is on {@link PreparedSqliteDialect}, outside a
 * transaction, and nobody holds or waits for the connection: what it answered, once durable if
 * it wrote (else `null`, and nothing runs; the caller goes through Kysely's executor). Kysely's
 * executor takes the connection's lock, a turn of promises and one `await` a step before and
 * after the statement, about as much of the event loop as SQLite takes to run a chat send's
 * reads. With the connection free nothing is queued before it, so running it now keeps the
 * connection's order; the statement runs to its end before the event loop turns.
 */
export function runNowOnSqlite<R>(
  db: Pick<Kysely<unknown>, 'getExecutor' | 'isTransaction'>,
  query: CompiledQuery<R>,
): Promise<QueryResult<R>> | null {
  if (db.isTransaction) return null;
  const executor = db.getExecutor();
  const { adapter } = executor;
  // Plugins transform what the executor runs and answers: through it, always.
  if (!(adapter instanceof TransactionalSqliteAdapter) || executor.plugins.length > 0) return null;
  const { shared } = adapter;
  if (
    !shared.started ||
    shared.lock.isLocked() ||
    shared.waiting.length > 0 ||
    shared.database.inTransaction
  )
    return null;
  let ran: Ran<R>;
  try {
    ran = shared.runner.run<R>(query);
  } catch (error) {
    return Promise.reject(error);
  }
  if (!ran.wrote || !shared.durable) return Promise.resolve(ran.result);
  return shared.durable().then(() => ran.result);
}

/** Options of {@link PreparedSqliteDialect}. */
export interface PreparedSqliteOptions {
  /** How a file is synced to disk (default {@link fileSync}); tests watch or hold syncs. */
  syncFile?: (file: string) => FileSync;
}

/**
 * Kysely's SQLite dialect over better-sqlite3 with each statement prepared once, booleans sent
 * as 0/1, the connection handed out first come, first served (see {@link Shared}), commits
 * made durable off the event loop, several to a sync (see {@link durability}), and migrations
 * applied whole or not at all (see {@link TransactionalSqliteAdapter}).
 */
export class PreparedSqliteDialect extends SqliteDialect {
  readonly #shared: Shared;
  readonly #syncFile: (file: string) => FileSync;

  constructor(database: BetterSqlite3.Database, options: PreparedSqliteOptions = {}) {
    super({ database });
    this.#shared = {
      database,
      lock: new Mutex(),
      runner: statementRunner(database),
      durable: null,
      waiting: [],
      started: false,
    };
    this.#syncFile = options.syncFile ?? fileSync;
  }

  override createDriver(): Driver {
    return driverOf(this.#shared, this.#syncFile);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalSqliteAdapter(this.#shared);
  }
}
