import { describe, expect, it } from 'vitest';
import { DIALECTS, postgresAvailable, signUp } from './harness';
import { memoryServer } from './memory-helpers';
import { wrenCard } from './card-helpers';

// A card's post-history instructions (Character Card V2 `post_history_instructions`): what
// SillyTavern sends after the chat history, the last thing the model reads before it answers.
const withPostgres = await postgresAvailable();

const CARD = wrenCard({
  post_history_instructions:
    '{{original}} Stay in character as {{char}}; never write for {{user}}.',
});

describe.each(DIALECTS)("a card's post-history instructions on %s", (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = memoryServer(dialect, { skip, contextSize: 4096 });

  it.skipIf(skip)(
    'go to the model after the history, for a reply and its other version, and the prompt view shows them',
    async () => {
      const { client } = await signUp(suite.server);
      await client.user.updateNickname({ nickname: 'Ada' });
      // Used, so no longer listed among what the card carries that Mates does not use.
      expect((await client.mate.previewCard({ card: CARD })).unused).toEqual([]);
      const mate = await client.mate.importCard({ card: CARD });
      const room = await client.room.createRoom({ mateId: mate.mateId });
      const instructions = 'Stay in character as Wren; never write for Ada.';
      const lastMessages = () =>
        suite.double.requests.at(-1)!.body.messages as { role: string; content: string }[];

      await client.girl.chatSend({ roomId: room.roomId, content: 'Hi!' }, { onData: () => {} });
      let sent = lastMessages();
      expect(sent.at(-1)).toEqual({ role: 'system', content: instructions });
      expect(sent.at(-2)).toEqual({ role: 'user', content: 'Hi!' });
      expect(sent[0]!.content).toContain('Wren keeps the harbour light.');

      await client.girl.chatSend({ roomId: room.roomId, regenerate: true }, { onData: () => {} });
      sent = lastMessages();
      expect(sent.at(-1)).toEqual({ role: 'system', content: instructions });
      expect(sent.at(-2)).toEqual({ role: 'user', content: 'Hi!' });

      const view = await client.room.promptView({ roomId: room.roomId });
      expect(view.parts.map((part) => part.kind).slice(-2)).toEqual(['history', 'instructions']);
      expect(view.parts.at(-1)).toMatchObject({ text: instructions, items: 1 });
      expect(view.parts.at(-1)!.tokens).toBeGreaterThan(0);
    },
  );

  it.skipIf(skip)('leave the prompt as it was for a mate without them', async () => {
    const { client } = await signUp(suite.server);
    const mate = await client.mate.importCard({
      card: { ...CARD, data: { ...CARD.data, name: 'Plain', post_history_instructions: '' } },
    });
    const room = await client.room.createRoom({ mateId: mate.mateId });
    await client.girl.chatSend({ roomId: room.roomId, content: 'Hi!' }, { onData: () => {} });
    const sent = suite.double.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'Hi!' });
    const view = await client.room.promptView({ roomId: room.roomId });
    expect(view.parts.map((part) => part.kind)).not.toContain('instructions');
  });
});
