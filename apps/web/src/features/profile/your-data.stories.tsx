import type { Meta, StoryObj } from '@storybook/react-vite';
import type { DataExport, DeleteAccountPayload } from '@mates/api-client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { http, HttpResponse } from 'msw';
import {
  createDataExportFixture,
  createDeletionPreviewFixture,
  createPublicConfigFixture,
  envelope,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, expectNotice, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Profile/Your data', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const building = (progress: number): DataExport =>
  createDataExportFixture({
    state: progress === 0 ? 'queued' : 'running',
    progress,
    readyAt: null,
    expiresAt: null,
    size: null,
    downloadUrl: null,
  });

/** Waits until `found` is visible: a dialog fades in. */
async function seen(found: Promise<HTMLElement>) {
  const element = await found;
  await waitFor(() => expect(element).toBeVisible());
}

// What the mocked server holds during one story: the export as it goes on.
const server = { latest: null as DataExport | null, asks: 0 };

/**
 * "Download my data" with nothing asked for yet: asking shows it being gathered, how far it got,
 * then the zip to download and until when.
 */
export const DownloadMyData: Story = {
  loaders: [() => void Object.assign(server, { latest: null, asks: 0 })],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/exportData', () => (server.latest = building(0))),
        mockEndpoint('/user/exportStatus', () => {
          // Each look finds it further on: 40 %, then ready.
          if (server.latest) {
            server.asks++;
            server.latest = server.asks === 1 ? building(0.4) : createDataExportFixture();
          }
          return { latest: server.latest };
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
    await expect(section.getByText(/One zip file of everything your account holds/)).toBeVisible();
    const card = await canvas.findByRole('region', { name: 'Download my data' });
    // Asked by keyboard: the button goes, and the focus stays in the card with what follows
    // (it fell to the page's start, twice: a keyboard's Tab began again from the top).
    (await section.findByRole('button', { name: 'Download my data' })).focus();
    await userEvent.keyboard('{Enter}');
    const progress = await section.findByRole('progressbar', { name: 'Gathering your data' });
    await expect(progress).toBeVisible();
    await waitFor(() => expect(card.contains(card.ownerDocument.activeElement)).toBe(true));
    // No second ask while it is gathered.
    await expect(section.queryByRole('button', { name: /my data/ })).toBeNull();
    await expect(await section.findByText('Gathering your data… 40%')).toBeVisible();
    const download = await section.findByRole(
      'button',
      { name: /Download the zip/ },
      { timeout: 5000 },
    );
    await expect(download).toBeVisible();
    await waitFor(() => expect(download).toHaveFocus());
    await expect(section.getByText(/You can download it until/)).toBeVisible();
  },
};

/** The zip is being gathered: how far it got, as a progress bar that is announced. */
export const DataBeingGathered: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(mockEndpoint('/user/exportStatus', () => ({ latest: building(0.62) }))),
    },
  },
  play: async ({ canvas }) => {
    const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
    await expect(await section.findByText('Gathering your data… 62%')).toBeVisible();
    await expect(section.getByRole('progressbar', { name: 'Gathering your data' })).toHaveValue(62);
  },
};

// The tickets the mocked server was asked for, with the token each carried, and the links the
// page then handed to the browser as downloads (kept from the browser: a story saves no file).
const ticketAsks: (string | null)[] = [];
const downloads: { href: string; download: string | null }[] = [];
const reset = () => {
  ticketAsks.splice(0);
  downloads.splice(0);
};

/** Keeps the page's download links from the browser, noting each one clicked. */
function catchDownloads(document: Document) {
  const caught = (event: MouseEvent) => {
    const link = (event.target as Element).closest?.('a[download]');
    if (!(link instanceof HTMLAnchorElement)) return;
    event.preventDefault();
    downloads.push({ href: link.getAttribute('href')!, download: link.getAttribute('download') });
  };
  document.addEventListener('click', caught, true);
  return () => document.removeEventListener('click', caught, true);
}

