import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, type HttpHandler } from 'msw';
import type { CancelImagePayload, CreateImagePayload, JobStatus } from '@mates/api-client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createBenefitsFixture,
  createImageMessageFixture,
  createJobStatusFixture,
  createMessageFixture,
  createRoomInfoFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Chat/Pictures', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const room = '/chat-detail?roomId=room-1';
const app = { path: room, signedIn: true };
const PROMPT = 'Lyra reading by the window at dusk';

/** The room as the server keeps it, with one picture message at `state`. */
function roomWithPicture(state: JobStatus['state'], progress?: number): HttpHandler {
  return mockEndpoint('/room/roomInfo', () => {
    const info = createRoomInfoFixture();
    return {
      ...info,
      messages: [
        ...info.messages,
        createImageMessageFixture({ state, ...(progress === undefined ? {} : { progress }) }),
      ],
    };
  });
}

/** The job keeps answering `state` (a queued or running picture stays so). */
function jobStays(state: JobStatus['state'], progress: number): HttpHandler {
  return mockEndpoint('/room/checkJobStatus', () =>
    createJobStatusFixture({ state, progress, images: [] }),
  );
}

// What the stories' app asked of the server, as it received it.
const created: CreateImagePayload[] = [];
const cancelled: CancelImagePayload[] = [];
const deleted: unknown[] = [];
const record = [
  http.post('*/api/room/createImage', async ({ request }) => {
    created.push((await request.clone().json()) as CreateImagePayload);
  }),
  http.post('*/api/room/cancelImage', async ({ request }) => {
    cancelled.push((await request.clone().json()) as CancelImagePayload);
  }),
  http.get('*/api/room/deleteMessage', ({ request }) => {
    deleted.push(Object.fromEntries(new URL(request.url).searchParams));
  }),
];
const forget = () => void (created.length = cancelled.length = deleted.length = 0);

/** A job that is running at 40%, then done, one step per ask. */
function jobRunsThenSucceeds(): HttpHandler {
  let asks = 0;
  return mockEndpoint('/room/checkJobStatus', ({ query }) => {
    asks += 1;
    const steps: Partial<JobStatus>[] = [
      { state: 'running', progress: 0.4, images: [] },
      { state: 'succeeded', progress: 1 },
    ];
    return createJobStatusFixture({
      jobId: query.jobId ?? 'job-1',
      ...steps[Math.min(asks - 1, steps.length - 1)],
    });
  });
}

/**
 * The sheet, filled from the mate and the scene; Create sends what it shows, and the picture
 * appears in the conversation at once, then its progress, then the image (alt: the prompt).
 */
export const CreateAPicture: Story = {
  loaders: [forget],
  parameters: { app, msw: { handlers: api(...record, jobRunsThenSucceeds()) } },
  play: async ({ canvas, canvasElement }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const name = (await canvas.findByRole('heading', { level: 1 })).textContent!;
    await userEvent.click(await canvas.findByRole('button', { name: 'Picture' }));
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Make a picture' });
    const prompt = within(sheet).getByRole('textbox', { name: 'What to show' });
    await expect((prompt as HTMLTextAreaElement).value).toMatch(new RegExp(`^${name}, `));
    await expect((prompt as HTMLTextAreaElement).value).toContain(
      '. Scene: Her eyes light up. Show me. Slowly.',
    );
    await expect((prompt as HTMLTextAreaElement).value).not.toContain('..');
    await expect(within(sheet).getByRole('combobox', { name: 'Model' })).toHaveTextContent(
      'dreamshaper_8 (5 gold coins)',
    );
    await expect(within(sheet).getByRole('combobox', { name: 'Shape' })).toHaveTextContent(
      'Portrait (768 × 1024)',
    );
    await waitFor(() => expect(sheet).toHaveTextContent('Costs 5 gold coins. You have 50.'));
    await userEvent.clear(prompt);
    await userEvent.type(prompt, 'Her at the lighthouse, storm behind');
    await userEvent.click(within(sheet).getByRole('combobox', { name: 'Shape' }));
    await userEvent.click(await body.findByRole('option', { name: 'Square (1024 × 1024)' }));
    await userEvent.click(within(sheet).getByRole('button', { name: 'Create' }));
    const picture = await within(log).findByRole('article', { name: `${name} sends a picture` });
    await expect(created).toEqual([
      {
        roomId: 'room-1',
        prompt: 'Her at the lighthouse, storm behind',
        model: 'dreamshaper_8.safetensors [879db523c3]',
        size: '1024x1024',
      },
    ]);
    await waitFor(() => expect(picture).toHaveTextContent('Making the picture… 40%'));
    await expect(
      within(picture).getByRole('progressbar', { name: 'Picture progress' }),
    ).toBeVisible();
    await expect(
      await within(picture).findByRole('img', { name: 'Her at the lighthouse, storm behind' }),
    ).toBeVisible();
  },
};

