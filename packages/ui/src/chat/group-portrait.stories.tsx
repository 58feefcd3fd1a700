import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { createMateSummaryFixture } from '@mates/api-client/msw';
import { GroupPortrait } from './group-portrait';
import { Flex } from '../layout/primitives';

const member = (index: number) => {
  const mate = createMateSummaryFixture({}, index);
  return { name: mate.name, src: mate.avatar };
};
const members = (count: number) => Array.from({ length: count }, (_, index) => member(index));

const meta = {
  title: 'Chat/GroupPortrait',
  component: GroupPortrait,
  tags: ['autodocs'],
  args: { members: members(3), label: 'Tavern: three mates', size: 'large' },
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          "A group chat's portrait: its mates' portraits overlapping in a row, six at most (any more are counted, \"+2\"). It is one image for screen readers, named by `label` (the group's name and its mates).",
      },
    },
  },
} satisfies Meta<typeof GroupPortrait>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three mates: one image, named. */
export const Three: Story = {
  play: async ({ canvasElement }) => {
    const portrait = within(canvasElement).getByRole('img', { name: 'Tavern: three mates' });
    await expect(portrait.querySelectorAll('img')).toHaveLength(3);
  },
};
/** The fewest a group has. */
export const Two: Story = { args: { members: members(2), label: 'Two mates' } };
/** The most a group has. */
export const Six: Story = { args: { members: members(6), label: 'Six mates' } };
/** More than six: the rest counted. */
export const MoreThanSix: Story = {
  args: { members: [...members(6), { name: 'Ada Lovelace', src: null }], label: 'Seven' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('img', { name: 'Seven' })).toHaveTextContent('+1');
  },
};
/** Mates without portraits show their initials. */
export const Initials: Story = {
  args: {
    members: [
      { name: 'Ada Lovelace', src: null },
      { name: 'Grace Hopper', src: null },
    ],
    label: 'Pioneers',
  },
};
/** The three sizes: a room list row takes the small one. */
export const Sizes: Story = {
  render: (args) => (
    <Flex gap={4} align="center">
      <GroupPortrait {...args} size="large" label="Large" />
      <GroupPortrait {...args} size="medium" label="Medium" />
      <GroupPortrait {...args} size="small" label="Small" />
    </Flex>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getAllByRole('img')).toHaveLength(3);
  },
};
