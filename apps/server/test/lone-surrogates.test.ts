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

  it.skipIf(skip)('in a card or a save is kept as U+FFFD, not a server error', async () => {
    const { userInfo, client } = await signUp(app);
    const post = async (path: string, body: string) =>
      (await (
        await app.app.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token: userInfo.token },
          body,
        })
      ).json()) as { c: number; m: string; d: { mateId: string } | null };
    // Written as text: JSON.stringify would write the half as it is, and so would the client.
    const imported = await post(
      '/api/mate/importCard',
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

    const saved = await post(
      '/api/mate/saveMate',
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
    'written as JSON escapes in a message or a memory, is kept as one U+FFFD each',
    async () => {
      // Found from outside: the test below sends the halves as characters, which fetch writes
      // as U+FFFD before they leave; as JSON escapes ("\ud83d"), as a script sends them, they
      // reached better-sqlite3, which stored each as three bytes of no valid UTF-8, read back
      // as three U+FFFD ("Hi ���").
      const { userInfo, client } = await signUp(app);
      const mate = await seededMate(app.db, 'Kai Tanaka');
      const { roomId } = await client.room.createRoom({ mateId: mate.id });
      const post = async (path: string, body: string) => {
        const answer = await fetch(`${app.base}/api${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token: userInfo.token },
          body,
        });
        return answer.text();
      };
      await post('/girl/chat/send', String.raw`{"roomId":"${roomId}","content":"Hi \ud83d!"}`);
      await post('/room/saveMemory', String.raw`{"roomId":"${roomId}","content":"Half \udc00."}`);
      // A whole emoji written as its two escapes stays the emoji.
      await post(
        '/room/saveMemory',
        String.raw`{"roomId":"${roomId}","content":"Whole \ud83d\ude00."}`,
      );
      const rows = await app.db
        .selectFrom('messages')
        .select('content')
        .where('room_id', '=', roomId)
        .where('role', '=', 'user')
        .execute();
      expect(rows.map((row) => row.content)).toEqual(['Hi \uFFFD!']);
      const memories = (await client.room.memories({ roomId })).memories.map((m) => m.content);
      expect(memories.sort()).toEqual(['Half \uFFFD.', 'Whole 😀.']);
    },
  );

  it.skipIf(skip)(
    'in a chat message is kept as one U+FFFD each, as sent and as the limit counts it',
    async () => {
      // An outside review reported a send of 8,000 halves (the limit) kept as 24,000 U+FFFD on
      // SQLite; not reproduced through the API here. Held
      // here near the limit, on both databases: one U+FFFD for each half, as text columns do.
      const { userInfo, client } = await signUp(app);
      const mate = await seededMate(app.db, 'Kai Tanaka');
      const { roomId } = await client.room.createRoom({ mateId: mate.id });
      const content = `Hi \ud83d there ${'\ud800'.repeat(7980)}`;
      const answer = await fetch(`${app.base}/api/girl/chat/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: userInfo.token },
        body: String.raw`{"roomId":"${roomId}","content":"${content}"}`,
      });
      await answer.text();
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
