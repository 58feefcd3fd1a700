import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { newRoomRow } from '../src/chat/room-repository';
import { messageRow } from '../src/chat/message-repository';
import { INDEX_BATCH, indexPendingMessages } from '../src/chat/message-search-repository';
import { messageIndexer } from '../src/chat/message-indexer';
import { silentLogger } from '../src/logging/logger';
import { freshDatabase, insertUser, mateRow } from './harness';

// #38: on SQLite a message's words reach the search index in batches after its writes
// (migration 0040), not at each write; a reply saved as it grows is indexed once, as it ends.

/** The rowids of the index's matches for `words` (FTS5's own syntax). */
async function indexed(db: Kysely<Database>, words: string): Promise<number> {
  const { rows } = await sql<{ count: number }>`select count(*) as count from messages_fts
    where messages_fts match ${words}`.execute(db);
  return Number(rows[0]!.count);
}
async function noted(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{
    count: number;
  }>`select count(*) as count from messages_fts_pending`.execute(db);
  return Number(rows[0]!.count);
}

describe('the search index written in batches, on sqlite', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Kysely<Database>;
  let position = 0;
  const write = async (id: string, content: string) => {
    position += 1;
    await db
      .insertInto('messages')
      .values(
        messageRow(
          { role: 'mate', content, status: 'partial' },
          { id, roomId: 'room', position, at: new Date().toISOString() },
        ),
      )
      .execute();
  };
  const save = (id: string, content: string) =>
    db.updateTable('messages').set({ content }).where('id', '=', id).execute();

  beforeEach(async () => {
    database = await freshDatabase('sqlite');
    db = database.db;
    position = 0;
    await insertUser(db, { id: 'reader', email: 'reader@example.com' });
    await db
      .insertInto('mates')
      .values(mateRow('reader', { id: 'mate' }))
      .execute();
    await db
      .insertInto('rooms')
      .values(newRoomRow({ id: 'room', user_id: 'reader', mate_id: 'mate' }))
      .execute();
  });
  afterEach(async () => {
    await database.drop();
  });

  it('notes each write and indexes the message once, as it is at the batch', async () => {
    await write('reply', '');
    // An empty reply is not noted; each save of it as it grows is, once.
    expect(await noted(db)).toBe(0);
    await save('reply', 'the lighthouse');
    await save('reply', 'the lighthouse keeper sang');
    expect(await noted(db)).toBe(1);
    expect(await indexed(db, 'lighthouse')).toBe(0);
    expect(await indexPendingMessages(db, 'sqlite')).toBe(1);
    expect(await noted(db)).toBe(0);
    expect(await indexed(db, 'sang')).toBe(1);
    // Saved again (an edit): its old words leave the index at the next batch.
    await save('reply', 'a quiet harbour');
    await indexPendingMessages(db, 'sqlite');
    expect(await indexed(db, 'lighthouse')).toBe(0);
    expect(await indexed(db, 'harbour')).toBe(1);
  });

  it('takes a removed message out at once, and never indexes one removed while noted', async () => {
    await write('kept', 'the lighthouse');
    await indexPendingMessages(db, 'sqlite');
    await write('gone', 'the lighthouse again');
    await db.deleteFrom('messages').where('id', 'in', ['kept', 'gone']).execute();
    expect(await noted(db)).toBe(0);
    expect(await indexed(db, 'lighthouse')).toBe(0);
  });

  it('indexes a batch at a time, and the indexer indexes what is left when it stops', async () => {
    for (let index = 0; index < INDEX_BATCH + 5; index += 1)
      await write(`message-${index}`, `word${index} lighthouse`);
    expect(await indexPendingMessages(db, 'sqlite')).toBe(INDEX_BATCH);
    expect(await noted(db)).toBe(5);
    const indexer = messageIndexer({ db, dialect: 'sqlite', log: silentLogger() }, 60_000);
    indexer.start();
    await indexer.stop();
    expect(await noted(db)).toBe(0);
    expect(await indexed(db, 'lighthouse')).toBe(INDEX_BATCH + 5);
  });
});
