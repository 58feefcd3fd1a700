import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { Sheet } from './sheet';
import { Toaster, type ToastNotice } from './toast';
import { Button } from '../controls/button';
import { Switch } from '../controls/switch';
import { Stack, Text } from '../layout/primitives';

const Facts = () => (
  <Stack gap={3}>
    <Switch label="Remember me across chats" checked={false} onCheckedChange={() => {}} />
    {Array.from({ length: 30 }, (_, index) => (
      <Text key={index}>Fact {index + 1}: the tide came in over the old causeway.</Text>
    ))}
  </Stack>
);

const meta = {
  title: 'Feedback/Sheet',
  component: Sheet,
  tags: ['autodocs'],
  args: {
    open: true,
    onOpenChange: fn(),
    title: 'Memory',
    description: 'What Lyra remembers of this chat.',
    children: <Facts />,
  },
  parameters: {
    docs: {
      story: { inline: false, iframeHeight: 560 },
      description: {
        component:
          'A modal panel on the right edge, 440 px wide from a tablet up and the whole screen on a phone, for a tool beside a screen (a chat’s memory). Its title and close button stay in view while its body scrolls. Focus moves in, stays inside and returns to what opened it; Escape or a click outside closes it.',
      },
    },
  },
} satisfies Meta<typeof Sheet>;
export default meta;
type Story = StoryObj<typeof meta>;

/** On the right edge, its body scrolling under a title that stays. */
export const Open: Story = {
  play: async ({ canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    const sheet = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'Memory',
    });
    await expect(sheet).toHaveAccessibleDescription('What Lyra remembers of this chat.');
    await waitFor(() =>
      expect(sheet.getBoundingClientRect().right).toBeCloseTo(view.innerWidth, 0),
    );
    await expect(sheet.getBoundingClientRect().width).toBeCloseTo(440, 0);
  },
};

/** On a phone (320 × 568) it takes the whole screen. */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  play: async ({ canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    const sheet = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'Memory',
    });
    await waitFor(() => expect(sheet.getBoundingClientRect().left).toBeCloseTo(0, 0));
    await expect(sheet.getBoundingClientRect().width).toBeCloseTo(view.innerWidth, 0);
    await expect(sheet.getBoundingClientRect().height).toBeCloseTo(view.innerHeight, 0);
  },
};

function SheetDemo() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Memory</Button>
      <Sheet open={open} onOpenChange={setOpen} title="Memory" closeLabel="Close">
        <Facts />
      </Sheet>
    </>
  );
}

/** Opened by a button: focus moves in; Escape closes it and gives the focus back. */
export const OpenAndCloseWithEscape: Story = {
  tags: ['!autodocs'],
  render: () => <SheetDemo />,
  play: async ({ canvasElement }) => {
    const opener = within(canvasElement).getByRole('button', { name: 'Memory' });
    await userEvent.click(opener);
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Memory' });
    await waitFor(() => expect(sheet.contains(document.activeElement)).toBe(true));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(opener).toHaveFocus();
  },
};

function LeadsElsewhere() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Memory</Button>
      <p id="the-message" tabIndex={-1}>
        The message a memory was made from.
      </p>
      <Sheet
        open={open}
        onOpenChange={setOpen}
        title="Memory"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          document.getElementById('the-message')?.focus();
        }}
      >
        <Button onClick={() => setOpen(false)}>From the chat</Button>
      </Sheet>
    </>
  );
}

