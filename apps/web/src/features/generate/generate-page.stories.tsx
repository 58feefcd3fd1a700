import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { delay, http, HttpResponse } from 'msw';
import type {
  GenerateRolePayload,
  Mate,
  SaveMatePayload,
  SetPortraitPayload,
  TextToAudioPayload,
} from '@mates/api-client';
import {
  createBenefitsFixture,
  createMateDraftFixture,
  createAudioClipFixture,
  createMateFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import {
  api,
  expectBackLinkFirst,
  expectBalances,
  missingLoad,
  screenStories,
  visitorAt,
  visitorClosesSignInAt,
  type StoryApp,
} from '../../testing/story-app';

const meta = { title: 'Screens/Create a mate', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

type Canvas = ReturnType<typeof within>;
const signedIn = { app: { path: '/generate', signedIn: true } };
const IDEA = 'A lighthouse keeper who collects stories';

/** Types the idea and presses Generate. */
async function generate(canvas: Canvas) {
  await userEvent.type(await canvas.findByRole('textbox', { name: 'Your idea' }), IDEA);
  await userEvent.click(canvas.getByRole('button', { name: 'Generate' }));
}

/** Generates, and waits for the draft's form. */
async function generateDraft(canvas: Canvas) {
  await generate(canvas);
  await expect(await canvas.findByRole('textbox', { name: 'Name' })).toHaveValue('Marisol Vega');
}

/** Generates, renames the draft "Marisol Vega Jr", saves it private and answers the alert said. */
async function saveChangedDraft(canvas: Canvas) {
  await generateDraft(canvas);
  await userEvent.type(canvas.getByRole('textbox', { name: 'Name' }), ' Jr');
  await userEvent.click(canvas.getByRole('button', { name: 'Save private' }));
  return canvas.findByRole('alert');
}

// The signed-in fixture user, as the creator of what they save.
const ADA = { creatorId: 'user-1', name: 'Ada', avatar: null };

// What the mocked server received during one story, and the mate it saved last.
const sent = { saves: [] as SaveMatePayload[], portraits: [] as SetPortraitPayload[] };
let lastSaved: Mate | null = null;
const recordSaves = [
  mockEndpoint('/mate/saveMate', ({ body }) => {
    const payload = body as SaveMatePayload;
    sent.saves.push(payload);
    lastSaved = createMateFixture({
      ...payload,
      mateId: payload.mateId ?? 'mate-saved',
      visibility: payload.visibility ?? 'private',
      creator: ADA,
    });
    return lastSaved;
  }),
  mockEndpoint('/mate/setPortrait', ({ body }) => {
    sent.portraits.push(body as SetPortraitPayload);
    return { ...lastSaved!, avatar: '/media/portraits/new.webp' };
  }),
];
// The first save of a story holding it answers only once the story opens it (after typing).
const firstSave = { open: () => {}, opened: Promise.resolve() };
const holdFirstSave = () => {
  firstSave.opened = new Promise((resolve) => (firstSave.open = resolve));
};
const resetServer = () => {
  sent.saves = [];
  sent.portraits = [];
  lastSaved = null;
};

export const SignedOut: Story = visitorAt('/generate');

/** "Sign in" opens the popup; closing it returns to discover. */
export const CloseSignInAndReturnHome: Story = visitorClosesSignInAt('/generate');

/**
 * The idea, its options and the cost, stated before the Generate button. No header or footer:
 * the balances are shown beside the way back, which comes first.
 */
export const Empty: Story = {
  parameters: signedIn,
  play: async ({ canvas, canvasElement, loaded }) => {
    await expectBackLinkFirst(canvasElement, '← Your mates', '#/mine');
    await expectBalances(canvasElement, loaded.app as StoryApp);
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Create a mate' }),
    ).toBeVisible();
    await expect(canvas.getByRole('textbox', { name: 'Your idea' })).toHaveValue('');
    await expect(canvas.getByText('0 / 1,000 characters')).toBeVisible();
    await expect(canvas.getByRole('combobox', { name: 'Gender' })).toBeVisible();
    await expect(canvas.getByRole('combobox', { name: 'Language' })).toBeVisible();
    await expect(await canvas.findByRole('button', { name: 'Fantasy' })).toBeVisible();
    // The mature switch only for users who turned the preference on.
    await expect(canvas.queryByRole('switch', { name: 'Mature content' })).toBeNull();
    const cost = await canvas.findByText('Costs 1 chat · you have 20');
    const button = canvas.getByRole('button', { name: 'Generate' });
    await expect(
      cost.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    await expect(button).toHaveAccessibleDescription('Costs 1 chat · you have 20');
    await expect(canvas.getByRole('button', { name: 'Start from scratch' })).toBeVisible();
    await expect(canvas.queryByRole('banner')).toBeNull();
    await expect(canvas.queryByRole('contentinfo')).toBeNull();
  },
};

/** With the mature preference on, the idea may ask for mature content; options reach the server. */
export const MatureAllowed: Story = {
  parameters: {
    app: { path: '/generate', signedIn: true, state: { nfsw: true } },
    msw: { handlers: api(mockEndpointLoading('/mate/generateRole')) },
  },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('switch', { name: 'Mature content' }));
    await expect(canvas.getByRole('switch', { name: 'Mature content' })).toBeChecked();
  },
};

