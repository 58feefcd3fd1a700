import type { Meta, StoryObj } from '@storybook/react-vite';
import { http } from 'msw';
import type { SharePicturePayload, TextToAudioPayload } from '@mates/api-client';
import { expect, spyOn, userEvent, waitFor, within } from 'storybook/test';
import {
  createAudioClipFixture,
  createCreatorFixture,
  createMateFixture,
  createPageFixture,
  createRoomInfoFixture,
  createRoomPictureFixture,
  createRoomPicturesFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import {
  api,
  expectBackLinkFirst,
  expectChrome,
  missingLoad,
  screenStories,
  type StoryApp,
} from '../../testing/story-app';

const meta = { title: 'Screens/Chat profile', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const app = { path: '/chat-profile?roomId=room-1', signedIn: true };
const LINK = 'https://mates.test/api/room/sharedPicture?id=share-msg-image-1';

// What the stories' app asked of /room/sharePicture, as the server received it.
const shared: SharePicturePayload[] = [];
const record = http.post('*/api/room/sharePicture', async ({ request }) => {
  shared.push((await request.clone().json()) as SharePicturePayload);
});
const forget = () => void (shared.length = 0);

/** The mate's card, a way back to the chat, and the chat's pictures; no header or footer. */
export const WithPictures: Story = {
  parameters: { app },
  play: async ({ canvas, canvasElement, loaded }) => {
    const name = (await canvas.findByRole('heading', { level: 1 })).textContent!;
    const card = canvas.getByRole('region', { name: `${name}'s card` });
    await expect(within(card).getByRole('img', { name })).toBeVisible();
    const creator = createCreatorFixture();
    await expect(
      within(card).getByRole('link', { name: `${creator.name}'s page` }),
    ).toHaveAttribute('href', `#/creator?creatorId=${creator.creatorId}`);
    await expect(within(card).getByRole('link', { name: `${name}'s page` })).toBeVisible();
    await expectBackLinkFirst(canvasElement, '← Back to chat', '#/chat-detail?roomId=room-1');
    const gallery = await canvas.findByRole('list', { name: 'Pictures from this chat' });
    await expect(within(gallery).getAllByRole('listitem')).toHaveLength(6);
    await expect(canvas.queryByRole('button', { name: 'Show more' })).toBeNull();
    await expectChrome(canvasElement, loaded.app as StoryApp);
  },
};

/** A picture opens full size in the "Picture" dialog, with "Save picture". */
export const FullSize: Story = {
  parameters: { app },
  play: async ({ canvas, canvasElement }) => {
    const prompt = 'Lyra on the lighthouse stairs, lantern in hand';
    await userEvent.click(await canvas.findByRole('button', { name: `View full size: ${prompt}` }));
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Picture' });
    await waitFor(() => expect(within(dialog).getByRole('img', { name: prompt })).toBeVisible());
    await expect(within(dialog).getByRole('link', { name: 'Save picture' })).toHaveAttribute(
      'download',
    );
  },
};

/** No pictures yet: the card, and where pictures come from. */
export const Empty: Story = {
  parameters: {
    app,
    msw: { handlers: api(mockEndpoint('/room/pictures', () => createPageFixture([]))) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No pictures yet')).toBeVisible();
    await expect(
      canvas.getByText('Ask for one in the chat with the Picture button.'),
    ).toBeVisible();
    await expect(canvas.getByRole('heading', { level: 1 })).toBeVisible();
  },
};

/** 25 pictures: 20 first, then "Show more" brings the other 5 and goes away. */
export const ManyPictures: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/pictures', ({ query }) => {
          const all = createRoomPicturesFixture(25);
          const page = Number(query.page ?? '1');
          const size = Number(query.pageSize ?? '20');
          const list = all.slice((page - 1) * size, page * size);
          return { list, page, pageSize: size, total: all.length, hasMore: page * size < 25 };
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const gallery = await canvas.findByRole('list', { name: 'Pictures from this chat' });
    await expect(within(gallery).getAllByRole('listitem')).toHaveLength(20);
    await userEvent.click(canvas.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(gallery).getAllByRole('listitem')).toHaveLength(25));
    await expect(canvas.queryByRole('button', { name: 'Show more' })).toBeNull();
  },
};

/**
 * Share gives the newest picture a public link, shown with "Copy link" (which says "Link
 * copied") and "Stop sharing", which takes the link away again.
 */
