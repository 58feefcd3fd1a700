import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { mockEndpointError } from '@mates/api-client/msw';
import { api, expectNotice, screenStories, type StoryApp } from '../testing/story-app';

// The app in French, the third language: its own words, the tags' names and the failures,
// not only the chrome. Tags the app has no name for (the fixture's "Noir") keep the server's.
const meta = { title: 'Screens/French', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** A French browser's first visit: the app speaks French, and the mate cards' tags too. */
export const FirstVisitFromAFrenchBrowser: Story = {
  parameters: { app: { path: '/', firstVisit: { browserLanguages: ['fr-FR', 'en-US'] } } },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    await expect(await canvas.findByRole('button', { name: 'Se connecter' })).toBeVisible();
    await expect(app.services.store.getSnapshot().context.userInfo.language).toBe('fr');
    await expect(canvasElement.ownerDocument.documentElement.lang).toBe('fr');
    await expect(canvas.getByRole('heading', { name: 'Découvre des mates' })).toBeVisible();
    const cards = await canvas.findAllByRole('article');
    await expect(cards).toHaveLength(8);
    // The fixture's first card is tagged wholesome, the third sci-fi and adventure; the sixth
    // carries "noir", a tag the app has no name for.
    await waitFor(() => expect(cards[0]).toHaveTextContent('Bienveillant'));
    await expect(cards[2]).toHaveTextContent('Science-fiction');
    await expect(cards[2]).toHaveTextContent('Aventure');
    await expect(cards[5]).toHaveTextContent('Noir');
  },
};

/** The discover page's tag chips in French, and a failed load said in French. */
export const TagsAndAFailureInFrench: Story = {
  parameters: {
    app: { path: '/', language: 'fr' },
    msw: { handlers: api(mockEndpointError('/mate/recommend', 5000)) },
  },
  play: async ({ canvas }) => {
    const chips = within(await canvas.findByRole('group', { name: 'Filtrer par tag' }));
    await expect(await chips.findByRole('button', { name: 'Science-fiction' })).toBeVisible();
    await expect(chips.getByRole('button', { name: 'Horreur' })).toBeVisible();
    await expect(chips.getByRole('button', { name: 'Noir' })).toBeVisible();
    await expect(chips.queryByRole('button', { name: 'Sci-fi' })).toBeNull();
    const alert = await canvas.findByRole('alert');
    await expect(alert).toHaveTextContent('Les mates n’ont pas pu être chargés');
    // The client's "server error" (no message from the server), in French.
    await expect(alert).toHaveTextContent(
      'Le serveur n’a pas pu répondre à la demande. Réessaie dans un instant.',
    );
    await expect(alert).not.toHaveTextContent('server error');
    await expect(within(alert).getByRole('button', { name: 'Réessayer' })).toBeVisible();
  },
};

/** A 5007 without a message: English says SPEC's "something error"; French says it in French. */
export const NoticeInFrench: Story = {
  parameters: {
    app: { path: '/', language: 'fr' },
    msw: { handlers: api(mockEndpointError('/mate/recommend', 5007)) },
  },
  play: async ({ canvasElement }) => {
    await expectNotice(canvasElement, 'Un problème est survenu');
  },
};

/** The studio offers French as a character's language, and picks it for a French user. */
export const StudioLanguageInFrench: Story = {
  parameters: { app: { path: '/generate', signedIn: true, language: 'fr' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('heading', { name: 'Créer un mate' })).toBeVisible();
    await expect(await canvas.findByRole('combobox', { name: 'Langue' })).toHaveTextContent(
      'Français',
    );
    // The studio's tag picker names the tags in French too.
    await expect(await canvas.findByRole('button', { name: 'Tranche de vie' })).toBeVisible();
  },
};
