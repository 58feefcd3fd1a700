import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { VisuallyHidden } from './visually-hidden';
import { Text } from './primitives';

const meta = {
  title: 'Layout/VisuallyHidden',
  component: VisuallyHidden,
  tags: ['autodocs'],
  args: { children: 'text only screen readers hear,' },
  parameters: {
    docs: {
      description: {
        component:
          'Words for screen readers only: a heading a sighted person does not need, or the context of an icon. The sample below reads "A sentence with text only screen readers hear, hidden words."',
      },
    },
  },
} satisfies Meta<typeof VisuallyHidden>;
export default meta;
type Story = StoryObj<typeof meta>;

export const InASentence: Story = {
  render: (args) => (
    <Text>
      A sentence with <VisuallyHidden {...args} /> hidden words.
    </Text>
  ),
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByText('text only screen readers hear,'),
    ).toBeInTheDocument();
  },
};
