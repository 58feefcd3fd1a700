import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CamelCasePlugin, CompiledQuery, Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  atOnceOnSqlite,
  fileSync,
  groupSync,
  PreparedSqliteDialect,
  runNowOnSqlite,
  type FileSync,
} from '../src/db/sqlite-dialect';

/** A statement for `atOnceOnSqlite`'s `run`. */
const raw = (text: string, ...parameters: unknown[]) => CompiledQuery.raw(text, parameters);

/** Syncs that end only when the test says so, oldest first; `count` is how many were started. */
function heldSyncs() {
  const ends: { resolve: () => void; reject: (error: Error) => void }[] = [];
  let ended = 0;
  return {
    get count() {
      return ends.length;
    },
    sync: () =>
      new Promise<void>((resolve, reject) => {
        ends.push({ resolve, reject });
      }),
    end: () => ends[ended++]!.resolve(),
    endAll: () => {
      while (ended < ends.length) ends[ended++]!.resolve();
    },
    fail: (error: Error) => ends[ended++]!.reject(error),
  };
}

/** Whether `promise` has settled once pending callbacks and a macrotask have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('groupSync', () => {
  it('starts a sync at once, and makes every call that came during it share the next one', async () => {
    const syncs = heldSyncs();
    const durable = groupSync(syncs.sync);
    const first = durable();
    expect(syncs.count).toBe(1);
    // Committed while the first sync runs: that sync may have begun before their writes.
    const second = durable();
    const third = durable();
    expect(syncs.count).toBe(1);
    syncs.endAll();
    await first;
    expect(await settled(second)).toBe(false);
    expect(syncs.count).toBe(2);
    syncs.endAll();
    await Promise.all([second, third]);
    expect(syncs.count).toBe(2);
  });

  it('rejects the calls whose sync failed, and syncs again for later ones', async () => {
    const syncs = heldSyncs();
    const durable = groupSync(syncs.sync);
    const failed = durable();
    syncs.fail(new Error('EIO'));
    await expect(failed).rejects.toThrow('EIO');
    const later = durable();
    expect(syncs.count).toBe(2);
    syncs.endAll();
    await later;
  });
});

describe('a SQLite file in WAL mode', () => {
  const dirs: string[] = [];
  const dbs: Kysely<any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  afterEach(async () => {
    for (const db of dbs.splice(0)) await db.destroy();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(syncFile: (file: string) => FileSync) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-durability-'));
    dirs.push(dir);
    const file = path.join(dir, 'test.db');
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('create table notes (id integer primary key, text text not null)');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = new Kysely<any>({ dialect: new PreparedSqliteDialect(sqlite, { syncFile }) });
    dbs.push(db);
    return { db, sqlite, file };
  }

  it('answers a commit once its WAL is synced, and serves others meanwhile', async () => {
    const syncs = heldSyncs();
    const synced: string[] = [];
    const { db, sqlite, file } = open((target) => {
      synced.push(target);
      return { sync: syncs.sync, close: () => {} };
    });
    const committed = db
      .transaction()
      .execute((trx) => trx.insertInto('notes').values({ text: 'first' }).execute());
    await new Promise((resolve) => setImmediate(resolve));
    expect(syncs.count).toBe(1);
    expect(await settled(committed)).toBe(false);
    // The connection is free while the sync runs: a read and another write go ahead.
    const rows = await db.selectFrom('notes').select('text').execute();
    expect(rows).toEqual([{ text: 'first' }]);
    const second = db.insertInto('notes').values({ text: 'second' }).execute();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await settled(second)).toBe(false);
    syncs.end();
    await committed;
    // The second write waits for a sync that began after it.
    expect(await settled(second)).toBe(false);
    syncs.endAll();
    await second;
    expect(synced).toEqual([`${file}-wal`]);
    // SQLite itself no longer syncs each commit: FULL is 2, NORMAL 1.
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('does not sync for reads, nor for a transaction rolled back', async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    await db.selectFrom('notes').selectAll().execute();
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ text: 'gone' }).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await db.transaction().execute((trx) => trx.selectFrom('notes').selectAll().execute());
    expect(syncs.count).toBe(0);
  });

  it('fails the write whose sync failed', async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    const written = db
      .transaction()
      .execute((trx) => trx.insertInto('notes').values({ text: 'unsure' }).execute());
    await new Promise((resolve) => setImmediate(resolve));
    syncs.fail(new Error('EIO: the disk failed'));
    await expect(written).rejects.toThrow('EIO');
    // The connection is usable afterwards.
    const later = db.insertInto('notes').values({ text: 'later' }).execute();
    await new Promise((resolve) => setImmediate(resolve));
    syncs.endAll();
    await later;
    expect(
      await db.selectFrom('notes').select('text').where('text', '=', 'later').execute(),
    ).toEqual([{ text: 'later' }]);
  });

  it('runs statements at once as one transaction, answered once synced (#38)', async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    const texts = () => db.selectFrom('notes').select('text').orderBy('id').execute();
    let between: unknown = null;
    const written = atOnceOnSqlite(db, (run) => {
      run(raw('insert into notes (text) values (?)', 'one'));
      // The loop never turns between statements: a query asked meanwhile waits for the end.
      between = db.selectFrom('notes').selectAll().execute();
      run(raw('insert into notes (text) values (?)', 'two'));
      return run<{ count: number }>(raw('select count(*) as count from notes')).rows[0]!.count;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(syncs.count).toBe(1);
    expect(await settled(written)).toBe(false);
    // Both committed together; the connection serves others while the sync runs.
    expect(await between).toHaveLength(2);
    expect(await texts()).toEqual([{ text: 'one' }, { text: 'two' }]);
    syncs.endAll();
    expect(await written).toBe(2);
  });

  it('runs the work asked while the connection is busy as one commit, each rolled back alone (#38)', async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    let asked: Promise<unknown>[] = [];
    // Three sends' turns asked while another holds the connection.
    await db.connection().execute(async (busy) => {
      await busy.selectFrom('notes').selectAll().execute();
      asked = [
        atOnceOnSqlite(db, (run) => run(raw('insert into notes (text) values (?)', 'one'))),
        atOnceOnSqlite(db, (run) => {
          run(raw('insert into notes (text) values (?)', 'gone'));
          run(raw('insert into notes (text) values (?)', null));
        }),
        atOnceOnSqlite(db, (run) => {
          run(raw('insert into notes (text) values (?)', 'three'));
          return 'answered';
        }),
      ];
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(syncs.count).toBe(1);
    syncs.endAll();
    const [one, failed, three] = await Promise.allSettled(asked);
    expect(one).toMatchObject({ status: 'fulfilled' });
    expect(failed).toMatchObject({ status: 'rejected', reason: { message: /NOT NULL/ } });
    expect(three).toEqual({ status: 'fulfilled', value: 'answered' });
    // One sync for the three: what failed is gone, the rest kept.
    expect(syncs.count).toBe(1);
    expect(await db.selectFrom('notes').select('text').orderBy('id').execute()).toEqual([
      { text: 'one' },
      { text: 'three' },
    ]);
  });

  it('rolls all of it back when a statement fails, and syncs nothing', async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    await expect(
      atOnceOnSqlite(db, (run) => {
        run(raw('insert into notes (text) values (?)', 'gone'));
        run(raw('insert into notes (text) values (?)', null));
      }),
    ).rejects.toThrow(/NOT NULL/);
    expect(await db.selectFrom('notes').selectAll().execute()).toEqual([]);
    expect(syncs.count).toBe(0);
  });

  it('syncs nothing when its statements changed nothing', async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    // A refused turn: an update that matches no row (returning nothing), then nothing more.
    const answer = await atOnceOnSqlite(db, (run) => {
      run(raw('update notes set text = ? where id = ?', 'x', 1));
      return run(raw('update notes set text = ? where id = ? returning id', 'x', 1)).rows.length;
    });
    expect(answer).toBe(0);
    expect(syncs.count).toBe(0);
  });

  it("is part of the caller's transaction inside one, on disk when that commits", async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    const committed = db.transaction().execute(async (trx) => {
      await atOnceOnSqlite(trx, (run) => run(raw('insert into notes (text) values (?)', 'inner')));
      // Nothing synced before the transaction's own commit.
      expect(syncs.count).toBe(0);
      expect(await trx.selectFrom('notes').select('text').execute()).toEqual([{ text: 'inner' }]);
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(syncs.count).toBe(1);
    expect(await settled(committed)).toBe(false);
    syncs.endAll();
    await committed;
    expect(await db.selectFrom('notes').select('text').execute()).toEqual([{ text: 'inner' }]);
  });

  it('fails when its sync fails', async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    const written = atOnceOnSqlite(db, (run) =>
      run(raw('insert into notes (text) values (?)', 'x')),
    );
    await new Promise((resolve) => setImmediate(resolve));
    syncs.fail(new Error('EIO: the disk failed'));
    await expect(written).rejects.toThrow('EIO');
    // The connection is usable afterwards.
    const later = atOnceOnSqlite(db, (run) => run(raw('insert into notes (text) values (?)', 'y')));
    await new Promise((resolve) => setImmediate(resolve));
    syncs.endAll();
    await later;
    expect(await db.selectFrom('notes').select('text').where('text', '=', 'y').execute()).toEqual([
      { text: 'y' },
    ]);
  });

  it('runs a statement on the spot when the connection is free, a write answered once synced (#38)', async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    // Before the driver has started (its first use), nothing runs on the spot; nor while the
    // first query waits for that start: it was asked first.
    expect(runNowOnSqlite(db, raw('select 1'))).toBeNull();
    const first = db.selectFrom('notes').selectAll().execute();
    expect(runNowOnSqlite(db, raw('select text from notes'))).toBeNull();
    await first;
    // A database with a plugin answers through Kysely's executor, which applies it.
    expect(runNowOnSqlite(db.withPlugin(new CamelCasePlugin()), raw('select 1'))).toBeNull();
    const written = runNowOnSqlite(db, raw('insert into notes (text) values (?)', 'now'));
    // Ran before the caller's next line: the row is there, its sync under way.
    expect(written).not.toBeNull();
    expect(syncs.count).toBe(1);
    expect(await settled(written!)).toBe(false);
    const read = runNowOnSqlite<{ text: string }>(db, raw('select text from notes'));
    expect((await read!).rows).toEqual([{ text: 'now' }]);
    syncs.endAll();
    expect((await written!).numAffectedRows).toBe(1n);
    // A failing statement rejects, and changes nothing.
    await expect(
      runNowOnSqlite(db, raw('insert into notes (text) values (?)', null))!,
    ).rejects.toThrow(/NOT NULL/);
    expect(await db.selectFrom('notes').select('text').execute()).toEqual([{ text: 'now' }]);
  });

  it('runs nothing on the spot while the connection is held, nor inside a transaction (#38)', async () => {
    const syncs = heldSyncs();
    const { db } = open(() => ({ sync: syncs.sync, close: () => {} }));
    await db.selectFrom('notes').selectAll().execute();
    const committed = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ text: 'uncommitted' }).execute();
      // Held by the transaction: a statement outside it would read what is not committed.
      expect(runNowOnSqlite(db, raw('select text from notes'))).toBeNull();
      expect(runNowOnSqlite(trx, raw('select text from notes'))).toBeNull();
    });
    await new Promise((resolve) => setImmediate(resolve));
    syncs.endAll();
    await committed;
    // Work waiting for the connection goes first, too.
    const waiting = db.connection().execute(async (busy) => {
      const turn = atOnceOnSqlite(db, (run) =>
        run(raw('insert into notes (text) values (?)', 'x')),
      );
      expect(runNowOnSqlite(db, raw('select text from notes'))).toBeNull();
      await busy.selectFrom('notes').selectAll().execute();
      // Wrapped: the turn itself waits for this connection to be let go.
      return { turn };
    });
    const { turn } = await waiting;
    await new Promise((resolve) => setImmediate(resolve));
    syncs.endAll();
    await turn;
    await db.destroy();
    dbs.splice(dbs.indexOf(db), 1);
    // A database closed runs nothing on the spot.
    expect(runNowOnSqlite(db, raw('select 1'))).toBeNull();
  });

  it('runs nothing on a database of another dialect', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    sqlite.exec('create table notes (text text)');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const other = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
    let ran = false;
    expect(await atOnceOnSqlite(other, () => (ran = true))).toBeNull();
    expect(ran).toBe(false);
    await other.destroy();
  });

  it('syncs real files, and takes a file that is gone as nothing to sync', async () => {
    const { db, file } = open(fileSync);
    await db.insertInto('notes').values({ text: 'on disk' }).execute();
    await db.insertInto('notes').values({ text: 'and more' }).execute();
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    const missing = fileSync(path.join(path.dirname(file), 'missing-wal'));
    await missing.sync();
    missing.close();
  });
});

describe('a SQLite database in memory', () => {
  it('keeps SQLite syncing for itself', async () => {
    const synced: string[] = [];
    const sqlite = new SqliteDatabase(':memory:');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = new Kysely<any>({
      dialect: new PreparedSqliteDialect(sqlite, {
        syncFile: (file) => {
          synced.push(file);
          return { sync: async () => {}, close: () => {} };
        },
      }),
    });
    await sql`create table notes (text text)`.execute(db);
    await db.insertInto('notes').values({ text: 'kept' }).execute();
    expect(synced).toEqual([]);
    await db.destroy();
  });
});
