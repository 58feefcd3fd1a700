import { describe, expect, it } from 'vitest';
import { DIALECTS, postgresAvailable, signUp } from './harness';
import { memoryServer } from './memory-helpers';
import { wrenCard } from './card-helpers';
import { toJson } from '../src/db/dialect';

// A card's lorebook (Character Card V2 `character_book`): entries that SillyTavern puts into the
// prompt when the last messages name one of their keys.
const withPostgres = await postgresAvailable();

const CARD = wrenCard({
  character_book: {
    name: 'Harbour',
    entries: [
      {
        keys: ['lighthouse', 'the light'],
        content: "The lighthouse was built by {{char}}'s grandmother and has never gone dark.",
        enabled: true,
        insertion_order: 10,
      },
      {
        keys: ['Mara'],
        content: 'Mara is the ferrywoman; she owes {{user}} a favour.',
        enabled: true,
        insertion_order: 5,
        case_sensitive: true,
      },
      {
        keys: [],
        content: 'The town is called Saltmere.',
        enabled: true,
        constant: true,
        insertion_order: 1,
      },
      {
        keys: ['lighthouse'],
        content: 'A switched-off entry.',
        enabled: false,
        insertion_order: 2,
      },
      {
        keys: ['/light.*/i'],
        content: 'A pattern the server does not run.',
        enabled: true,
        insertion_order: 3,
      },
    ],
  },
});

