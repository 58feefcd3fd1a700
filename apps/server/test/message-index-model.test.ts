import { afterEach, describe, expect, it, vi } from 'vitest';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import type { Database } from '../src/db/schema';
import { PreparedSqliteDialect } from '../src/db/sqlite-dialect';
import { migrateToLatest } from '../src/db/migrate';
import { newRoomRow } from '../src/chat/room-repository';
import { appendMessage } from '../src/chat/message-repository';
import {
  forgetRemovedMessages,
  indexAllPendingMessages,
  indexPendingMessages,
} from '../src/chat/message-search-repository';
import { insertUser, mateRow } from './harness';
import { checkMessageIndex } from './message-index-helpers';

// SQLite's search index since migration 0043 must be told exactly the words it holds of what
// leaves it, or FTS5's index goes wrong for good. These check it against a model: the index an
// index built afresh from the messages would be. (An outside review wrote the first version of
// both: the random writes, and the clock that ticks inside a batch.)

/** Every (word, row, column, place) the FTS5 table `table` holds, with how many times. */
async function entries(db: Kysely<Database>, table: string): Promise<Map<string, number>> {
  await sql
    .raw(`create virtual table if not exists ${table}_words using fts5vocab(${table}, 'instance')`)
    .execute(db);
  const { rows } = await sql
    .raw<{ entry: string; count: number }>(
      `select term || '|' || doc || '|' || col || '|' || offset as entry, count(*) as count
     from ${table}_words group by 1`,
    )
    .execute(db);
  return new Map(rows.map((row) => [row.entry, Number(row.count)]));
}

/** What the index should hold: every message as it is now, under its room's owner. */
async function modelEntries(db: Kysely<Database>): Promise<Map<string, number>> {
  await sql`drop table if exists model_fts_words`.execute(db);
  await sql`drop table if exists model_fts`.execute(db);
  await sql`create virtual table model_fts using fts5(owner, body, content='',
    tokenize='unicode61 remove_diacritics 2', prefix='2 3 4')`.execute(db);
  await sql`insert into model_fts(rowid, owner, body)
    select messages.rowid, rooms.user_id, messages.content
    from messages join rooms on rooms.id = messages.room_id
    where messages.content <> ''`.execute(db);
  return entries(db, 'model_fts');
}

/** Where the index and the model differ. */
async function differences(db: Kysely<Database>): Promise<string[]> {
  const held = await entries(db, 'messages_fts');
  const model = await modelEntries(db);
  return [
    ...[...held].filter(([entry, count]) => model.get(entry) !== count).map(([e]) => `held ${e}`),
    ...[...model].filter(([entry]) => !held.has(entry)).map(([entry]) => `missing ${entry}`),
  ];
}

/** A database in memory, its SQLite handle at hand. */
async function memoryDatabase() {
  const raw = new SqliteDatabase(':memory:');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new PreparedSqliteDialect(raw) });
  await migrateToLatest(db as never, 'sqlite');
  await insertUser(db, { id: 'creator', email: 'creator@example.com' });
  await db
    .insertInto('mates')
    .values(mateRow('creator', { id: 'mate' }))
    .execute();
  return { raw, db };
}

