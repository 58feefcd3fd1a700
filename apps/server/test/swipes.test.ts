import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type ApiClient } from '@mates/api-client';
import { DIALECTS, mateRow, postgresAvailable, signUp } from './harness';
import { serverWithDouble } from './server-with-double';

// Issue #19: versions of a message to swipe between — the greeting and its alternate
// greetings (Character Card spec), and the earlier replies a regeneration keeps; the chosen
// version is what the conversation continues from.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('swipes on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });
  let mateId: string;
  beforeAll(async () => {
    if (skip) return;
    const creator = await suite.server.db
      .selectFrom('users')
      .select('id')
      .executeTakeFirstOrThrow();
    const row = mateRow(creator.id, {
      name: 'Marisol',
      first_mes: 'Welcome to the lighthouse, {{user}}.',
      alternate_greetings: ['A storm brought you, {{user}}?', '   ', 'Another stray. Sit.'],
    });
    await suite.server.db.insertInto('mates').values(row).execute();
    mateId = row.id;
  });

  const messages = async (client: ApiClient, roomId: string) =>
    (await client.room.roomInfo({ roomId })).messages;
  const send = (client: ApiClient, payload: Parameters<ApiClient['girl']['chatSend']>[0]) =>
    client.girl.chatSend(payload, { onData: () => {} });
  /** What the model was last shown of the conversation. */
  const lastPrompt = () => JSON.stringify(suite.double.requests.at(-1)!.body.messages);
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => (ApiError.isInstance(error) ? error.code : error),
    );

  it.skipIf(skip)('offers the alternate greetings as versions of the greeting', async () => {
    const { client, userInfo } = await signUp(suite.server);
    const { roomId } = await client.room.createRoom({ mateId });
    const [greeting] = await messages(client, roomId);
    expect(greeting).toMatchObject({
      content: `Welcome to the lighthouse, ${userInfo.nickname}.`,
      swipes: { index: 0, count: 3 },
    });
    const chosen = await client.room.chooseSwipe({
      roomId,
      messageId: greeting!.messageId,
      index: 1,
    });
    expect(chosen).toMatchObject({
      content: `A storm brought you, ${userInfo.nickname}?`,
      swipes: { index: 1, count: 3 },
    });
    // The conversation goes on from the chosen greeting.
    suite.double.next({ kind: 'stream', pieces: ['It did.'] });
    await send(client, { roomId, content: 'It did.' });
    expect(lastPrompt()).toContain('A storm brought you');
    expect(lastPrompt()).not.toContain('Welcome to the lighthouse');
  });

  it.skipIf(skip)(
    'keeps each regenerated reply as a version, and continues from the chosen one',
    async () => {
      const { client } = await signUp(suite.server);
      const { roomId } = await client.room.createRoom({ mateId });
      suite.double.next({ kind: 'stream', pieces: ['First answer.'] });
      await send(client, { roomId, content: 'Tell me a story.' });
      suite.double.next({ kind: 'stream', pieces: ['Second answer.'] });
      await send(client, { roomId, regenerate: true });
      suite.double.next({ kind: 'stream', pieces: ['Third answer.'] });
      await send(client, { roomId, regenerate: true });
      let last = (await messages(client, roomId)).at(-1)!;
      expect(last).toMatchObject({ content: 'Third answer.', swipes: { index: 2, count: 3 } });

      last = await client.room.chooseSwipe({ roomId, messageId: last.messageId, index: 0 });
      expect(last).toMatchObject({ content: 'First answer.', swipes: { index: 0, count: 3 } });
      expect((await messages(client, roomId)).at(-1)).toMatchObject({ content: 'First answer.' });
      suite.double.next({ kind: 'stream', pieces: ['And then?'] });
      await send(client, { roomId, content: 'Go on.' });
      expect(lastPrompt()).toContain('First answer.');
      expect(lastPrompt()).not.toContain('Third answer.');
    },
  );

  it.skipIf(skip)(
    'regenerates only the last reply when a message before it was deleted, losing nothing else',
    async () => {
      // [u1, m1 (edited by hand), u2, m2], then u2 deleted: regenerating used to keep m2 as a
      // version and delete m1 for good.
      const { client } = await signUp(suite.server);
      const { roomId } = await client.room.createRoom({ mateId });
      suite.double.next({ kind: 'stream', pieces: ['First reply.'] });
      await send(client, { roomId, content: 'First question.' });
      suite.double.next({ kind: 'stream', pieces: ['Second reply.'] });
      await send(client, { roomId, content: 'Second question.' });
      let list = await messages(client, roomId);
      const [, , m1, u2] = list;
      await client.room.editMessage({
        roomId,
        messageId: m1!.messageId,
        content: 'A reply I rewrote myself.',
      });
      await client.room.deleteMessage({ roomId, messageId: u2!.messageId });

      suite.double.next({ kind: 'stream', pieces: ['Second reply, again.'] });
      await send(client, { roomId, regenerate: true });
      list = await messages(client, roomId);
      expect(list.map((message) => message.content)).toEqual([
        expect.stringContaining('Welcome to the lighthouse'),
        'First question.',
        'A reply I rewrote myself.',
        'Second reply, again.',
      ]);
      // The reply it replaced is a version of the new one; the model saw the rewritten reply.
      expect(list.at(-1)).toMatchObject({ swipes: { index: 1, count: 2 } });
      expect(lastPrompt()).toContain('A reply I rewrote myself.');
      const earlier = await client.room.chooseSwipe({
        roomId,
        messageId: list.at(-1)!.messageId,
        index: 0,
      });
      expect(earlier.content).toBe('Second reply.');
    },
  );

  it.skipIf(skip)(
    'refuses a version of any message but the last reply, or one that is not there',
    async () => {
      const { client } = await signUp(suite.server);
      const { roomId } = await client.room.createRoom({ mateId });
      const [greeting] = await messages(client, roomId);
      expect(
        await refusal(
          client.room.chooseSwipe({ roomId, messageId: greeting!.messageId, index: 3 }),
        ),
      ).toBe(4000);
      suite.double.next({ kind: 'stream', pieces: ['Hello.'] });
      await send(client, { roomId, content: 'Hi.' });
      // The greeting is no longer the last reply.
      expect(
        await refusal(
          client.room.chooseSwipe({ roomId, messageId: greeting!.messageId, index: 1 }),
        ),
      ).toBe(4000);
      const other = await signUp(suite.server);
      const last = (await messages(client, roomId)).at(-1)!;
      expect(
        await refusal(
          other.client.room.chooseSwipe({ roomId, messageId: last.messageId, index: 0 }),
        ),
      ).toBe(4004);
    },
  );
});
