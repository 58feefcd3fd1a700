import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { MoreMenu } from './more-menu';
import { Button } from '../controls/button';
import { Switch } from '../controls/switch';

const meta = {
  title: 'Layout/MoreMenu',
  component: MoreMenu,
  tags: ['autodocs'],
  args: {
    label: 'More',
    children: (
      <>
        <Button size="small" variant="ghost" onClick={fn()}>
          New chat
        </Button>
        <Button size="small" variant="ghost">
          Delete chat
        </Button>
        <Switch label="Speak replies aloud" checked={false} onCheckedChange={fn()} />
      </>
    ),
  },
  parameters: {
    docs: {
      description: {
        component:
          'A "more" button for a compact bar on a phone: it shows a panel of further controls (buttons, links, switches). Escape or a press outside closes it, Escape giving the focus back to the button; choosing a button or link closes it, a switch keeps it open.',
      },
    },
  },
} satisfies Meta<typeof MoreMenu>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Closed: Story = {};

/** Opened by the button; Escape closes it and gives the focus back; a chosen action closes it. */
export const OpenAndClose: Story = {
  tags: ['!autodocs'],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const more = canvas.getByRole('button', { name: 'More' });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(more);
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    await expect(canvas.getByRole('group', { name: 'More' })).toBeVisible();
    await userEvent.click(canvas.getByRole('switch', { name: 'Speak replies aloud' }));
    await expect(canvas.getByRole('group', { name: 'More' })).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect(canvas.queryByRole('group', { name: 'More' })).toBeNull();
    await expect(more).toHaveFocus();
    await userEvent.click(more);
    await userEvent.click(canvas.getByRole('button', { name: 'New chat' }));
    await expect(canvas.queryByRole('group', { name: 'More' })).toBeNull();
  },
};