describe('the search index against a model of it, on sqlite', () => {
  let db: Kysely<Database> | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await db?.destroy();
  });

  it.each([1, 2, 3])('holds every message as it is after random writes (draw %i)', async (draw) => {
    ({ db } = await memoryDatabase());
    const database = db;
    // mulberry32: the same writes at every run of a draw.
    let state = draw * 7919;
    const random = (below: number) => {
      state = (state + 0x6d2b79f5) | 0;
      let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
      mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
      return ((mixed ^ (mixed >>> 14)) >>> 0) % below;
    };
    let counter = 0;
    const words = () => Array.from({ length: random(4) }, () => `w${(counter += 1)}`).join(' ');
    const people = new Set<string>();
    const rooms: { id: string; owner: string }[] = [];
    const newRoom = async () => {
      const owner = `p${random(3)}`;
      if (!people.has(owner)) await insertUser(database, { id: owner, email: `${owner}@x.test` });
      people.add(owner);
      const id = `r${(counter += 1)}`;
      await database
        .insertInto('rooms')
        .values(newRoomRow({ id, user_id: owner, mate_id: 'mate' }))
        .execute();
      rooms.push({ id, owner });
    };
    for (let step = 0; step < 600; step += 1) {
      if (rooms.length === 0) await newRoom();
      const room = rooms[random(rooms.length)]!;
      const messages = await database.selectFrom('messages').select(['id', 'content']).execute();
      // The newest often: removing it gives its rowid to the next message written.
      const message =
        messages.length === 0
          ? undefined
          : random(3) === 0
            ? messages.at(-1)!
            : messages[random(messages.length)]!;
      const what = random(20);
      if (what < 5) {
        await appendMessage(database, room.id, {
          role: 'mate',
          content: words(),
          status: random(2) ? 'partial' : 'complete',
        });
      } else if (what < 9 && message) {
        const content = random(4) === 0 ? message.content : words();
        await database
          .updateTable('messages')
          .set({ content })
          .where('id', '=', message.id)
          .execute();
      } else if (what < 10 && message) {
        await database
          .updateTable('messages')
          .set({ status: random(2) ? 'partial' : 'complete' })
          .where('id', '=', message.id)
          .execute();
      } else if (what < 12 && message) {
        await database.deleteFrom('messages').where('id', '=', message.id).execute();
      } else if (what < 13) {
        await database.deleteFrom('rooms').where('id', '=', room.id).execute();
        rooms.splice(rooms.indexOf(room), 1);
      } else if (what < 14) {
        await database.deleteFrom('users').where('id', '=', room.owner).execute();
        people.delete(room.owner);
        for (const gone of rooms.filter((other) => other.owner === room.owner))
          rooms.splice(rooms.indexOf(gone), 1);
      } else if (what < 15) {
        await newRoom();
      } else if (what < 17) {
        await forgetRemovedMessages(database, 'sqlite', 1 + random(5));
      } else if (what < 19) {
        await indexPendingMessages(database, 'sqlite', 1 + random(5), random(2) ? 60 : 0);
      } else {
        // A minute passes for the replies being written.
        await sql`update messages_fts_pending set noted_at = noted_at - 61`.execute(database);
      }
    }
    await indexAllPendingMessages(database, 'sqlite');
    expect(await differences(database)).toEqual([]);
    await checkMessageIndex(database);
  });

  it('chooses a batch once, whatever the clock does between its statements', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000_000);
    const { raw, db: opened } = await memoryDatabase();
    db = opened;
    // SQLite's clock is the test's, and it moves on just before the batch writes new words.
    raw.function('unixepoch', { deterministic: false, varargs: true }, () =>
      Math.floor(Date.now() / 1000),
    );
    const prepare = raw.prepare.bind(raw);
    let moveOn = false;
    raw.prepare = ((source: string) => {
      const statement = prepare(source);
      if (/^\s*insert into messages_fts\(rowid, owner, body\)/.test(source)) {
        const run = statement.run.bind(statement);
        statement.run = ((...args: never[]) => {
          if (moveOn) vi.setSystemTime(Date.now() + 1000);
          return run(...args);
        }) as typeof statement.run;
      }
      return statement;
    }) as typeof raw.prepare;
    await insertUser(db, { id: 'reader', email: 'reader@example.com' });
    await db
      .insertInto('rooms')
      .values(newRoomRow({ id: 'room', user_id: 'reader', mate_id: 'mate' }))
      .execute();
    // A reply cut off and left `partial`, indexed; then written again.
    const cut = await appendMessage(db, 'room', {
      role: 'mate',
      content: 'alpha words',
      status: 'partial',
    });
    await indexAllPendingMessages(db, 'sqlite');
    await db
      .updateTable('messages')
      .set({ content: 'beta words' })
      .where('id', '=', cut.id)
      .execute();
    await appendMessage(db, 'room', { role: 'user', content: 'gamma', status: 'complete' });
    // The indexer's step, the last moment before the cut reply's wait ends.
    vi.setSystemTime(Date.now() + 59_500);
    moveOn = true;
    await indexPendingMessages(db, 'sqlite', 200, 60);
    moveOn = false;
    // The cut reply waited whole, or was indexed whole: either way, once its wait is over, the
    // index holds it as it is, once.
    await indexAllPendingMessages(db, 'sqlite');
    expect(await differences(db)).toEqual([]);
  });
});
