import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Detail/Groups', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const LOADS = { timeout: 5000 };

/** "Add to a group" on a mate's page: a new group, this mate already in it. */
export const AddToAGroup: Story = {
  parameters: { app: { path: '/detail?mateId=mate-1', signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Add to a group' }, LOADS));
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'New group chat',
    });
    const chosen = within(dialog).getByRole('list', { name: 'In the group: 1 of 6' });
    await expect(within(chosen).getAllByRole('listitem')).toHaveLength(1);
    await expect(chosen).toHaveTextContent('Lyra Moonwhisper');
    // Once it has faded in.
    const out = within(dialog).getByRole('button', { name: 'Take Lyra Moonwhisper out' });
    await waitFor(() => expect(out).toBeVisible());
  },
};

/** A visitor is asked to sign in first; no group dialog opens. */
export const VisitorAddToAGroup: Story = {
  parameters: { app: { path: '/detail?mateId=mate-1' } },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Add to a group' }, LOADS));
    const body = within(canvasElement.ownerDocument.body);
    const asked = await body.findByRole('dialog', {}, LOADS);
    await waitFor(() => expect(asked).toBeVisible());
    await expect(body.queryByRole('dialog', { name: 'New group chat' })).toBeNull();
  },
};
