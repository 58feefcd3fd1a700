import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import {
  NetworkError,
  type ApiClient,
  type GenerateRolePayload,
  type Mate,
  type MateDraft,
  type SaveMatePayload,
  type SetPortraitPayload,
} from '@mates/api-client';
import { studioMachine, type StudioInput } from './studio-machine';
import { checkMateDraft, emptyMateDraft, isIdeaValid } from './mate-draft-rules';

const DRAFT: MateDraft = {
  ...emptyMateDraft(),
  name: 'Marisol Vega',
  tagline: 'A lighthouse keeper.',
  description: 'Keeps the last lighthouse.',
  first_mes: 'Come in, {{user}}.',
  alternate_greetings: ['Another stray?'],
  tags: ['fantasy'],
};

/** A deferred answer the test resolves or rejects when it wants, seeing the abort signal. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

/** A fake `client.mate` recording every call; each call waits for the test's answer. */
function fakeClient() {
  const calls = {
    generateRole: [] as { payload: GenerateRolePayload; signal?: AbortSignal; quiet?: boolean }[],
    saveMate: [] as SaveMatePayload[],
    setPortrait: [] as SetPortraitPayload[],
  };
  const answers = {
    generateRole: [] as ReturnType<typeof deferred<MateDraft>>[],
    saveMate: [] as ReturnType<typeof deferred<Mate>>[],
    setPortrait: [] as ReturnType<typeof deferred<Mate>>[],
  };
  const client = {
    mate: {
      generateRole: (
        payload: GenerateRolePayload,
        options?: { signal?: AbortSignal; quiet?: boolean },
      ) => {
        calls.generateRole.push({ payload, signal: options?.signal, quiet: options?.quiet });
        const answer = deferred<MateDraft>();
        answers.generateRole.push(answer);
        return answer.promise;
      },
      saveMate: (payload: SaveMatePayload) => {
        calls.saveMate.push(payload);
        const answer = deferred<Mate>();
        answers.saveMate.push(answer);
        return answer.promise;
      },
      setPortrait: (payload: SetPortraitPayload) => {
        calls.setPortrait.push(payload);
        const answer = deferred<Mate>();
        answers.setPortrait.push(answer);
        return answer.promise;
      },
    },
  } as unknown as Pick<ApiClient, 'mate'>;
  return { client, calls, answers };
}

function start(input: Omit<StudioInput, 'client'> = {}) {
  const fake = fakeClient();
  const actor = createActor(studioMachine, { input: { client: fake.client, ...input } });
  actor.start();
  return { actor, ...fake };
}

const mate = (overrides: Partial<Mate> = {}) =>
  ({ ...DRAFT, mateId: 'm-1', visibility: 'private', ...overrides }) as Mate;

