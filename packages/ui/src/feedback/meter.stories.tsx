import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { Meter } from './meter';
import { Stack } from '../layout/primitives';

const meta = {
  title: 'Feedback/Meter',
  component: Meter,
  tags: ['autodocs'],
  args: { value: 0.12, label: 'Character: share of the context' },
  decorators: [(Story) => <div style={{ width: 280, padding: 16 }}>{Story()}</div>],
  parameters: {
    docs: {
      description: {
        component:
          'A thin bar for a share of a whole, such as a part of a prompt in the model’s context. It is a `meter` for screen readers, named by `label`, its value said as a percentage (or `valueText`).',
      },
    },
  },
} satisfies Meta<typeof Meter>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A part taking 12% of the context. */
export const Share: Story = {
  play: async ({ canvasElement }) => {
    const meter = within(canvasElement).getByRole('meter', {
      name: 'Character: share of the context',
    });
    await expect(meter).toHaveAttribute('aria-valuenow', '12');
    await expect(meter).toHaveAttribute('aria-valuetext', '12%');
  },
};

/** Empty, tiny (still visible), full and past full (clamped), and a nearly full context in danger. */
export const Range: Story = {
  render: () => (
    <Stack gap={3}>
      <Meter value={0} label="Nothing" />
      <Meter value={0.001} label="Tiny" />
      <Meter value={0.5} label="Half" valueText="2,048 of 4,096 tokens" />
      <Meter value={1.4} label="Past full" />
      <Meter value={0.95} label="Nearly full" tone="danger" />
    </Stack>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('meter', { name: 'Past full' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    await expect(canvas.getByRole('meter', { name: 'Half' })).toHaveAttribute(
      'aria-valuetext',
      '2,048 of 4,096 tokens',
    );
    const tiny = canvas.getByRole('meter', { name: 'Tiny' }).firstElementChild!;
    await expect(tiny.getBoundingClientRect().width).toBeGreaterThanOrEqual(2);
  },
};
