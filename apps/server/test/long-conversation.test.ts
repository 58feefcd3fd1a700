import { describe, expect, it } from 'vitest';
import { chattableMateId, DIALECTS, newestMessageId, postgresAvailable, signUp } from './harness';
import { serverWithDouble } from './server-with-double';
import { appendMessages } from '../src/chat/messages';
import { fittingTurns, loadConversation } from '../src/chat/conversation';

// A prompt is built from a room's newest messages, read a few at a time until no older one
// fits (#20): it must be the prompt that reading the whole room gives.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('a reply in a long conversation on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  /** A room whose greeting is followed by `count` messages from `text(index)`. */
  async function roomOf(count: number, text: (index: number) => string) {
    const user = await signUp(suite.server);
    const mateId = await chattableMateId(suite.server.db);
    const room = await user.client.room.createRoom({ mateId });
    for (let start = 0; start < count; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - start) }, (_, offset) => {
        const index = start + offset;
        return {
          role: index % 2 ? ('mate' as const) : ('user' as const),
          content: text(index),
          status: 'complete' as const,
        };
      });
      await appendMessages(suite.server.db, room.roomId, batch);
    }
    return { client: user.client, userId: user.userInfo.uuid, roomId: room.roomId };
  }

  /** What the provider was asked for the room's last send. */
  async function promptOfSend(
    client: Awaited<ReturnType<typeof signUp>>['client'],
    roomId: string,
  ) {
    await client.girl.chatSend({ roomId, content: 'And then?' }, { onData: () => {} });
    return (suite.double.requests.at(-1)!.body as { messages: { role: string; content: string }[] })
      .messages;
  }

  /**
   * The prompt from the whole room read at once, as it was built before (#20), its history's
   * start where a send's first prompt in a full room puts it (#38: a quarter of its room free).
   */
  async function wholePrompt(roomId: string, userId: string) {
    const room = await suite.server.db
      .selectFrom('rooms')
      .selectAll()
      .where('id', '=', roomId)
      .executeTakeFirstOrThrow();
    const user = await suite.server.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const replyId = await newestMessageId(suite.server.db, roomId);
    const conversation = await loadConversation(suite.server.db, room, user, replyId, 1_000_000);
    const { turns } = await fittingTurns(
      async () => ({ ...conversation, language: 'en' }),
      suite.server.deps.chat.model,
      suite.server.deps.config.llm.maxTokens,
    );
    return turns;
  }

  it.skipIf(skip)('keeps every message that fits, far more than the first read', async () => {
    const { client, roomId, userId } = await roomOf(300, (index) => `line ${index}`);
    const prompt = await promptOfSend(client, roomId);
    const history = prompt.slice(1).map((turn) => turn.content);
    expect(history.slice(-301)).toEqual([
      ...Array.from({ length: 300 }, (_, index) => `line ${index}`),
      'And then?',
    ]);
    expect(prompt).toEqual(await wholePrompt(roomId, userId));
  });

  it.skipIf(skip)('keeps the newest that fit of thousands, as reading them all would', async () => {
    const words = 'the lantern light caught in her eyes as she told the old story again';
    const { client, roomId, userId } = await roomOf(3000, (index) => `${index}: ${words}`);
    const prompt = await promptOfSend(client, roomId);
    const history = prompt.slice(1).map((turn) => turn.content);
    expect(history.at(-1)).toBe('And then?');
    expect(history.at(-2)).toBe(`2999: ${words}`);
    // More than one read's worth, far fewer than the room holds.
    expect(history.length).toBeGreaterThan(64);
    expect(history.length).toBeLessThan(3000);
    expect(prompt).toEqual(await wholePrompt(roomId, userId));
  });
});
