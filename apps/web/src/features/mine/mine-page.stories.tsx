import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { Persona } from '@mates/api-client';
import { createPersonaFixture, mockEndpoint, mockEndpointLoading } from '@mates/api-client/msw';
import {
  api,
  expectBackLinkFirst,
  expectBalances,
  failingLoad,
  screenStories,
  type StoryApp,
  visitorAt,
  visitorClosesSignInAt,
} from '../../testing/story-app';

const meta = { title: 'Screens/Personal area', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Anonymous: Story = visitorAt('/mine');

/** "Sign in" opens the popup; closing it returns to discover. */
export const CloseSignInAndReturnHome: Story = visitorClosesSignInAt('/mine');

// What the mocked server remembers during one story: the personas.
const server = { personas: [] as Persona[] };
const personas = () => [
  createPersonaFixture(),
  createPersonaFixture({ uuid: 'persona-2', name: 'Captain Vale', isDefault: false }),
];

/**
 * Two personas, the default first; each other one can be made the default. Without the header,
 * the page shows the balances beside its way back, which comes first.
 */
export const SignedIn: Story = {
  parameters: {
    app: { path: '/mine', signedIn: true },
    msw: { handlers: api(mockEndpoint('/user/personas', personas)) },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    await expectBackLinkFirst(canvasElement, '← Profile', '#/profile');
    await expectBalances(canvasElement, loaded.app as StoryApp);
    const list = await canvas.findByRole('list', { name: 'Personas' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await expect(canvas.getByRole('button', { name: 'Make default: Captain Vale' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'New persona' })).toBeVisible();
  },
};

/** Make another persona the default, then create one (its name is asked for first). */
export const ChangeTheDefaultAndAddAPersona: Story = {
  loaders: [() => void (server.personas = personas())],
  parameters: {
    app: { path: '/mine', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/personas', () => server.personas),
        mockEndpoint('/user/saveOrUpdatePersona', ({ body }) => {
          const saved = createPersonaFixture({
            ...(body as Partial<Persona>),
            uuid: `persona-${server.personas.length + 1}`,
            isDefault: false,
          });
          server.personas = [...server.personas, saved];
          return saved;
        }),
        mockEndpoint('/user/setDefaultPersona', ({ query }) => {
          server.personas = server.personas.map((persona) => ({
            ...persona,
            isDefault: persona.uuid === query.uuid,
          }));
          return server.personas.find((persona) => persona.isDefault)!;
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('list', { name: 'Personas' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await userEvent.click(canvas.getByRole('button', { name: 'Make default: Captain Vale' }));
    await waitFor(() =>
      expect(canvas.queryByRole('button', { name: 'Make default: Captain Vale' })).toBeNull(),
    );
    await userEvent.click(canvas.getByRole('button', { name: 'New persona' }));
    const form = within(await canvas.findByRole('form', { name: 'New persona' }));
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await expect(await form.findByText('Give the persona a name.')).toBeVisible();
    await userEvent.type(form.getByLabelText('Name'), 'Nell');
    await userEvent.type(form.getByLabelText('Description'), 'A lighthouse keeper.');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: '/mine', signedIn: true },
    msw: { handlers: api(mockEndpointLoading('/user/personas')) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

export const Empty: Story = {
  parameters: {
    app: { path: '/mine', signedIn: true },
    msw: { handlers: api(mockEndpoint('/user/personas', () => [])) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No personas yet')).toBeVisible();
  },
};

/**
 * The first persona, by keyboard: the form takes the focus (and "no personas yet" steps aside);
 * Cancel gives it back to New persona.
 */
export const FirstPersonaByKeyboard: Story = {
  parameters: {
    app: { path: '/mine', signedIn: true },
    msw: { handlers: api(mockEndpoint('/user/personas', () => [])) },
  },
  play: async ({ canvas }) => {
    await canvas.findByText('No personas yet');
    const create = canvas.getByRole('button', { name: 'New persona' });
    create.focus();
    await userEvent.keyboard('{Enter}');
    const form = within(await canvas.findByRole('form', { name: 'New persona' }));
    await expect(form.getByLabelText('Name')).toHaveFocus();
    await expect(canvas.queryByText('No personas yet')).toBeNull();
    await userEvent.click(form.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(canvas.getByRole('button', { name: 'New persona' })).toHaveFocus());
  },
};

/**
 * A persona's name takes at most the 50 characters the server keeps (it took 60, and a name of
 * 51 to 60 was refused on Save after being typed whole).
 */
export const NameAsLongAsKept: Story = {
  parameters: {
    app: { path: '/mine', signedIn: true },
    msw: { handlers: api(mockEndpoint('/user/personas', () => [])) },
  },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'New persona' }));
    const form = within(await canvas.findByRole('form', { name: 'New persona' }));
    await userEvent.type(form.getByLabelText('Name'), 'Captain Rhea of the Marigold, '.repeat(2));
    await expect(form.getByLabelText('Name')).toHaveValue(
      'Captain Rhea of the Marigold, Captain Rhea of the ',
    );
  },
};

export const Error: Story = failingLoad(
  { path: '/mine', signedIn: true },
  '/user/personas',
  'Personas are resting',
);
