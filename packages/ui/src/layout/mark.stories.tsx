import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Mark } from './mark';
import { Text } from './primitives';

const meta = {
  title: 'Layout/Mark',
  component: Mark,
  tags: ['autodocs'],
  args: { children: 'map' },
  parameters: {
    layout: 'padded',
    docs: {
      description: {
        component:
          'Words marked in running text (a `<mark>`, in the accent colour): what a search matched, inside a snippet of a message.',
      },
    },
  },
} satisfies Meta<typeof Mark>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A match inside a snippet, in muted text as a search result shows it. */
export const InASnippet: Story = {
  render: (args) => (
    <Text tone="muted" size={2}>
      I brought the <Mark {...args} /> you asked about, and the old <Mark>map</Mark> too.
    </Text>
  ),
  play: async ({ canvasElement }) => {
    const marks = within(canvasElement).getAllByText('map');
    await expect(marks).toHaveLength(2);
    await expect(marks[0]!.tagName).toBe('MARK');
  },
};
