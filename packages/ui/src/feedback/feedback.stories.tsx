import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { Dialog } from './dialog';
import { Toaster, type ToastNotice } from './toast';
import { LoadingOverlay, Spinner } from './loading-overlay';
import { Button } from '../controls/button';
import { TextField } from '../controls/text-field';
import { Stack, Text } from '../layout/primitives';
import { styled } from '../theme/stitches.config';

const Spaced = styled('div', { marginTop: '$4' });
const Card = styled('div', {
  position: 'relative',
  width: '320px',
  height: '200px',
  padding: '$4',
  borderRadius: '$3',
  backgroundColor: '$surface',
});
const Narrow = styled('div', { width: '320px' });
import { Divider } from '../layout/divider';

const meta = { title: 'Feedback' } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

function DialogDemo({ dismissible }: { dismissible: boolean }) {
  const [open, setOpen] = useState(false);
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
        <Spaced>
          <Stack>
            <TextField label="Name" defaultValue="Captain" />
            <Button>Save</Button>
          </Stack>
        </Spaced>
      </Dialog>
    </>
  );
}

/** Opens, traps focus, closes on Escape and gives focus back. */
export const DialogDefault: Story = {
  render: () => <DialogDemo dismissible />,
  play: async ({ canvasElement }) => {
    const opener = within(canvasElement).getByRole('button', { name: 'Open dialog' });
    await userEvent.click(opener);
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Edit persona' });
    await expect(dialog).toHaveAccessibleDescription('Who your mates think you are.');
    await expect(dialog.style.getPropertyValue('--dialog-width')).toBe('500px');
    // Focus stays inside while tabbing around.
    for (let step = 0; step < 5; step += 1) {
      await userEvent.tab();
      await expect(dialog.contains(canvasElement.ownerDocument.activeElement)).toBe(true);
    }
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(opener).toHaveFocus();
  },
};

/** A dialog that must not close: Escape shakes it for 170 ms; the close button still works. */
export const DialogMustNotClose: Story = {
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

function ToastDemo() {
  const [notices, setNotices] = useState<ToastNotice[]>([]);
  return (
    <>
      <Button
        onClick={() =>
          setNotices((list) => [
            ...list,
            {
              id: String(list.length),
              tone: 'negative',
              message: 'This e-mail address is already registered.',
            },
          ])
        }
      >
        Notify
      </Button>
      <Toaster
        notices={notices}
        onDismiss={(id) => setNotices((list) => list.filter((n) => n.id !== id))}
      />
    </>
  );
}

/** A negative notification that is announced and leaves after 3 s. */
export const ToastNegative: Story = {
  render: () => <ToastDemo />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Notify' }));
    const body = within(canvasElement.ownerDocument.body);
    await expect(
      await body.findByText('This e-mail address is already registered.', { selector: 'li *' }),
    ).toBeInTheDocument();
    // Radix repeats the text in a live region, which is what screen readers announce.
    await waitFor(() =>
      expect(
        canvasElement.ownerDocument.querySelector('[role="status"][aria-live]')?.textContent,
      ).toContain('already registered'),
    );
    await waitFor(
      () =>
        expect(
          body.queryByText('This e-mail address is already registered.', { selector: 'li *' }),
        ).toBeNull(),
      { timeout: 4500 },
    );
  },
};

export const Loading: Story = {
  render: () => (
    <Card>
      <Text>Signing you in</Text>
      <LoadingOverlay />
    </Card>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Please wait...');
  },
};

export const SpinnerAlone: Story = { render: () => <Spinner label="Loading mates" /> };

export const DividerWithLabel: Story = {
  render: () => (
    <Narrow>
      <Divider label="or" />
    </Narrow>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('separator', { name: 'or' })).toBeVisible();
  },
};
