import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { newRoomRow } from '../src/chat/room-repository';
import { messageRow } from '../src/chat/message-repository';
import {
  INDEX_BATCH,
  PARTIAL_WAIT_S,
  findMessages,
  forgetRemovedMessages,
  indexAllPendingMessages,
  indexPendingMessages,
} from '../src/chat/message-search-repository';
import { messageIndexer } from '../src/chat/message-indexer';
import { silentLogger } from '../src/logging/logger';
import { freshDatabase, insertUser, mateRow } from './harness';
import { checkMessageIndex, indexNotes, indexPagesHolding } from './message-index-helpers';

// #38: on SQLite a message's words reach the search index in batches after its writes
// (migration 0040), not at each write; a reply saved as it grows is indexed once, as it ends.
// Since 0043 what leaves the index is noted too, and taken out of its pages in small steps.

/** The rowids of the index's matches for `words` (FTS5's own syntax). */
async function indexed(db: Kysely<Database>, words: string): Promise<number> {
  const { rows } = await sql<{ count: number }>`select count(*) as count from messages_fts
    where messages_fts match ${words}`.execute(db);
  return Number(rows[0]!.count);
}
const noted = (db: Kysely<Database>) => indexNotes(db, 'messages_fts_pending');
const toForget = (db: Kysely<Database>) => indexNotes(db, 'messages_fts_forget');
const search = (words: string[]) => ({ userId: 'reader', words, limit: 10, offset: 0 });

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

  it('notes a removed message to be forgotten, and never indexes one removed while noted', async () => {
    await write('kept', 'the lighthouse');
    await indexPendingMessages(db, 'sqlite');
    await write('gone', 'the lighthouse again');
    await db.deleteFrom('messages').where('id', 'in', ['kept', 'gone']).execute();
    expect(await noted(db)).toBe(0);
    // The one indexed is to be forgotten, the one never indexed is not.
    expect(await toForget(db)).toBe(1);
    expect(await forgetRemovedMessages(db, 'sqlite')).toBe(1);
    expect(await indexed(db, 'lighthouse')).toBe(0);
    // A search leaves out what waits to be forgotten, and still fills its page from older
    // matches: the newest are removed ones.
    await write('older', 'the lighthouse of old');
    await indexPendingMessages(db, 'sqlite');
    for (const id of ['newer-1', 'newer-2', 'newer-3']) await write(id, 'the lighthouse, newer');
    await indexPendingMessages(db, 'sqlite');
    await db.deleteFrom('messages').where('id', 'like', 'newer-%').execute();
    expect(await toForget(db)).toBe(3);
    expect(
      (await findMessages(db, 'sqlite', { ...search(['lighthouse']), limit: 1 })).map(
        (row) => row.id,
      ),
    ).toEqual(['older']);
    expect(await toForget(db)).toBe(3);
  });

  // Found from outside (12-02): the index hid what left it behind a tombstone, and the words
  // stayed in its pages, readable in the file, until a merge rewrote them.
  it("takes a removed or edited message's words out of its pages, not only out of its results", async () => {
    // Among many messages, as a room's are: the words share pages with others'.
    for (let index = 0; index < 60; index += 1)
      await write(`other-${index}`, `the harbour light number ${index}`);
    await write('deleted', 'my xylophonequartz secret');
    await write('edited', 'a zeppelinmarmalade secret');
    await write('edited-twice', 'the quokkaboulevard secret');
    await write('removed-while-noted', 'the wombatcathedral secret');
    await indexPendingMessages(db, 'sqlite');
    for (const fragment of ['lophonequartz', 'ppelinmarmalade', 'okkaboulevard', 'mbatcathedral'])
      expect(await indexPagesHolding(db, fragment), fragment).toBe(1);

    await db.deleteFrom('messages').where('id', '=', 'deleted').execute();
    await save('edited', 'a plain secret');
    await save('edited-twice', 'first the quokkaboulevard again');
    await save('edited-twice', 'then nothing of it');
    // Written again since the batch, then removed before the next: the index holds its old words.
    await save('removed-while-noted', 'the plain cathedral');
    await db.deleteFrom('messages').where('id', '=', 'removed-while-noted').execute();
    expect(await forgetRemovedMessages(db, 'sqlite')).toBe(2);
    expect(await indexPagesHolding(db, 'lophonequartz')).toBe(0);
    expect(await indexPagesHolding(db, 'mbatcathedral')).toBe(0);
    await indexPendingMessages(db, 'sqlite');
    expect(await indexPagesHolding(db, 'ppelinmarmalade')).toBe(0);
    expect(await indexPagesHolding(db, 'okkaboulevard')).toBe(0);
    expect(await indexed(db, 'plain')).toBe(1);
    expect(await indexed(db, 'harbour')).toBe(60);
    await checkMessageIndex(db);
  });

  it("takes a deleted room's and a deleted account's words out of its pages", async () => {
    await write('in-room', 'the narwhalorchestra secret');
    await write('noted-in-room', 'the pangolinsymphony secret');
    await indexPendingMessages(db, 'sqlite');
    await save('noted-in-room', 'the pangolinsymphony secret, kept');
    await write('unindexed', 'the axolotlparliament secret');
    await db.deleteFrom('rooms').where('id', '=', 'room').execute();
    expect(await noted(db)).toBe(0);
    expect(await toForget(db)).toBe(2);
    await indexAllPendingMessages(db, 'sqlite');
    for (const fragment of ['rwhalorchestra', 'ngolinsymphony', 'olotlparliament'])
      expect(await indexPagesHolding(db, fragment), fragment).toBe(0);
    await checkMessageIndex(db);

    // An account deleted takes its rooms, and so their messages, with it.
    await db
      .insertInto('rooms')
      .values(newRoomRow({ id: 'room', user_id: 'reader', mate_id: 'mate' }))
      .execute();
    await write('account', 'the capybaralantern secret');
    await indexPendingMessages(db, 'sqlite');
    expect(await indexPagesHolding(db, 'pybaralantern')).toBe(1);
    await db.deleteFrom('users').where('id', '=', 'reader').execute();
    expect(await db.selectFrom('messages').select('id').execute()).toEqual([]);
    await indexAllPendingMessages(db, 'sqlite');
    expect(await indexPagesHolding(db, 'pybaralantern')).toBe(0);
    expect(await indexPagesHolding(db, 'reader')).toBe(0);
    await checkMessageIndex(db);
  });

  it('indexes a message written at the rowid of one still to be forgotten once it is', async () => {
    await write('first', 'the lighthouse');
    await indexPendingMessages(db, 'sqlite');
    // The newest row removed: SQLite gives its rowid to the next row written.
    const rowidOf = async (id: string) =>
      (await sql<{ rowid: number }>`select rowid from messages where id = ${id}`.execute(db))
        .rows[0]?.rowid;
    const before = await rowidOf('first');
    await db.deleteFrom('messages').where('id', '=', 'first').execute();
    await write('second', 'a harbour');
    expect(await rowidOf('second')).toBe(before);
    expect(await indexPendingMessages(db, 'sqlite')).toBe(0);
    expect(await noted(db)).toBe(1);
    await indexAllPendingMessages(db, 'sqlite');
    expect(await indexed(db, 'lighthouse')).toBe(0);
    expect(await indexed(db, 'harbour')).toBe(1);
    await checkMessageIndex(db);
  });

  it("lets a reply being written wait for the server's indexer, not for a search", async () => {
    await write('reply', '');
    await save('reply', 'the lighthouse keeper');
    await write('said', 'a harbour');
    await db.updateTable('messages').set({ status: 'complete' }).where('id', '=', 'said').execute();
    // The indexer takes the finished message and lets the one still partial wait.
    expect(await indexPendingMessages(db, 'sqlite', INDEX_BATCH, PARTIAL_WAIT_S)).toBe(1);
    expect(await noted(db)).toBe(1);
    expect(await indexPendingMessages(db, 'sqlite', INDEX_BATCH, PARTIAL_WAIT_S)).toBe(0);
    // Noted long enough ago (a reply cut off, and left so), it is taken.
    await sql`update messages_fts_pending set noted_at = unixepoch() - ${PARTIAL_WAIT_S}`.execute(
      db,
    );
    expect(await indexPendingMessages(db, 'sqlite', INDEX_BATCH, PARTIAL_WAIT_S)).toBe(1);
    // A search takes everything first: it finds what is being written.
    await save('reply', 'the lighthouse keeper sang');
    expect((await findMessages(db, 'sqlite', search(['sang']))).map((row) => row.id)).toEqual([
      'reply',
    ]);
  });

  it('refuses a room changing hands and a message changing rooms, whose owner the index holds', async () => {
    await insertUser(db, { id: 'other', email: 'other@example.com' });
    await write('said', 'the lighthouse');
    await expect(
      db.updateTable('rooms').set({ user_id: 'other' }).where('id', '=', 'room').execute(),
    ).rejects.toThrow('a room does not change hands');
    await db
      .insertInto('rooms')
      .values(newRoomRow({ id: 'elsewhere', user_id: 'other', mate_id: 'mate' }))
      .execute();
    await expect(
      db.updateTable('messages').set({ room_id: 'elsewhere' }).where('id', '=', 'said').execute(),
    ).rejects.toThrow('a message does not change rooms');
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
