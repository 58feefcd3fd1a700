import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { createMateSummaryFixture } from '@mates/api-client/msw';
import { Avatar } from './avatar';
import { Flex } from '../layout/primitives';

const LYRA = createMateSummaryFixture();
const meta = {
  title: 'Catalog/Avatar',
  component: Avatar,
  tags: ['autodocs'],
  args: { src: LYRA.avatar, name: LYRA.name, size: 'large' },
  parameters: {
    docs: {
      description: {
        component:
          'A round portrait of a mate or a person, named for screen readers. Without an image, or when it fails to load, it shows the initials. Use `decorative` inside a control that already says whose it is.',
      },
    },
  },
} satisfies Meta<typeof Avatar>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The three sizes, and the initials shown without an image. */
export const Variants: Story = {
  render: (args) => (
    <Flex gap={3} align="center">
      <Avatar {...args} size="large" />
      <Avatar {...args} size="medium" />
      <Avatar {...args} size="small" />
      <Avatar src={null} name="Ada Lovelace" />
    </Flex>
  ),
};
export const Portrait: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('img', { name: LYRA.name })).toBeVisible();
  },
};
export const Initials: Story = {
  args: { src: null, name: 'Ada Lovelace', size: 'medium' },
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByRole('img', { name: 'Ada Lovelace' }),
    ).toHaveTextContent('AL');
  },
};
/** The image is missing, so the initials take its place. */
export const ImageFailedToLoad: Story = {
  args: { src: '/does-not-exist.png', name: 'Broken Image', size: 'medium' },
  play: async ({ canvasElement }) => {
    await waitFor(() =>
      expect(within(canvasElement).getByRole('img', { name: 'Broken Image' })).toHaveTextContent(
        'BI',
      ),
    );
  },
};
