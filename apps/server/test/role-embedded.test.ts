import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, REGENERABLE_FIELDS, type MateDraft } from '@mates/api-client';
import { createEmbeddedModel } from '../src/llm/embedded';
import type { LanguageModel } from '../src/llm/language-model';
import { TEST_GGUF, signUp, startTestServer } from './harness';
import { silentLogger } from '../src/logging/logger';

// Issue #14: role generation through the real embedded runtime, held to the draft's JSON
// schema by a grammar. The tiny story model writes nonsense, so the answer is either a
// draft that passes every rule or a clean 5007 with the chat given back: never a crash,
// never a half-read draft, never a chat spent for nothing.
const haveModel = fs.existsSync(TEST_GGUF);
if (!haveModel)
  console.warn(
    `Embedded role-generation test skipped: no model at ${TEST_GGUF} (set MATES_TEST_GGUF).`,
  );

describe('role generation with the embedded model', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let model: LanguageModel & { ready: Promise<void> };
  beforeAll(async () => {
    if (!haveModel) return;
    model = createEmbeddedModel({
      model: TEST_GGUF,
      modelsDir: '/tmp',
      threads: 1,
      contextSize: 2048,
      parallel: 1,
      queue: 4,
      log: silentLogger(),
    });
    await model.ready;
    server = await startTestServer('sqlite', { model });
  });
  afterAll(async () => {
    if (!haveModel) return;
    await server.close();
    await model.close();
  });

  it.skipIf(!haveModel)(
    'gives a usable draft for the chat it costs, or a clean 5007 with the chat back',
    async () => {
      const { client } = await signUp(server);
      const known = new Set((await client.extra.tags()).map((tag) => tag.key));
      const before = (await client.user.benefits()).chats;
      let draft: MateDraft | null = null;
      let failure: unknown = null;
      try {
        draft = await client.mate.generateRole({
          idea: 'A cheerful baker in a small village',
          gender: 'female',
          tags: ['cozy'],
        });
      } catch (error) {
        failure = error;
      }
      const after = (await client.user.benefits()).chats;
      if (draft) {
        expect(after).toBe(before - 1);
        expect(draft.name.trim()).not.toBe('');
        expect(draft.first_mes.trim()).not.toBe('');
        expect(draft.gender).toBe('female');
        expect(draft.tags[0]).toBe('cozy');
        for (const tag of draft.tags) expect(known.has(tag)).toBe(true);
        expect(draft.nsfw).toBe(false);
        for (const field of REGENERABLE_FIELDS) expect(draft[field]).toBeDefined();
      } else {
        expect(failure).toBeInstanceOf(ApiError);
        expect(failure).toMatchObject({ code: 5007 });
        expect(after).toBe(before);
      }
      // Either way the server is still well and answers the next call.
      expect((await client.user.benefits()).chats).toBe(after);
    },
  );
});
