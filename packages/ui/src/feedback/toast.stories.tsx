import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { Toaster, type ToastNotice } from './toast';
import { Button } from '../controls/button';

const ALREADY_REGISTERED: ToastNotice = {
  id: '1',
  tone: 'negative',
  message: 'This e-mail address is already registered.',
};

const meta = {
  title: 'Feedback/Toaster',
  component: Toaster,
  tags: ['autodocs'],
  // Long enough that a still story stays on screen while someone looks at it.
  args: { notices: [ALREADY_REGISTERED], onDismiss: fn(), duration: 24 * 60 * 60 * 1000 },
  parameters: {
    docs: {
      story: { inline: false, iframeHeight: 160 },
      description: {
        component:
          'Notifications at the top of the page: announced to screen readers, gone after 3 seconds (`duration`), closable and swipeable. Negative notices (errors) interrupt; positive ones wait their turn.',
      },
    },
  },
} satisfies Meta<typeof Toaster>;
export default meta;
type Story = StoryObj<typeof meta>;

export const NegativeNotice: Story = {
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const notice = await body.findByText(ALREADY_REGISTERED.message, { selector: 'li *' });
    // It slides in: visible once the entrance has run.
    await waitFor(() => expect(notice).toBeVisible());
  },
};
/** In the page's language: the close button and the region are named by `labels`. */
export const InSpanish: Story = {
  args: {
    notices: [{ id: '3', tone: 'negative', message: 'Este correo ya está registrado.' }],
    labels: { region: 'Notificaciones', dismiss: 'Cerrar la notificación' },
  },
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await expect(
      await body.findByRole('button', { name: 'Cerrar la notificación' }),
    ).toBeInTheDocument();
    await expect(body.getByRole('region', { name: /^Notificaciones/ })).toBeInTheDocument();
  },
};
export const PositiveNotice: Story = {
  args: { notices: [{ id: '2', tone: 'positive', message: 'Your password was changed.' }] },
};

function ToastDemo() {
  const [notices, setNotices] = useState<ToastNotice[]>([]);
  return (
    <>
      <Button
        onClick={() =>
          setNotices((list) => [...list, { ...ALREADY_REGISTERED, id: String(list.length) }])
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

/** A negative notice appears, is announced, and leaves after 3 s. */
export const NotifyAndLeaveAfterThreeSeconds: Story = {
  tags: ['!autodocs'],
  render: () => <ToastDemo />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Notify' }));
    const body = within(canvasElement.ownerDocument.body);
    await expect(
      await body.findByText(ALREADY_REGISTERED.message, { selector: 'li *' }),
    ).toBeInTheDocument();
    // Radix repeats the text in a live region, which is what screen readers announce.
    await waitFor(() =>
      expect(
        canvasElement.ownerDocument.querySelector('[role="status"][aria-live]')?.textContent,
      ).toContain('already registered'),
    );
    await waitFor(
      () => expect(body.queryByText(ALREADY_REGISTERED.message, { selector: 'li *' })).toBeNull(),
      { timeout: 4500 },
    );
  },
};

/** With nothing open under it, Escape closes the newest notice, wherever the focus is. */
export const EscapeClosesIt: Story = {
  args: { onDismiss: fn() },
  play: async ({ args, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await body.findByText(ALREADY_REGISTERED.message, { selector: 'li *' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(args.onDismiss).toHaveBeenCalledWith(ALREADY_REGISTERED.id));
  },
};
