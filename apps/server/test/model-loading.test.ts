import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@mates/api-client';
import { MODEL_LOADING } from '../src/llm/embedded';
import type { LanguageModel } from '../src/llm/language-model';
import { doubleModel, signUp, startTestServer } from './harness';
import { startOpenAiDouble } from './openai-double';

// Issue #19: while the model loads, the web app says so and sends by itself when it is ready;
// the refusal tells it when to ask again (Retry-After), and keeps or spends nothing.
describe('a message sent while the model is still loading', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  // Why the model cannot answer now: still loading, not available at all, or nothing (ready).
  let unavailable: string | null = MODEL_LOADING;
  beforeAll(async () => {
    double = await startOpenAiDouble();
    const model = doubleModel(double);
    // The remote model, reporting itself loading (as the embedded one does at start) until told.
    const starting: LanguageModel = {
      ...model,
      unavailableReason: () => unavailable ?? model.unavailableReason(),
    };
    server = await startTestServer('sqlite', { model: starting });
  });
  afterAll(async () => {
    await server.close();
    await double.close();
  });

  it('is refused with when to ask again, nothing kept or spent; asked again once ready, it goes', async () => {
    const { client } = await signUp(server);
    const before = await client.user.benefits();
    const [kai] = (await client.mate.search({ keyword: 'Kai Tanaka' })).list;
    const { roomId } = await client.room.createRoom({ mateId: kai!.mateId });
    const messagesBefore = (await client.room.roomInfo({ roomId })).messages.length;

    const refused = await client.girl
      .chatSend({ roomId, content: 'Are you there?' }, { onData: () => {} })
      .catch((error: unknown) => error);
    expect(ApiError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({
      code: 5007,
      message: 'The model is still starting up. Please send again in a moment.',
      retryAfterMs: 2000,
    });
    expect((await client.room.roomInfo({ roomId })).messages).toHaveLength(messagesBefore);
    expect(await client.user.benefits()).toEqual(before);

    // A model that is not coming (no file, a setting) is no wait: refused without Retry-After.
    unavailable = 'No language model is available (no file at /nowhere).';
    const notComing = await client.girl
      .chatSend({ roomId, content: 'Are you there?' }, { onData: () => {} })
      .catch((error: unknown) => error);
    expect(notComing).toMatchObject({
      code: 5007,
      message: 'The model is not available right now. Please try again later.',
      retryAfterMs: null,
    });

    unavailable = null;
    const events: string[] = [];
    await client.girl.chatSend(
      { roomId, content: 'Are you there?' },
      { onData: (event) => events.push(event.type) },
    );
    expect(events.at(0)).toBe('reply-start');
    expect(events.at(-1)).toBe('reply-end');
  });
});
