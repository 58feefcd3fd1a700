import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { createOwnMateFixture, mockEndpoint, mockEndpointLoading } from '@mates/api-client/msw';
import { api, failingLoad, screenStories, visitorAt } from '../../testing/story-app';
import { handlers, ownMates, page, reset, server, signedIn } from './story-server';

const meta = { title: 'Screens/Your mates', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every kind of own mate: badges, chat counts, and the moderators' notice on a hidden one. */
export const AllKinds: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('list', { name: 'Your mates: All' });
    const items = within(list).getAllByRole('listitem');
    await expect(items).toHaveLength(4);
    const lyra = within(canvas.getByRole('listitem', { name: 'Lyra Moonwhisper' }));
    await expect(lyra.getByText('Public')).toBeVisible();
    await expect(lyra.getByText('5400 chats')).toBeVisible();
    await expect(lyra.getByRole('link', { name: 'Edit Lyra Moonwhisper' })).toHaveAttribute(
      'href',
      '#/generate?mateId=mate-1',
    );
    await expect(
      lyra.getByRole('button', { name: 'Make private: Lyra Moonwhisper' }),
    ).toBeEnabled();
    const draft = within(canvas.getByRole('listitem', { name: 'Captain Ione Vask' }));
    await expect(draft.getByText('Draft')).toBeVisible();
    // A draft may lack a greeting: no chat with it until it is saved.
    await expect(draft.queryByRole('button', { name: /^Chat with/ })).toBeNull();
    await expect(draft.getByRole('button', { name: 'Publish Captain Ione Vask' })).toBeEnabled();
    const hidden = within(canvas.getByRole('listitem', { name: 'Rowan Ashdown' }));
    await expect(hidden.getByText('Hidden')).toBeVisible();
    await expect(
      hidden.getByText(
        'Hidden by moderators: Presents or involves a minor. The description gives her age as fifteen.',
      ),
    ).toBeVisible();
    const locked = hidden.getByRole('button', { name: 'Make private: Rowan Ashdown' });
    await expect(locked).toBeDisabled();
    await expect(locked).toHaveAccessibleDescription(
      /cannot be published or exported while it is hidden/,
    );
    const noExport = hidden.getByRole('button', { name: 'Export Rowan Ashdown' });
    await expect(noExport).toBeDisabled();
    await expect(noExport).toHaveAccessibleDescription(/cannot be published or exported/);
  },
};

/** The filter tabs ask the server for one visibility; "Drafts" shows only drafts. */
export const FilterDrafts: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas }) => {
    await canvas.findByRole('list', { name: 'Your mates: All' });
    await userEvent.click(canvas.getByRole('tab', { name: 'Drafts' }));
    const list = await canvas.findByRole('list', { name: 'Your mates: Drafts' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    await expect(within(list).getByText('Captain Ione Vask')).toBeVisible();
    await expect(server.queries.some((query) => query.visibility === 'draft')).toBe(true);
  },
};

/** More than one page: "Show more" reads the next page. */
export const LoadMore: Story = {
  parameters: {
    app: signedIn,
    msw: {
      handlers: api(
        mockEndpoint('/mate/myMates', ({ query }) =>
          query.page === '2'
            ? { ...page([createOwnMateFixture({ visibility: 'private' }, 5)]), page: 2 }
            : page(ownMates(), true),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('list', { name: 'Your mates: All' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    await userEvent.click(
      within(canvas.getByRole('tabpanel')).getByRole('button', { name: 'Show more' }),
    );
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(5));
  },
};

export const Empty: Story = {
  parameters: {
    app: signedIn,
    msw: { handlers: api(mockEndpoint('/mate/myMates', () => page([]))) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('You have not made a mate yet')).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Create a mate' })).toHaveAttribute(
      'href',
      '#/generate',
    );
    await expect(canvas.getByRole('button', { name: 'Import a card' })).toBeVisible();
  },
};

export const Loading: Story = {
  parameters: { app: signedIn, msw: { handlers: api(mockEndpointLoading('/mate/myMates')) } },
  play: async ({ canvas }) => {
    const section = within(await canvas.findByRole('region', { name: 'Your mates' }));
    await expect(await section.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

export const Error: Story = failingLoad(
  signedIn,
  '/mate/myMates',
  'Your mates are resting',
  'Your mates could not be loaded',
);

export const SignedOut: Story = visitorAt('/mine');

/** On a small phone (320 × 568): every mate's actions wrap within the screen. */
export const Phone: Story = {
  loaders: [reset],
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(view.innerWidth).toBeLessThanOrEqual(320);
    const list = await canvas.findByRole('list', { name: 'Your mates: All' });
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(
      view.innerWidth,
    );
    for (const control of within(list).getAllByRole('button')) {
      await expect(control.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
    }
  },
};

/** In Spanish. */
export const Spanish: Story = {
  loaders: [reset],
  parameters: { app: { ...signedIn, language: 'es' }, msw: { handlers: handlers() } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('heading', { name: 'Tus mates' })).toBeVisible();
    await expect(await canvas.findByRole('list', { name: 'Tus mates: Todos' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Publicar Captain Ione Vask' })).toBeVisible();
  },
};
