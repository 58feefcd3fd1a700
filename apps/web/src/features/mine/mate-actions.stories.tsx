import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { mockEndpointError, mockEndpointLoading } from '@mates/api-client/msw';
import { expectNotice, screenStories, type StoryApp } from '../../testing/story-app';
import { handlers, reset, server, signedIn } from './story-server';

const meta = { title: 'Screens/Your mates actions', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const bodyOf = (canvasElement: HTMLElement) => within(canvasElement.ownerDocument.body);

/** "Publish" makes a private mate public; the list shows it public. */
export const PublishAMate: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Publish Kai Tanaka' }));
    await expectNotice(canvasElement, 'Kai Tanaka is public now.');
    await expect(server.visibility).toEqual([{ mateId: 'mate-2', visibility: 'public' }]);
    const kai = within(canvas.getByRole('listitem', { name: 'Kai Tanaka' }));
    await expect(
      await kai.findByRole('button', { name: 'Make private: Kai Tanaka' }),
    ).toBeVisible();
  },
};

/** The server's refusal (a draft without a greeting) shows by the mate; nothing changes. */
export const PublishRefused: Story = {
  loaders: [reset],
  parameters: {
    app: signedIn,
    msw: {
      handlers: handlers(
        mockEndpointError('/mate/setVisibility', 4000, 'first_mes: a mate needs a greeting'),
      ),
    },
  },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Publish Captain Ione Vask' }));
    const draft = within(canvas.getByRole('listitem', { name: 'Captain Ione Vask' }));
    await expect(await draft.findByRole('alert')).toHaveTextContent(
      'first_mes: a mate needs a greeting',
    );
    await expect(draft.getByText('Draft')).toBeVisible();
  },
};

/** Delete asks first, says what happens to others' chats, and deletes only after "Delete mate". */
export const DeleteAsksFirst: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas, canvasElement }) => {
    const body = bodyOf(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete Lyra Moonwhisper' }));
    let dialog = await body.findByRole('dialog', { name: 'Delete Lyra Moonwhisper?' });
    await expect(dialog).toHaveTextContent(
      'Lyra Moonwhisper disappears for everyone. People who chatted with it keep their conversations to read, but cannot send new messages. This cannot be undone.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(server.deleted).toEqual([]);
    await userEvent.click(canvas.getByRole('button', { name: 'Delete Lyra Moonwhisper' }));
    dialog = await body.findByRole('dialog', { name: 'Delete Lyra Moonwhisper?' });
    await expect(server.deleted).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete mate' }));
    await expectNotice(canvasElement, 'Lyra Moonwhisper is deleted.');
    await expect(server.deleted).toEqual(['mate-1']);
    await waitFor(() =>
      expect(canvas.queryByRole('listitem', { name: 'Lyra Moonwhisper' })).toBeNull(),
    );
  },
};

/** The delete confirmation, open. */
export const DeleteConfirmation: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete Kai Tanaka' }));
    const dialog = await bodyOf(canvasElement).findByRole('dialog', { name: 'Delete Kai Tanaka?' });
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Delete mate' })).toBeVisible(),
    );
  },
};

/** The export menu, open: PNG (carrying V2 and V3), JSON V2, JSON V3. */
export const ExportMenu: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Export Lyra Moonwhisper' }));
    const dialog = within(
      await bodyOf(canvasElement).findByRole('dialog', { name: 'Export Lyra Moonwhisper' }),
    );
    await waitFor(() =>
      expect(dialog.getByText(/SillyTavern and other apps can read/)).toBeVisible(),
    );
    const choices = dialog.getAllByRole('button').filter((button) => button.textContent);
    await expect(choices.map((button) => button.textContent)).toEqual([
      'PNG image (V2 and V3)',
      'JSON, V2',
      'JSON, V3',
    ]);
    await expect(server.exports).toEqual([]);
  },
};

