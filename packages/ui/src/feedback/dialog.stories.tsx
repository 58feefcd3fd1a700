import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { Dialog } from './dialog';
import { Toaster, type ToastNotice } from './toast';
import { Button } from '../controls/button';
import { TextField } from '../controls/text-field';
import { Stack } from '../layout/primitives';
import { styled } from '../theme/stitches.config';

const Spaced = styled('div', { marginTop: '$4' });
const Form = () => (
  <Spaced>
    <Stack>
      <TextField label="Name" defaultValue="Captain" />
      <Button>Save</Button>
    </Stack>
  </Spaced>
);

const meta = {
  title: 'Feedback/Dialog',
  component: Dialog,
  tags: ['autodocs'],
  args: {
    open: true,
    onOpenChange: fn(),
    title: 'Edit persona',
    description: 'Who your mates think you are.',
    children: <Form />,
  },
  parameters: {
    // A dialog covers the page it opens on, so the docs page shows each story in its own frame.
    docs: {
      story: { inline: false, iframeHeight: 480 },
      description: {
        component:
          'A modal window, 500 px wide, that opens and closes in 300 ms. Focus stays inside while it is open and returns to what opened it. `dismissible={false}` is for a dialog that must be answered: Escape shakes it instead of closing it.',
      },
    },
  },
} satisfies Meta<typeof Dialog>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Open: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'Edit persona',
    });
    await expect(dialog).toHaveAccessibleDescription('Who your mates think you are.');
    await expect(dialog.style.getPropertyValue('--dialog-width')).toBe('500px');
  },
};

const REFUSED: ToastNotice = { id: 'refused', tone: 'negative', message: 'That name is taken.' };

function DialogDemo({ dismissible, notice }: { dismissible: boolean; notice?: boolean }) {
  const [open, setOpen] = useState(false);
  const [notices, setNotices] = useState<ToastNotice[]>([]);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open dialog</Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Edit persona"
        description="Who your mates think you are."
        dismissible={dismissible}
      >
        <Form />
        {notice && <Button onClick={() => setNotices([REFUSED])}>Check the name</Button>}
      </Dialog>
      <Toaster
        notices={notices}
        onDismiss={(id) => setNotices((all) => all.filter((shown) => shown.id !== id))}
        duration={60_000}
      />
    </>
  );
}

/** Opens, keeps focus inside while tabbing, closes on Escape and gives focus back. */
export const OpenTabAndCloseWithEscape: Story = {
  tags: ['!autodocs'],
  render: () => <DialogDemo dismissible />,
  play: async ({ canvasElement }) => {
    const opener = within(canvasElement).getByRole('button', { name: 'Open dialog' });
    await userEvent.click(opener);
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Edit persona' });
    for (let step = 0; step < 5; step += 1) {
      await userEvent.tab();
      await expect(dialog.contains(canvasElement.ownerDocument.activeElement)).toBe(true);
    }
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(opener).toHaveFocus();
  },
};

/** A dialog that must not close: Escape shakes it for 170 ms; the close button still closes it. */
export const EscapeShakesThenCloseButtonCloses: Story = {
  tags: ['!autodocs'],
  render: () => <DialogDemo dismissible={false} />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Open dialog' }));
    const body = within(canvasElement.ownerDocument.body);
    await body.findByRole('dialog');
    const shaker = body.getByTestId('dialog-shaker');
    await userEvent.keyboard('{Escape}');
    await expect(shaker).toHaveAttribute('data-shaking', 'true');
    await waitFor(() => expect(shaker).not.toHaveAttribute('data-shaking'), { timeout: 1000 });
    await expect(body.getByRole('dialog')).toBeVisible();
    await userEvent.click(body.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
  },
};

/**
 * A notice raised from the dialog sits above it, and Radix gives Escape to the top layer only:
 * Escape pressed in the dialog is still the dialog's. One that must be answered shakes; the
 * notice stays.
 */
export const EscapeUnderANotice: Story = {
  tags: ['!autodocs'],
  render: () => <DialogDemo dismissible={false} notice />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Open dialog' }));
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Check the name' }));
    const notice = await body.findByText('That name is taken.', { selector: 'li *' });
    await expect(within(dialog).getByRole('button', { name: 'Check the name' })).toHaveFocus();
    // The shake lasts 170 ms, which a loaded machine can spend before the next check: each
    // change of it is noted as it happens.
    const shaker = body.getByTestId('dialog-shaker');
    const shakes: (string | null)[] = [];
    const watch = new MutationObserver(() => shakes.push(shaker.getAttribute('data-shaking')));
    watch.observe(shaker, { attributes: true, attributeFilter: ['data-shaking'] });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(shakes).toContain('true'));
    watch.disconnect();
    await expect(dialog).toBeVisible();
    await expect(notice).toBeInTheDocument();
  },
};