/** A link in the sheet that leads elsewhere: once closed, the focus goes there, not back. */
export const CloseAndFocusWhatALinkLedTo: Story = {
  tags: ['!autodocs'],
  render: () => <LeadsElsewhere />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Memory' }));
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Memory' });
    await userEvent.click(within(sheet).getByRole('button', { name: 'From the chat' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(within(canvasElement).getByText(/^The message/)).toHaveFocus());
  },
};

function WithAnEditor() {
  const [editing, setEditing] = useState(true);
  return (
    <Sheet
      open
      onOpenChange={() => {}}
      title="Memory"
      onEscapeKeyDown={(event) => {
        if (event.target instanceof HTMLTextAreaElement) event.preventDefault();
      }}
    >
      {editing ? (
        <textarea
          aria-label="Edit the memory"
          autoFocus
          onKeyDown={(event) => event.key === 'Escape' && setEditing(false)}
        />
      ) : (
        <Text>Edit cancelled.</Text>
      )}
    </Sheet>
  );
}

/** Escape in an editor of the sheet cancels the editor, and the sheet stays open. */
export const EscapeCancelsAnEditorInside: Story = {
  tags: ['!autodocs'],
  render: () => <WithAnEditor />,
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const editor = await body.findByRole('textbox', { name: 'Edit the memory' });
    await waitFor(() => expect(editor).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    await expect(await body.findByText('Edit cancelled.')).toBeVisible();
    await expect(body.getByRole('dialog', { name: 'Memory' })).toBeVisible();
  },
};

const SAVED: ToastNotice = { id: 'saved', tone: 'positive', message: 'The memory is saved.' };

function WithANotice({ editor = false }: { editor?: boolean }) {
  const [open, setOpen] = useState(false);
  const [notices, setNotices] = useState<ToastNotice[]>([]);
  const [editing, setEditing] = useState(editor);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Memory</Button>
      <Sheet
        open={open}
        onOpenChange={setOpen}
        title="Memory"
        onEscapeKeyDown={(event) => {
          if (event.target instanceof HTMLTextAreaElement) event.preventDefault();
        }}
      >
        <Stack gap={2}>
          <Button onClick={() => setNotices([SAVED])}>Save</Button>
          {editing ? (
            <textarea
              aria-label="Edit the memory"
              onKeyDown={(event) => event.key === 'Escape' && setEditing(false)}
            />
          ) : (
            editor && <Text>Edit cancelled.</Text>
          )}
        </Stack>
      </Sheet>
      <Toaster
        notices={notices}
        onDismiss={(id) => setNotices((all) => all.filter((notice) => notice.id !== id))}
        duration={60_000}
      />
    </>
  );
}

/**
 * A notice raised from the sheet is the page's top layer, and Radix gives Escape to the top
 * layer only: the first Escape closed the notice, not the sheet the person was in. Escape
 * pressed in the sheet closes the sheet; the notice stays (it closes itself, or by its button).
 */
export const EscapeClosesItUnderANotice: Story = {
  tags: ['!autodocs'],
  render: () => <WithANotice />,
  play: async ({ canvasElement }) => {
    const opener = within(canvasElement).getByRole('button', { name: 'Memory' });
    await userEvent.click(opener);
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Memory' });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Save' }));
    const notice = await body.findByText('The memory is saved.', { selector: 'li *' });
    await expect(within(sheet).getByRole('button', { name: 'Save' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(opener).toHaveFocus();
    await expect(notice).toBeInTheDocument();
  },
};

/** Under a notice too, Escape in an editor of the sheet cancels the editor, not the sheet. */
export const EscapeCancelsAnEditorUnderANotice: Story = {
  tags: ['!autodocs'],
  render: () => <WithANotice editor />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Memory' }));
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Memory' });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Save' }));
    await body.findByText('The memory is saved.', { selector: 'li *' });
    await userEvent.click(within(sheet).getByRole('textbox', { name: 'Edit the memory' }));
    await userEvent.keyboard('{Escape}');
    await expect(await body.findByText('Edit cancelled.')).toBeVisible();
    await expect(body.getByRole('dialog', { name: 'Memory' })).toBeVisible();
    // The next Escape, from the sheet itself, closes it.
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
  },
};

function OpensOnTheCurrentEntry() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Branches</Button>
      <Sheet
        open={open}
        onOpenChange={setOpen}
        title="Branches"
        onOpenAutoFocus={(event) => {
          const sheet = event.currentTarget as HTMLElement;
          event.preventDefault();
          (sheet.querySelector<HTMLElement>('[aria-current="page"]') ?? sheet).focus();
        }}
      >
        <Stack gap={2}>
          <Button variant="danger">Delete Branch 2</Button>
          <a href="#branch-1" aria-current="page">
            Branch 1, open now
          </a>
        </Stack>
      </Sheet>
    </>
  );
}

/**
 * `onOpenAutoFocus` chooses where the focus goes in: here the entry open now, never the
 * destructive button that would otherwise come first.
 */
export const OpenOnAChosenElement: Story = {
  tags: ['!autodocs'],
  render: () => <OpensOnTheCurrentEntry />,
  play: async ({ canvasElement }) => {
    const opener = within(canvasElement).getByRole('button', { name: 'Branches' });
    await userEvent.click(opener);
    const body = within(canvasElement.ownerDocument.body);
    const sheet = await body.findByRole('dialog', { name: 'Branches' });
    await waitFor(() =>
      expect(within(sheet).getByRole('link', { name: 'Branch 1, open now' })).toHaveFocus(),
    );
    await expect(within(sheet).getByRole('button', { name: 'Delete Branch 2' })).not.toHaveFocus();
    // Focus still goes back to what opened it.
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(opener).toHaveFocus();
  },
};