export const SharePicture: Story = {
  loaders: [
    forget,
    () => void spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined),
  ],
  parameters: { app, msw: { handlers: api(record) } },
  play: async ({ canvas }) => {
    const first = await canvas.findByRole('figure', { name: 'Lyra reading by the window at dusk' });
    const item = first.closest('li')!;
    await userEvent.click(within(item).getByRole('button', { name: 'Share' }));
    const link = await within(item).findByRole('textbox', { name: 'Public link' });
    await expect(link).toHaveValue(LINK);
    await expect(shared).toEqual([{ messageId: 'msg-image-1', shared: true }]);
    await userEvent.click(within(item).getByRole('button', { name: 'Copy link' }));
    await expect(await within(item).findByText('Link copied')).toBeVisible();
    await expect(navigator.clipboard.writeText).toHaveBeenCalledWith(LINK);
    await userEvent.click(within(item).getByRole('button', { name: 'Stop sharing' }));
    await expect(await within(item).findByRole('button', { name: 'Share' })).toBeVisible();
    await expect(within(item).queryByRole('textbox', { name: 'Public link' })).toBeNull();
    await expect(shared.at(-1)).toEqual({ messageId: 'msg-image-1', shared: false });
  },
};

/** A picture shared before shows its link at once; a clipboard that refuses is said plainly. */
export const SharedPicture: Story = {
  loaders: [
    () => void spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied')),
  ],
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/pictures', () =>
          createPageFixture([createRoomPictureFixture({ sharedUrl: LINK })]),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('textbox', { name: 'Public link' })).toHaveValue(LINK);
    await expect(canvas.getByText('Anyone with this link can see the picture.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Copy link' }));
    await expect(
      await canvas.findByText('The link could not be copied. Select it and copy it yourself.'),
    ).toBeVisible();
  },
};

/** A chat that is not there (deleted, or another's): the way back to the chats, not "Try again". */
export const RoomNotFound: Story = missingLoad(
  { path: '/chat-profile?roomId=room-404', signedIn: true },
  '/room/roomInfo',
  'Room not found.',
  ['Your recent chats', 'Discover mates'],
);

/** Pictures not set up on the server (5007): the card, and a plain note instead of a gallery. */
export const PicturesNotSetUp: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpointError('/room/pictures', 5007, 'Pictures are not set up on this server.'),
      ),
    },
  },
  play: async ({ canvas, loaded }) => {
    await expect(await canvas.findByRole('heading', { level: 1 })).toBeVisible();
    const section = await canvas.findByRole('region', { name: 'Pictures from this chat' });
    await expect(
      await within(section).findByText('Pictures are not set up on this server.'),
    ).toBeVisible();
    await expect(within(section).queryByRole('list')).toBeNull();
    await expect(within(section).queryByRole('button', { name: 'Try again' })).toBeNull();
    // Said once, by the section: no red notification repeats it.
    const { app } = loaded as { app: StoryApp };
    await expect(app.services.notices.getSnapshot().context.notices).toEqual([]);
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
const forgetSamples = () => void (samples.length = 0);

/** "Voice": the mate's voice by name, and "Play sample" plays its greeting in it. */
export const Voice: Story = {
  loaders: [forgetSamples],
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () =>
          createRoomInfoFixture({ mate: createMateFixture({ voice: 'embedded-rms' }) }),
        ),
        recordSamples,
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const section = await canvas.findByRole('region', { name: 'Voice' });
    await expect(within(section).getByRole('heading', { level: 2, name: 'Voice' })).toBeVisible();
    await expect(section).toHaveTextContent('Speaks as Robert');
    await userEvent.click(within(section).getByRole('button', { name: 'Play sample' }));
    await expect(await within(section).findByRole('button', { name: 'Stop sample' })).toBeVisible();
    await waitFor(() => expect(player(canvasElement).src).toMatch(/^data:audio\/wav;base64,/));
    await expect(samples).toHaveLength(1);
    await expect(samples[0]!.voice).toBe('embedded-rms');
    await expect(samples[0]!.text).not.toMatch(/\{\{|\*/);
    await userEvent.click(within(section).getByRole('button', { name: 'Stop sample' }));
    await expect(await within(section).findByRole('button', { name: 'Play sample' })).toBeVisible();
    await expect(player(canvasElement).getAttribute('src')).toBeNull();
  },
};

/** A mate with no voice chosen speaks in the default one; the sample asks for no voice. */
export const DefaultVoice: Story = {
  loaders: [forgetSamples],
  parameters: { app, msw: { handlers: api(recordSamples) } },
  play: async ({ canvas }) => {
    const section = await canvas.findByRole('region', { name: 'Voice' });
    await expect(section).toHaveTextContent(
      'Speaks in the default voice for its gender and language',
    );
    await userEvent.click(within(section).getByRole('button', { name: 'Play sample' }));
    await expect(await within(section).findByRole('button', { name: 'Stop sample' })).toBeVisible();
    await expect(samples[0]).not.toHaveProperty('voice');
  },
};

/** A sample the server refuses: the reason, plainly, and the button to try again. */
export const SampleFails: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpointError('/voice/textToAudio', 5000, 'You do not have enough gold coins.'),
      ),
    },
  },
  play: async ({ canvas }) => {
    const section = await canvas.findByRole('region', { name: 'Voice' });
    await userEvent.click(within(section).getByRole('button', { name: 'Play sample' }));
    await expect(await within(section).findByRole('alert')).toHaveTextContent(
      'The sample could not be played: You do not have enough gold coins.',
    );
    await expect(within(section).getByRole('button', { name: 'Play sample' })).toBeVisible();
  },
};

