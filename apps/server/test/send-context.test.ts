import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { newRoomRow, sendContext } from '../src/chat/room-repository';
import { conversationRows, PROMPT_FIRST_READ } from '../src/chat/conversation-repository';
import { messageRow } from '../src/chat/message-repository';
import { DIALECTS, freshDatabase, insertUser, mateRow, postgresAvailable } from './harness';

// #38: a send's first read brings the room's mate's row with the room, so that its prompt needs
// no read of its own. Both rows come back whole and as stored, the room's `mate_id` included.
// On PostgreSQL the room's newest words come with them, as the prompt's own read answers them,
// unless a reply among them was still being written (`partial`) when they were read.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)("a send's first read, on %s", (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Kysely<Database>;
  beforeAll(async () => {
    if (skip) return;
    database = await freshDatabase(dialect);
    db = database.db;
    await insertUser(db, { id: 'creator', email: 'creator@example.com' });
    await insertUser(db, { id: 'reader', email: 'reader@example.com' });
    await db
      .insertInto('mates')
      .values(
        mateRow('creator', {
          id: 'the-mate',
          name: 'Ada',
          description: 'Keeps the lighthouse.',
          alternate_greetings: ['Evening.'],
        }),
      )
      .execute();
    const at = new Date().toISOString();
    await db
      .insertInto('rooms')
      .values(
        newRoomRow({
          id: 'the-room',
          user_id: 'reader',
          mate_id: 'the-mate',
          persona_id: null,
          created_at: at,
          updated_at: at,
          memory_version: 0,
        }),
      )
      .execute();
  });
  afterAll(async () => {
    if (!skip) await database.drop();
  });
  const userRow = (id: string) =>
    db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it.skipIf(skip)('answers the room and its mate as a read of each would', async () => {
    const context = await sendContext(db, await userRow('reader'), 'the-room', true);
    const room = await db
      .selectFrom('rooms')
      .selectAll()
      .where('id', '=', 'the-room')
      .executeTakeFirstOrThrow();
    // Its mate without the card's other fields, read apart once per save (`cardExtrasOf`),
    // and without what only search reads.
    const {
      search: _search,
      creator_name: _creatorName,
      card_extra: _extra,
      ...mate
    } = (await db
      .selectFrom('mates')
      .selectAll()
      .where('id', '=', 'the-mate')
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    expect(context?.room).toEqual(room);
    expect(context?.mate).toEqual(mate);
    expect(context?.mate).not.toHaveProperty('card_extra');
    expect(context?.mateVisible).toBe(true);
  });

  it.skipIf(skip)(
    "brings the room's newest words on PostgreSQL, as the prompt's read does",
    async () => {
      // More than a first read's worth, a picture among them (not words of the conversation).
      const at = new Date().toISOString();
      const count = PROMPT_FIRST_READ + 6;
      await db
        .insertInto('messages')
        .values(
          Array.from({ length: count }, (_, index) =>
            messageRow(
              index === count - 3
                ? {
                    role: 'mate',
                    content: '',
                    status: 'complete',
                    picture: { prompt: 'a lighthouse', size: '512x512', model: 'm' },
                  }
                : {
                    role: index % 2 === 0 ? 'user' : 'mate',
                    content: `words ${index} with "quotes", \\ and ünïcödé`,
                    status: 'complete',
                  },
              { id: `m-${index}`, roomId: 'the-room', position: index + 1, at },
            ),
          ),
        )
        .execute();
      const context = await sendContext(db, await userRow('reader'), 'the-room', true);
      if (dialect === 'sqlite') {
        expect(context?.words).toBeUndefined();
        return;
      }
      const room = context!.room;
      const { words } = await conversationRows(db, room, PROMPT_FIRST_READ);
      expect(words).toHaveLength(PROMPT_FIRST_READ);
      expect(words.some((word) => word.id === `m-${count - 3}`)).toBe(false);
      expect(context?.words).toEqual(words);
      // What the prompt is built from when the send hands them over: the same words.
      const known = await conversationRows(db, room, PROMPT_FIRST_READ, undefined, {
        words: context!.words!,
      });
      expect(known.words).toEqual(words);
    },
  );

  it.skipIf(skip)('brings no words for a regeneration, nor for a group', async () => {
    const reader = await userRow('reader');
    expect((await sendContext(db, reader, 'the-room', false))?.words).toBeUndefined();
    const at = new Date().toISOString();
    await db
      .insertInto('rooms')
      .values(
        newRoomRow({
          id: 'the-group',
          user_id: 'reader',
          mate_id: 'the-mate',
          persona_id: null,
          group_name: 'The crew',
          created_at: at,
          updated_at: at,
          memory_version: 0,
        }),
      )
      .execute();
    await db
      .insertInto('messages')
      .values(
        messageRow(
          { role: 'user', content: 'Hello, all.', status: 'complete' },
          { id: 'g-1', roomId: 'the-group', position: 1, at },
        ),
      )
      .execute();
    const group = await sendContext(db, reader, 'the-group', true);
    expect(group?.room.group_name).toBe('The crew');
    expect(group?.words).toBeUndefined();
  });

  it.skipIf(skip)(
    'leaves the words to the prompt when the newest may be a reply being written',
    async () => {
      const partial = (id: string) =>
        db.updateTable('messages').set({ status: 'partial' }).where('id', '=', id).execute();
      const words = async () =>
        (await sendContext(db, await userRow('reader'), 'the-room', true))?.words;
      // An older reply cut off (stopped, a provider's failure) is as it will stay.
      await partial(`m-${PROMPT_FIRST_READ}`);
      if (dialect === 'postgres') expect(await words()).toHaveLength(PROMPT_FIRST_READ);
      // The newest: perhaps still being written when read, before the room's lock.
      await partial(`m-${PROMPT_FIRST_READ + 5}`);
      expect(await words()).toBeUndefined();
    },
  );

  it.skipIf(skip)("answers nothing for another person's room", async () => {
    expect(await sendContext(db, await userRow('creator'), 'the-room', true)).toBeUndefined();
  });
});
