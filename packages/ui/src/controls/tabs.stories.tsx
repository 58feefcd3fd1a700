import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { Tabs } from './tabs';
import { styled } from '../theme/stitches.config';

const Frame = styled('div', { width: '320px' });
const meta = {
  title: 'Controls/Tabs',
  component: Tabs,
  tags: ['autodocs'],
  args: {
    label: 'Profile sections',
    tabs: [
      { value: 'personas', label: 'Personas', content: 'Your personas' },
      { value: 'settings', label: 'Settings', content: 'Your settings' },
    ],
  },
  decorators: [(Story) => <Frame>{Story()}</Frame>],
  parameters: {
    docs: {
      description: {
        component:
          "Sections of one page shown one at a time (the profile's personas and settings). Arrow keys move between tabs; use it for views of the same thing, not for navigation between pages.",
      },
    },
  },
} satisfies Meta<typeof Tabs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const FirstTabOpen: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('tabpanel')).toHaveTextContent('Your personas');
  },
};
export const SecondTabOpen: Story = { args: { defaultValue: 'settings' } };

/** The right arrow moves to Settings and shows its panel. */
export const MoveWithArrowKeys: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    canvas.getByRole('tab', { name: 'Personas' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect(canvas.getByRole('tab', { name: 'Settings' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(canvas.getByRole('tabpanel')).toHaveTextContent('Your settings');
  },
};