/** An empty prompt is refused in the sheet, and nothing is sent. */
export const EmptyPromptRefused: Story = {
  loaders: [forget],
  parameters: { app, msw: { handlers: api(...record) } },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Picture' }));
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Make a picture' });
    await userEvent.clear(within(sheet).getByRole('textbox', { name: 'What to show' }));
    await userEvent.click(within(sheet).getByRole('button', { name: 'Create' }));
    await expect(await within(sheet).findByText('Say what the picture should show.')).toBeVisible();
    await expect(created).toEqual([]);
  },
};

/** Fewer gold coins than a picture costs: the sheet says so and Create is off. */
export const NotEnoughCoins: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(mockEndpoint('/user/benefits', () => createBenefitsFixture({ goldCoins: 2 }))),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Picture' }));
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Make a picture' });
    await waitFor(() => expect(sheet).toHaveTextContent('Costs 5 gold coins. You have 2.'));
    await expect(within(sheet).getByRole('alert')).toHaveTextContent(
      'You do not have enough gold coins for this picture.',
    );
    await expect(within(sheet).getByRole('button', { name: 'Create' })).toBeDisabled();
  },
};

/** Pictures not set up on this server (5007): no Picture button, and no notice nobody asked for. */
export const NotSetUp: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpointError('/aigc/models', 5007, 'Pictures are not set up on this server.'),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    await canvas.findByRole('log', { name: 'Conversation' });
    // Once the server has refused the model list, the button is not there.
    const { queries } = (loaded.app as StoryApp).services;
    await waitFor(() => expect(queries.getQueryState(['aigc', 'models'])?.status).toBe('error'));
    await expect(await canvas.findByRole('button', { name: 'Send' })).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Picture' })).toBeNull();
    // Found from outside: every chat opened with a red "Pictures are not set up" notice.
    // (A notice shows within a render or two of the refusal: give it time to appear.)
    await new Promise((resolve) => setTimeout(resolve, 500));
    const body = within(canvasElement.ownerDocument.body);
    await expect(body.queryByText('Pictures are not set up on this server.')).toBeNull();
  },
};

/** A picture waiting its turn: said so, with Cancel. */
export const Queued: Story = {
  parameters: { app, msw: { handlers: api(roomWithPicture('queued'), jobStays('queued', 0)) } },
  play: async ({ canvas }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await expect(picture).toHaveTextContent('The picture is waiting its turn…');
    await expect(within(picture).getByRole('button', { name: 'Cancel picture' })).toBeVisible();
  },
};

/** A picture being made, at 40%: a running one resumes following its job on load. */
export const Running: Story = {
  parameters: { app, msw: { handlers: api(roomWithPicture('running'), jobStays('running', 0.6)) } },
  play: async ({ canvas }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await expect(picture).toHaveTextContent('Making the picture… 40%');
    // The job is asked for again: its newer progress shows.
    await waitFor(() => expect(picture).toHaveTextContent('Making the picture… 60%'));
    await expect(
      within(picture).getByRole('progressbar', { name: 'Picture progress' }),
    ).toHaveAttribute('value', '0.6');
  },
};

/** A finished picture: the image (alt: the prompt) and what can be done with it. */
export const Succeeded: Story = {
  parameters: { app, msw: { handlers: api(roomWithPicture('succeeded')) } },
  play: async ({ canvas }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await expect(await within(picture).findByRole('img', { name: PROMPT })).toBeVisible();
    for (const name of ['View full size', 'Make again', 'Delete picture'])
      await expect(within(picture).getByRole('button', { name })).toBeVisible();
    await expect(within(picture).getByRole('link', { name: 'Save picture' })).toHaveAttribute(
      'download',
    );
  },
};

/** A failed picture says why, in plain words, and that the coins came back. */
export const Failed: Story = {
  parameters: { app, msw: { handlers: api(roomWithPicture('failed')) } },
  play: async ({ canvas }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await expect(picture).toHaveTextContent(
      'The picture could not be made: The picture engine refused this prompt. Your gold coins came back.',
    );
    await expect(within(picture).queryByRole('img')).toBeNull();
  },
};

