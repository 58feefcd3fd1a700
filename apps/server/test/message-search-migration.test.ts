import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../src/db/migrate';
import { findMessages, forgetRemovedMessages } from '../src/chat/message-search-repository';
import { DIALECTS, emptyDatabase, insertUser, mateRow, postgresAvailable } from './harness';
import { checkMessageIndex, indexPagesHolding } from './message-index-helpers';

// Searching every chat on a database written before messages carried their owner (#41): the
// owner is filled in for every message already there, kept for every message written after,
// and a search still finds the owner's words only.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('the message search owner migration on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'finds the messages written before it, and after it, for their owner only',
    async () => {
      const database = await emptyDatabase(dialect);
      const db = database.db;
      try {
        await migrateTo(db as never, dialect, '2026-11-29-0034-your-data');
        await insertUser(db, { id: 'ada', email: 'ada@example.com' });
        await insertUser(db, { id: 'bob', email: 'bob@example.com' });
        await db
          .insertInto('mates')
          .values(mateRow('ada', { id: 'm' }))
          .execute();
        const at = (second: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, second)).toISOString();
        for (const [room, user] of [
          ['ra', 'ada'],
          ['rb', 'bob'],
        ])
          await sql`insert into rooms (id, user_id, mate_id, created_at, updated_at)
            values (${room}, ${user}, 'm', ${at(0)}, ${at(0)})`.execute(db);
        const write = (id: string, room: string, position: number, content: string) =>
          sql`insert into messages (id, room_id, position, role, content, status, created_at, swipe_index)
            values (${id}, ${room}, ${position}, 'user', ${content}, 'complete', ${at(position)}, 0)`.execute(
            db,
          );
        await write('a1', 'ra', 1, 'The old Lighthouse at Sévillé.');
        await write('a2', 'ra', 2, 'Nothing here.');
        await write('b1', 'rb', 1, 'My lighthouse, not yours.');
        await migrateToLatest(db as never, dialect);
        await write('a3', 'ra', 3, 'Another LIGHTHOUSE, later.');
        await write('b2', 'rb', 2, 'Seville again.');
        const found = async (userId: string, words: string[]) =>
          (await findMessages(db, dialect, { userId, words, limit: 10, offset: 0 })).map(
            (row) => row.id,
          );
        expect(await found('ada', ['lighthouse'])).toEqual(['a3', 'a1']);
        expect(await found('ada', ['seville', 'light'])).toEqual(['a1']);
        expect(await found('bob', ['lighthouse'])).toEqual(['b1']);
        expect(await found('bob', ['seville'])).toEqual(['b2']);
        // An edit is found by its new words, for its owner still.
        await db
          .updateTable('messages')
          .set({ content: 'A beacon now.' })
          .where('id', '=', 'a3')
          .execute();
        expect(await found('ada', ['beacon'])).toEqual(['a3']);
        expect(await found('ada', ['lighthouse'])).toEqual(['a1']);
        if (dialect === 'postgres') {
          const owners = await sql<{ id: string; user_id: string }>`
            select id, user_id from messages order by id`.execute(db);
          expect(owners.rows).toEqual([
            { id: 'a1', user_id: 'ada' },
            { id: 'a2', user_id: 'ada' },
            { id: 'a3', user_id: 'ada' },
            { id: 'b1', user_id: 'bob' },
            { id: 'b2', user_id: 'bob' },
          ]);
          // An owner given by the writer is the room's whatever it says.
          await sql`insert into messages (id, room_id, user_id, position, role, content, status, created_at, swipe_index)
            values ('a4', 'ra', 'bob', 4, 'user', 'lighthouse for bob?', 'complete', ${at(4)}, 0)`.execute(
            db,
          );
          expect(await found('bob', ['lighthouse'])).toEqual(['b1']);
          const indexes = await sql<{ indexname: string }>`
            select indexname from pg_indexes where tablename = 'messages' order by indexname`.execute(
            db,
          );
          expect(indexes.rows.map((row) => row.indexname)).toEqual(
            expect.arrayContaining(['messages_owner_newest', 'messages_owner_search']),
          );
          expect(indexes.rows.map((row) => row.indexname)).not.toContain('messages_search');
        }
      } finally {
        await database.drop();
      }
    },
  );
});

// Migration 0043: the SQLite index is told what leaves it and takes it out of its pages; the
// words deleted before it, which the old index kept in its pages behind a tombstone, go too.
describe('the search index that forgets, migrated on sqlite', () => {
  it('drops what was deleted before it, and finds what was written before it', async () => {
    const database = await emptyDatabase('sqlite');
    const db = database.db;
    try {
      await migrateTo(db as never, 'sqlite', '2026-12-02-0042-creator-search');
      await insertUser(db, { id: 'ada', email: 'ada@example.com' });
      await db
        .insertInto('mates')
        .values(mateRow('ada', { id: 'm' }))
        .execute();
      const at = new Date(Date.UTC(2026, 10, 1)).toISOString();
      await sql`insert into rooms (id, user_id, mate_id, created_at, updated_at)
        values ('ra', 'ada', 'm', ${at}, ${at})`.execute(db);
      const write = (id: string, position: number, content: string) =>
        sql`insert into messages (id, room_id, position, role, content, status, created_at, swipe_index)
          values (${id}, 'ra', ${position}, 'user', ${content}, 'complete', ${at}, 0)`.execute(db);
      await write('gone', 1, 'The xylophonequartz secret.');
      await write('edited', 2, 'The zeppelinmarmalade secret.');
      await write('kept', 3, 'The harbour light.');
      // The batch as it was before 0043.
      await sql`insert into messages_fts(rowid, owner, body)
        select messages.rowid, rooms.user_id, messages.content
        from messages join rooms on rooms.id = messages.room_id`.execute(db);
      await sql`delete from messages_fts_pending`.execute(db);
      await db.deleteFrom('messages').where('id', '=', 'gone').execute();
      await db
        .updateTable('messages')
        .set({ content: 'A plain secret.' })
        .where('id', '=', 'edited')
        .execute();
      await write('new', 4, 'A lighthouse, noted.');
      expect(await indexPagesHolding(db, 'lophonequartz')).toBe(1);

      await migrateToLatest(db as never, 'sqlite');
      expect(await indexPagesHolding(db, 'lophonequartz')).toBe(0);
      expect(await indexPagesHolding(db, 'ppelinmarmalade')).toBe(0);
      const found = async (words: string[]) =>
        (await findMessages(db, 'sqlite', { userId: 'ada', words, limit: 10, offset: 0 })).map(
          (row) => row.id,
        );
      expect(await found(['secret'])).toEqual(['edited']);
      expect(await found(['light'])).toEqual(['new', 'kept']);
      // Written before it, removed after it: out of the pages at the indexer's next step.
      expect(await indexPagesHolding(db, 'arbour')).toBe(1);
      await db.deleteFrom('messages').where('id', '=', 'kept').execute();
      await forgetRemovedMessages(db, 'sqlite');
      expect(await indexPagesHolding(db, 'arbour')).toBe(0);
      await checkMessageIndex(db);
    } finally {
      await database.drop();
    }
  });
});