describe('studioMachine', () => {
  it('composes, generates with the idea and its options, and edits the draft', async () => {
    const { actor, calls, answers } = start();
    expect(actor.getSnapshot().value).toBe('composing');
    actor.send({ type: 'GENERATE' });
    expect(actor.getSnapshot().value).toBe('composing');
    actor.send({
      type: 'IDEA.CHANGE',
      idea: { idea: ' A lighthouse keeper ', gender: 'female', tags: ['fantasy'], language: 'es' },
    });
    actor.send({ type: 'GENERATE' });
    expect(actor.getSnapshot().value).toBe('generating');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls.generateRole[0]!.payload).toEqual({
      idea: 'A lighthouse keeper',
      gender: 'female',
      tags: ['fantasy'],
      nsfw: false,
      language: 'es',
    });
    answers.generateRole[0]!.resolve(DRAFT);
    await waitFor(actor, (s) => s.matches({ editing: 'idle' }));
    expect(actor.getSnapshot().context.draft).toEqual(DRAFT);
  });

  it('refuses an idea over 1,000 characters or blank', () => {
    expect(isIdeaValid('x'.repeat(1000))).toBe(true);
    expect(isIdeaValid('x'.repeat(1001))).toBe(false);
    expect(isIdeaValid('   ')).toBe(false);
    const { actor, calls } = start({ idea: { idea: 'x'.repeat(1001) } });
    actor.send({ type: 'GENERATE' });
    expect(actor.getSnapshot().value).toBe('composing');
    expect(calls.generateRole).toHaveLength(0);
  });

  it('cancels a generation: the request is aborted and the idea kept', async () => {
    const { actor, calls } = start({ idea: { idea: 'A pirate' } });
    actor.send({ type: 'GENERATE' });
    const signal = calls.generateRole[0]!.signal!;
    expect(signal.aborted).toBe(false);
    actor.send({ type: 'CANCEL' });
    expect(signal.aborted).toBe(true);
    expect(actor.getSnapshot().value).toBe('composing');
    expect(actor.getSnapshot().context.idea.idea).toBe('A pirate');
  });

  it('a failed generation keeps what was typed and says why', async () => {
    const { actor, answers } = start({ idea: { idea: 'A pirate', tags: ['fantasy'] } });
    actor.send({ type: 'GENERATE' });
    answers.generateRole[0]!.reject(new Error('The model is resting'));
    await waitFor(actor, (s) => s.matches('composing'));
    const { context } = actor.getSnapshot();
    expect(context.error).toEqual({ failure: 'generate', message: 'The model is resting' });
    expect(context.idea).toMatchObject({ idea: 'A pirate', tags: ['fantasy'] });
  });

  it('a call that never reached the server says so, for the screen to word it', async () => {
    const { actor, answers } = start({ draft: DRAFT });
    actor.send({ type: 'SAVE', visibility: 'private' });
    answers.saveMate[0]!.reject(
      new NetworkError({
        method: 'POST',
        path: '/mate/saveMate',
        cause: new TypeError('Failed to fetch'),
      }),
    );
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.error).toMatchObject({ failure: 'save', network: true });
    expect(actor.getSnapshot().context.draft).toEqual(DRAFT);
  });

  it('asks quietly: a failure is the studio’s to say, not a notice as well', () => {
    const { actor, calls } = start({ idea: { idea: 'A pirate' } });
    actor.send({ type: 'GENERATE' });
    expect(calls.generateRole[0]!.quiet).toBe(true);
  });

  it('"write everything again" that fails or is cancelled keeps the edited draft', async () => {
    const { actor, answers } = start({ idea: { idea: 'A pirate' }, draft: DRAFT });
    actor.send({ type: 'DRAFT.CHANGE', draft: { name: 'Captain Vale' } });
    actor.send({ type: 'REGENERATE_ALL' });
    expect(actor.getSnapshot().value).toBe('generating');
    answers.generateRole[0]!.reject(new Error('Busy'));
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.draft!.name).toBe('Captain Vale');
    actor.send({ type: 'REGENERATE_ALL' });
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.draft!.name).toBe('Captain Vale');
  });

  it('writes one field again while the others stay editable, and keeps those edits', async () => {
    const { actor, calls, answers } = start({ idea: { idea: 'A keeper' }, draft: DRAFT });
    actor.send({ type: 'REGENERATE', field: 'tagline' });
    expect(actor.getSnapshot().matches({ editing: 'regenerating' })).toBe(true);
    expect(actor.getSnapshot().context.busyField).toBe('tagline');
    expect(calls.generateRole[0]!.payload).toMatchObject({ field: 'tagline', draft: DRAFT });
    actor.send({ type: 'DRAFT.CHANGE', draft: { name: 'Nell' } });
    answers.generateRole[0]!.resolve({ ...DRAFT, name: 'Other', tagline: 'A new line.' });
    await waitFor(actor, (s) => s.matches({ editing: 'idle' }));
    const { context } = actor.getSnapshot();
    expect(context.draft).toMatchObject({ name: 'Nell', tagline: 'A new line.' });
    expect(context.busyField).toBeNull();
  });

  it('a failed field keeps the draft; an edit-mode draft without an idea sends its name', async () => {
    const { actor, calls, answers } = start({ draft: DRAFT, mateId: 'm-1' });
    actor.send({ type: 'REGENERATE', field: 'first_mes' });
    expect(calls.generateRole[0]!.payload.idea).toBe('Marisol Vega');
    answers.generateRole[0]!.reject(new Error('No chats left'));
    await waitFor(actor, (s) => s.matches({ editing: 'idle' }));
    expect(actor.getSnapshot().context.error).toEqual({
      failure: 'regenerate',
      message: 'No chats left',
    });
    expect(actor.getSnapshot().context.draft).toEqual(DRAFT);
  });

  it('starts from scratch with an empty draft carrying the chosen options', () => {
    const { actor } = start({ idea: { gender: 'male', tags: ['sci-fi'], nsfw: true } });
    actor.send({ type: 'START_BLANK' });
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.draft).toEqual({
      ...emptyMateDraft(),
      gender: 'male',
      tags: ['sci-fi'],
      nsfw: true,
    });
  });

  it('refuses to save against the form rules, then saves a draft without a greeting', async () => {
    const { actor, calls, answers } = start({ draft: { ...DRAFT, first_mes: '' } });
    actor.send({ type: 'SAVE', visibility: 'private' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.checked).toBe(true);
    expect(calls.saveMate).toHaveLength(0);
    actor.send({ type: 'SAVE', visibility: 'draft' });
    expect(actor.getSnapshot().value).toBe('saving');
    expect(calls.saveMate[0]).toMatchObject({ name: 'Marisol Vega', visibility: 'draft' });
    expect(calls.saveMate[0]).not.toHaveProperty('mateId');
    answers.saveMate[0]!.resolve(mate({ visibility: 'draft' }));
    await waitFor(actor, (s) => s.matches('saved'));
    expect(actor.getSnapshot().context.saved!.mateId).toBe('m-1');
    expect(actor.getSnapshot().context.savedDraft).toEqual({ ...DRAFT, first_mes: '' });
  });

  it("saves the voice only once one is chosen: absent keeps the server's, null is the default", async () => {
    const { actor, calls, answers } = start({ draft: DRAFT, mateId: 'm-1' });
    actor.send({ type: 'SAVE', visibility: 'private' });
    expect(calls.saveMate[0]).not.toHaveProperty('voice');
    answers.saveMate[0]!.resolve(mate());
    await waitFor(actor, (s) => s.matches('saved'));
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'VOICE.CHANGE', voice: 'embedded-rms' });
    actor.send({ type: 'SAVE', visibility: 'private' });
    expect(calls.saveMate[1]).toMatchObject({ mateId: 'm-1', voice: 'embedded-rms' });
    answers.saveMate[1]!.resolve(mate({ voice: 'embedded-rms' }));
    await waitFor(actor, (s) => s.matches('saved'));
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'VOICE.CHANGE', voice: null });
    actor.send({ type: 'SAVE', visibility: 'private' });
    expect(calls.saveMate[2]).toMatchObject({ voice: null });
    // The voice given at start (the mate being edited) is saved as it was.
    const again = start({ draft: DRAFT, mateId: 'm-1', voice: 'embedded-awb' });
    again.actor.send({ type: 'SAVE', visibility: 'private' });
    expect(again.calls.saveMate[0]).toMatchObject({ voice: 'embedded-awb' });
  });

  it('a failed save keeps the draft and says why', async () => {
    const { actor, answers } = start({ draft: DRAFT });
    actor.send({ type: 'SAVE', visibility: 'public' });
    answers.saveMate[0]!.reject(new Error('tags: unknown tag "x"'));
    await waitFor(actor, (s) => s.matches({ editing: 'idle' }));
    expect(actor.getSnapshot().context.draft).toEqual(DRAFT);
    expect(actor.getSnapshot().context.error!.failure).toBe('save');
  });

  it('saves then applies the picked portrait; a failed portrait keeps the new mate id', async () => {
    const { actor, calls, answers } = start({ draft: DRAFT });
    actor.send({ type: 'PORTRAIT.CHANGE', portrait: { choiceId: 'c-2', url: 'data:x' } });
    actor.send({ type: 'SAVE', visibility: 'private' });
    answers.saveMate[0]!.resolve(mate({ mateId: 'm-9' }));
    await waitFor(actor, (s) => s.matches('settingPortrait'));
    expect(calls.setPortrait[0]).toEqual({ mateId: 'm-9', choiceId: 'c-2' });
    answers.setPortrait[0]!.reject(new Error('The image is too small'));
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.error!.failure).toBe('portrait');
    // Saving again updates the mate made the first time, and tries the portrait again.
    actor.send({ type: 'SAVE', visibility: 'private' });
    expect(calls.saveMate[1]).toMatchObject({ mateId: 'm-9' });
    answers.saveMate[1]!.resolve(mate({ mateId: 'm-9' }));
    await waitFor(actor, (s) => s.matches('settingPortrait'));
    answers.setPortrait[1]!.resolve(mate({ mateId: 'm-9', avatar: '/media/p.webp' }));
    await waitFor(actor, (s) => s.matches('saved'));
    expect(actor.getSnapshot().context.saved!.avatar).toBe('/media/p.webp');
    expect(actor.getSnapshot().context.portrait).toBeNull();
  });

  it('sends an uploaded image as base64', async () => {
    const { actor, calls, answers } = start({ draft: DRAFT, mateId: 'm-1' });
    actor.send({ type: 'PORTRAIT.CHANGE', portrait: { image: 'iVBOR', url: 'data:image/png' } });
    actor.send({ type: 'SAVE', visibility: 'public' });
    expect(calls.saveMate[0]).toMatchObject({ mateId: 'm-1', visibility: 'public' });
    answers.saveMate[0]!.resolve(mate());
    await waitFor(actor, (s) => s.matches('settingPortrait'));
    expect(calls.setPortrait[0]).toEqual({ mateId: 'm-1', image: 'iVBOR' });
  });

  it('keeps what is typed while a save is under way, and saves it only when asked', async () => {
    const { actor, calls, answers } = start({ draft: DRAFT });
    actor.send({ type: 'PORTRAIT.CHANGE', portrait: { choiceId: 'c-2', url: 'data:x' } });
    actor.send({ type: 'SAVE', visibility: 'private' });
    actor.send({ type: 'DRAFT.CHANGE', draft: { tagline: 'A lighthouse keeper who sings.' } });
    answers.saveMate[0]!.resolve(mate({ mateId: 'm-9' }));
    await waitFor(actor, (s) => s.matches('settingPortrait'));
    actor.send({ type: 'DRAFT.CHANGE', draft: { description: 'Keeps the last lighthouse lit.' } });
    answers.setPortrait[0]!.resolve(mate({ mateId: 'm-9' }));
    // Saved, and the words typed meanwhile are still on the form, not yet saved.
    await waitFor(actor, (s) => s.matches({ editing: 'idle' }));
    const { context } = actor.getSnapshot();
    expect(context.draft).toMatchObject({
      tagline: 'A lighthouse keeper who sings.',
      description: 'Keeps the last lighthouse lit.',
    });
    expect(context.savedDraft).toEqual(DRAFT);
    expect(context.saved!.mateId).toBe('m-9');
    expect(calls.saveMate[0]).toMatchObject({ tagline: DRAFT.tagline });
    // Saving again updates the same mate with them.
    actor.send({ type: 'SAVE', visibility: 'private' });
    expect(calls.saveMate[1]).toMatchObject({
      mateId: 'm-9',
      tagline: 'A lighthouse keeper who sings.',
    });
    answers.saveMate[1]!.resolve(mate({ mateId: 'm-9' }));
    await waitFor(actor, (s) => s.matches('saved'));
  });

  it('goes back to editing after saving', async () => {
    const { actor, answers } = start({ draft: DRAFT });
    actor.send({ type: 'SAVE', visibility: 'private' });
    answers.saveMate[0]!.resolve(mate());
    await waitFor(actor, (s) => s.matches('saved'));
    actor.send({ type: 'EDIT' });
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.mateId).toBe('m-1');
  });
});

describe('checkMateDraft', () => {
  it('needs a name always and a greeting except for drafts', () => {
    const blank = emptyMateDraft();
    expect(checkMateDraft(blank, 'draft')).toEqual({ name: 'required' });
    expect(checkMateDraft(blank, 'private')).toEqual({ name: 'required', first_mes: 'required' });
    expect(checkMateDraft(DRAFT, 'public')).toEqual({});
  });

  it('holds every field to the server limits', () => {
    const long = {
      ...DRAFT,
      name: 'n'.repeat(101),
      personality: 'p'.repeat(2001),
      alternate_greetings: ['ok', 'g'.repeat(8001)],
      tags: Array.from({ length: 11 }, (_, index) => `t${index}`),
    };
    expect(checkMateDraft(long, 'draft')).toEqual({
      name: 'tooLong',
      personality: 'tooLong',
      'alternate_greetings.1': 'tooLong',
      tags: 'tooMany',
    });
    expect(checkMateDraft({ ...DRAFT, name: 'n'.repeat(100) }, 'public')).toEqual({});
  });
});