/** A cancelled picture says so, and that the coins came back. */
export const Cancelled: Story = {
  parameters: { app, msw: { handlers: api(roomWithPicture('cancelled')) } },
  play: async ({ canvas }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await expect(picture).toHaveTextContent(
      'The picture was cancelled. Your gold coins came back.',
    );
  },
};

/** Cancel on a running picture asks the server to stop that job; the message says cancelled. */
export const CancelARunningPicture: Story = {
  loaders: [forget],
  parameters: {
    app,
    msw: { handlers: api(...record, roomWithPicture('running'), jobStays('running', 0.4)) },
  },
  play: async ({ canvas }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await userEvent.click(await within(picture).findByRole('button', { name: 'Cancel picture' }));
    await waitFor(() =>
      expect(picture).toHaveTextContent('The picture was cancelled. Your gold coins came back.'),
    );
    await expect(cancelled).toEqual([{ jobId: 'job-1' }]);
  },
};

/** The picture opened full size, in a dialog, with Save. */
export const FullSize: Story = {
  parameters: Succeeded.parameters,
  play: async ({ canvas, canvasElement }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await userEvent.click(await within(picture).findByRole('button', { name: 'View full size' }));
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Picture' });
    await waitFor(() => expect(within(dialog).getByRole('img', { name: PROMPT })).toBeVisible());
    await expect(within(dialog).getByRole('link', { name: 'Save picture' })).toHaveAttribute(
      'download',
    );
  },
};

/** Delete asks first; only the confirmation deletes the picture's message. */
export const DeleteAsksFirst: Story = {
  loaders: [forget],
  parameters: { app, msw: { handlers: api(...record, roomWithPicture('succeeded')) } },
  play: async ({ canvas, canvasElement }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await userEvent.click(await within(picture).findByRole('button', { name: 'Delete picture' }));
    const body = within(canvasElement.ownerDocument.body);
    const confirm = await body.findByRole('dialog', { name: 'Delete this picture?' });
    await expect(deleted).toEqual([]);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual([{ roomId: 'room-1', messageId: 'msg-image-1' }]));
  },
};

/** Make again on a failed picture asks for the same prompt and shape once more. */
export const MakeAgain: Story = {
  loaders: [forget],
  parameters: {
    app,
    msw: {
      handlers: api(
        ...record,
        roomWithPicture('failed'),
        mockEndpoint('/room/createImage', () => ({ jobId: 'job-2', messageId: 'msg-image-2' })),
        jobStays('queued', 0),
      ),
    },
  },
  play: async ({ canvas }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await userEvent.click(await within(picture).findByRole('button', { name: 'Make again' }));
    await waitFor(() =>
      expect(created).toEqual([{ roomId: 'room-1', prompt: PROMPT, size: '768x1024' }]),
    );
    await expect(await canvas.findByText('The picture is waiting its turn…')).toBeVisible();
  },
};

/** Make again on a picture drawn by a named model asks that model again, with prompt and shape. */
export const MakeAgainKeepsTheModel: Story = {
  loaders: [forget],
  parameters: {
    app,
    msw: {
      handlers: api(
        ...record,
        mockEndpoint('/room/roomInfo', () => {
          const info = createRoomInfoFixture();
          return {
            ...info,
            messages: [
              ...info.messages,
              createImageMessageFixture({ size: '1024x768', model: 'anything-v5' }),
            ],
          };
        }),
        mockEndpoint('/room/createImage', () => ({ jobId: 'job-2', messageId: 'msg-image-2' })),
        jobStays('queued', 0),
      ),
    },
  },
  play: async ({ canvas }) => {
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    await userEvent.click(await within(picture).findByRole('button', { name: 'Make again' }));
    await waitFor(() =>
      expect(created).toEqual([
        { roomId: 'room-1', prompt: PROMPT, size: '1024x768', model: 'anything-v5' },
      ]),
    );
  },
};

const SUGGESTION =
  'Lyra on the lighthouse balcony at dusk, wind in her silver hair, a lantern glowing';

/** "Suggest from the chat" puts the first picture suggestion in an untouched prompt. */
export const SuggestFromTheChat: Story = {
  parameters: { app },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Picture' }));
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Make a picture' });
    const prompt = within(sheet).getByRole('textbox', { name: 'What to show' });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Suggest from the chat' }));
    await waitFor(() => expect(prompt).toHaveValue(SUGGESTION));
    await expect(within(sheet).getByRole('status')).toHaveTextContent(
      'A suggestion from the chat is in “What to show”.',
    );
    const offered = within(sheet).getByRole('group', { name: 'Suggested pictures' });
    await expect(within(offered).getAllByRole('button')).toHaveLength(3);
    await userEvent.click(
      within(offered).getByRole('button', { name: /^Lyra asleep over a star chart/ }),
    );
    await expect(prompt).toHaveValue('Lyra asleep over a star chart by candlelight');
  },
};