// How often the page asked for the server's voices (then the next handler answers).
const voicesAsked = { count: 0 };
const countVoices = http.get('*/api/voice/voices', () => void (voicesAsked.count += 1));

/**
 * Voice not set up on the server (5007): no voice section at all — there is nothing to hear or
 * choose, as the chat shows no play buttons; the card and pictures stay.
 */
export const VoiceNotSetUp: Story = {
  loaders: [() => void (voicesAsked.count = 0)],
  parameters: {
    app,
    msw: {
      handlers: api(
        countVoices,
        mockEndpointError('/voice/voices', 5007, 'Voice is not set up on this server.'),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('heading', { level: 1 })).toBeVisible();
    // The page did ask (and was told 5007), so the section is absent for that reason.
    await waitFor(() => expect(voicesAsked.count).toBeGreaterThan(0));
    await expect(
      await canvas.findByRole('list', { name: 'Pictures from this chat' }),
    ).toBeVisible();
    await expect(canvas.queryByRole('region', { name: 'Voice' })).toBeNull();
    await expect(canvas.queryByRole('button', { name: 'Play sample' })).toBeNull();
  },
};

/** Another failure of the pictures: what failed, why, and a retry; the card stays. */
export const PicturesFail: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(mockEndpointError('/room/pictures', 5000, 'The database is resting.')),
    },
  },
  play: async ({ canvas }) => {
    const alert = await canvas.findByRole('alert');
    await expect(alert).toHaveTextContent('The pictures could not be loaded');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
    await expect(canvas.getByRole('heading', { level: 1 })).toBeVisible();
  },
};

/** While the chat loads, a spinner says so. */
export const Loading: Story = {
  parameters: { app, msw: { handlers: api(mockEndpointLoading('/room/roomInfo')) } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

/** While the pictures load, the card is shown and the gallery's spinner says so. */
export const LoadingPictures: Story = {
  parameters: { app, msw: { handlers: api(mockEndpointLoading('/room/pictures')) } },
  play: async ({ canvas }) => {
    const section = await canvas.findByRole('region', { name: 'Pictures from this chat' });
    await expect(within(section).getByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

/** No room named: the page says so. */
export const NoRoom: Story = {
  parameters: { app: { path: '/chat-profile', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No chat chosen')).toBeVisible();
  },
};

/** A visitor is asked to sign in. */
export const Visitor: Story = {
  parameters: { app: { path: '/chat-profile?roomId=room-1' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Sign in to see this page')).toBeVisible();
  },
};

/** In Spanish. */
export const Spanish: Story = {
  parameters: { app: { ...app, language: 'es' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('link', { name: '← Volver al chat' })).toBeVisible();
    await expect(
      await canvas.findByRole('heading', { level: 2, name: 'Imágenes de este chat' }),
    ).toBeVisible();
    await expect((await canvas.findAllByRole('button', { name: 'Compartir' }))[0]).toBeVisible();
  },
};

/** A room whose mate turned private: the card keeps what it has, without a link to its page. */
export const ReadOnlyRoom: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () => ({
          ...createRoomInfoFixture(),
          readOnly: 'This mate is private now.',
        })),
      ),
    },
  },
  play: async ({ canvas }) => {
    const name = (await canvas.findByRole('heading', { level: 1 })).textContent!;
    await expect(canvas.queryByRole('link', { name: `${name}'s page` })).toBeNull();
  },
};
