import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { MoreMenu } from './more-menu';
import { Button } from '../controls/button';
import { Switch } from '../controls/switch';
import { Dialog } from '../feedback/dialog';

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
          'A "more" button for a compact bar on a phone: it shows a panel of further controls (buttons, links, switches). Escape or a press outside closes it, Escape giving the focus back to the button; choosing a button or link closes it (the focus going back to the button, so that a dialog it opens gives it back there), a switch keeps it open.',
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

/** A menu whose action opens a dialog, as a chat's "Memory" does on a phone. */
function MenuWithDialog() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <MoreMenu label="More">
        <Button size="small" variant="ghost" aria-haspopup="dialog" onClick={() => setOpen(true)}>
          Memory
        </Button>
      </MoreMenu>
      <Dialog open={open} onOpenChange={setOpen} title="What the mate sees">
        <p>Nothing yet.</p>
      </Dialog>
    </>
  );
}

/**
 * A dialog opened from the panel, by the keyboard, gives the focus back to the More button when
 * it closes: the button pressed went with the panel, and the focus is not left on the page.
 */
export const DialogFromMenu: Story = {
  tags: ['!autodocs'],
  render: () => <MenuWithDialog />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const page = within(canvasElement.ownerDocument.body);
    const more = canvas.getByRole('button', { name: 'More' });
    more.focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'Memory' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const dialog = await page.findByRole('dialog', { name: 'What the mate sees' });
    await expect(canvas.queryByRole('group', { name: 'More' })).toBeNull();
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(page.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(more).toHaveFocus());
  },
};
