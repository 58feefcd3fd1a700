import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { createMateSummariesFixture } from '@mates/api-client/msw';
import { MateCard } from './mate-card';
import { MateGrid } from './mate-grid';

const meta = {
  title: 'Catalog/MateGrid',
  component: MateGrid,
  tags: ['autodocs'],
  args: {
    label: 'Recommended mates',
    children: createMateSummariesFixture(8).map((mate) => (
      <MateCard key={mate.mateId} mate={mate} href={`#/detail?mateId=${mate.mateId}`} />
    )),
  },
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          'A named, responsive grid of `MateCard`s (two columns on phones, up to five on wide screens). With `loading` it shows skeleton cards and tells screen readers the list is loading.',
      },
    },
  },
} satisfies Meta<typeof MateGrid>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = {
  play: async ({ canvasElement }) => {
    const region = within(canvasElement).getByRole('region', { name: 'Recommended mates' });
    await expect(within(region).getAllByRole('article')).toHaveLength(8);
  },
};
export const Loading: Story = {
  args: { loading: true, children: undefined },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading mates');
    await expect(canvas.getByRole('region', { name: 'Recommended mates' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};