/** The ticket asked for as the server answers it: to the link's owner's session only. */
const zipTicket = (answer: 'ticket' | 'signed out' | 'gone') =>
  http.post('*/api/user/exportTicket', async ({ request }) => {
    ticketAsks.push(request.headers.get('token'));
    if (answer === 'signed out') return HttpResponse.json({ c: 5002, m: 'login expired', d: null });
    if (answer === 'gone') return HttpResponse.json({ c: 4004, m: 'Download not found.', d: null });
    const { downloadUrl } = (await request.json()) as { downloadUrl: string };
    return HttpResponse.json(envelope({ url: `${downloadUrl}&ticket=for-a-minute` }));
  });

/**
 * The zip is ready: its size, until when it can be downloaded, and a button that asks for a
 * ticket with the person's session (the link alone is not enough) and hands the ticket's link
 * to the browser as a download, which saves the zip to disk as it arrives.
 */
export const DataReady: Story = {
  loaders: [reset],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/exportStatus', () => ({ latest: createDataExportFixture() })),
        zipTicket('ticket'),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const release = catchDownloads(canvasElement.ownerDocument);
    try {
      const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
      const download = await section.findByRole('button', { name: 'Download the zip (48.2 MB)' });
      await expect(section.getByRole('button', { name: 'Gather my data again' })).toBeVisible();
      await userEvent.click(download);
      await waitFor(() =>
        expect(downloads).toEqual([
          {
            href: `${createDataExportFixture().downloadUrl}&ticket=for-a-minute`,
            download: '',
          },
        ]),
      );
      await expect(ticketAsks).toEqual([app.services.store.getSnapshot().context.userInfo.token]);
      await waitFor(() => expect(download).toHaveAttribute('aria-busy', 'false'));
      await expect(section.queryByRole('alert')).toBeNull();
    } finally {
      release();
    }
  },
};

/** A zip of a few kilobytes (a new account's) says its size in kilobytes, not "0 MB". */
export const DataReadySmall: Story = {
  loaders: [reset],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/exportStatus', () => ({
          latest: createDataExportFixture({ size: 12_376 }),
        })),
      ),
    },
  },
  play: async ({ canvas }) => {
    const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
    await expect(
      await section.findByRole('button', { name: 'Download the zip (12.4 kB)' }),
    ).toBeVisible();
  },
};

/**
 * The session ended meanwhile (signed out elsewhere): the ticket is refused with 5002, and the
 * sign-in opens, after which the person downloads again; nothing was downloaded.
 */
export const DataReadySignedOutMeanwhile: Story = {
  loaders: [reset],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/exportStatus', () => ({ latest: createDataExportFixture() })),
        zipTicket('signed out'),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const release = catchDownloads(canvasElement.ownerDocument);
    try {
      const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
      await userEvent.click(await section.findByRole('button', { name: /Download the zip/ }));
      const body = within(canvasElement.ownerDocument.body);
      await seen(body.findByRole('dialog', { name: 'Sign in to Mates' }));
      await expect(ticketAsks).toHaveLength(1);
      await expect(downloads).toEqual([]);
      await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
    } finally {
      release();
    }
  },
};

/** The link stopped working (a newer zip replaced it, or it expired): said, and read again. */
export const DataReadyLinkGone: Story = {
  loaders: [reset],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/exportStatus', () => ({ latest: createDataExportFixture() })),
        zipTicket('gone'),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const release = catchDownloads(canvasElement.ownerDocument);
    try {
      const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
      await userEvent.click(await section.findByRole('button', { name: /Download the zip/ }));
      await expect(await section.findByText(/This download is no longer available/)).toBeVisible();
      await expect(downloads).toEqual([]);
    } finally {
      release();
    }
  },
};

// The link of a page left open for over an hour, and the one the server signs now.
const OLD_LINK = '/api/user/exportDownload?exportId=export-1&expires=1&signature=old';
const NEW_LINK = '/api/user/exportDownload?exportId=export-1&expires=2&signature=new';

/**
 * The page was left open past its link's hour: the zip is still there, so the download takes
 * the link the server signs now, rather than saying the zip is gone.
 */
