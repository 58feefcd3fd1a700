import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaveMatePayload } from '@mates/api-client';
import type { ChatTurn, LanguageModel } from '../src/llm/language-model';
import { DIALECTS, postgresAvailable, signUp, startTestServer, unconfiguredModel } from './harness';

// Issue #12, item 9: a room whose mate turned private leaks nothing of the mate.
const withPostgres = await postgresAvailable();

/** A model that answers with three suggestions and keeps what it was asked. */
function suggestingModel(): LanguageModel & { prompts: ChatTurn[][] } {
  const prompts: ChatTurn[][] = [];
  return {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    prompts,
    async generate(turns, _options, onText) {
      prompts.push(turns);
      onText(JSON.stringify({ suggestions: ['one', 'two', 'three'] }));
      return { finishReason: 'stop', promptTokens: 1, completionTokens: 1 };
    },
  };
}

describe.each(DIALECTS)('a room of a mate turned private, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let model: ReturnType<typeof suggestingModel>;
  beforeAll(async () => {
    if (skip) return;
    model = suggestingModel();
    server = await startTestServer(dialect, { model });
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  /** A public mate of a creator, a room of another user with it, then the mate made private. */
  async function closedRoom() {
    const creator = await signUp(server);
    const draft: SaveMatePayload = {
      name: 'Closing Soon',
      tagline: 'SECRET TAGLINE',
      description: 'SECRET DESCRIPTION',
      personality: '',
      scenario: '',
      first_mes: 'Hello {{user}}.',
      mes_example: '',
      creator_notes: '',
      system_prompt: '',
      alternate_greetings: [],
      tags: ['fantasy'],
      gender: 'female',
      nsfw: false,
      visibility: 'public',
    };
    const mate = await creator.client.mate.saveMate(draft);
    const other = await signUp(server);
    const room = await other.client.room.createRoom({ mateId: mate.mateId });
    const closed = await creator.client.mate.saveMate({
      ...draft,
      mateId: mate.mateId,
      visibility: 'private',
    });
    return { other, room, closed };
  }

  it.skipIf(skip)(
    'gives neither the new portrait address nor the tagline in roomInfo and roomList',
    async () => {
      const { other, room, closed } = await closedRoom();
      // The portrait moved to a new secret address that only its owner should learn.
      expect((await fetch(server.base + closed.avatar)).status).toBe(200);
      const info = await other.client.room.roomInfo({ roomId: room.roomId });
      expect(info.readOnly).not.toBeNull();
      const list = await other.client.room.roomList();
      for (const answer of [info, list]) {
        expect(JSON.stringify(answer)).not.toContain(closed.avatar);
        expect(JSON.stringify(answer)).not.toContain('SECRET');
      }
    },
  );

  it.skipIf(skip)(
    'refuses inspiration in it, without running the model on the closed card',
    async () => {
      const { other, room } = await closedRoom();
      const before = model.prompts.length;
      await expect(
        other.client.girl.chatGetInspiration({ roomId: room.roomId }),
      ).rejects.toMatchObject({
        code: 5007,
        message: 'This mate is no longer available. You can read this chat, but not continue it.',
      });
      expect(model.prompts.length).toBe(before);
      expect((await other.client.user.benefits()).chats).toBe(50);
    },
  );

  it.skipIf(skip)(
    "takes turns in an adult mate's room only while its user has adult content on",
    async () => {
      const creator = await signUp(server);
      await creator.client.user.updateTags({ tags: [], nfsw: true });
      const mate = await creator.client.mate.saveMate({
        name: 'After Dark',
        tagline: '',
        description: '',
        personality: '',
        scenario: '',
        first_mes: 'Hello {{user}}.',
        mes_example: '',
        creator_notes: '',
        system_prompt: '',
        alternate_greetings: [],
        tags: ['fantasy'],
        gender: 'female',
        nsfw: true,
        visibility: 'public',
      });
      const reader = await signUp(server);
      await reader.client.user.updateTags({ tags: [], nfsw: true });
      const room = await reader.client.room.createRoom({ mateId: mate.mateId });
      const ask = () => reader.client.girl.chatGetInspiration({ roomId: room.roomId });
      await expect(ask()).resolves.toBeTruthy();
      await reader.client.user.updateTags({ tags: [], nfsw: false });
      await expect(ask()).rejects.toMatchObject({ code: 5007 });
    },
  );
});
