import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimits } from '../src/accounts/rate-limits';
import type { LanguageModel } from '../src/llm/language-model';
import { ProviderError } from '../src/domain/provider-error';
import {
  DIALECTS,
  createTestApp,
  postgresAvailable,
  signUp,
  unconfiguredModel,
  type TestApp,
  seededMate,
} from './harness';

const withPostgres = await postgresAvailable();

const SUGGESTIONS = JSON.stringify({ suggestions: ['One?', 'Two!', 'Three.'] });
const DRAFT = JSON.stringify({
  name: 'Ada Quill',
  tagline: 'A scribe.',
  description: '{{char}} writes.',
  personality: 'careful',
  scenario: 'A library.',
  first_mes: 'Hello, {{user}}.',
  mes_example: '',
  creator_notes: '',
  alternate_greetings: [],
  tags: ['fantasy'],
  gender: 'female',
});

/** A model that answers what the test sets, or fails when told to. */
function scriptedModel() {
  const state = { answer: SUGGESTIONS, fail: false, calls: 0 };
  const model: LanguageModel = {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    generate: async (_turns, _options, onText) => {
      state.calls++;
      // Let parallel calls overlap, as they would while a real model works.
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (state.fail) throw new ProviderError('The model is not answering right now.');
      onText(state.answer);
      return { finishReason: 'stop', promptTokens: 10, completionTokens: 10 };
    },
  };
  return { model, state };
}

describe.each(DIALECTS)('writing help is charged and rate-limited on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const { model, state } = scriptedModel();
  let app: TestApp;
  beforeAll(async () => {
    if (!skip) app = await createTestApp(dialect, { model });
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });

  async function userWithChats(chats: number) {
    const user = await signUp(app);
    await app.db
      .updateTable('benefits')
      .set({ chats })
      .where('user_id', '=', user.userInfo.uuid)
      .execute();
    // A seeded mate every user may chat with (the first row could be an adult one).
    const mate = await seededMate(app.db, 'Kai Tanaka');
    const room = await user.client.room.createRoom({ mateId: mate.id });
    const chatsLeft = async () => (await user.client.user.benefits()).chats;
    return { ...user, roomId: room.roomId, chatsLeft };
  }

  it.skipIf(skip)(
    'spends one chat per inspiration: 30 parallel calls, 5 chats, 5 answers',
    async () => {
      state.answer = SUGGESTIONS;
      const user = await userWithChats(5);
      const calls = await Promise.allSettled(
        Array.from({ length: 30 }, () =>
          user.client.girl.chatGetInspiration({ roomId: user.roomId }),
        ),
      );
      expect(calls.filter((call) => call.status === 'fulfilled')).toHaveLength(5);
      for (const call of calls.filter((result) => result.status === 'rejected')) {
        expect(call.reason).toMatchObject({
          code: 5007,
          message: expect.stringMatching(/no chats left/),
        });
      }
      expect(await user.chatsLeft()).toBe(0);
    },
  );

  it.skipIf(skip)('spends one chat per drafted character', async () => {
    state.answer = DRAFT;
    const user = await userWithChats(2);
    await user.client.mate.generateRole({ idea: 'a scribe' });
    expect(await user.chatsLeft()).toBe(1);
  });

  it.skipIf(skip)(
    'gives the chat back when the model fails or answers nothing usable',
    async () => {
      const user = await userWithChats(3);
      state.fail = true;
      await expect(
        user.client.girl.chatGetInspiration({ roomId: user.roomId }),
      ).rejects.toMatchObject({ code: 5007 });
      await expect(user.client.mate.generateRole({ idea: 'a scribe' })).rejects.toMatchObject({
        code: 5007,
      });
      state.fail = false;
      state.answer = '{"suggestions": ["only one"]}';
      await expect(
        user.client.girl.chatGetInspiration({ roomId: user.roomId }),
      ).rejects.toMatchObject({ code: 5007 });
      expect(await user.chatsLeft()).toBe(3);
      const ledger = await app.db
        .selectFrom('benefit_ledger')
        .select(['chats_delta'])
        .where('user_id', '=', user.userInfo.uuid)
        .where('reason', 'like', '%inspiration%')
        .execute();
      expect(ledger.map((row) => row.chats_delta).sort()).toEqual([-1, -1, 1, 1]);
    },
  );

  it.skipIf(skip)('limits each user, before any chat is spent', async () => {
    state.answer = SUGGESTIONS;
    const user = await userWithChats(100);
    const other = await userWithChats(100);
    app.deps.limits.generation = createRateLimits().generation;
    try {
      const answers = [];
      for (let call = 0; call < 25; call++) {
        answers.push(
          await user.client.girl.chatGetInspiration({ roomId: user.roomId }).then(
            () => 'ok',
            (error: { code: number; message: string }) => `${error.code} ${error.message}`,
          ),
        );
      }
      expect(answers.filter((answer) => answer === 'ok')).toHaveLength(20);
      expect(answers.at(-1)).toMatch(/^5007 Too many attempts/);
      expect(await user.chatsLeft()).toBe(80);
      // Drafts share the allowance; other users keep their own.
      await expect(user.client.mate.generateRole({ idea: 'x' })).rejects.toMatchObject({
        code: 5007,
        message: expect.stringMatching(/^Too many attempts/),
      });
      const theirs = await other.client.girl.chatGetInspiration({ roomId: other.roomId });
      expect(theirs.suggestions).toHaveLength(3);
    } finally {
      app.deps.limits.generation = createRateLimits(1000).generation;
    }
  });
});
