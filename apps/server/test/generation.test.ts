import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SessionExpiredError,
  type ApiClient,
  type MateDraft,
  type SaveMatePayload,
} from '@mates/api-client';
import { startOnOpenAiDouble } from './openai-server';
import { signUp, type startTestServer, seededMate } from './harness';
import type { startOpenAiDouble } from './openai-double';

const DRAFT = {
  name: 'Marlowe Finch',
  tagline: 'A grumpy lighthouse keeper who writes poetry in secret.',
  description: '{{char}} keeps the Finch Point light and pretends to hate visitors.',
  personality: 'grumpy, tender, observant',
  scenario: '{{user}} is stranded at the lighthouse by a storm.',
  first_mes: '*{{char}} glares at the door.* Shut it. You are letting the weather in.',
  mes_example: '<START>\n{{user}}: Nice poem.\n{{char}}: It is a shopping list.',
  creator_notes: 'Soft under the crust.',
  alternate_greetings: ['*A kettle whistles.* Sit. Tea first.'],
  tags: ['Drama', 'cozy', 'not-a-tag'],
  gender: 'male',
};

describe('the model helping the user write', () => {
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ double, server, close } = await startOnOpenAiDouble({ apiKey: undefined, model: 'm' }));
  });
  afterAll(() => close());

  it('suggests three replies in the user’s language, as JSON the model was held to', async () => {
    const { client } = await signUp(server);
    const mate = await seededMate(server.db, 'Kai Tanaka');
    const room = await client.room.createRoom({ mateId: mate.id });
    const answer = JSON.stringify({
      suggestions: ['¿Qué lees?', 'Otro café, por favor.', '¿Cantas para mí?'],
    });
    double.next({ kind: 'stream', pieces: [answer.slice(0, 20), answer.slice(20)] });
    const { suggestions } = await client.girl.chatGetInspiration({ roomId: room.roomId });
    expect(suggestions).toEqual(['¿Qué lees?', 'Otro café, por favor.', '¿Cantas para mí?']);
    const request = double.requests.at(-1)!.body as {
      response_format: { type: string; json_schema: { schema: object } };
      messages: { content: string }[];
    };
    expect(request.response_format.type).toBe('json_schema');
    expect(request.messages.at(-1)!.content).toContain('Suggest three short, different messages');
    expect(request.messages.at(-1)!.content).toContain('in English.');
    // Nothing is written by asking for ideas.
    expect(
      await server.db
        .selectFrom('messages')
        .select('id')
        .where('room_id', '=', room.roomId)
        .execute(),
    ).toHaveLength(1);
  });

  it('says so clearly when the model gives no usable suggestions', async () => {
    const { client } = await signUp(server);
    const mate = await seededMate(server.db, 'Kai Tanaka');
    const room = await client.room.createRoom({ mateId: mate.id });
    double.next({ kind: 'stream', pieces: ['{"suggestions": ["only one"]}'] });
    await expect(client.girl.chatGetInspiration({ roomId: room.roomId })).rejects.toMatchObject({
      code: 5007,
      message: 'No suggestions came to mind this time. Please try again.',
    });
    await expect(
      server.client().girl.chatGetInspiration({ roomId: room.roomId }),
    ).rejects.toBeInstanceOf(SessionExpiredError);
  });

  it('suggests picture prompts of the current scene from the last messages and the mate’s looks', async () => {
    const { client } = await signUp(server);
    const mate = await server.db
      .selectFrom('mates')
      .select(['id', 'description'])
      .where('name', '=', 'Kai Tanaka')
      .executeTakeFirstOrThrow();
    const room = await client.room.createRoom({ mateId: mate.id });
    double.next({ kind: 'stream', pieces: ['Sure, the ferris wheel it is.'] });
    await client.girl.chatSend(
      { roomId: room.roomId, content: 'Let us ride the ferris wheel at dusk.' },
      { onData: () => {} },
    );
    const long = 'a tall young man with silver hair, '.repeat(40);
    const answer = JSON.stringify({
      suggestions: ['A young man in a ferris wheel cabin at dusk, city lights below', long],
    });
    double.next({ kind: 'stream', pieces: [answer] });
    const { suggestions } = await client.girl.chatGetInspiration({
      roomId: room.roomId,
      kind: 'picture',
    });
    expect(suggestions).toHaveLength(2);
    expect(suggestions[0]).toBe('A young man in a ferris wheel cabin at dusk, city lights below');
    // Longer than /room/createImage takes: cut to 1,000 characters.
    expect(suggestions[1]).toBe(long.slice(0, 1000).trim());
    const request = double.requests.at(-1)!.body as {
      response_format: { json_schema: { schema: { properties: { suggestions: object } } } };
      messages: { content: string }[];
    };
    expect(request.response_format.json_schema.schema.properties.suggestions).toMatchObject({
      minItems: 1,
      maxItems: 3,
    });
    const ask = request.messages.at(-1)!.content;
    expect(ask).toContain('prompts for a picture generator');
    // The mate's looks, its macros filled in as everywhere in the prompt.
    expect(ask).toContain(
      mate.description.trim().replaceAll('{{char}}', 'Kai Tanaka').slice(0, 100),
    );
    expect(ask).not.toContain('short, different messages');
    // The scene comes from the last messages, sent before the ask.
    expect(request.messages.some((m) => m.content.includes('ferris wheel at dusk'))).toBe(true);
  });

  it('refuses an unknown kind of suggestion before anything is spent or asked', async () => {
    const { client } = await signUp(server);
    const mate = await seededMate(server.db, 'Kai Tanaka');
    const room = await client.room.createRoom({ mateId: mate.id });
    const chatsBefore = (await client.user.benefits()).chats;
    const asked = double.requests.length;
    await expect(
      client.girl.chatGetInspiration({ roomId: room.roomId, kind: 'poem' as never }),
    ).rejects.toMatchObject({ code: 4000, message: expect.stringContaining('kind') });
    expect(double.requests.length).toBe(asked);
    expect((await client.user.benefits()).chats).toBe(chatsBefore);
  });

  it('drafts a mate from an idea, keeping only known tags, then saves it as the user’s own', async () => {
    const { userInfo, client } = await signUp(server);
    double.next({ kind: 'stream', pieces: [JSON.stringify(DRAFT)] });
    const draft = await client.mate.generateRole({
      idea: 'A grumpy lighthouse keeper who writes poetry',
    });
    expect(draft).toMatchObject({
      name: 'Marlowe Finch',
      tags: ['drama', 'cozy'],
      gender: 'male',
      nsfw: false,
      system_prompt: '',
    });
    expect(double.requests.at(-1)!.body).toMatchObject({
      response_format: { type: 'json_schema' },
    });

    const saved = await client.mate.saveMate({ ...draft, visibility: 'private' });
    expect(saved).toMatchObject({
      name: 'Marlowe Finch',
      visibility: 'private',
      creator: { creatorId: userInfo.uuid },
      tags: ['drama', 'cozy'],
    });
    expect(saved.avatar).toMatch(/^\/media\/avatars\/.+\.svg$/);
    await expect(
      server.client().mate.getMateDetail({ mateId: saved.mateId }),
    ).rejects.toMatchObject({ code: 4004 });

    const published = await client.mate.saveMate({
      ...draft,
      mateId: saved.mateId,
      visibility: 'public',
      tagline: 'Now public.',
    });
    expect(published).toMatchObject({
      mateId: saved.mateId,
      visibility: 'public',
      tagline: 'Now public.',
    });
    expect(
      (await server.client().mate.search({ keyword: 'marlowe' })).list.map((m) => m.mateId),
    ).toEqual([saved.mateId]);
  });

  /** The last request the provider got: its messages and the JSON schema it was held to. */
  const lastRequest = () => {
    const body = double.requests.at(-1)!.body as {
      messages: { role: string; content: string }[];
      response_format: { type: string; json_schema: { schema: Record<string, unknown> } };
    };
    return {
      prompt: body.messages.map((message) => message.content).join('\n'),
      schema: body.response_format.json_schema.schema as {
        properties: Record<string, { enum?: string[]; items?: { enum?: string[] } }>;
        required: string[];
      },
    };
  };
  const chatsOf = async (client: ApiClient) => (await client.user.benefits()).chats;

  it('drafts with the gender, tags, language and mature content asked for', async () => {
    const { client } = await signUp(server);
    await client.user.updateTags({ tags: [], nfsw: true });
    double.next({
      kind: 'stream',
      pieces: [JSON.stringify({ ...DRAFT, gender: 'female', tags: ['cozy', 'Mystery', 'nope'] })],
    });
    const draft = await client.mate.generateRole({
      idea: 'A lighthouse keeper',
      gender: 'female',
      tags: ['romance', 'fantasy'],
      nsfw: true,
      language: 'es',
    });
    // The tags asked for stay, first; the model's fitting known ones follow.
    expect(draft).toMatchObject({
      gender: 'female',
      tags: ['romance', 'fantasy', 'cozy', 'mystery'],
      nsfw: true,
    });
    const { prompt, schema } = lastRequest();
    expect(prompt).toContain('Write every field in Spanish.');
    expect(prompt).toContain('The character carries these tags: romance, fantasy');
    expect(prompt).toContain("The character's gender is female.");
    expect(prompt).toContain('Mature (not safe for work) themes are allowed');
    expect(prompt).toContain('A lighthouse keeper');
    expect(schema.properties.gender!.enum).toEqual(['female']);
    expect(schema.properties.tags!.items!.enum).toContain('romance');
    expect(schema.properties.tags!.items!.enum).not.toContain('nope');
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'first_mes', 'tags']));
  });

  it('writes in the caller’s language by default, safe for work', async () => {
    const { userInfo } = await signUp(server);
    const client = server.client({ token: userInfo.token, language: 'de' });
    double.next({ kind: 'stream', pieces: [JSON.stringify(DRAFT)] });
    const draft = await client.mate.generateRole({ idea: 'A lighthouse keeper' });
    expect(draft.nsfw).toBe(false);
    expect(lastRequest().prompt).toContain('Write every field in German.');
    expect(lastRequest().prompt).toContain('Keep it safe for work');
  });

  it('writes one field again, fitting the draft, and changes nothing else', async () => {
    const { client } = await signUp(server);
    const chats = await chatsOf(client);
    const draft: MateDraft = {
      ...DRAFT,
      gender: 'male',
      tags: ['drama', 'cozy'],
      system_prompt: 'Stay grumpy.',
      nsfw: false,
    };
    const greeting = '*{{char}} lights the lamp.* You came back. Sit down before you fall down.';
    double.next({ kind: 'stream', pieces: [JSON.stringify({ first_mes: greeting })] });
    const answer = await client.mate.generateRole({
      idea: 'A grumpy lighthouse keeper',
      field: 'first_mes',
      draft,
      language: 'fr',
    });
    expect(answer).toEqual({ ...draft, first_mes: greeting });
    const { prompt, schema } = lastRequest();
    expect(schema).toEqual({
      type: 'object',
      properties: { first_mes: { type: 'string' } },
      required: ['first_mes'],
      additionalProperties: false,
    });
    expect(prompt).toContain('Write only a new first_mes');
    expect(prompt).toContain('Write every field in French.');
    // The rest of the draft is what the new field must fit.
    expect(prompt).toContain('Marlowe Finch');
    expect(prompt).toContain('Finch Point light');
    expect(prompt).toContain("The character's gender is male.");
    expect(await chatsOf(client)).toBe(chats - 1);

    double.next({ kind: 'stream', pieces: [JSON.stringify({ tags: ['Mystery', 'nope'] })] });
    const retagged = await client.mate.generateRole({
      idea: 'A grumpy lighthouse keeper',
      field: 'tags',
      tags: ['romance'],
      draft,
    });
    expect(retagged).toEqual({ ...draft, tags: ['romance', 'mystery'] });
    expect(lastRequest().schema.properties.tags!.items!.enum).toContain('mystery');
    expect(Object.keys(lastRequest().schema.properties)).toEqual(['tags']);

    // An empty field is nothing usable: a clear notice, and the chat comes back.
    const before = await chatsOf(client);
    double.next({ kind: 'stream', pieces: [JSON.stringify({ name: '  ' })] });
    await expect(
      client.mate.generateRole({ idea: 'x', field: 'name', draft }),
    ).rejects.toMatchObject({
      code: 5007,
      message: 'The model could not write the name again this time. Please try again.',
    });
    expect(await chatsOf(client)).toBe(before);
  });

  it('refuses bad options before anything is spent or asked', async () => {
    const { client } = await signUp(server);
    const chats = await chatsOf(client);
    const asked = double.requests.length;
    const draft: MateDraft = { ...DRAFT, gender: 'male', tags: [], system_prompt: '', nsfw: false };
    await expect(
      client.mate.generateRole({ idea: 'x', tags: ['fantasy', 'not-a-tag'] }),
    ).rejects.toMatchObject({ code: 4000, message: 'tags: unknown tag "not-a-tag"' });
    await expect(client.mate.generateRole({ idea: 'x', field: 'name' })).rejects.toMatchObject({
      code: 4000,
      message: expect.stringMatching(/^draft: /),
    });
    await expect(
      client.mate.generateRole({ idea: 'x', field: 'voice' as never, draft }),
    ).rejects.toMatchObject({ code: 4000, message: expect.stringMatching(/^field: /) });
    await expect(
      client.mate.generateRole({ idea: 'x', language: 'Spanish please' }),
    ).rejects.toMatchObject({ code: 4000, message: expect.stringMatching(/^language: /) });
    await expect(
      client.mate.generateRole({ idea: 'x', gender: 'robot' as never }),
    ).rejects.toMatchObject({ code: 4000, message: expect.stringMatching(/^gender: /) });
    // Mature content only for users who turned it on.
    await expect(client.mate.generateRole({ idea: 'x', nsfw: true })).rejects.toMatchObject({
      code: 4003,
    });
    await expect(
      client.mate.generateRole({ idea: 'x', field: 'name', draft: { ...draft, nsfw: true } }),
    ).rejects.toMatchObject({ code: 4003 });
    expect(double.requests.length).toBe(asked);
    expect(await chatsOf(client)).toBe(chats);
  });

  it('refuses a draft it cannot read, and bad or foreign saves', async () => {
    const owner = await signUp(server);
    const other = await signUp(server);
    double.next({ kind: 'stream', pieces: ['{"name": "half a card"'] });
    await expect(owner.client.mate.generateRole({ idea: 'anything' })).rejects.toMatchObject({
      code: 5007,
    });
    const valid: SaveMatePayload = {
      ...DRAFT,
      tags: ['cozy'],
      gender: 'male',
      system_prompt: '',
      nsfw: false,
    };
    const saved = await owner.client.mate.saveMate(valid);
    await expect(
      other.client.mate.saveMate({ ...valid, mateId: saved.mateId, name: 'Stolen' }),
    ).rejects.toMatchObject({ code: 4004 });
    await expect(owner.client.mate.saveMate({ ...valid, tags: ['nope'] })).rejects.toMatchObject({
      code: 4000,
      message: 'tags: unknown tag "nope"',
    });
    await expect(owner.client.mate.saveMate({ ...valid, first_mes: ' ' })).rejects.toMatchObject({
      code: 4000,
    });
    await expect(server.client().mate.saveMate(valid)).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(server.client().mate.generateRole({ idea: 'x' })).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
    expect((await owner.client.mate.getMateDetail({ mateId: saved.mateId })).name).toBe(
      'Marlowe Finch',
    );
  });
});