export const DownloadAfterAnHour: Story = {
  loaders: [reset, () => void (server.asks = 0)],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/exportStatus', () => ({
          latest: createDataExportFixture({ downloadUrl: server.asks++ ? NEW_LINK : OLD_LINK }),
        })),
        http.post('*/api/user/exportTicket', async ({ request }) => {
          const { downloadUrl } = (await request.json()) as { downloadUrl: string };
          ticketAsks.push(downloadUrl);
          if (downloadUrl === OLD_LINK)
            return HttpResponse.json({ c: 4004, m: 'Download not found.', d: null });
          return HttpResponse.json(envelope({ url: `${downloadUrl}&ticket=for-a-minute` }));
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const release = catchDownloads(canvasElement.ownerDocument);
    try {
      const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
      await userEvent.click(await section.findByRole('button', { name: /Download the zip/ }));
      await waitFor(() =>
        expect(downloads.map((download) => download.href)).toEqual([
          `${NEW_LINK}&ticket=for-a-minute`,
        ]),
      );
      await expect(ticketAsks).toEqual([OLD_LINK, NEW_LINK]);
      await expect(section.queryByText(/This download is no longer available/)).toBeNull();
    } finally {
      release();
    }
  },
};

/** Gathering failed: the server's reason, and a way to ask again. */
export const DataExportFailed: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/exportStatus', () => ({
          latest: createDataExportFixture({
            ...building(0.3),
            state: 'failed',
            error: 'Your data could not be gathered. Please ask for it again.',
          }),
        })),
      ),
    },
  },
  play: async ({ canvas }) => {
    const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
    await expect(
      await section.findByText('Your data could not be gathered. Please ask for it again.'),
    ).toBeVisible();
    await expect(section.getByRole('button', { name: 'Gather my data again' })).toBeVisible();
  },
};

/** The last zip was removed after its week: gathering again is offered. */
export const DataExportExpired: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/exportStatus', () => ({
          latest: createDataExportFixture({ state: 'expired', downloadUrl: null }),
        })),
      ),
    },
  },
  play: async ({ canvas }) => {
    const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
    await expect(await section.findByText(/Your last zip was removed after a week/)).toBeVisible();
    await expect(section.queryByRole('link', { name: /Download the zip/ })).toBeNull();
  },
};

/** Where the export stands could not be read: said, with a way to try again. */
export const DataStatusUnreadable: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: { handlers: api(mockEndpointError('/user/exportStatus', 5000, 'Server error')) },
  },
  play: async ({ canvas }) => {
    const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
    await expect(
      await section.findByText('Where your data stands could not be read.'),
    ).toBeVisible();
  },
};

// What the mocked server was sent: each deletion asked for.
const deletions: DeleteAccountPayload[] = [];

/**
 * "Delete my account", from the keyboard: it says what goes, asks what becomes of the public
 * mates and for the password; a wrong one is said; the right one deletes the account, signs
 * out and goes home.
 */
export const DeleteMyAccount: Story = {
  loaders: [() => void deletions.splice(0)],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/deletionPreview', () =>
          createDeletionPreviewFixture({ paidPlan: true }),
        ),
        // A wrong password is refused as the server refuses it.
        http.post('*/api/user/deleteAccount', async ({ request }) => {
          const payload = (await request.json()) as DeleteAccountPayload;
          deletions.push(payload);
          return HttpResponse.json(
            payload.password === 'correct horse'
              ? envelope(null)
              : { c: 5007, m: 'The password is not right.', d: null },
          );
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const section = within(await canvas.findByRole('region', { name: 'Delete my account' }));
    const open = section.getByRole('button', { name: 'Delete my account…' });
    open.focus();
    await userEvent.keyboard('{Enter}');
    const body = within(canvasElement.ownerDocument.body);
    const dialog = within(await body.findByRole('dialog', { name: 'Delete your account?' }));
    await seen(dialog.findByText('12 chats'));
    await expect(dialog.getByText('2 personas')).toBeVisible();
    await expect(dialog.getByText('1 private mate or draft')).toBeVisible();
    await expect(dialog.getByText(/Your paid plan ends now/)).toBeVisible();
    await userEvent.click(dialog.getByRole('button', { name: 'Delete my account' }));
    await expect(await dialog.findByText('Enter your password to confirm.')).toBeVisible();
    await expect(deletions).toEqual([]);
    // The public mates: kept by default, deleted when chosen.
    await userEvent.click(dialog.getByRole('combobox', { name: 'Your 2 public mates' }));
    await userEvent.click(await body.findByRole('option', { name: 'Delete too' }));
    await userEvent.type(dialog.getByLabelText('Your password'), 'wrong horse{Enter}');
    await expect(await dialog.findByText('The password is not right.')).toBeVisible();
    await userEvent.clear(dialog.getByLabelText('Your password'));
    await userEvent.type(dialog.getByLabelText('Your password'), 'correct horse{Enter}');
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    await expect(deletions.at(-1)).toEqual({ password: 'correct horse', publicMates: 'delete' });
    await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
    await expectNotice(canvasElement, 'Your account is deleted.');
  },
};

