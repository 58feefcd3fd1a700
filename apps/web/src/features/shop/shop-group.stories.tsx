import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Shop/Groups', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** The price page says, before anyone sends, that each reply in a group is charged as a chat. */
export const GroupReplyCost: Story = {
  parameters: { app: { path: '/subscription', signedIn: true } },
  play: async ({ canvas }) => {
    const costs = await canvas.findByRole(
      'region',
      { name: 'What things cost' },
      { timeout: 5000 },
    );
    const term = within(costs).getByText('A reply in a group chat');
    await expect(term.tagName).toBe('DT');
    await expect(term.nextElementSibling).toHaveTextContent('1 chat for each mate’s reply');
  },
};

/** The price page states a voice call's price: per reply, as typed, its voice included. */
export const CallReplyCost: Story = {
  parameters: { app: { path: '/subscription', signedIn: true } },
  play: async ({ canvas }) => {
    const costs = await canvas.findByRole(
      'region',
      { name: 'What things cost' },
      { timeout: 5000 },
    );
    const term = within(costs).getByText('A reply in a voice call');
    await expect(term.tagName).toBe('DT');
    await expect(term.nextElementSibling).toHaveTextContent(
      /^1 chat for each reply, its voice included \(charged per reply, not per minute/,
    );
  },
};
