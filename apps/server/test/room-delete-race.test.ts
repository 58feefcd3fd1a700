import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '@mates/api-client';
import { DIALECTS, postgresAvailable, seededMate, signUp } from './harness';
import { serverWithDouble } from './server-with-double';

// Found from outside: a room deleted while a send into it started (two tabs, a double click)
// took the chat for a reply that went with the room, and streamed that reply to its end
// (`reply-end`, as if it were kept) into a room that no longer existed. Deleting a room is a
// change to its messages, under the room's lock as every other: a send waits its turn or is
// refused, and a reply being written is stopped and ended before the room goes.
const withPostgres = await postgresAvailable();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('deleting a room while a send into it starts, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  it.skipIf(skip)(
    'never ends the reply as kept, and charges only for one whose words were read',
    async () => {
      const { client, userInfo } = await signUp(suite.server);
      const mate = await seededMate(suite.server.db, 'Kai Tanaka');
      // Every reply is slow (ten pieces 20 ms apart): none ends before the room goes.
      suite.double.route(() => ({
        kind: 'stream',
        pieces: Array.from({ length: 10 }, (_, index) => `word${index} `),
        delayMs: 20,
      }));
      try {
        for (let round = 0; round < 24; round += 1) {
          const { roomId } = await client.room.createRoom({ mateId: mate.id });
          const before = (await client.user.benefits()).chats;
          const events: ChatStreamEvent[] = [];
          const sending = () =>
            client.girl
              .chatSend({ roomId, content: 'Hi' }, { onData: (event) => events.push(event) })
              .catch((error: unknown) => error);
          const deleting = () => client.room.deleteRoom({ roomId }).then(() => 'deleted');
          // The send up to 4 ms before the deletion, or up to 3 ms after it.
          const lead = (round % 8) - 3;
          let sent: Promise<unknown>;
          let deleted: Promise<string>;
          if (lead >= 0) {
            sent = sending();
            await sleep(lead);
            deleted = deleting();
          } else {
            deleted = deleting();
            await sleep(-lead);
            sent = sending();
          }
          expect(await deleted).toBe('deleted');
          await sent;
          const types = events.map((event) => event.type);
          expect(types).not.toContain('reply-end');
          const after = (await client.user.benefits()).chats;
          // Taken only for a reply whose words went out before the room went.
          expect(before - after).toBe(types.includes('reply-delta') ? 1 : 0);
          await expect(client.room.roomInfo({ roomId })).rejects.toMatchObject({ code: 4004 });
        }
        // Nothing of the rooms is left, the ledger included: no charge without its refund
        // where no word was read.
        const rows = await suite.server.db
          .selectFrom('messages')
          .innerJoin('rooms', 'rooms.id', 'messages.room_id')
          .select('messages.id')
          .where('rooms.user_id', '=', userInfo.uuid)
          .execute();
        expect(rows).toEqual([]);
      } finally {
        suite.double.route(null);
      }
    },
  );
});

// A room deleted through a server that could not stop the reply another writes in it (its stop
// request lost, the lock not freed in time): the reply stops at its next save, which finds it
// gone, and its reader is told, rather than streamed on and ended as kept.
describe.each(DIALECTS)('a reply whose room went while it was written, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip, saveEveryMs: 50 });

  it.skipIf(skip)('stops at its next save and says why', async () => {
    const { client } = await signUp(suite.server);
    const mate = await seededMate(suite.server.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    suite.double.next({
      kind: 'stream',
      pieces: Array.from({ length: 100 }, (_, index) => `word${index} `),
      delayMs: 10,
    });
    const events: ChatStreamEvent[] = [];
    let writing!: () => void;
    const wrote = new Promise<void>((resolve) => (writing = resolve));
    const sending = client.girl.chatSend(
      { roomId, content: 'Tell me everything.' },
      {
        onData: (event) => {
          events.push(event);
          if (event.type === 'reply-delta') writing();
        },
      },
    );
    await wrote;
    // Deleted as another server would, without this one's lock or stop.
    await suite.server.db.deleteFrom('rooms').where('id', '=', roomId).execute();
    await sending;
    const types = events.map((event) => event.type);
    expect(types).not.toContain('reply-end');
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'This chat was deleted while the reply was being written.',
      messageId: null,
    });
    // It stopped: far fewer pieces than the model had to send.
    const words = events.flatMap((event) => (event.type === 'reply-delta' ? [event.text] : []));
    expect(words.join('').split(' ').length).toBeLessThan(100);
    expect(await suite.server.deps.chat.isBusy(roomId)).toBe(false);
  });
});
