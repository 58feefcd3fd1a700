import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '@mates/api-client';
import type { LanguageModel } from '../src/llm/language-model';
import { seededMate, signUp, startTestServer, unconfiguredModel } from './harness';

// Found from outside (2026-12-03): a reply the model stopped at its length is kept as far as
// its last whole sentence, and that cut saved an empty reply when the text began with a line
// break, kept "10 p.m. when Dr." of a long line, and failed the reply outright (charged, saved
// as cut off) for a `language` header the sentence rules do not know. The cut is the server's
// own, the same on either database: SQLite only.
type Server = Awaited<ReturnType<typeof startTestServer>>;

/** A model that writes `next.text` and says it stopped at its length. */
function lengthModel(next: { text: string }): LanguageModel {
  return {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    countTokens: (text) => Math.ceil(text.length / 4),
    async generate(_turns, _options, onText) {
      onText(next.text);
      return { finishReason: 'length', promptTokens: 1, completionTokens: 1 };
    },
  };
}

describe('a reply stopped at its length, saved', () => {
  const next = { text: '' };
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { model: lengthModel(next) });
  });
  afterAll(() => server.close());

  async function reply(text: string, language = 'en') {
    next.text = text;
    const { userInfo } = await signUp(server);
    const client = server.client({ token: userInfo.token, language });
    const mate = await seededMate(server.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    const events: ChatStreamEvent[] = [];
    await client.girl.chatSend({ roomId, content: 'Hi' }, { onData: (e) => events.push(e) });
    const saved = await server.db
      .selectFrom('messages')
      .select(['content', 'status'])
      .where('room_id', '=', roomId)
      .orderBy('position', 'desc')
      .executeTakeFirstOrThrow();
    return { events, saved };
  }

  it('is never saved empty: a reply that began with a line break keeps what streamed', async () => {
    const { events, saved } = await reply('\nShe looked at the sea and thought about the');
    expect(events.at(-1)).toMatchObject({ type: 'reply-end', finishReason: 'length' });
    expect(saved).toEqual({
      content: '\nShe looked at the sea and thought about the',
      status: 'complete',
    });
  });

  it('keeps the text whole when the cut would take more than it keeps', async () => {
    const numbers = Array.from({ length: 40 }, (_, i) => String(i * 7)).join(' ');
    expect((await reply(`Here are your numbers:\n${numbers}`)).saved.content).toBe(
      `Here are your numbers:\n${numbers}`,
    );
    const long = 'It was 10 p.m. when Dr. Smith arrived at 221B Baker St. with 3 cats and a';
    expect((await reply(long)).saved.content).toBe(long);
  });

  it('still ends at the last whole sentence when that keeps most of it', async () => {
    const { saved } = await reply(
      'He smiled and poured two cups of tea. The rain had not stopped all day. She turned to',
    );
    expect(saved.content).toBe(
      'He smiled and poured two cups of tea. The rain had not stopped all day.',
    );
  });

  it('leaves no bare list number at the end', async () => {
    const { saved } = await reply(
      'Three things I love:\n1. Long walks by the river.\n2. Rainy afternoons with a book.\n3. Plu',
    );
    expect(saved.content).toBe(
      'Three things I love:\n1. Long walks by the river.\n2. Rainy afternoons with a book.',
    );
  });

  it.each(['zh-yue', 'en-US-US', 'en-GB-oed'])(
    'is written whole for a caller whose language header is %s',
    async (language) => {
      const { events, saved } = await reply(
        'He smiled and poured two cups of tea. The rain had not stopped all day. She turned to',
        language,
      );
      expect(events.at(-1)).toMatchObject({ type: 'reply-end' });
      expect(saved).toEqual({
        content: 'He smiled and poured two cups of tea. The rain had not stopped all day.',
        status: 'complete',
      });
    },
  );
});
