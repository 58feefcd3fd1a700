import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel } from '../src/llm/language-model';
import {
  DIALECTS,
  postgresAvailable,
  seededMate,
  signUp,
  startTestServer,
  unconfiguredModel,
} from './harness';

// Found from outside (2026-12-03): after Stop pressed before the reply's first word, the list
// of chats said "No messages yet." for that chat until the page was reloaded. The list is read
// again when the stream ends, while the reply, still empty, was the room's last message.
const withPostgres = await postgresAvailable();

/** A model that writes nothing until it is stopped. */
function silentModel(): LanguageModel & { asked: Promise<void> } {
  let heard!: () => void;
  const asked = new Promise<void>((resolve) => (heard = resolve));
  return {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    asked,
    async generate(_turns, options) {
      heard();
      await new Promise((resolve) => options.signal.addEventListener('abort', resolve));
      return { finishReason: 'stop', promptTokens: 1, completionTokens: 0 };
    },
  };
}

describe.each(DIALECTS)("the list of chats' previews on %s", (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const model = silentModel();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(dialect, { model });
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  it.skipIf(skip)(
    "shows the person's message while its reply has no word yet, not an empty one",
    async () => {
      const { client } = await signUp(server);
      const mate = await seededMate(server.db, 'Kai Tanaka');
      const { roomId } = await client.room.createRoom({ mateId: mate.id });
      const stop = new AbortController();
      const sending = client.girl
        .chatSend({ roomId, content: 'Are you there?' }, { signal: stop.signal, onData: () => {} })
        .catch(() => null);
      await model.asked;
      const { list } = await client.room.roomList();
      expect(list.find((room) => room.roomId === roomId)?.lastMessage).toMatchObject({
        role: 'user',
        content: 'Are you there?',
      });
      stop.abort();
      await sending;
    },
  );
});
