import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { createMateSummaryFixture } from '@mates/api-client/msw';
import { MateCard, MateCardSkeleton } from './mate-card';
import { Flex } from '../layout/primitives';
import { styled } from '../theme/stitches.config';

const CardWidth = styled('div', { width: '220px' });
const meta = {
  title: 'Catalog/MateCard',
  component: MateCard,
  subcomponents: { MateCardSkeleton },
  tags: ['autodocs'],
  args: {
    mate: createMateSummaryFixture(),
    href: '#/detail?mateId=mate-1',
    tagLabels: { fantasy: 'Fantasy', wholesome: 'Wholesome' },
  },
  decorators: [(Story) => <CardWidth>{Story()}</CardWidth>],
  parameters: {
    docs: {
      description: {
        component:
          'One mate in a list: portrait, name, tagline, tags and how many chats it had; the whole card links to the mate. The favorite toggle shows when `onFavoriteChange` is given. `MateCardSkeleton` holds the place while the list loads.',
      },
    },
  },
} satisfies Meta<typeof MateCard>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Without a toggle, not a favorite, a favorite, and loading. */
export const Variants: Story = {
  decorators: [(Story) => Story()],
  render: (args) => (
    <Flex gap={3} wrap>
      {[
        <MateCard key="plain" {...args} />,
        <MateCard key="off" {...args} favorite={false} onFavoriteChange={fn()} />,
        <MateCard key="on" {...args} favorite onFavoriteChange={fn()} />,
        <MateCardSkeleton key="skeleton" />,
      ].map((card) => (
        <CardWidth key={card.key}>{card}</CardWidth>
      ))}
    </Flex>
  ),
};
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('link', { name: /Lyra Moonwhisper/ })).toHaveAttribute(
      'href',
      '#/detail?mateId=mate-1',
    );
    await expect(canvas.getByText('5.4K chats')).toBeVisible();
    await expect(canvas.getByText('Fantasy')).toBeVisible();
  },
};
export const Favorite: Story = { args: { favorite: true, onFavoriteChange: fn() } };
export const Loading: Story = { render: () => <MateCardSkeleton /> };

function FavoriteCard(props: Parameters<typeof MateCard>[0]) {
  const [favorite, setFavorite] = useState(false);
  return <MateCard {...props} favorite={favorite} onFavoriteChange={setFavorite} />;
}

/** Pressing the heart makes the mate a favorite. */
export const MarkAsFavorite: Story = {
  tags: ['!autodocs'],
  render: (args) => <FavoriteCard {...args} />,
  play: async ({ canvasElement }) => {
    const favorite = within(canvasElement).getByRole('button', { name: 'Favorite' });
    await expect(favorite).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(favorite);
    await expect(favorite).toHaveAttribute('aria-pressed', 'true');
  },
};

/** A mature mate carries an 18+ badge, named for screen readers. */
export const Mature: Story = {
  args: { mate: createMateSummaryFixture({ nsfw: true }) },
  play: async ({ canvasElement }) => {
    const card = within(canvasElement).getByRole('article');
    await expect(within(card).getByRole('img', { name: 'Mature' })).toHaveTextContent('18+');
  },
};