/** Cancelling leaves everything as it was, focus back on the button that opened it. */
export const DeleteMyAccountCancelled: Story = {
  parameters: { app: { path: '/profile', signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    const open = await canvas.findByRole('button', { name: 'Delete my account…' });
    await userEvent.click(open);
    const body = within(canvasElement.ownerDocument.body);
    const dialog = within(await body.findByRole('dialog', { name: 'Delete your account?' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(open).toHaveFocus());
  },
};

/** While what the account holds is counted. */
export const DeletionPreviewLoading: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: { handlers: api(mockEndpointLoading('/user/deletionPreview')) },
  },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete my account…' }));
    const body = within(canvasElement.ownerDocument.body);
    await seen(body.findByText('Counting what your account holds…'));
  },
};

/** An account that signs in with Google only confirms with a fresh Google sign-in. */
export const DeleteAGoogleAccount: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/deletionPreview', () =>
          createDeletionPreviewFixture({ proofs: ['google'], publicMates: 0 }),
        ),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete my account…' }));
    const body = within(canvasElement.ownerDocument.body);
    const dialog = within(await body.findByRole('dialog', { name: 'Delete your account?' }));
    await seen(dialog.findByText('Sign in with Google again to confirm it is you.'));
    await expect(dialog.queryByLabelText('Your password')).toBeNull();
    await expect(dialog.queryByRole('combobox')).toBeNull();
  },
};

/** What the mocked server was sent to delete a Discord account, answered as the server does. */
const discordDeletion = http.post('*/api/user/deleteAccount', async ({ request }) => {
  const payload = (await request.json()) as DeleteAccountPayload;
  deletions.push(payload);
  return HttpResponse.json(
    payload.discordCode === 'code-of-dee'
      ? envelope(null)
      : { c: 5007, m: 'That is another account than this one.', d: null },
  );
});

const discordOnly = mockEndpoint('/user/deletionPreview', () =>
  createDeletionPreviewFixture({ proofs: ['discord'] }),
);

/**
 * An account that signs in with Discord only confirms with a fresh Discord sign-in: "Confirm
 * with Discord" leaves for Discord's authorize page, with a state of its own that keeps the
 * choice made for the public mates; nothing is deleted yet.
 */
export const DeleteADiscordAccount: Story = {
  loaders: [() => void deletions.splice(0)],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: { handlers: api(discordOnly, discordDeletion) },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete my account…' }));
    const body = within(canvasElement.ownerDocument.body);
    const dialog = within(await body.findByRole('dialog', { name: 'Delete your account?' }));
    await seen(dialog.findByText(/Sign in with Discord again to confirm it is you/));
    await expect(dialog.queryByLabelText('Your password')).toBeNull();
    await expect(dialog.queryByRole('button', { name: 'Delete my account' })).toBeNull();
    await userEvent.click(dialog.getByRole('combobox', { name: 'Your 2 public mates' }));
    await userEvent.click(await body.findByRole('option', { name: 'Delete too' }));
    const confirm = await dialog.findByRole('button', { name: 'Confirm with Discord' });
    confirm.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(app.redirects).toHaveLength(1));
    const authorize = new URL(app.redirects[0]!);
    const { discord } = createPublicConfigFixture();
    await expect(authorize.searchParams.get('client_id')).toBe(discord!.clientId);
    await expect(authorize.searchParams.get('redirect_uri')).toBe(discord!.redirectUri);
    await expect(authorize.searchParams.get('scope')).toBe('identify email');
    // The state is a confirmation's, which the guard will not sign in with.
    const state = authorize.searchParams.get('state')!;
    await expect(state).toMatch(/^[\w-]{43}$/);
    await expect(app.services.discordStates.takeConfirmation(state)).toEqual({
      state,
      publicMates: 'delete',
    });
    await expect(deletions).toEqual([]);
  },
};

