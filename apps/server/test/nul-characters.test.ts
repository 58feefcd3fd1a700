import { describe, expect, it } from 'vitest';
import { ApiError } from '@mates/api-client';
import { writePngText } from '../src/cards/png-text';
import { DIALECTS, postgresAvailable, saveMatePayload, signUp } from './harness';
import { serverWithDouble } from './server-with-double';

// Found from outside: U+0000 in a name, a message or a query answered 5000 on PostgreSQL, which
// cannot store it in text (anonymous callers could fill the error log at will), and was stored
// on SQLite, unseen, in names shown to everyone. It is refused as bad input everywhere, naming
// the field; a model that sends it has it dropped from the reply, which is saved.
const withPostgres = await postgresAvailable();

// The smallest PNG: one transparent pixel.
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(DIALECTS)('the character U+0000 on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  /** The envelope error of a call that must fail. */
  const refusal = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    return { code: (error as ApiError).code, message: (error as ApiError).message };
  };

  it.skipIf(skip)(
    'is refused in bodies and queries, naming the field, changing nothing',
    async () => {
      const { client } = await signUp(suite.server);
      // A body: saving a mate whose name holds it.
      const created = await client.mate.importCard({
        card: { name: 'Eve', description: 'A lighthouse keeper.', first_mes: 'Hello.' },
      });
      const mateId = created.mateId;
      expect(
        await refusal(client.mate.saveMate(saveMatePayload(created, { name: 'Eve\u0000' }))),
      ).toEqual({ code: 4000, message: 'name: must not contain the character U+0000' });
      expect((await client.mate.getMateDetail({ mateId })).name).toBe('Eve');

      // A query, asked by someone signed out, on the catalog's shared path.
      const anonymous = suite.server.client();
      expect(await refusal(anonymous.mate.getMateDetail({ mateId: `${mateId}\u0000` }))).toEqual({
        code: 4000,
        message: 'mateId: must not contain the character U+0000',
      });
      expect(
        await refusal(client.room.roomList({ page: 1, pageSize: 10, keyword: 'a\u0000' })),
      ).toMatchObject({
        code: 4000,
      });

      // A card inside a picture, read from the request's body.
      const card = {
        spec: 'chara_card_v2',
        spec_version: '2.0',
        data: { name: 'Nul\u0000', description: 'x', first_mes: 'Hello.' },
      };
      const png = writePngText(
        PIXEL,
        'chara',
        Buffer.from(JSON.stringify(card)).toString('base64'),
      );
      expect(await refusal(client.mate.importCard({ png: png.toString('base64') }))).toEqual({
        code: 4000,
        message: 'png.data.name: must not contain the character U+0000',
      });
      // In a key, named by its object: PostgreSQL's jsonb refuses it there too.
      expect(
        await refusal(
          client.mate.importCard({
            card: {
              name: 'Keyed',
              description: 'x',
              first_mes: 'Hello.',
              extensions: { 'a\u0000': 1 },
            },
          }),
        ),
      ).toEqual({ code: 4000, message: 'card.extensions: must not contain the character U+0000' });
      // Text that only spells it out, a backslash and "u0000", is text like any other.
      const spelled = await client.mate.saveMate(
        saveMatePayload(created, { description: 'Escapes look like \\u0000 in JSON.' }),
      );
      expect(spelled.description).toBe('Escapes look like \\u0000 in JSON.');
    },
  );

  it.skipIf(skip)('is dropped from what a model sends, and the reply is saved', async () => {
    const { client } = await signUp(suite.server);
    const mates = await client.mate.recommend({ page: 1, pageSize: 1 });
    const { roomId } = await client.room.createRoom({ mateId: mates.list[0]!.mateId });
    suite.double.next({ kind: 'stream', pieces: ['Hel\u0000lo', ' there.'] });
    expect(
      await refusal(client.girl.chatSend({ roomId, content: 'Hi\u0000' }, { onData: () => {} })),
    ).toMatchObject({ code: 4000, message: 'content: must not contain the character U+0000' });
    await client.girl.chatSend({ roomId, content: 'Hi.' }, { onData: () => {} });
    const last = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
    expect(last).toMatchObject({ content: 'Hello there.', status: 'complete' });
  });
});
