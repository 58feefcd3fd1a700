import { describe, expect, it } from 'vitest';
import { ApiError } from '@mates/api-client';
import { DIALECTS, postgresAvailable, signUp } from './harness';
import { serverWithDouble } from './server-with-double';

// Issue #19: the persona played in a chat is switched from the chat; the next reply is to it.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('the persona of a chat on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  it.skipIf(skip)('switches to one of the caller’s personas, or back to none', async () => {
    const { client } = await signUp(suite.server);
    const [kai] = (await client.mate.search({ keyword: 'Kai Tanaka' })).list;
    const { roomId } = await client.room.createRoom({ mateId: kai!.mateId });
    const persona = await client.user.saveOrUpdatePersona({
      name: 'Captain Rhea',
      description: 'A ship captain with a scar and a soft spot for strays.',
    });
    expect(await client.room.setPersona({ roomId, personaId: persona.uuid })).toMatchObject({
      roomId,
      personaId: persona.uuid,
    });
    expect((await client.room.roomInfo({ roomId })).persona?.name).toBe('Captain Rhea');
    suite.double.next({ kind: 'stream', pieces: ['Aye.'] });
    await client.girl.chatSend({ roomId, content: 'Hello.' }, { onData: () => {} });
    expect(JSON.stringify(suite.double.requests.at(-1)!.body.messages)).toContain('Captain Rhea');
    await client.room.setPersona({ roomId, personaId: null });
    expect((await client.room.roomInfo({ roomId })).persona).toBeNull();
  });

  it.skipIf(skip)(
    'refuses a persona that is not the caller’s, and a room that is not theirs',
    async () => {
      const ada = await signUp(suite.server);
      const eve = await signUp(suite.server);
      const [kai] = (await ada.client.mate.search({ keyword: 'Kai Tanaka' })).list;
      const { roomId } = await ada.client.room.createRoom({ mateId: kai!.mateId });
      const eves = await eve.client.user.saveOrUpdatePersona({
        name: 'Eve',
        description: 'Not Ada.',
      });
      const code = (promise: Promise<unknown>) =>
        promise.then(
          () => null,
          (error: unknown) => (ApiError.isInstance(error) ? error.code : error),
        );
      expect(await code(ada.client.room.setPersona({ roomId, personaId: eves.uuid }))).toBe(4004);
      expect(await code(eve.client.room.setPersona({ roomId, personaId: eves.uuid }))).toBe(4004);
    },
  );
});
