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
    'the greeting names the persona chosen before the first message, and stays once the chat began',
    async () => {
      const { client } = await signUp(suite.server);
      await client.user.updateNickname({ nickname: 'Quiet Otter 417' });
      const [lyra] = (await client.mate.search({ keyword: 'Lyra Moonwhisper' })).list;
      const { roomId } = await client.room.createRoom({ mateId: lyra!.mateId });
      const greeting = async () => (await client.room.roomInfo({ roomId })).messages[0]!;
      expect((await greeting()).content).toContain('this late, Quiet Otter 417.');
      const rhea = await client.user.saveOrUpdatePersona({
        name: 'Captain Rhea',
        description: 'A ship captain.',
      });
      // Opened as themselves, then switched to the persona they meant to play: the greeting
      // (each of its versions) is to the persona, as the prompt is.
      await client.room.setPersona({ roomId, personaId: rhea.uuid });
      const first = await greeting();
      expect(first.content).toContain('this late, Captain Rhea.');
      expect(first.content).not.toContain('Quiet Otter');
      expect(first.swipes).toEqual({ index: 0, count: 2 });
      suite.double.next({ kind: 'stream', pieces: ['Aye.'] });
      await client.girl.chatSend({ roomId, content: 'A map of the sea.' }, { onData: () => {} });
      const sent = JSON.stringify(suite.double.requests.at(-1)!.body.messages);
      expect(sent).toContain('this late, Captain Rhea.');
      expect(sent).not.toContain('Quiet Otter');
      // Once the person has spoken, what was said stays as it was said.
      await client.room.setPersona({ roomId, personaId: null });
      expect((await greeting()).content).toContain('this late, Captain Rhea.');
    },
  );

  it.skipIf(skip)(
    'a persona renamed or deleted readdresses the greetings of its chats not begun, and only those',
    async () => {
      const { client } = await signUp(suite.server);
      await client.user.updateNickname({ nickname: 'Quiet Otter 417' });
      const rhea = await client.user.saveOrUpdatePersona({ name: 'Captain Rhea', description: '' });
      const [lyra] = (await client.mate.search({ keyword: 'Lyra Moonwhisper' })).list;
      const open = async () => {
        const { roomId } = await client.room.createRoom({
          mateId: lyra!.mateId,
          personaId: rhea.uuid,
        });
        return roomId;
      };
      const waiting = await open();
      const begun = await open();
      const edited = await open();
      const greeting = async (roomId: string) =>
        (await client.room.roomInfo({ roomId })).messages[0]!;
      expect((await greeting(waiting)).content).toContain('this late, Captain Rhea.');
      suite.double.next({ kind: 'stream', pieces: ['Aye.'] });
      await client.girl.chatSend({ roomId: begun, content: 'A map.' }, { onData: () => {} });
      await client.room.editMessage({
        roomId: edited,
        messageId: (await greeting(edited)).messageId,
        content: 'Lyra nods at Captain Rhea.',
      });

      // Renamed: the chat not begun greets the new name; what was said, or written by the
      // person, stays.
      await client.user.saveOrUpdatePersona({
        uuid: rhea.uuid,
        name: 'Admiral Rhea',
        description: '',
      });
      const renamed = await greeting(waiting);
      expect(renamed.content).toContain('this late, Admiral Rhea.');
      expect(renamed.swipes).toEqual({ index: 0, count: 2 });
      expect((await greeting(begun)).content).toContain('this late, Captain Rhea.');
      expect((await greeting(edited)).content).toBe('Lyra nods at Captain Rhea.');

      // Deleted while another version is shown: the chat goes on as the person themself, its
      // greeting says so, and the version shown stays the one shown.
      await client.room.chooseSwipe({ roomId: waiting, messageId: renamed.messageId, index: 1 });
      await client.user.deleteDefaultPersona({ uuid: rhea.uuid });
      expect((await greeting(waiting)).swipes).toEqual({ index: 1, count: 2 });
      await client.room.chooseSwipe({ roomId: waiting, messageId: renamed.messageId, index: 0 });
      expect((await greeting(waiting)).content).toContain('this late, Quiet Otter 417.');
      expect((await greeting(begun)).content).toContain('this late, Captain Rhea.');
    },
  );

  it.skipIf(skip)(
    'a new nickname readdresses the greetings of the chats not begun as the person themself',
    async () => {
      const { client } = await signUp(suite.server);
      await client.user.updateNickname({ nickname: 'Quiet Otter 417' });
      const [lyra] = (await client.mate.search({ keyword: 'Lyra Moonwhisper' })).list;
      const { roomId: waiting } = await client.room.createRoom({ mateId: lyra!.mateId });
      const { roomId: begun } = await client.room.createRoom({ mateId: lyra!.mateId });
      const rhea = await client.user.saveOrUpdatePersona({ name: 'Captain Rhea', description: '' });
      const { roomId: played } = await client.room.createRoom({
        mateId: lyra!.mateId,
        personaId: rhea.uuid,
      });
      suite.double.next({ kind: 'stream', pieces: ['Aye.'] });
      await client.girl.chatSend({ roomId: begun, content: 'A map.' }, { onData: () => {} });
      const greeting = async (roomId: string) =>
        (await client.room.roomInfo({ roomId })).messages[0]!.content;

      await client.user.updateNickname({ nickname: 'Loud Heron 12' });
      expect(await greeting(waiting)).toContain('this late, Loud Heron 12.');
      expect(await greeting(begun)).toContain('this late, Quiet Otter 417.');
      expect(await greeting(played)).toContain('this late, Captain Rhea.');
    },
  );

  it.skipIf(skip)(
    'a greeting the person edited keeps their words when the persona changes',
    async () => {
      const { client } = await signUp(suite.server);
      const [lyra] = (await client.mate.search({ keyword: 'Lyra Moonwhisper' })).list;
      const { roomId } = await client.room.createRoom({ mateId: lyra!.mateId });
      const [first] = (await client.room.roomInfo({ roomId })).messages;
      await client.room.editMessage({
        roomId,
        messageId: first!.messageId,
        content: 'Lyra waves at me from the top shelf.',
      });
      const rhea = await client.user.saveOrUpdatePersona({ name: 'Captain Rhea', description: '' });
      await client.room.setPersona({ roomId, personaId: rhea.uuid });
      expect((await client.room.roomInfo({ roomId })).messages[0]!.content).toBe(
        'Lyra waves at me from the top shelf.',
      );
    },
  );

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
