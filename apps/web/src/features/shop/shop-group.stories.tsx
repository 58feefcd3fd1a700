import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Shop/Groups', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** The price page's row for `term`: a `<dt>`, its price in the `<dd>` after it. */
async function priceOf(canvas: ReturnType<typeof within>, term: string) {
  const costs = await canvas.findByRole('region', { name: 'What things cost' }, { timeout: 5000 });
  const row = within(costs).getByText(term);
  await expect(row.tagName).toBe('DT');
  return row.nextElementSibling;
}

/** The price page says, before anyone sends, that each reply in a group is charged as a chat. */
export const GroupReplyCost: Story = {
  parameters: { app: { path: '/subscription', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await priceOf(canvas, 'A reply in a group chat')).toHaveTextContent(
      '1 chat for each mate’s reply',
    );
  },
};

/** The price page states a voice call's price: per reply, as typed, its voice included. */
export const CallReplyCost: Story = {
  parameters: { app: { path: '/subscription', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await priceOf(canvas, 'A reply in a voice call')).toHaveTextContent(
      /^1 chat for each reply, its voice included \(charged per reply, not per minute/,
    );
  },
};
