import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel } from '../src/llm/language-model';
import {
  DIALECTS,
  postgresAvailable,
  seededMate,
  sendAndStop,
  signUp,
  startTestServer,
  unconfiguredModel,
} from './harness';

// Stopping a reply before its first word is the person's choice, not a failure (issue #37):
// nothing empty is kept, the chat is given back, and the chat list shows the last real words.
const withPostgres = await postgresAvailable();
type Server = Awaited<ReturnType<typeof startTestServer>>;

/**
 * A model that answers `Hello there.` at once; with `hold`, writes nothing until the reply is
 * stopped; with `fail`, fails before its first word.
 */
function holdingModel(): LanguageModel & { hold: boolean; fail: boolean } {
  const model = {
    ...unconfiguredModel(),
    hold: false,
    fail: false,
    unavailableReason: () => null,
    async generate(
      _turns: unknown,
      options: { signal: AbortSignal },
      onText: (piece: string) => void,
    ) {
      if (model.fail) throw new Error('the model broke before its first word');
      if (model.hold) {
        await new Promise<void>((resolve) =>
          options.signal.aborted
            ? resolve()
            : options.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      } else onText('Hello there.');
      return { finishReason: 'stop' as const, promptTokens: 1, completionTokens: 1 };
    },
  };
  return model;
}

describe.each(DIALECTS)('a reply stopped before any text, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Server;
  let model: ReturnType<typeof holdingModel>;
  beforeAll(async () => {
    if (skip) return;
    model = holdingModel();
    server = await startTestServer(dialect, { model });
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  /** A new person in a room with Kai. */
  async function inRoomWithKai() {
    const { client } = await signUp(server);
    const mate = await seededMate(server.db, 'Kai Tanaka');
    return { client, room: await client.room.createRoom({ mateId: mate.id }) };
  }

  /** The room once the server has seen the stop and finished with the reply. */
  async function settled(roomId: string) {
    for (let read = 0; read < 200 && (await server.deps.chat.isBusy(roomId)); read += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return server.db
      .selectFrom('messages')
      .select(['role', 'content', 'status'])
      .where('room_id', '=', roomId)
      .orderBy('position')
      .execute();
  }

  it.skipIf(skip)(
    'keeps no empty reply, gives the chat back, and the list shows the last words',
    async () => {
      const { client, room } = await inRoomWithKai();
      model.hold = true;
      await sendAndStop(client, { roomId: room.roomId, content: 'Tell me about the sea' });
      const messages = await settled(room.roomId);
      expect(messages.at(-1)).toEqual({
        role: 'user',
        content: 'Tell me about the sea',
        status: 'complete',
      });
      expect(messages.some((message) => message.status === 'error')).toBe(false);
      expect((await client.user.benefits()).chats).toBe(50);
      const info = await client.room.roomInfo({ roomId: room.roomId });
      expect(info.messages.at(-1)).toMatchObject({
        role: 'user',
        content: 'Tell me about the sea',
      });
      const list = await client.room.roomList({});
      expect(list.list.find((item) => item.roomId === room.roomId)?.lastMessage).toMatchObject({
        content: 'Tell me about the sea',
      });
    },
  );

  it.skipIf(skip)(
    'keeps the reply a stopped regeneration would have replaced, as it was',
    async () => {
      const { client, room } = await inRoomWithKai();
      model.hold = false;
      await client.girl.chatSend({ roomId: room.roomId, content: 'Hi' }, { onData: () => {} });
      const before = await client.room.roomInfo({ roomId: room.roomId });
      model.hold = true;
      await sendAndStop(client, { roomId: room.roomId, regenerate: true });
      const messages = await settled(room.roomId);
      expect(messages.at(-1)).toEqual({
        role: 'mate',
        content: 'Hello there.',
        status: 'complete',
      });
      const after = await client.room.roomInfo({ roomId: room.roomId });
      const { messageId, createdAt, ...shown } = before.messages.at(-1)!;
      expect(after.messages.at(-1)).toMatchObject(shown);
      expect(after.messages.at(-1)!.swipes).toBeUndefined();
      void messageId;
      void createdAt;
      expect((await client.user.benefits()).chats).toBe(49);
    },
  );

  it.skipIf(skip)(
    'answers a regeneration asked the moment a reply is stopped, rather than saying one is written',
    async () => {
      const { client, room } = await inRoomWithKai();
      model.hold = true;
      // Stop, then "another version" at once: the stopped reply may not have ended yet.
      await sendAndStop(client, { roomId: room.roomId, content: 'Tell me about the sea' });
      model.hold = false;
      const events: string[] = [];
      await client.girl.chatSend(
        { roomId: room.roomId, regenerate: true },
        { onData: (event) => events.push(event.type) },
      );
      expect(events.at(-1)).toBe('reply-end');
      expect((await settled(room.roomId)).at(-1)).toEqual({
        role: 'mate',
        content: 'Hello there.',
        status: 'complete',
      });
    },
  );

  it.skipIf(skip)(
    'shows the last words in the chat list after a reply that failed before any text',
    async () => {
      const { client, room } = await inRoomWithKai();
      model.hold = false;
      model.fail = true;
      try {
        await client.girl.chatSend(
          { roomId: room.roomId, content: 'Still there?' },
          { onData: () => {} },
        );
      } finally {
        model.fail = false;
      }
      // A failure is kept and said in the room; the list's preview is the last words.
      expect((await settled(room.roomId)).at(-1)).toMatchObject({ status: 'error' });
      const list = await client.room.roomList({});
      expect(list.list.find((item) => item.roomId === room.roomId)?.lastMessage).toMatchObject({
        content: 'Still there?',
      });
    },
  );
});