/**
 * Back from Discord with the code (at its redirect address, which the guard reads): the dialog
 * opens on the profile with the code as the proof and the choice made before; confirming
 * deletes the account, signs out and goes home. The code signed nobody in.
 */
export const BackFromDiscordToDelete: Story = {
  loaders: [() => void deletions.splice(0)],
  parameters: {
    app: {
      path: '/?code=code-of-dee&state=state-of-this-tab',
      signedIn: true,
      discordConfirmation: { state: 'state-of-this-tab', publicMates: 'delete' },
    },
    msw: {
      handlers: api(
        discordOnly,
        discordDeletion,
        http.get('*/api/user/loginDiscord', () => {
          throw new Error('a deletion proof must not sign in');
        }),
      ),
    },
  },
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    const dialog = within(await body.findByRole('dialog', { name: 'Delete your account?' }));
    await expect(app.router.state.location.pathname).toBe('/profile');
    await expect(app.router.state.location.search).toBe('');
    await seen(dialog.findByText(/Discord confirmed it is you/));
    await expect(dialog.getByRole('combobox', { name: 'Your 2 public mates' })).toHaveTextContent(
      'Delete too',
    );
    await expect(dialog.queryByRole('button', { name: 'Confirm with Discord' })).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    await expect(deletions).toEqual([{ discordCode: 'code-of-dee', publicMates: 'delete' }]);
    await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
    await expectNotice(canvasElement, 'Your account is deleted.');
  },
};

/**
 * Back from Discord signed in as another Discord account: the server refuses it, the dialog
 * says so and offers "Confirm with Discord" again (the code is spent).
 */
export const BackFromDiscordWithAnotherAccount: Story = {
  loaders: [() => void deletions.splice(0)],
  parameters: {
    app: {
      path: '/?code=code-of-someone-else&state=state-of-this-tab',
      signedIn: true,
      discordConfirmation: { state: 'state-of-this-tab', publicMates: 'keep' },
    },
    msw: { handlers: api(discordOnly, discordDeletion) },
  },
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    const dialog = within(await body.findByRole('dialog', { name: 'Delete your account?' }));
    await seen(dialog.findByText(/Discord confirmed it is you/));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete my account' }));
    await expect(await dialog.findByText('That is another account than this one.')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Confirm with Discord' })).toBeVisible();
    await expect(dialog.queryByRole('button', { name: 'Delete my account' })).toBeNull();
    await expect(deletions).toEqual([{ discordCode: 'code-of-someone-else', publicMates: 'keep' }]);
    await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBeDefined();
    // Cancelled: the spent code does not come back with the page.
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(app.router.state.location.state).toBeNull();
  },
};

/** Asked for, waiting for a place in the queue: said, with an empty progress bar. */
export const DataQueued: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: { handlers: api(mockEndpoint('/user/exportStatus', () => ({ latest: building(0) }))) },
  },
  play: async ({ canvas }) => {
    const section = within(await canvas.findByRole('region', { name: 'Download my data' }));
    await expect(await section.findByText('Waiting to gather your data…')).toBeVisible();
    await expect(section.getByRole('progressbar', { name: 'Gathering your data' })).toHaveValue(0);
  },
};

/** What the account holds could not be counted: said in the dialog, nothing can be deleted. */
export const DeletionPreviewFailed: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: { handlers: api(mockEndpointError('/user/deletionPreview', 5000, 'Server error')) },
  },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete my account…' }));
    const body = within(canvasElement.ownerDocument.body);
    const dialog = within(await body.findByRole('dialog', { name: 'Delete your account?' }));
    await seen(dialog.findByText('What your account holds could not be counted.'));
    await expect(dialog.queryByRole('button', { name: 'Delete my account' })).toBeNull();
  },
};
