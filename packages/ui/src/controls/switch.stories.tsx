import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Switch } from './switch';
import { Stack, Text } from '../layout/primitives';
import { styled } from '../theme/stitches.config';

const Frame = styled('div', { width: '320px' });
const meta = {
  title: 'Controls/Switch',
  component: Switch,
  tags: ['autodocs'],
  args: { label: 'Show mature content', checked: false, onCheckedChange: fn() },
  decorators: [(Story) => <Frame>{Story()}</Frame>],
  parameters: {
    docs: {
      description: {
        component:
          'An on/off setting that applies at once, with its label beside it (e.g. the mature-content preference). For choices submitted with a form, use a `Chip` or a `Select`.',
      },
    },
  },
} satisfies Meta<typeof Switch>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Off, on and disabled. */
export const Variants: Story = {
  render: (args) => (
    <Stack gap={3}>
      <Switch {...args} label="Off" checked={false} />
      <Switch {...args} label="On" checked />
      <Switch {...args} label="Disabled" checked={false} disabled />
    </Stack>
  ),
};
export const Off: Story = {};
export const On: Story = { args: { checked: true } };
export const Disabled: Story = { args: { disabled: true } };

function MatureSwitch() {
  const [on, setOn] = useState(false);
  return <Switch label="Show mature content" checked={on} onCheckedChange={setOn} />;
}

/** Space on the focused switch turns it on. */
export const TurnOnWithTheKeyboard: Story = {
  tags: ['!autodocs'],
  render: () => <MatureSwitch />,
  play: async ({ canvasElement }) => {
    const toggle = within(canvasElement).getByRole('switch', { name: 'Show mature content' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    toggle.focus();
    await userEvent.keyboard(' ');
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
  },
};

/** With a hint under it: the hint is the switch's description for screen readers. */
export const WithAHint: Story = {
  render: (args) => (
    <Stack gap={1}>
      <Switch {...args} label="Remember me across chats" aria-describedby="switch-hint" />
      <Text id="switch-hint" size={2} tone="muted">
        What Lyra learns about you here goes with you into your other chats with her.
      </Text>
    </Stack>
  ),
  play: async ({ canvasElement }) => {
    const toggle = within(canvasElement).getByRole('switch', { name: 'Remember me across chats' });
    await expect(toggle).toHaveAccessibleDescription(
      'What Lyra learns about you here goes with you into your other chats with her.',
    );
  },
};
