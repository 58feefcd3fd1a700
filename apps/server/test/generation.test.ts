import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionExpiredError, type SaveMatePayload } from '@mates/api-client';
import { startOnOpenAiDouble } from './openai-server';
import { signUp, type startTestServer } from './harness';
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
    const mate = await server.db
      .selectFrom('mates')
      .select('id')
      .where('name', '=', 'Kai Tanaka')
      .executeTakeFirstOrThrow();
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
    const mate = await server.db
      .selectFrom('mates')
      .select('id')
      .where('name', '=', 'Kai Tanaka')
      .executeTakeFirstOrThrow();
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