describe.each(DIALECTS)("a card's lorebook on %s", (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = memoryServer(dialect, { skip, contextSize: 4096 });

  it.skipIf(skip)(
    'puts the entries the last messages call for into the prompt, and the prompt view shows them',
    async () => {
      const { client } = await signUp(suite.server);
      await client.user.updateNickname({ nickname: 'Ada' });
      // Used, so no longer listed among what the card carries that Mates does not use, but for
      // the entry found by a pattern.
      expect((await client.mate.previewCard({ card: CARD })).unused).toEqual([
        'Lorebook entries found by patterns (1 entry)',
      ]);
      const mate = await client.mate.importCard({ card: CARD });
      const room = await client.room.createRoom({ mateId: mate.mateId });
      const system = () =>
        (suite.double.requests.at(-1)!.body.messages as { role: string; content: string }[])[0]!
          .content;
      const send = (content: string) =>
        client.girl.chatSend({ roomId: room.roomId, content }, { onData: () => {} });

      // Only the constant entry: nothing calls for the others.
      await send('Hi!');
      expect(system()).toContain('The town is called Saltmere.');
      expect(system()).not.toContain('grandmother');

      // A key in any case, as a word of its own; the case-sensitive one only as written.
      await send('Tell me about the LIGHTHOUSE. Is mara around?');
      let prompt = system();
      expect(prompt).toContain("The lighthouse was built by Wren's grandmother");
      expect(prompt).not.toContain('ferrywoman');
      expect(prompt).not.toContain('switched-off');
      expect(prompt).not.toContain('pattern');
      // After the card, in the entries' order.
      expect(prompt.indexOf('harbour light')).toBeLessThan(prompt.indexOf('Saltmere'));
      expect(prompt.indexOf('Saltmere')).toBeLessThan(prompt.indexOf('grandmother'));

      await send('Mara waved from the lighthouse.');
      prompt = system();
      expect(prompt).toContain('Mara is the ferrywoman; she owes Ada a favour.');
      expect(prompt.indexOf('ferrywoman')).toBeLessThan(prompt.indexOf('grandmother'));

      // Out of the last messages, out of the prompt; a key inside another word calls nothing.
      for (const content of ['Nice weather.', 'Lovely.', 'Delightful sunset.']) await send(content);
      prompt = system();
      expect(prompt).not.toContain('grandmother');
      expect(prompt).not.toContain('ferrywoman');

      await send('And the light tonight?');
      const view = await client.room.promptView({ roomId: room.roomId });
      expect(view.parts.map((part) => part.kind).slice(0, 2)).toEqual(['character', 'lore']);
      expect(view.parts[1]).toMatchObject({
        items: 2,
        text: "The town is called Saltmere.\n\nThe lighthouse was built by Wren's grandmother and has never gone dark.",
      });
      expect(view.parts[1]!.tokens).toBeGreaterThan(0);
    },
  );

  it.skipIf(skip)(
    "fills a SillyTavern card's macros in its greeting and prompt, as SillyTavern does",
    async () => {
      const { client } = await signUp(suite.server);
      await client.user.updateNickname({ nickname: 'Ada' });
      const mate = await client.mate.importCard({
        card: {
          ...CARD,
          data: {
            ...CARD.data,
            name: 'Moth',
            first_mes:
              '{{// written for SillyTavern }}*{{char}} holds out {{random::a lantern::a map::a key}}.*{{newline}}Evening, {{user}}.',
            description: '{{char}} rolled a {{roll:1d1+5}} and keeps {{pick::cats::owls::moths}}.',
            character_book: {
              entries: [
                {
                  keys: [],
                  content: 'Lore {{// hidden }}of the {{pick::north::south}}.',
                  constant: true,
                },
              ],
            },
          },
        },
      });
      const room = await client.room.createRoom({ mateId: mate.mateId });
      const greeting = (await client.room.roomInfo({ roomId: room.roomId })).messages[0]!.content;
      expect(greeting).toMatch(/^\*Moth holds out (a lantern|a map|a key)\.\*\nEvening, Ada\.$/);
      const prompts: string[] = [];
      for (const content of ['Hi {{char}}! {{roll:d6}}', 'And again.']) {
        await client.girl.chatSend({ roomId: room.roomId, content }, { onData: () => {} });
        const messages = suite.double.requests.at(-1)!.body.messages as { content: string }[];
        prompts.push(messages[0]!.content);
        // What the person wrote has its names filled, nothing else.
        expect(messages.some((m) => m.content === 'Hi Moth! {{roll:d6}}')).toBe(true);
      }
      expect(prompts[0]).toMatch(/Moth rolled a 6 and keeps (cats|owls|moths)\./);
      expect(prompts[0]).toMatch(/Lore of the (north|south)\./);
      expect(prompts[0]).not.toContain('{{');
      // Picked once for the chat: the same in each of its prompts.
      expect(prompts[1]).toBe(prompts[0]);
    },
  );

  it.skipIf(skip)(
    'reads and parses the card’s other fields once for a mate as saved, not at every send',
    async () => {
      const { client } = await signUp(suite.server);
      const card = wrenCard({
        post_history_instructions: 'Answer in one line.',
        character_book: { entries: [{ keys: [], content: 'Saltmere.', constant: true }] },
      });
      const mate = await client.mate.importCard({ card });
      const room = await client.room.createRoom({ mateId: mate.mateId });
      const sent = () => JSON.stringify(suite.double.requests.at(-1)!.body.messages);
      const send = (content: string) =>
        client.girl.chatSend({ roomId: room.roomId, content }, { onData: () => {} });
      await send('Hi!');
      expect(sent()).toContain('Answer in one line.');
      expect(sent()).toContain('Saltmere.');
      // The stored fields changed under the server (the mate not saved again): a send uses
      // what it read of this save, without reading or parsing them again.
      const { db } = suite.server;
      await db
        .updateTable('mates')
        .set({ card_extra: toJson({ post_history_instructions: 'Gone.' }) })
        .where('id', '=', mate.mateId)
        .execute();
      await send('Again.');
      expect(sent()).toContain('Answer in one line.');
      expect(sent()).toContain('Saltmere.');
      // Saved again, it is read again.
      await db
        .updateTable('mates')
        .set({ updated_at: new Date(Date.now() + 1000).toISOString() })
        .where('id', '=', mate.mateId)
        .execute();
      await send('And now?');
      expect(sent()).toContain('Gone.');
      expect(sent()).not.toContain('Saltmere.');
    },
  );

  it.skipIf(skip)('leaves the prompt as it was for a mate without one', async () => {
    const { client } = await signUp(suite.server);
    const { character_book: _book, ...data } = CARD.data;
    const mate = await client.mate.importCard({
      card: { ...CARD, data: { ...data, name: 'Plain' } },
    });
    const room = await client.room.createRoom({ mateId: mate.mateId });
    await client.girl.chatSend(
      { roomId: room.roomId, content: 'The lighthouse?' },
      { onData: () => {} },
    );
    const view = await client.room.promptView({ roomId: room.roomId });
    expect(view.parts.map((part) => part.kind)).not.toContain('lore');
  });
});
