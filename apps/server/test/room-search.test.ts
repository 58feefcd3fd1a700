import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, postgresAvailable, signUp, startTestServer } from './harness';

// Issue #19: the chat list beside a conversation is searchable by the mate's name.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('searching one’s chats on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(dialect);
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  it.skipIf(skip)(
    'finds the caller’s chats whose mate’s name holds the words, any case',
    async () => {
      const { client } = await signUp(server);
      const { client: someoneElse } = await signUp(server);
      const mates = (await client.mate.search({ keyword: '', pageSize: 3 })).list;
      expect(mates).toHaveLength(3);
      for (const mate of mates) await client.room.createRoom({ mateId: mate.mateId });
      await client.room.createRoom({ mateId: mates[0]!.mateId });
      await someoneElse.room.createRoom({ mateId: mates[0]!.mateId });

      expect((await client.room.roomList()).total).toBe(4);
      const [first] = mates;
      const part = first!.name.slice(1, 5).toUpperCase();
      const found = await client.room.roomList({ keyword: part });
      expect(found.total).toBe(2);
      expect(found.list.map((room) => room.mate.name)).toEqual([first!.name, first!.name]);
      // Wildcards are letters like any other: "%" matches only a name holding "%".
      expect((await client.room.roomList({ keyword: '%' })).total).toBe(0);
      expect((await client.room.roomList({ keyword: '_' })).total).toBe(0);
      expect((await client.room.roomList({ keyword: '   ' })).total).toBe(4);
    },
  );

  it.skipIf(skip)('shows each chat with its own last message', async () => {
    const { client } = await signUp(server);
    const mates = (await client.mate.search({ keyword: '', pageSize: 3 })).list;
    for (const mate of mates) await client.room.createRoom({ mateId: mate.mateId });
    await client.room.createRoom({ mateId: mates[0]!.mateId });
    const { list } = await client.room.roomList();
    expect(list).toHaveLength(4);
    for (const room of list) {
      const { messages } = await client.room.roomInfo({ roomId: room.roomId });
      const last = messages.at(-1) ?? null;
      expect(room.lastMessage?.messageId ?? null).toBe(last?.messageId ?? null);
    }
    expect(new Set(list.map((room) => room.lastMessage?.messageId)).size).toBe(4);
  });

  it.skipIf(skip)('refuses a keyword past 100 characters, changing nothing', async () => {
    const { client } = await signUp(server);
    await expect(client.room.roomList({ keyword: 'x'.repeat(101) })).rejects.toMatchObject({
      code: 4000,
    });
  });
});
