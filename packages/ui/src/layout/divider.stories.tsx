import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Divider } from './divider';
import { Stack } from './primitives';
import { styled } from '../theme/stitches.config';

const Narrow = styled('div', { width: '320px' });
const meta = {
  title: 'Layout/Divider',
  component: Divider,
  tags: ['autodocs'],
  decorators: [(Story) => <Narrow>{Story()}</Narrow>],
  parameters: {
    docs: {
      description: {
        component:
          'A horizontal line between groups. With a `label` it carries a word in the middle, e.g. "or" between the sign-in buttons and the e-mail form.',
      },
    },
  },
} satisfies Meta<typeof Divider>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Plain, and with a word. */
export const Variants: Story = {
  render: () => (
    <Stack gap={5}>
      <Divider />
      <Divider label="or" />
    </Stack>
  ),
};
export const Plain: Story = {};
export const WithLabel: Story = {
  args: { label: 'or' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('separator', { name: 'or' })).toBeVisible();
  },
};
