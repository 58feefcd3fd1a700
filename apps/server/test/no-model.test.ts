import { describe, expect, it } from 'vitest';
import { createEmbeddedModel } from '../src/llm/embedded';
import { signUp, startTestServer } from './harness';

describe('without a language model', () => {
  it('starts, serves everything else, and says in chat how to configure one', async () => {
    const lines: string[] = [];
    const model = createEmbeddedModel({
      model: '/nowhere/missing.gguf',
      modelsDir: '/tmp',
      threads: 1,
      contextSize: 512,
      parallel: 1,
      queue: 1,
      log: (line) => lines.push(line),
    });
    const server = await startTestServer('sqlite', { model });
    try {
      await model.ready;
      expect(lines[0]).toMatch(
        /^No language model is available \(no file at \/nowhere\/missing\.gguf\)\. Set LLM_MODEL/,
      );
      const { userInfo, client } = await signUp(server);
      expect((await client.mate.recommend()).total).toBeGreaterThan(0);
      const mate = await server.db
        .selectFrom('mates')
        .select('id')
        .where('name', '=', 'Kai Tanaka')
        .executeTakeFirstOrThrow();
      const room = await client.room.createRoom({ mateId: mate.id });
      const refused = await client.girl
        .chatSend({ roomId: room.roomId, content: 'Hello?' }, { onData: () => {} })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: 5007,
        message: expect.stringContaining(
          'Set LLM_MODEL to a GGUF file or an hf: URI, or LLM_PROVIDER=openai',
        ),
      });
      // Nothing was written or spent: the text stays with the user.
      expect(
        await server.db
          .selectFrom('messages')
          .select('id')
          .where('room_id', '=', room.roomId)
          .execute(),
      ).toHaveLength(1);
      expect(await client.user.benefits()).toEqual({
        chats: 50,
        goldCoins: 20,
        userId: userInfo.uuid,
      });
      await expect(client.girl.chatGetInspiration({ roomId: room.roomId })).rejects.toMatchObject({
        code: 5007,
      });
    } finally {
      await server.close();
      await model.close();
    }
  });
});
