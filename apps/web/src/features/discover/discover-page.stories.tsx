import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createMateSummariesFixture,
  createPageFixture,
  mockEndpoint,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, failingLoad, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Discover', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** A visitor: recommended mates, tag and gender chips, and "Sign in" in the header. */
export const Anonymous: Story = {
  parameters: { app: { path: '/' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('banner')).toBeVisible();
    await expect(canvas.getByRole('contentinfo')).toBeVisible();
    await expect(await canvas.findAllByRole('article')).toHaveLength(8);
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeVisible();
  },
};

/** Signed in: the header shows the account instead of "Sign in". */
export const SignedIn: Story = {
  parameters: { app: { path: '/', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await canvas.findAllByRole('article')).toHaveLength(8);
    await expect(canvas.queryByRole('button', { name: 'Sign in' })).toBeNull();
  },
};

/** Chips toggle the store's tags and gender, and the list is asked for again with them. */
export const FilterByGenderAndTag: Story = {
  parameters: {
    app: { path: '/' },
    msw: {
      handlers: api(
        // Answers by the filters, so that the cards show what was asked for.
        mockEndpoint('/mate/recommend', ({ query }) =>
          createPageFixture(
            createMateSummariesFixture(query.gender === 'female' ? (query.tags ? 1 : 2) : 8),
          ),
        ),
      ),
    },
  },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await expect(await canvas.findAllByRole('article')).toHaveLength(8);
    const genders = within(canvas.getByRole('group', { name: 'Show' }));
    await userEvent.click(genders.getByRole('button', { name: 'Women' }));
    await expect(genders.getByRole('button', { name: 'Women' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(genders.getByRole('button', { name: 'Everyone' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await expect(app.services.store.getSnapshot().context.selectGender).toBe('female');
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(2));
    const tags = within(canvas.getByRole('group', { name: 'Filter by tag' }));
    const [firstTag] = await tags.findAllByRole('button');
    await userEvent.click(firstTag!);
    await expect(firstTag).toHaveAttribute('aria-pressed', 'true');
    await expect(app.services.store.getSnapshot().context.selectedTags).toHaveLength(1);
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(1));
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: '/' },
    msw: { handlers: api(mockEndpointLoading('/mate/recommend')) },
  },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('region', { name: 'Recommended mates' });
    await expect(list).toHaveAttribute('aria-busy', 'true');
    await expect(within(list).getByRole('status')).toHaveTextContent('Loading');
  },
};

// Filters nothing matches: the catalog answers with no mates.
const emptyCatalog = {
  app: { path: '/', state: { selectedTags: ['vampire'] } },
  msw: { handlers: api(mockEndpoint('/mate/recommend', () => createPageFixture([]))) },
};

/** No mate matches the chosen filters: a way to clear them. */
export const Empty: Story = {
  parameters: emptyCatalog,
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No mates match these filters')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Clear filters' })).toBeVisible();
  },
};

/** "Clear filters" forgets the chosen tags. */
export const ClearTheFilters: Story = {
  parameters: emptyCatalog,
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await expect(await canvas.findByText('No mates match these filters')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Clear filters' }));
    await expect(app.services.store.getSnapshot().context.selectedTags).toEqual([]);
  },
};

export const Error: Story = failingLoad(
  { path: '/' },
  '/mate/recommend',
  'The catalog is resting',
  'Mates could not be loaded',
);

/** The same screen in Spanish, the store's language. */
export const Spanish: Story = {
  parameters: { app: { path: '/', language: 'es' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findAllByRole('article')).toHaveLength(8);
    await expect(canvas.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
  },
};

/** The sign-in popup from the header: the dialog of docs/product.md, and a sign-in that stores the user. */
export const SignInFromTheHeader: Story = {
  parameters: { app: { path: '/' } },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    const dialog = await body.findByRole('dialog', { name: 'Sign in to Mates' });
    await waitFor(() => expect(body.getByRole('button', { name: 'Discord' })).toBeVisible());
    await expect(body.queryByRole('button', { name: 'Google' })).toBeNull();
    const continueButton = within(dialog).getByRole('button', { name: 'Continue' });
    await userEvent.type(within(dialog).getByLabelText('Email address'), 'ada@example.com');
    await expect(continueButton).toHaveAttribute('aria-disabled', 'true');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'hunter22');
    await userEvent.click(continueButton);
    await waitFor(() =>
      expect(app.services.store.getSnapshot().context.userInfo.uuid).toBe('user-1'),
    );
    // The popup closes and the app reloads signed in (docs/product.md, transitions).
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull(), { timeout: 3000 });
    await expect(app.reloads).toBe(1);
  },
};

/** On a small phone (320 × 568): the header, chips and cards fit without sideways scrolling. */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app: { path: '/', signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(view.innerWidth).toBeLessThanOrEqual(320);
    await expect(await canvas.findAllByRole('article')).toHaveLength(8);
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(
      view.innerWidth,
    );
    // The frame clips rather than scrolls, so every control must lie within the screen.
    const controls = canvasElement.querySelectorAll('header a, header button, header select');
    await expect(controls.length).toBeGreaterThan(2);
    for (const control of controls) {
      await expect(control.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
    }
    for (const card of canvas.getAllByRole('article')) {
      await expect(card.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
    }
  },
};
