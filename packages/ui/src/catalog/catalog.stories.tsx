import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { createMateSummariesFixture, createMateSummaryFixture } from '@mates/api-client/msw';
import { MateCard } from './mate-card';
import { MateGrid } from './mate-grid';
import { Avatar } from './avatar';
import { Chip } from '../controls/chip';
import { EmptyState } from '../feedback/empty-state';
import { Button } from '../controls/button';
import { Flex } from '../layout/primitives';
import { styled } from '../theme/stitches.config';

const meta = { title: 'Catalog', parameters: { layout: 'padded' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;
const CardWidth = styled('div', { width: '220px' });

function FavoriteCard() {
  const [favorite, setFavorite] = useState(false);
  return (
    <CardWidth>
      <MateCard
        mate={createMateSummaryFixture()}
        href="#/detail?mateId=mate-1"
        favorite={favorite}
        onFavoriteChange={setFavorite}
        tagLabels={{ fantasy: 'Fantasy' }}
      />
    </CardWidth>
  );
}

export const Card: Story = {
  render: () => <FavoriteCard />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('link', { name: /Lyra Moonwhisper/ })).toHaveAttribute(
      'href',
      '#/detail?mateId=mate-1',
    );
    await expect(canvas.getByText('5.4K chats')).toBeVisible();
    await expect(canvas.getByText('Fantasy')).toBeVisible();
    const favorite = canvas.getByRole('button', { name: 'Favorite' });
    await expect(favorite).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(favorite);
    await expect(favorite).toHaveAttribute('aria-pressed', 'true');
  },
};

export const Grid: Story = {
  render: () => (
    <MateGrid label="Recommended mates">
      {createMateSummariesFixture(8).map((mate) => (
        <MateCard key={mate.mateId} mate={mate} href={`#/detail?mateId=${mate.mateId}`} />
      ))}
    </MateGrid>
  ),
  play: async ({ canvasElement }) => {
    const region = within(canvasElement).getByRole('region', { name: 'Recommended mates' });
    await expect(within(region).getAllByRole('article')).toHaveLength(8);
  },
};

export const GridLoading: Story = {
  render: () => <MateGrid label="Recommended mates" loading />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading mates');
    await expect(canvas.getByRole('region', { name: 'Recommended mates' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};

export const Empty: Story = {
  render: () => (
    <EmptyState
      title="No mates match these tags"
      description="Try fewer tags, or another gender."
      action={<Button variant="soft">Clear filters</Button>}
    />
  ),
};

export const LoadFailed: Story = {
  render: () => (
    <EmptyState
      tone="error"
      title="Mates could not be loaded"
      description="Check your connection."
      action={<Button>Try again</Button>}
    />
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(
      'Mates could not be loaded',
    );
  },
};

function Chips() {
  const [selected, setSelected] = useState<string[]>(['fantasy']);
  const toggle = (tag: string) =>
    setSelected((list) => (list.includes(tag) ? list.filter((t) => t !== tag) : [...list, tag]));
  return (
    <Flex gap={2} wrap>
      {['fantasy', 'romance', 'mystery'].map((tag) => (
        <Chip key={tag} selected={selected.includes(tag)} onSelectedChange={() => toggle(tag)}>
          {tag}
        </Chip>
      ))}
    </Flex>
  );
}

/** Tag chips toggle on press, by mouse or keyboard. */
export const TagChips: Story = {
  render: () => <Chips />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const romance = canvas.getByRole('button', { name: 'romance' });
    await expect(romance).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(romance);
    await expect(romance).toHaveAttribute('aria-pressed', 'true');
    romance.focus();
    await userEvent.keyboard(' ');
    await expect(romance).toHaveAttribute('aria-pressed', 'false');
    await expect(canvas.getByRole('button', { name: 'fantasy' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  },
};

export const Avatars: Story = {
  render: () => (
    <Flex gap={3} align="center">
      <Avatar src={createMateSummaryFixture().avatar} name="Lyra Moonwhisper" size="large" />
      <Avatar src={null} name="Ada Lovelace" />
      <Avatar src="/does-not-exist.png" name="Broken Image" size="small" />
    </Flex>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('img', { name: 'Lyra Moonwhisper' })).toBeVisible();
    await expect(canvas.getByRole('img', { name: 'Ada Lovelace' })).toHaveTextContent('AL');
    // The image fails to load, and the initials take its place.
    await waitFor(() =>
      expect(canvas.getByRole('img', { name: 'Broken Image' })).toHaveTextContent('BI'),
    );
  },
};
