import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '@mates/api-client';
import type { LanguageModel } from '../src/llm/language-model';
import {
  DIALECTS,
  postgresAvailable,
  seededMate,
  signUp,
  startTestServer,
  unconfiguredModel,
} from './harness';

// Found from outside (2026-12-03): a chat deleted while its reply was written ended that
// reply's stream with nothing but `[DONE]`: no `reply-end`, no `error`, as a reply the reader
// stopped ends, though nobody stopped it. Deleting the whole account said why already.
const withPostgres = await postgresAvailable();

/** A model that writes a word, then more every 20 ms until stopped; `wrote` once the first is out. */
function endlessModel(): LanguageModel & { wrote: Promise<void> } {
  let first!: () => void;
  const wrote = new Promise<void>((resolve) => (first = resolve));
  return {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    wrote,
    async generate(_turns, options, onText) {
      onText('Once upon a time');
      first();
      while (!options.signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        onText(' and then');
      }
      return { finishReason: 'stop', promptTokens: 1, completionTokens: 2 };
    },
  };
}

describe.each(DIALECTS)('a chat deleted while its reply is written, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const model = endlessModel();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(dialect, { model });
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  it.skipIf(skip)('tells the reader why the reply ended, and the chat is gone', async () => {
    const { client } = await signUp(server);
    const mate = await seededMate(server.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    const events: ChatStreamEvent[] = [];
    const streaming = client.girl.chatSend(
      { roomId, content: 'Tell me a story.' },
      { onData: (event) => events.push(event) },
    );
    await model.wrote;
    await client.room.deleteRoom({ roomId });
    await streaming;
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'This chat was deleted while the reply was being written.',
      messageId: null,
    });
    expect(
      await server.db.selectFrom('messages').select('id').where('room_id', '=', roomId).execute(),
    ).toEqual([]);
  });
});