/** Generating shows its seconds, politely announced, with Cancel; what was typed stays. */
export const GenerateShowsProgress: Story = {
  parameters: { ...signedIn, msw: { handlers: api(mockEndpointLoading('/mate/generateRole')) } },
  play: async ({ canvas }) => {
    await generate(canvas);
    const status = await canvas.findByRole('status');
    await expect(status).toHaveTextContent(/Writing your mate… \d+ s/);
    await expect(status).toHaveAttribute('aria-live', 'polite');
    await expect(canvas.getByRole('textbox', { name: 'Your idea' })).toHaveValue(IDEA);
    await userEvent.click(canvas.getByRole('button', { name: 'Cancel' }));
    await expect(await canvas.findByRole('button', { name: 'Generate' })).toBeVisible();
    await expect(canvas.getByRole('textbox', { name: 'Your idea' })).toHaveValue(IDEA);
  },
};

/** The draft is a form of every field, each with "Write again", and the greeting's preview. */
export const GeneratedDraft: Story = {
  parameters: signedIn,
  play: async ({ canvas }) => {
    await generateDraft(canvas);
    for (const [label, value] of [
      ['Tagline', 'A lighthouse keeper who collects the stories ships leave behind.'],
      ['Personality', 'patient, dry-humoured, curious, protective of her island'],
    ] as const)
      await expect(canvas.getByRole('textbox', { name: label })).toHaveValue(value);
    for (const label of [
      'Description',
      'Scenario',
      'Greeting',
      'Example dialogue',
      'Alternate greeting 1',
    ])
      await expect(canvas.getByRole('textbox', { name: label })).toBeVisible();
    for (const field of ['Name', 'Tagline', 'Greeting', 'Alternate greetings', 'Tags'])
      await expect(canvas.getByRole('button', { name: `Write again: ${field}` })).toBeEnabled();
    await expect(canvas.getByRole('button', { name: 'Write everything again' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Fantasy' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // {{user}} is the reader's nickname in the preview; the alternate greeting can be switched to.
    const preview = canvas.getByRole('article', { name: 'Marisol Vega says' });
    await expect(preview).toHaveTextContent('You picked a fine night to wash up, Ada.');
    await userEvent.click(canvas.getByRole('button', { name: 'Alternate 1' }));
    await expect(canvas.getByRole('article', { name: 'Marisol Vega says' })).toHaveTextContent(
      'Another stray?',
    );
    const portraits = await canvas.findByRole('group', { name: 'Pick a portrait' });
    await expect(await within(portraits).findAllByRole('radio')).toHaveLength(6);
    await expect(
      within(portraits).getByRole('radio', { name: 'Portrait 1 of 6' }),
    ).not.toBeChecked();
    for (const name of ['Save as draft', 'Save private', 'Publish'])
      await expect(canvas.getByRole('button', { name })).toBeEnabled();
  },
};

/** One field is written again: only it shows busy, the others stay editable. */
export const OneFieldRegenerating: Story = {
  parameters: {
    ...signedIn,
    msw: {
      handlers: api(
        mockEndpoint('/mate/generateRole', async ({ body }) => {
          if ((body as GenerateRolePayload).field) await delay('infinite');
          return createMateDraftFixture();
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    await generateDraft(canvas);
    await userEvent.click(canvas.getByRole('button', { name: 'Write again: Tagline' }));
    await expect(await canvas.findByRole('status')).toHaveTextContent('Writing Tagline…');
    await expect(canvas.getByRole('textbox', { name: 'Tagline' })).toBeDisabled();
    const name = canvas.getByRole('textbox', { name: 'Name' });
    await expect(name).toBeEnabled();
    await userEvent.type(name, ' Jr');
    await expect(name).toHaveValue('Marisol Vega Jr');
    await expect(canvas.getByRole('button', { name: 'Write again: Name' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  },
};

/**
 * "Write again" pressed from the keyboard keeps the focus while the field is written and after:
 * the button stays (it says it cannot act meanwhile), the field's progress is said beside it.
 */
export const WriteAgainFromTheKeyboardKeepsFocus: Story = {
  parameters: {
    ...signedIn,
    msw: {
      handlers: api(
        mockEndpoint('/mate/generateRole', async ({ body }) => {
          if ((body as GenerateRolePayload).field) await delay(400);
          return createMateDraftFixture();
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    await generateDraft(canvas);
    const again = canvas.getByRole('button', { name: 'Write again: Tagline' });
    again.focus();
    await userEvent.keyboard('{Enter}');
    await expect(await canvas.findByRole('status')).toHaveTextContent('Writing Tagline…');
    await expect(again).toHaveFocus();
    await expect(again).toHaveAttribute('aria-disabled', 'true');
    // Another press meanwhile asks for nothing more.
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(canvas.queryByText('Writing Tagline…')).toBeNull());
    await expect(again).toHaveFocus();
    await expect(again).not.toHaveAttribute('aria-disabled', 'true');
  },
};

/** No chats left: said before the button, with the way to get more; Generate is off. */
export const NoChatsLeft: Story = {
  parameters: {
    ...signedIn,
    msw: {
      handlers: api(mockEndpoint('/user/benefits', () => createBenefitsFixture({ chats: 0 }))),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText(/you have none left/)).toHaveTextContent(
      'Costs 1 chat · you have none left.',
    );
    await expect(canvas.getByRole('link', { name: 'Get more chats' })).toHaveAttribute(
      'href',
      '#/subscription',
    );
    await expect(canvas.getByRole('button', { name: 'Generate' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Start from scratch' })).toBeEnabled();
  },
};

/** A failed generation says why and keeps the idea. */
export const GenerationError: Story = {
  parameters: {
    ...signedIn,
    msw: { handlers: api(mockEndpointError('/mate/generateRole', 5000, 'The model is resting')) },
  },
  play: async ({ canvas }) => {
    await generate(canvas);
    const alert = await canvas.findByRole('alert');
    await expect(alert).toHaveTextContent('The draft could not be written: The model is resting');
    await expect(canvas.getByRole('textbox', { name: 'Your idea' })).toHaveValue(IDEA);
  },
};

/** A draft the server cannot write (5007, no model): said once, by the form, not in a notice too. */
export const GenerationNotAvailable: Story = {
  parameters: {
    ...signedIn,
    msw: {
      handlers: api(
        mockEndpointError(
          '/mate/generateRole',
          5007,
          'The model is not available right now. Please try again later.',
        ),
      ),
    },
  },
  play: async ({ canvas, loaded }) => {
    await generate(canvas);
    const alert = await canvas.findByRole('alert');
    await expect(alert).toHaveTextContent(
      'The draft could not be written: The model is not available right now.',
    );
    const { app } = loaded as { app: StoryApp };
    await expect(app.services.notices.getSnapshot().context.notices).toEqual([]);
  },
};

/** A failed save says why and keeps every field. */
export const SavingError: Story = {
  parameters: {
    ...signedIn,
    msw: { handlers: api(mockEndpointError('/mate/saveMate', 4000, 'tags: unknown tag "x"')) },
  },
  play: async ({ canvas }) => {
    const alert = await saveChangedDraft(canvas);
    await expect(alert).toHaveTextContent(
      'Not saved. Your work is still here. tags: unknown tag "x"',
    );
    await expect(canvas.getByRole('textbox', { name: 'Name' })).toHaveValue('Marisol Vega Jr');
  },
};

/**
 * A save that never reaches the server (offline): said in the person's words, not as the
 * client's "POST /mate/saveMate failed: Failed to fetch"; every field is kept.
 */
export const SavingOffline: Story = {
  parameters: {
    ...signedIn,
    msw: { handlers: api(http.post('*/mate/saveMate', () => HttpResponse.error())) },
  },
  play: async ({ canvas }) => {
    const alert = await saveChangedDraft(canvas);
    await expect(alert).toHaveTextContent(
      'Not saved. Your work is still here. The server could not be reached. Check your connection and try again.',
    );
    await expect(alert).not.toHaveTextContent('/mate/saveMate');
    await expect(canvas.getByRole('textbox', { name: 'Name' })).toHaveValue('Marisol Vega Jr');
  },
};

/**
 * Saved from the keyboard, and refused: the button pressed keeps the focus while it saves and
 * after, so Enter can try again (a disabled button dropped the focus to the page).
 */
export const SaveFromTheKeyboardKeepsFocus: Story = {
  parameters: {
    ...signedIn,
    msw: {
      handlers: api(
        http.post('*/mate/saveMate', async () => {
          await delay(300);
          return HttpResponse.json({ c: 4000, m: 'tags: unknown tag "x"', d: null });
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    await generateDraft(canvas);
    const save = canvas.getByRole('button', { name: 'Save private' });
    save.focus();
    await userEvent.keyboard('{Enter}');
    await expect(await canvas.findByText('Saving…')).toBeVisible();
    await expect(save).toHaveFocus();
    await expect(save).toHaveAttribute('aria-disabled', 'true');
    await canvas.findByRole('alert');
    await expect(save).toHaveFocus();
  },
};

/** Saved private with a picked portrait: links to chat, to the mate, and to "Your mates". */
export const Saved: Story = {
  loaders: [resetServer],
  parameters: { ...signedIn, msw: { handlers: api(...recordSaves) } },
  play: async ({ canvas, loaded }) => {
    await generateDraft(canvas);
    await userEvent.click(await canvas.findByRole('radio', { name: 'Portrait 2 of 6' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Save private' }));
    await expect(
      await canvas.findByRole('heading', { name: 'Marisol Vega is saved' }),
    ).toBeVisible();
    await expect(sent.saves[0]).toMatchObject({ name: 'Marisol Vega', visibility: 'private' });
    await expect(sent.portraits).toEqual([
      { mateId: 'mate-saved', choiceId: 'fixture:Marisol Vega:1' },
    ]);
    await expect(canvas.getByText('Only you can see it.')).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'See it' })).toHaveAttribute(
      'href',
      '#/detail?mateId=mate-saved',
    );
    await expect(canvas.getByRole('link', { name: 'Your mates' })).toHaveAttribute(
      'href',
      '#/mine',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Chat now' }));
    const app = loaded.app as {
      router: { state: { location: { pathname: string; search: string } } };
    };
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/chat-detail'));
    await expect(app.router.state.location.search).toBe('?roomId=room-1');
  },
};

/**
 * Words typed while the save is under way stay on the form: the mate is saved as it was, the
 * form says what is not saved yet, and the next save sends them to the same mate.
 */
export const TypingWhileSaving: Story = {
  loaders: [resetServer, holdFirstSave],
  parameters: {
    ...signedIn,
    msw: {
      handlers: api(
        mockEndpoint('/mate/saveMate', async ({ body }) => {
          if (sent.saves.length === 0) await firstSave.opened;
          const payload = body as SaveMatePayload;
          sent.saves.push(payload);
          return createMateFixture({
            ...payload,
            mateId: payload.mateId ?? 'mate-saved',
            visibility: payload.visibility ?? 'private',
            creator: ADA,
          });
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    await generateDraft(canvas);
    await userEvent.click(canvas.getByRole('button', { name: 'Save private' }));
    await expect(await canvas.findByText('Saving…')).toBeVisible();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Name' }), ' Jr');
    firstSave.open();
    await expect(
      await canvas.findByText('Saved. What you changed since is not saved yet.'),
    ).toBeVisible();
    await expect(canvas.getByRole('textbox', { name: 'Name' })).toHaveValue('Marisol Vega Jr');
    await expect(sent.saves[0]).toMatchObject({ name: 'Marisol Vega' });
    await userEvent.click(canvas.getByRole('button', { name: 'Save private' }));
    await expect(
      await canvas.findByRole('heading', { name: 'Marisol Vega Jr is saved' }),
    ).toBeVisible();
    await expect(sent.saves[1]).toMatchObject({ mateId: 'mate-saved', name: 'Marisol Vega Jr' });
  },
};

/** In French, whatever the browser's own language, the idea's count writes "1 000", not "1,000". */
export const IdeaInFrench: Story = {
  parameters: { app: { ...signedIn.app, language: 'fr' } },
  play: async ({ canvas }) => {
    await canvas.findByRole('textbox', { name: 'Ton idée' });
    const thousand = new Intl.NumberFormat('fr').format(1000);
    await expect(thousand).not.toBe('1,000');
    const count = canvas.getByText(/caractères/);
    await expect(count.textContent).toBe(`0 / ${thousand} caractères`);
  },
};

/** Publishing and saving private need a name and a greeting; each message is tied to its field. */
export const SaveNeedsANameAndAGreeting: Story = {
  loaders: [resetServer],
  parameters: { ...signedIn, msw: { handlers: api(...recordSaves) } },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Start from scratch' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Publish' }));
    const name = canvas.getByRole('textbox', { name: 'Name' });
    const greeting = canvas.getByRole('textbox', { name: 'Greeting' });
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription('Give your mate a name.');
    await expect(greeting).toHaveAttribute('aria-invalid', 'true');
    await expect(greeting).toHaveAccessibleDescription(
      'Write a greeting: it opens every chat. (A draft can wait.)',
    );
    await expect(canvas.getByRole('alert')).toHaveTextContent('Fix the marked fields to save.');
    // The first marked field takes the focus: it may be far above the buttons.
    await waitFor(() => expect(name).toHaveFocus());
    await userEvent.type(name, 'Nell');
    await userEvent.click(canvas.getByRole('button', { name: 'Save private' }));
    await expect(greeting).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(greeting).toHaveFocus());
    await expect(sent.saves).toHaveLength(0);
  },
};

/** A draft may be saved without a greeting. */
export const SaveADraftWithoutAGreeting: Story = {
  loaders: [resetServer],
  parameters: { ...signedIn, msw: { handlers: api(...recordSaves) } },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Start from scratch' }));
    await userEvent.type(await canvas.findByRole('textbox', { name: 'Name' }), 'Nell');
    await userEvent.click(canvas.getByRole('button', { name: 'Save as draft' }));
    await expect(await canvas.findByRole('heading', { name: 'Nell is saved' })).toBeVisible();
    await expect(sent.saves[0]).toMatchObject({ name: 'Nell', first_mes: '', visibility: 'draft' });
    // A draft cannot be chatted with yet.
    await expect(canvas.queryByRole('button', { name: 'Chat now' })).toBeNull();
  },
};

/** An idea over 1,000 characters is refused, with the reason on the field. */
export const IdeaOverTheLimit: Story = {
  parameters: { ...signedIn, msw: { handlers: api(mockEndpointLoading('/mate/generateRole')) } },
  play: async ({ canvas }) => {
    const idea = await canvas.findByRole('textbox', { name: 'Your idea' });
    await userEvent.click(idea);
    await userEvent.paste('x'.repeat(1001));
    await expect(canvas.getByText('1,001 / 1,000 characters')).toBeVisible();
    await expect(idea).toHaveAttribute('aria-invalid', 'true');
    await expect(idea).toHaveAccessibleDescription('Keep the idea to 1,000 characters or fewer.');
    await userEvent.click(canvas.getByRole('button', { name: 'Generate' }));
    await expect(canvas.queryByRole('status')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Generate' })).toBeVisible();
  },
};

const OWN_MATE = createMateFixture({
  mateId: 'mate-own',
  name: 'Lyra Moonwhisper',
  visibility: 'private',
  creator: ADA,
});

/** Editing one of the caller's mates: the same form, filled, and "Save changes" updates it. */
export const EditExistingMate: Story = {
  loaders: [resetServer],
  parameters: {
    app: { path: '/generate?mateId=mate-own', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/getMateDetail', () => OWN_MATE),
        ...recordSaves,
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Edit Lyra Moonwhisper' }),
    ).toBeVisible();
    const greeting = await canvas.findByRole('textbox', { name: 'Greeting' });
    await expect(greeting).toHaveValue(OWN_MATE.first_mes);
    await userEvent.clear(greeting);
    await userEvent.type(greeting, 'Hello again, {{{{user}}.');
    await expect(canvas.getByRole('article', { name: 'Lyra Moonwhisper says' })).toHaveTextContent(
      'Hello again, Ada.',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Save changes' }));
    await expect(
      await canvas.findByRole('heading', { name: 'Lyra Moonwhisper is saved' }),
    ).toBeVisible();
    await expect(sent.saves[0]).toMatchObject({
      mateId: 'mate-own',
      visibility: 'private',
      first_mes: 'Hello again, {{user}}.',
    });
  },
};

/** The page's one `<audio>` element. */
const player = (canvasElement: HTMLElement) =>
  canvasElement.ownerDocument.querySelector<HTMLAudioElement>('audio[data-voice-player]')!;

// What the stories' app asked of /voice/textToAudio, as the server received it.
const samples: TextToAudioPayload[] = [];
const recordSamples = mockEndpoint('/voice/textToAudio', ({ body }) => {
  samples.push(body as TextToAudioPayload);
  return createAudioClipFixture();
});
const resetVoice = () => {
  resetServer();
  samples.length = 0;
};

/**
 * "Voice" lists the server's voices after "Default for this mate"; "Preview voice" speaks the
 * greeting in the chosen voice through the page's player; saving sends the voice.
 */
export const ChooseAVoice: Story = {
  loaders: [resetVoice],
  parameters: { ...signedIn, msw: { handlers: api(...recordSaves, recordSamples) } },
  play: async ({ canvas, canvasElement }) => {
    await generateDraft(canvas);
    const select = await canvas.findByRole('combobox', { name: 'Voice' });
    await expect(select).toHaveTextContent('Default for this mate');
    await expect(canvas.getByText('How the mate sounds when a message is played.')).toBeVisible();
    await userEvent.click(select);
    const body = within(canvasElement.ownerDocument.body);
    const listbox = await body.findByRole('listbox');
    await expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Default for this mate',
      'Sally (female, en-US)',
      'Robert (male, en-US)',
      'Alan (male, en-GB)',
      'Ken (male, en-US)',
    ]);
    await userEvent.click(within(listbox).getByRole('option', { name: 'Robert (male, en-US)' }));
    await expect(select).toHaveTextContent('Robert (male, en-US)');
    await userEvent.click(canvas.getByRole('button', { name: 'Preview voice' }));
    await expect(await canvas.findByRole('button', { name: 'Stop preview' })).toBeVisible();
    await waitFor(() => expect(player(canvasElement).src).toMatch(/^data:audio\/wav;base64,/));
    await expect(samples).toHaveLength(1);
    await expect(samples[0]!.voice).toBe('embedded-rms');
    // The greeting, as the reader would see it: no markdown, {{user}} as their nickname.
    await expect(samples[0]!.text).toBe(
      'Marisol holds the lantern higher. You picked a fine night to wash up, Ada. Come in before the wind takes you.',
    );
    // Stopping silences the page's player.
    await userEvent.click(canvas.getByRole('button', { name: 'Stop preview' }));
    await expect(await canvas.findByRole('button', { name: 'Preview voice' })).toBeVisible();
    await expect(player(canvasElement).getAttribute('src')).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Save private' }));
    await expect(
      await canvas.findByRole('heading', { name: 'Marisol Vega is saved' }),
    ).toBeVisible();
    await expect(sent.saves[0]).toMatchObject({ name: 'Marisol Vega', voice: 'embedded-rms' });
  },
};

/** A new mate saved without choosing a voice sends none: the server's default follows it. */
export const DefaultVoiceIsNotSent: Story = {
  loaders: [resetVoice],
  parameters: { ...signedIn, msw: { handlers: api(...recordSaves) } },
  play: async ({ canvas }) => {
    await generateDraft(canvas);
    await canvas.findByRole('combobox', { name: 'Voice' });
    await userEvent.click(canvas.getByRole('button', { name: 'Save as draft' }));
    await expect(await canvas.findByRole('heading', { name: /is saved$/ })).toBeVisible();
    await expect(sent.saves[0]).not.toHaveProperty('voice');
  },
};

/**
 * Changing only the voice of a saved mate is unsaved work: it is kept on this device, leaving
 * asks first, and "Save changes" sends it.
 */
export const ChangingOnlyTheVoice: Story = {
  loaders: [resetVoice],
  parameters: {
    app: { path: '/generate?mateId=mate-own', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/getMateDetail', () => ({ ...OWN_MATE, voice: 'embedded-slt' })),
        ...recordSaves,
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const select = await canvas.findByRole('combobox', { name: 'Voice' });
    await expect(select).toHaveTextContent('Sally (female, en-US)');
    // Nothing changed yet: nothing kept, and leaving does not ask.
    await expect(app.services.storage.getItem('mates.studio.mate-own')).toBeFalsy();
    await userEvent.click(select);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await body.findByRole('option', { name: 'Alan (male, en-GB)' }));
    await waitFor(() =>
      expect(
        JSON.parse(app.services.storage.getItem('mates.studio.mate-own') ?? '{}'),
      ).toMatchObject({ voice: 'embedded-awb' }),
    );
    void app.router.navigate('/mine');
    const dialog = await body.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Save changes' }));
    await expect(
      await canvas.findByRole('heading', { name: 'Lyra Moonwhisper is saved' }),
    ).toBeVisible();
    await expect(sent.saves[0]).toMatchObject({ mateId: 'mate-own', voice: 'embedded-awb' });
    await expect(app.services.storage.getItem('mates.studio.mate-own')).toBeFalsy();
  },
};

// A mate of the caller's to edit, as the studio opens it.
const editing = { path: '/generate?mateId=mate-own', signedIn: true };

/**
 * Editing a mate: while it loads, the page says so under a title that says it edits one, and
 * the way back is already there.
 */
export const EditLoading: Story = {
  parameters: {
    app: editing,
    msw: { handlers: api(mockEndpointLoading('/mate/getMateDetail')) },
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
    await expect(canvas.getByRole('heading', { level: 1, name: 'Edit a mate' })).toBeVisible();
    await expectBackLinkFirst(canvasElement, '← Your mates', '#/mine');
    await expect(canvas.queryByRole('textbox', { name: 'Your idea' })).toBeNull();
  },
};

/**
 * A mate that fails to load: what failed and why, a retry, and the way back first; never the
 * form for a new mate in its place.
 */
export const EditLoadError: Story = {
  parameters: {
    app: editing,
    msw: { handlers: api(mockEndpointError('/mate/getMateDetail', 5000, 'server error')) },
  },
  play: async ({ canvas, canvasElement }) => {
    const alert = await canvas.findByRole('alert');
    await expect(alert).toHaveTextContent('This mate could not be loaded');
    // The screen still says what it is for: editing, not creating.
    await expect(canvas.getByRole('heading', { level: 1, name: 'Edit a mate' })).toBeVisible();
    await expect(alert).toHaveTextContent('server error');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
    await expectBackLinkFirst(canvasElement, '← Your mates', '#/mine');
    await expect(canvas.queryByRole('textbox', { name: 'Your idea' })).toBeNull();
  },
};

// Whether the story's server has failed its one load yet.
const flaky = { failed: false };

/** "Try again" after a failed load asks again, and the mate's form opens. */
export const EditLoadAgainAfterAnError: Story = {
  loaders: [() => void (flaky.failed = false)],
  parameters: {
    app: editing,
    msw: {
      handlers: api(
        http.get('*/api/mate/getMateDetail', () => {
          if (flaky.failed) return HttpResponse.json({ c: 200, m: '', d: OWN_MATE });
          flaky.failed = true;
          return HttpResponse.json({ c: 5000, m: 'server error', d: null });
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const alert = await canvas.findByRole('alert');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Edit Lyra Moonwhisper' }),
    ).toBeVisible();
    await expect(await canvas.findByRole('textbox', { name: 'Greeting' })).toHaveValue(
      OWN_MATE.first_mes,
    );
  },
};

/** A mate that is not there (4004): the way on, not a retry that cannot help. */
export const EditMissingMate: Story = missingLoad(
  editing,
  '/mate/getMateDetail',
  'Mate not found.',
  ['Your mates', 'Discover mates'],
);

/** Someone else's mate cannot be edited here. */
export const NotYourMate: Story = {
  parameters: { app: { path: '/generate?mateId=mate-1', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('You can only edit your own mates.')).toBeVisible();
  },
};

/** Leaving with unsaved changes asks first; staying keeps every word. */
export const LeavingAsksFirst: Story = {
  parameters: signedIn,
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    await userEvent.type(await canvas.findByRole('textbox', { name: 'Your idea' }), IDEA);
    await expect(canvas.getByRole('link', { name: '← Your mates' })).toHaveAttribute(
      'href',
      '#/mine',
    );
    // The back link's hash change is a navigation of the hash router; the story's memory router
    // is told directly.
    void app.router.navigate('/mine');
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    // The dialog closes (its fade over) before the page is in the accessibility tree again.
    await expect(await canvas.findByRole('textbox', { name: 'Your idea' })).toHaveValue(IDEA);
    await expect(app.router.state.location.pathname).toBe('/generate');
  },
};

/**
 * Work on a draft that failed is kept exactly: leaving and coming back brings back the idea and
 * every option as they were chosen, the gender included, and says so.
 */
export const ReturnAfterAFailedDraft: Story = {
  parameters: {
    ...signedIn,
    msw: { handlers: api(mockEndpointError('/mate/generateRole', 5000, 'The model is resting')) },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    const choose = async (label: string, option: string) => {
      await userEvent.click(await canvas.findByRole('combobox', { name: label }));
      await userEvent.click(await body.findByRole('option', { name: option }));
      await expect(canvas.getByRole('combobox', { name: label })).toHaveTextContent(option);
    };
    await choose('Gender', 'Female');
    await choose('Language', 'French');
    await userEvent.click(await canvas.findByRole('button', { name: 'Fantasy' }));
    await generate(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('The model is resting');

    void app.router.navigate('/mine');
    const dialog = await body.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/mine'));
    void app.router.navigate('/generate');

    await expect(await canvas.findByText('Your unsaved work was restored.')).toBeVisible();
    await expect(canvas.getByRole('textbox', { name: 'Your idea' })).toHaveValue(IDEA);
    await expect(canvas.getByRole('combobox', { name: 'Gender' })).toHaveTextContent('Female');
    await expect(canvas.getByRole('combobox', { name: 'Language' })).toHaveTextContent('French');
    await expect(await canvas.findByRole('button', { name: 'Fantasy' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  },
};

/**
 * A draft whose save failed is kept exactly: leaving and coming back brings back every field,
 * the gender and the picked portrait included.
 */
export const ReturnAfterAFailedSave: Story = {
  parameters: {
    ...signedIn,
    msw: { handlers: api(mockEndpointError('/mate/saveMate', 5000, 'The database is busy')) },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    await generateDraft(canvas);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Name' }), ' Jr');
    await userEvent.click(canvas.getByRole('combobox', { name: 'Gender' }));
    await userEvent.click(await body.findByRole('option', { name: 'Non-binary' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Sci-fi' }));
    const portraits = await canvas.findByRole('group', { name: 'Pick a portrait' });
    await userEvent.click(await within(portraits).findByRole('radio', { name: 'Portrait 2 of 6' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Save private' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('The database is busy');

    void app.router.navigate('/mine');
    const dialog = await body.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/mine'));
    void app.router.navigate('/generate');

    await expect(await canvas.findByText('Your unsaved work was restored.')).toBeVisible();
    await expect(canvas.getByRole('textbox', { name: 'Name' })).toHaveValue('Marisol Vega Jr');
    await expect(canvas.getByRole('combobox', { name: 'Gender' })).toHaveTextContent('Non-binary');
    for (const tag of ['Fantasy', 'Sci-fi'])
      await expect(canvas.getByRole('button', { name: tag })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
    const again = await canvas.findByRole('group', { name: 'Pick a portrait' });
    await expect(
      await within(again).findByRole('radio', { name: 'Portrait 2 of 6' }),
    ).toBeChecked();
  },
};

/**
 * A gender chosen alone is work: after a failed draft, with the idea emptied and the gender
 * changed, leaving asks and coming back restores the gender. Taken back to the start, the work
 * is forgotten: no older copy comes back in its place.
 */
export const OnlyTheGenderChanged: Story = {
  parameters: {
    ...signedIn,
    msw: { handlers: api(mockEndpointError('/mate/generateRole', 5000, 'The model is resting')) },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    const gender = async (option: string) => {
      await userEvent.click(await canvas.findByRole('combobox', { name: 'Gender' }));
      await userEvent.click(await body.findByRole('option', { name: option }));
    };
    const leaveAndReturn = async (asked: boolean) => {
      void app.router.navigate('/mine');
      if (asked) {
        const dialog = await body.findByRole('dialog', { name: 'Leave without saving?' });
        await userEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
      }
      await waitFor(() => expect(app.router.state.location.pathname).toBe('/mine'));
      void app.router.navigate('/generate');
      await canvas.findByRole('textbox', { name: 'Your idea' });
    };
    await generate(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('The model is resting');
    await userEvent.clear(canvas.getByRole('textbox', { name: 'Your idea' }));
    await gender('Male');
    await leaveAndReturn(true);
    // The page draws before the saved draft is put back: what the draft restores is waited for.
    await expect(await canvas.findByText('Your unsaved work was restored.')).toBeVisible();
    await waitFor(() =>
      expect(canvas.getByRole('combobox', { name: 'Gender' })).toHaveTextContent('Male'),
    );
    await expect(canvas.getByRole('textbox', { name: 'Your idea' })).toHaveValue('');

    await gender('Let Mates choose');
    await leaveAndReturn(false);
    await waitFor(() =>
      expect(canvas.getByRole('combobox', { name: 'Gender' })).toHaveTextContent(
        'Let Mates choose',
      ),
    );
    await expect(canvas.queryByText('Your unsaved work was restored.')).toBeNull();
  },
};

/** In Spanish. */
export const Spanish: Story = {
  parameters: { app: { path: '/generate', signedIn: true, language: 'es' } },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Crear un mate' }),
    ).toBeVisible();
    await expect(await canvas.findByText('Cuesta 1 chat · te quedan 20')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Generar' })).toBeVisible();
  },
};

/** On a small phone (320 × 568): the draft's form fits without sideways scrolling. */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: signedIn,
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(view.innerWidth).toBeLessThanOrEqual(320);
    await generateDraft(canvas);
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(
      view.innerWidth,
    );
    for (const name of ['Save as draft', 'Save private', 'Publish', 'Write again: Name'])
      await expect(
        canvas.getByRole('button', { name }).getBoundingClientRect().right,
      ).toBeLessThanOrEqual(view.innerWidth);
  },
};
