import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Balances } from './balances';

const meta = {
  title: 'Shell/Balances',
  component: Balances,
  tags: ['autodocs'],
  args: { chats: 1234, goldCoins: 7 },
  parameters: {
    docs: {
      description: {
        component:
          "A signed-in person's chats left and gold coins. The header shows them on wide screens (`wideOnly`); a screen shown without the header puts them beside its back link, at every width.",
      },
    },
  },
} satisfies Meta<typeof Balances>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Both counts, in the default English words. */
export const ChatsAndCoins: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('1234 chats')).toBeVisible();
    await expect(canvas.getByText('7 gold coins')).toBeVisible();
  },
};

/** In the app's words, here Spanish. */
export const InSpanish: Story = {
  args: {
    chats: 3,
    goldCoins: 1,
    labels: {
      chats: (count) => `${count} chats`,
      goldCoins: (count) => (count === 1 ? '1 moneda de oro' : `${count} monedas de oro`),
    },
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('1 moneda de oro')).toBeVisible();
  },
};

/** On a phone, the header's balances step aside (`wideOnly`); a page's stay. */
export const WideOnlyOnAPhone: Story = {
  args: { wideOnly: true },
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('7 gold coins')).not.toBeVisible();
  },
};
