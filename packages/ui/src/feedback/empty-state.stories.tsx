import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { EmptyState } from './empty-state';
import { Button } from '../controls/button';
import { Flex } from '../layout/primitives';

const meta = {
  title: 'Feedback/EmptyState',
  component: EmptyState,
  tags: ['autodocs'],
  args: {
    title: 'No mates match these tags',
    description: 'Try fewer tags, or another gender.',
    action: <Button variant="soft">Clear filters</Button>,
  },
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          'What a list shows when it has nothing: a title, a sentence saying why, and what to do about it. `tone="error"` is for a load that failed: it is announced at once.',
      },
    },
  },
} satisfies Meta<typeof EmptyState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The empty and the error tone, side by side. */
export const Variants: Story = {
  render: (args) => (
    <Flex gap={4} wrap>
      <EmptyState {...args} />
      <EmptyState
        tone="error"
        title="Mates could not be loaded"
        description="Check your connection."
        action={<Button>Try again</Button>}
      />
    </Flex>
  ),
};
export const Empty: Story = {};
export const LoadFailed: Story = {
  args: {
    tone: 'error',
    title: 'Mates could not be loaded',
    description: 'Check your connection.',
    action: <Button>Try again</Button>,
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(
      'Mates could not be loaded',
    );
  },
};