/** Text the user wrote is kept: the suggestions are offered to pick from instead. */
export const SuggestKeepsYourText: Story = {
  parameters: { app },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Picture' }));
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Make a picture' });
    const prompt = within(sheet).getByRole('textbox', { name: 'What to show' });
    await userEvent.clear(prompt);
    await userEvent.type(prompt, 'Her on a swing');
    await userEvent.click(within(sheet).getByRole('button', { name: 'Suggest from the chat' }));
    await expect(
      await within(sheet).findByText(
        'Your text was kept. Pick a suggestion below to use it instead.',
      ),
    ).toBeVisible();
    await expect(prompt).toHaveValue('Her on a swing');
    const offered = within(sheet).getByRole('group', { name: 'Suggested pictures' });
    await userEvent.click(within(offered).getByRole('button', { name: SUGGESTION }));
    await expect(prompt).toHaveValue(SUGGESTION);
  },
};

/** A suggestion that cannot be had says why, and the prompt stays as it was. */
export const SuggestFails: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpointError('/girl/chat/getInspiration', 5000, 'The model is not answering.'),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Picture' }));
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Make a picture' });
    const prompt = within(sheet).getByRole('textbox', { name: 'What to show' });
    const before = (prompt as HTMLTextAreaElement).value;
    await userEvent.click(within(sheet).getByRole('button', { name: 'Suggest from the chat' }));
    await expect(await within(sheet).findByRole('alert')).toHaveTextContent(
      'No suggestions could be had: The model is not answering.',
    );
    await expect(prompt).toHaveValue(before);
  },
};

/** The mate's portrait in the chat's header leads to the chat's profile. */
export const ProfileLink: Story = {
  parameters: { app },
  play: async ({ canvas }) => {
    const name = (await canvas.findByRole('heading', { level: 1 })).textContent!;
    await expect(canvas.getByRole('link', { name: `Profile of ${name}` })).toHaveAttribute(
      'href',
      '#/chat-profile?roomId=room-1',
    );
  },
};

/** While the first answer of a job is awaited, a queued picture shows as queued. */
export const FollowingSlowly: Story = {
  parameters: {
    app,
    msw: { handlers: api(roomWithPicture('queued'), mockEndpointLoading('/room/checkJobStatus')) },
  },
  play: Queued.play,
};

/**
 * On a small phone (320 × 568): the picture and its buttons stay inside the screen, "Picture"
 * in the header's menu too.
 */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: Succeeded.parameters,
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    const image = await within(picture).findByRole('img', { name: PROMPT });
    await userEvent.click(canvas.getByRole('button', { name: 'More' }));
    for (const element of [
      image,
      await canvas.findByRole('button', { name: 'Picture' }),
      within(picture).getByRole('button', { name: 'Delete picture' }),
    ]) {
      const box = element.getBoundingClientRect();
      await expect(box.left).toBeGreaterThanOrEqual(0);
      await expect(box.right).toBeLessThanOrEqual(view.innerWidth);
    }
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(
      view.innerWidth,
    );
  },
};

/** In Spanish: the button, the sheet and a running picture. */
export const Spanish: Story = {
  parameters: {
    app: { ...app, language: 'es' },
    msw: { handlers: api(roomWithPicture('running'), jobStays('running', 0.4)) },
  },
  play: async ({ canvas, canvasElement }) => {
    const picture = await canvas.findByRole('article', { name: /envía una imagen$/ });
    await expect(picture).toHaveTextContent('Creando la imagen… 40 %');
    await userEvent.click(await canvas.findByRole('button', { name: 'Imagen' }));
    const body = within(canvasElement.ownerDocument.body);
    // The dialog fades in over 300 ms: visible once it has.
    const dialog = await body.findByRole('dialog', { name: 'Crear una imagen' });
    await waitFor(() => expect(dialog).toBeVisible());
  },
};

/** A text message next to pictures keeps its own look. */
export const TextBesidePictures: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () =>
          createRoomInfoFixture({
            messages: [
              createMessageFixture({ messageId: 'msg-1', content: 'Look at this.' }),
              createImageMessageFixture({ state: 'succeeded' }),
            ],
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await expect(await within(log).findByRole('img', { name: PROMPT })).toBeVisible();
    await expect(within(log).getAllByRole('article')).toHaveLength(2);
  },
};
