import { describe, expect, it } from 'vitest';
import { createEmbeddedModel } from '../src/llm/embedded';
import { signUp, startTestServer, seededMate } from './harness';
import { captureLog } from './log-capture';

describe('without a language model', () => {
  it('starts, serves everything else, tells the operator how to configure one, and the user plainly', async () => {
    const lines: string[] = [];
    const model = createEmbeddedModel({
      model: '/nowhere/missing.gguf',
      modelsDir: '/tmp',
      threads: 1,
      contextSize: 512,
      parallel: 1,
      queue: 1,
      log: captureLog('debug', lines).logger,
    });
    const server = await startTestServer('sqlite', { model });
    try {
      await model.ready;
      expect(lines[0]).toMatch(
        /^No language model is available \(no file at \/nowhere\/missing\.gguf\)\. Set LLM_MODEL/,
      );
      const { userInfo, client } = await signUp(server);
      expect((await client.mate.recommend()).total).toBeGreaterThan(0);
      const mate = await seededMate(server.db, 'Kai Tanaka');
      const room = await client.room.createRoom({ mateId: mate.id });
      const refused = await client.girl
        .chatSend({ roomId: room.roomId, content: 'Hello?' }, { onData: () => {} })
        .catch((error: unknown) => error);
      // The person is told what it means for them, in their language; the setup is the
      // operator's business, in the log.
      expect(refused).toMatchObject({
        code: 5007,
        message: 'The model is not available right now. Please try again later.',
        reason: 'model-missing',
      });
      // The envelope says why in one word, for the chat to say which setting sets one up.
      const raw = await fetch(`${server.base}/api/girl/chat/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: userInfo.token },
        body: JSON.stringify({ roomId: room.roomId, content: 'Anyone?' }),
      });
      expect(await raw.json()).toEqual({
        c: 5007,
        m: 'The model is not available right now. Please try again later.',
        d: { reason: 'model-missing' },
      });
      const spanish = await server
        .client({ token: userInfo.token, language: 'es' })
        .girl.chatSend({ roomId: room.roomId, content: 'Hola' }, { onData: () => {} })
        .catch((error: unknown) => error);
      expect((spanish as Error).message).not.toMatch(/LLM_/);
      expect((spanish as Error).message).toBe(
        'El modelo no está disponible ahora. Inténtalo de nuevo más tarde.',
      );
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
