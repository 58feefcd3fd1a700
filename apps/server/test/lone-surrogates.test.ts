import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  postgresAvailable,
  saveMatePayload,
  seededMate,
  signUp,
  startTestServer,
  unconfiguredModel,
} from './harness';

// Found from outside: half of an emoji (a UTF-16 surrogate without its pair, as a card cut
// inside an emoji by another tool holds it, written in JSON as "\ud83d") in an alternate
// greeting or an extension answered 5000 on PostgreSQL, whose jsonb refuses it, and left
// nothing: text columns already keep such a half as U+FFFD, and JSON ones now do the same.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('half an emoji on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    // Over HTTP (a chat's reply streams on Node's own response), with a model that says hello.
    if (!skip)
      app = await startTestServer(dialect, {
        model: {
          ...unconfiguredModel(),
          unavailableReason: () => null,
          async generate(_turns, _options, onText) {
            onText('Hello.');
            return { finishReason: 'stop', promptTokens: 1, completionTokens: 1 };
          },
        },
      });
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });
  /**
   * Posts `body` as it is written, over HTTP: JSON.stringify and the client would write a half
   * as a character, which fetch sends as U+FFFD; a script sends it as an escape (`\ud83d`).
   */
  const post = async (token: string, path: string, body: string) =>
    (
      await fetch(`${app.base}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body,
      })
    ).text();

  it.skipIf(skip)('in a card or a save is kept as U+FFFD, not a server error', async () => {
    const { userInfo, client } = await signUp(app);
    const postJson = async (path: string, body: string) =>
      JSON.parse(await post(userInfo.token, path, body)) as {
        c: number;
        m: string;
        d: { mateId: string } | null;
      };
    const imported = await postJson(
      '/mate/importCard',
      String.raw`{"card":{"spec":"chara_card_v2","data":{"name":"Halves","first_mes":"Hi 🙂",` +
        String.raw`"alternate_greetings":["Hey \ud83d"],"extensions":{"some_app":{"\udc00":"a\udc00b"}}}}}`,
    );
    expect(imported).toMatchObject({ c: 200 });
    const mate = await client.mate.getMateDetail({ mateId: imported.d!.mateId });
    expect(mate.alternate_greetings).toEqual(['Hey \uFFFD']);
    const card = JSON.parse(
      Buffer.from((await client.mate.exportCard({ mateId: mate.mateId })).data, 'base64').toString(
        'utf8',
      ),
    ) as { data: { extensions: { some_app: unknown } } };
    expect(card.data.extensions.some_app).toEqual({ '\uFFFD': 'a\uFFFDb' });

    const saved = await postJson(
      '/mate/saveMate',
      JSON.stringify(saveMatePayload(mate, { alternate_greetings: ['Bye'] })).replace(
        'Bye',
        String.raw`Bye \ud83d`,
      ),
    );
    expect(saved).toMatchObject({ c: 200 });
    expect((await client.mate.getMateDetail({ mateId: mate.mateId })).alternate_greetings).toEqual([
      'Bye \uFFFD',
    ]);
  });
  it.skipIf(skip)(
    'in a memory is kept as one U+FFFD; a whole emoji in escapes stays whole',
    async () => {
      const { userInfo, client } = await signUp(app);
      const mate = await seededMate(app.db, 'Kai Tanaka');
      const { roomId } = await client.room.createRoom({ mateId: mate.id });
      const body = (content: string) => String.raw`{"roomId":"${roomId}","content":"${content}"}`;
      await post(userInfo.token, '/room/saveMemory', body(String.raw`Half \udc00.`));
      await post(userInfo.token, '/room/saveMemory', body(String.raw`Whole \ud83d\ude00.`));
      const memories = (await client.room.memories({ roomId })).memories.map((m) => m.content);
      expect(memories.sort()).toEqual(['Half \uFFFD.', 'Whole 😀.']);
    },
  );

  it.skipIf(skip)(
    'in a chat message is kept as one U+FFFD each, as sent and as the limit counts it',
    async () => {
      // Found from outside: a send of halves near the limit (8,000), written as JSON escapes as
      // a script writes them, was kept on SQLite as three U+FFFD each: better-sqlite3 stored
      // each half as three bytes of no valid UTF-8. (Sent as characters, fetch had made them
      // U+FFFD before they left, and this test could not see it.)
      const { userInfo, client } = await signUp(app);
      const mate = await seededMate(app.db, 'Kai Tanaka');
      const { roomId } = await client.room.createRoom({ mateId: mate.id });
      const content = String.raw`Hi \ud83d there ` + String.raw`\ud800`.repeat(7980);
      await post(
        userInfo.token,
        '/girl/chat/send',
        String.raw`{"roomId":"${roomId}","content":"${content}"}`,
      );
      const rows = await app.db
        .selectFrom('messages')
        .select(['role', 'content'])
        .where('room_id', '=', roomId)
        .where('role', '=', 'user')
        .execute();
      expect(rows).toEqual([{ role: 'user', content: `Hi \uFFFD there ${'\uFFFD'.repeat(7980)}` }]);
    },
  );
});