/** Export as PNG: the file the server wrote is saved under its own name. */
export const ExportAsPng: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas, canvasElement }) => {
    const document = canvasElement.ownerDocument;
    const saved: { name: string; href: string }[] = [];
    // Catch the download link's click: what would be saved, without saving it.
    const catchDownload = (event: MouseEvent) => {
      const link = event.target;
      if (!(link instanceof HTMLAnchorElement) || !link.download) return;
      event.preventDefault();
      saved.push({ name: link.download, href: link.href });
    };
    document.addEventListener('click', catchDownload, true);
    try {
      await userEvent.click(await canvas.findByRole('button', { name: 'Export Lyra Moonwhisper' }));
      const dialog = await bodyOf(canvasElement).findByRole('dialog', {
        name: 'Export Lyra Moonwhisper',
      });
      await userEvent.click(within(dialog).getByRole('button', { name: 'PNG image (V2 and V3)' }));
      await expectNotice(canvasElement, 'Saved Lyra Moonwhisper.png.');
      await expect(server.exports).toEqual([{ mateId: 'mate-1', format: 'png' }]);
      await expect(saved).toHaveLength(1);
      await expect(saved[0]!.name).toBe('Lyra Moonwhisper.png');
      await expect(saved[0]!.href).toMatch(/^blob:/);
      await waitFor(() => expect(bodyOf(canvasElement).queryByRole('dialog')).toBeNull());
    } finally {
      document.removeEventListener('click', catchDownload, true);
    }
  },
};

/** "Chat" opens a room with the mate and goes to the conversation. */
export const ChatWithAMate: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await userEvent.click(await canvas.findByRole('button', { name: 'Chat with Kai Tanaka' }));
    await waitFor(
      () =>
        expect(app.router.state.location.pathname + app.router.state.location.search).toBe(
          '/chat-detail?roomId=room-1',
        ),
      // The conversation's screen is its own chunk, loaded before the route changes.
      { timeout: 5000 },
    );
  },
};

/** "Duplicate" asks the server for a private copy and the list reads it again. */
export const DuplicateAMate: Story = {
  loaders: [reset],
  parameters: { app: signedIn, msw: { handlers: handlers() } },
  play: async ({ canvas, canvasElement }) => {
    const list = await canvas.findByRole('list', { name: 'Your mates: All' });
    await userEvent.click(canvas.getByRole('button', { name: 'Duplicate Kai Tanaka' }));
    await expectNotice(canvasElement, 'Made a copy: Kai Tanaka (copy).');
    const copy = await within(list).findByRole('listitem', { name: 'Kai Tanaka (copy)' });
    await expect(within(copy).getByText('Private')).toBeVisible();
    await expect(within(list).getAllByRole('listitem')).toHaveLength(5);
  },
};

/** While a mate is being published, its button says so; the list has not changed yet. */
export const PublishAndWait: Story = {
  loaders: [reset],
  parameters: {
    app: signedIn,
    msw: { handlers: handlers(mockEndpointLoading('/mate/setVisibility')) },
  },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Publish Kai Tanaka' }));
    const kai = within(canvas.getByRole('listitem', { name: 'Kai Tanaka' }));
    await waitFor(() =>
      expect(kai.getByRole('button', { name: 'Publish Kai Tanaka' })).toHaveAttribute(
        'aria-busy',
        'true',
      ),
    );
    await expect(kai.queryByRole('alert')).toBeNull();
  },
};

/** The server refuses a delete: its reason shows by the mate, which stays in the list. */
export const DeleteRefused: Story = {
  loaders: [reset],
  parameters: {
    app: signedIn,
    msw: {
      handlers: handlers(
        mockEndpointError(
          '/mate/deleteMate',
          4003,
          'Too many attempts. Please try again in 12 minutes.',
        ),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const body = bodyOf(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete Lyra Moonwhisper' }));
    const dialog = await body.findByRole('dialog', { name: 'Delete Lyra Moonwhisper?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete mate' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    const lyra = within(await canvas.findByRole('listitem', { name: 'Lyra Moonwhisper' }));
    await expect(await lyra.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please try again in 12 minutes.',
    );
    // Refused: no word of a deletion, and Lyra is still listed.
    await expect(body.queryByText('Lyra Moonwhisper is deleted.')).toBeNull();
  },
};
