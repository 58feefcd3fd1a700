import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { createPackageFixture } from '@mates/api-client/msw';
import { PackageCard } from './package-card';
import { Grid } from '../layout/more-layout';
import { styled } from '../theme/stitches.config';

const Frame = styled('div', { width: 'min(720px, 100vw)', padding: '$3' });
const FREE = createPackageFixture({
  packageId: 'free',
  name: 'Free',
  price: { amount: 0, currency: 'USD' },
  chats: 50,
  goldCoins: 0,
  features: ['50 messages a month'],
});
const meta = {
  title: 'Catalog/PackageCard',
  component: PackageCard,
  tags: ['autodocs'],
  args: { pkg: createPackageFixture(), onChoose: fn() },
  decorators: [(Story) => <Frame>{Story()}</Frame>],
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          'One subscription package: price, chats and gold coins, features, and a Choose button. `highlighted` marks the recommended one; `current` says "Your plan" and makes the button inert.',
      },
    },
  },
} satisfies Meta<typeof PackageCard>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Plain, highlighted and current, side by side. */
export const Variants: Story = {
  render: (args) => (
    <Grid columns={3}>
      <PackageCard {...args} pkg={FREE} current />
      <PackageCard {...args} highlighted />
      <PackageCard {...args} pkg={createPackageFixture({ packageId: 'pro', name: 'Pro' })} />
    </Grid>
  ),
};
export const Plain: Story = {
  play: async ({ canvasElement }) => {
    const plus = within(canvasElement).getByRole('article', { name: 'Plus' });
    await expect(plus).toHaveTextContent('$9.99 / month');
    await expect(plus).toHaveTextContent('3,000 chats · 200 gold coins');
  },
};
export const Highlighted: Story = { args: { highlighted: true } };
export const CurrentPlan: Story = { args: { pkg: FREE, current: true } };

/** Choose picks Plus; the current plan's button does nothing. */
export const ChooseAPackage: Story = {
  tags: ['!autodocs'],
  render: (args) => (
    <Grid columns={2}>
      <PackageCard {...args} pkg={FREE} current />
      <PackageCard {...args} highlighted />
    </Grid>
  ),
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const plus = canvas.getByRole('article', { name: 'Plus' });
    await userEvent.click(within(plus).getByRole('button', { name: 'Choose' }));
    await expect(args.onChoose).toHaveBeenCalledWith('package-plus');
    await userEvent.click(
      within(canvas.getByRole('article', { name: 'Free' })).getByRole('button', {
        name: 'Your plan',
      }),
    );
    await expect(args.onChoose).toHaveBeenCalledOnce();
  },
};

/** Prices are in the currency's minor units: yen have none, so 500 is ¥500, not ¥5. */
export const PricesInEveryCurrency: Story = {
  args: {
    pkg: createPackageFixture({
      name: '500 gold coins',
      period: 'once',
      price: { amount: 500, currency: 'JPY' },
    }),
  },
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article', { name: '500 gold coins' });
    await expect(card).toHaveTextContent('¥500');
  },
};
