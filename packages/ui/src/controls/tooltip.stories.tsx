import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { Tooltip } from './tooltip';
import { Button } from './button';

const meta = {
  title: 'Controls/Tooltip',
  component: Tooltip,
  tags: ['autodocs'],
  args: { content: 'Chats left this month', children: <Button variant="soft">42</Button> },
  parameters: {
    docs: {
      description: {
        component:
          'A short hint for one focusable element, shown on hover and on keyboard focus. Never put anything needed to use the page only in a tooltip: touch screens cannot hover.',
      },
    },
  },
} satisfies Meta<typeof Tooltip>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The trigger at rest: the hint is hidden until hover or focus. */
export const Closed: Story = {};

/** Tabbing to the button shows the hint. */
export const ShowOnKeyboardFocus: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement }) => {
    await userEvent.tab();
    await expect(
      await within(canvasElement.ownerDocument.body).findByRole('tooltip'),
    ).toHaveTextContent('Chats left this month');
  },
};
