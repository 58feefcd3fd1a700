import { describe, expect, it } from 'vitest';
import { ApiError } from '@mates/api-client';
import { chattableMateId, DIALECTS, postgresAvailable, signUp } from './harness';
import { serverWithDouble } from './server-with-double';
import { appendMessages } from '../src/chat/messages';
import { findMessages } from '../src/chat/message-search-repository';

// Searching every chat (#41): words in any of the person's messages and their mates' replies,
// case and accents aside, kept current by edits and deletions; nobody finds another's words.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('message search on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  async function chatWith(lines: string[]) {
    const user = await signUp(suite.server);
    const mateId = await chattableMateId(suite.server.db);
    const room = await user.client.room.createRoom({ mateId });
    // The seeded mate is any of them, and its greeting could hold a word searched for here
    // ("Adorable.", seen in CI): it says nothing searched for.
    await suite.server.db
      .updateTable('messages')
      .set({ content: 'Hi.' })
      .where('room_id', '=', room.roomId)
      .execute();
    const rows = await appendMessages(
      suite.server.db,
      room.roomId,
      lines.map((content, index) => ({
        role: index % 2 ? ('mate' as const) : ('user' as const),
        content,
        status: 'complete' as const,
      })),
    );
    return { ...user, roomId: room.roomId, rows };
  }

  const contents = async (client: Awaited<ReturnType<typeof signUp>>['client'], keyword: string) =>
    (await client.room.searchMessages({ keyword })).list.map((hit) => hit.message.content);

  it.skipIf(skip)(
    'finds words said by either side, case and accents aside, newest first',
    async () => {
      const { client, roomId } = await chatWith([
        'We met in Sévillé, at the old lighthouse.',
        'The LIGHTHOUSE keeper said nothing.',
        'Nothing about boats here.',
      ]);
      expect(await contents(client, 'lighthouse')).toEqual([
        'The LIGHTHOUSE keeper said nothing.',
        'We met in Sévillé, at the old lighthouse.',
      ]);
      expect(await contents(client, 'SEVILLE light')).toEqual([
        'We met in Sévillé, at the old lighthouse.',
      ]);
      // As typed: the last word's start is enough; the words before it are whole words.
      expect(await contents(client, 'lighth')).toHaveLength(2);
      expect(await contents(client, 'keeper lighth')).toEqual([
        'The LIGHTHOUSE keeper said nothing.',
      ]);
      expect(await contents(client, 'keep lighthouse')).toEqual([]);
      const [hit] = (await client.room.searchMessages({ keyword: 'keeper' })).list;
      expect(hit).toMatchObject({ roomId, message: { role: 'mate' } });
      expect(hit!.mate.name).toBeTruthy();
      expect(hit!.snippet).toEqual([
        { text: 'The LIGHTHOUSE ', match: false },
        { text: 'keeper', match: true },
        { text: ' said nothing.', match: false },
      ]);
    },
  );

  it.skipIf(skip)('never finds another person’s words', async () => {
    await chatWith(['The secret word is marmalade.']);
    const other = await chatWith(['Just toast for me.']);
    expect(await contents(other.client, 'marmalade')).toEqual([]);
  });

  it.skipIf(skip)('follows edits, deletions and replies as they are written', async () => {
    const { client, roomId, rows } = await chatWith(['I love the violin.', 'So do I.']);
    await client.room.editMessage({
      roomId,
      messageId: rows[0]!.id,
      content: 'I love the cello.',
    });
    expect(await contents(client, 'violin')).toEqual([]);
    expect(await contents(client, 'cello')).toEqual(['I love the cello.']);
    await client.room.deleteMessage({ roomId, messageId: rows[0]!.id });
    expect(await contents(client, 'cello')).toEqual([]);
    // A streamed reply is found by its words (the double says "Hello there.").
    await client.girl.chatSend({ roomId, content: 'Say hello.' }, { onData: () => {} });
    expect(await contents(client, 'there')).toContain('Hello there.');
  });

  it.skipIf(skip)('finds a message once, in the path it was written in', async () => {
    const { client, roomId, rows } = await chatWith(['A quartz pebble.', 'Shiny.']);
    const branch = await client.room.branch({ roomId, messageId: rows[1]!.id });
    const hits = (await client.room.searchMessages({ keyword: 'quartz' })).list;
    expect(hits.map((hit) => hit.roomId)).toEqual([roomId]);
    // With its first path gone, the branch's copy is the message.
    await client.room.deleteRoom({ roomId });
    const left = (await client.room.searchMessages({ keyword: 'quartz' })).list;
    expect(left.map((hit) => hit.roomId)).toEqual([branch.roomId]);
  });

  it.skipIf(skip)(
    'finds words a branch holds alone, changed there or gone from the path before',
    async () => {
      // Found from outside: every message a branch copied was left out while its first path was
      // there, as if both said the same. An edit in the branch, or a deletion or an edit in the
      // first path, made words no search could find.
      const { client, roomId, rows } = await chatWith([
        'A quokka at dawn.',
        'Cute.',
        'A wombat at noon.',
        'Sleepy.',
      ]);
      const branch = await client.room.branch({ roomId, messageId: rows[3]!.id });
      const copies = (await client.room.roomInfo({ roomId: branch.roomId })).messages;
      await client.room.editMessage({
        roomId: branch.roomId,
        messageId: copies.find((copy) => copy.content === 'A wombat at noon.')!.messageId,
        content: 'A platypus at noon.',
      });
      await client.room.deleteMessage({ roomId, messageId: rows[0]!.id });
      await client.room.editMessage({ roomId, messageId: rows[1]!.id, content: 'Adorable.' });
      const where = async (keyword: string) =>
        (await client.room.searchMessages({ keyword })).list.map((hit) => hit.roomId);
      expect(await where('platypus')).toEqual([branch.roomId]);
      expect(await where('wombat')).toEqual([roomId]);
      expect(await where('quokka')).toEqual([branch.roomId]);
      expect(await where('cute')).toEqual([branch.roomId]);
      expect(await where('adorable')).toEqual([roomId]);
      // What both paths still say alike is found once, in the first.
      expect(await where('sleepy')).toEqual([roomId]);
    },
  );

  it.skipIf(skip)('names a group chat by the group, not by its first member', async () => {
    // Found from outside: a message written to a group was titled with its first member's name.
    const user = await signUp(suite.server);
    const mateIds = await suite.server.db
      .selectFrom('mates')
      .select('id')
      .where('name', 'in', ['Lyra Moonwhisper', 'Kai Tanaka'])
      .execute();
    const group = await user.client.room.createGroup({
      mateIds: mateIds.map((mate) => mate.id),
      name: 'Lighthouse club',
    });
    await appendMessages(suite.server.db, group.roomId, [
      { role: 'user', content: 'Meet at the harbour tonight.', status: 'complete' },
    ]);
    const one = await chatWith(['The harbour is closed.']);
    const groupHits = (await user.client.room.searchMessages({ keyword: 'harbour' })).list;
    expect(groupHits.map((hit) => hit.groupName)).toEqual(['Lighthouse club']);
    const oneHits = (await one.client.room.searchMessages({ keyword: 'harbour' })).list;
    expect(oneHits.map((hit) => hit.groupName)).toEqual([null]);
  });

  it.skipIf(skip)(
    'pages the same whether the newest messages hold the page or only older ones do',
    async () => {
      // PostgreSQL reads the newest messages first (here 8) for words it takes for common
      // (here "tide" and "later"), then the index of words.
      const lines = Array.from({ length: 12 }, (_, index) =>
        index % 3 === 0 ? `Tide number ${index}.` : `Calm water ${index}.`,
      );
      lines.push('An old anchor.', ...Array.from({ length: 6 }, (_, index) => `Later ${index}.`));
      const userId = (await chatWith(lines)).userInfo.uuid;
      const common = new Map([
        ['tide', 1],
        ['later', 1],
      ]);
      const found = async (words: string[], offset: number, limit: number) =>
        (
          await findMessages(
            suite.server.db,
            dialect,
            { userId, words, limit, offset },
            { window: 8, common },
          )
        ).map((row) => row.content);
      // Only older messages hold "tide": none among the newest eight.
      expect(await found(['tide'], 0, 3)).toEqual([
        'Tide number 9.',
        'Tide number 6.',
        'Tide number 3.',
      ]);
      expect(await found(['tide'], 3, 3)).toEqual(['Tide number 0.']);
      expect(await found(['old', 'anc'], 0, 3)).toEqual(['An old anchor.']);
      // "later" fills a page among the newest eight; its second page is further back.
      expect(await found(['later'], 0, 3)).toEqual(['Later 5.', 'Later 4.', 'Later 3.']);
      expect(await found(['later'], 3, 3)).toEqual(['Later 2.', 'Later 1.', 'Later 0.']);
      expect(await found(['nowhere'], 0, 3)).toEqual([]);
    },
  );

  it.skipIf(skip)('pages newest first, and refuses an empty search', async () => {
    const { client } = await chatWith(
      Array.from({ length: 7 }, (_, index) => `Number ${index}: the tide.`),
    );
    const first = await client.room.searchMessages({ keyword: 'tide', pageSize: 3 });
    const second = await client.room.searchMessages({ keyword: 'tide', pageSize: 3, page: 2 });
    const third = await client.room.searchMessages({ keyword: 'tide', pageSize: 3, page: 3 });
    expect(
      [...first.list, ...second.list, ...third.list].map((hit) => hit.message.content),
    ).toEqual(Array.from({ length: 7 }, (_, index) => `Number ${6 - index}: the tide.`));
    expect([first.hasMore, second.hasMore, third.hasMore]).toEqual([true, true, false]);
    for (const keyword of ['', '   '])
      await expect(client.room.searchMessages({ keyword })).rejects.toSatisfy(
        (error: unknown) => error instanceof ApiError && error.code === 4000,
      );
    // Only punctuation: no words, nothing found.
    expect((await client.room.searchMessages({ keyword: '!!!' })).list).toEqual([]);
  });
});
