import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { HideMatePayload, ReportedMate } from '@mates/api-client';
import {
  createPageFixture,
  createReportedMateFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, expectNotice, failingLoad, screenStories, visitorAt } from '../../testing/story-app';

const meta = { title: 'Screens/Moderation', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const ADMIN = { path: '/moderation', admin: true };

/** The queue's first tab: Rowan Ashdown with two open reports, one from a visitor. */
export const OpenReports: Story = {
  parameters: { app: ADMIN },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('tab', { name: 'Open reports' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const list = await canvas.findByRole('list', { name: 'Mates with open reports' });
    const row = within(within(list).getByRole('listitem', { name: 'Rowan Ashdown' }));
    await expect(row.getByRole('link', { name: 'Rowan Ashdown' })).toHaveAttribute(
      'href',
      '#/detail?mateId=mate-4',
    );
    await expect(row.getByRole('link', { name: 'by Wren Calloway' })).toHaveAttribute(
      'href',
      '#/creator?creatorId=creator-1',
    );
    await expect(row.getByText(/Public · 2 open reports/)).toBeVisible();
    const reports = within(row.getByRole('list', { name: 'Reports of Rowan Ashdown' }));
    await expect(reports.getAllByRole('listitem')).toHaveLength(2);
    await expect(reports.getByText('Presents or involves a minor')).toBeVisible();
    await expect(reports.getByText('The description says she is fifteen.')).toBeVisible();
    await expect(reports.getByText(/^Milo ·/)).toBeVisible();
    await expect(reports.getByText('No words given.')).toBeVisible();
    await expect(reports.getByText(/^A visitor ·/)).toBeVisible();
    await expect(row.getByRole('button', { name: 'Hide Rowan Ashdown' })).toBeVisible();
    await expect(
      row.getByRole('button', { name: 'Dismiss reports of Rowan Ashdown' }),
    ).toBeVisible();
  },
};

/** The "Hidden" tab: hidden mates with the reason, and "Restore". */
export const HiddenTab: Story = {
  parameters: { app: ADMIN },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('tab', { name: 'Hidden' }));
    const list = await canvas.findByRole('list', { name: 'Hidden mates' });
    const row = within(within(list).getByRole('listitem', { name: 'Rowan Ashdown' }));
    await expect(row.getByText(/Hidden: Presents or involves a minor/)).toBeVisible();
    await expect(row.getByRole('button', { name: 'Restore Rowan Ashdown' })).toBeVisible();
    await expect(row.queryByRole('button', { name: 'Hide Rowan Ashdown' })).toBeNull();
  },
};

export const Empty: Story = {
  parameters: {
    app: ADMIN,
    msw: { handlers: api(mockEndpoint('/admin/reports', () => createPageFixture([]))) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No open reports')).toBeVisible();
  },
};

/** A signed-in user who is not an administrator is refused, plainly. */
export const NotAnAdmin: Story = {
  parameters: { app: { path: '/moderation', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Only moderators can open this page.')).toBeVisible();
    await expect(canvas.queryByRole('tab')).toBeNull();
  },
};

export const Anonymous: Story = visitorAt('/moderation');

export const Loading: Story = {
  parameters: { app: ADMIN, msw: { handlers: api(mockEndpointLoading('/admin/reports')) } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

export const Error: Story = failingLoad(
  ADMIN,
  '/admin/reports',
  'The queue is resting',
  'The queue could not be loaded',
);

// What the mocked server remembers during one story: the open queue and what was asked of it.
const server: { open: ReportedMate[]; hidden: HideMatePayload[]; dismissed: string[] } = {
  open: [],
  hidden: [],
  dismissed: [],
};
const reset = () => {
  server.open = [createReportedMateFixture()];
  server.hidden = [];
  server.dismissed = [];
};
const statefulQueue = api(
  mockEndpoint('/admin/reports', ({ query }) =>
    createPageFixture(query.state === 'hidden' ? [] : server.open),
  ),
  mockEndpoint('/admin/hideMate', ({ body }) => {
    const payload = body as HideMatePayload;
    server.hidden.push(payload);
    server.open = server.open.filter((item) => item.mate.mateId !== payload.mateId);
    return { reason: payload.reason, note: payload.note ?? '', hiddenAt: '2026-11-21T10:00:00Z' };
  }),
  mockEndpoint('/admin/dismissReports', ({ body }) => {
    const { mateId } = body as { mateId: string };
    server.dismissed.push(mateId);
    server.open = server.open.filter((item) => item.mate.mateId !== mateId);
    return null;
  }),
);

/** "Hide mate" without a reason: the dialog asks for one and nothing is sent. */
export const HideWithoutAReason: Story = {
  loaders: [reset],
  parameters: { app: ADMIN, msw: { handlers: statefulQueue } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Hide Rowan Ashdown' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Hide Rowan Ashdown' }));
    await expect(dialog.getByRole('combobox', { name: 'Reason' })).toHaveTextContent(
      'Choose a reason',
    );
    await userEvent.type(dialog.getByLabelText('Note to the creator (optional)'), 'Too young.');
    await userEvent.click(dialog.getByRole('button', { name: 'Hide mate' }));
    await expect(await dialog.findByText('Choose a reason first.')).toBeVisible();
    await expect(dialog.getByLabelText('Note to the creator (optional)')).toHaveValue('Too young.');
    await expect(server.hidden).toEqual([]);
  },
};

/** Hide with a reason and a note: `/admin/hideMate` gets both, and the mate leaves the queue. */
export const HideAMate: Story = {
  loaders: [reset],
  parameters: { app: ADMIN, msw: { handlers: statefulQueue } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Hide Rowan Ashdown' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Hide Rowan Ashdown' }));
    await userEvent.click(dialog.getByRole('combobox', { name: 'Reason' }));
    await userEvent.click(
      await body.findByRole('option', { name: 'Presents or involves a minor' }),
    );
    await userEvent.type(
      dialog.getByLabelText('Note to the creator (optional)'),
      'The description gives her age as fifteen.',
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Hide mate' }));
    await expectNotice(canvasElement, 'Rowan Ashdown is hidden.');
    await expect(server.hidden).toEqual([
      { mateId: 'mate-4', reason: 'underage', note: 'The description gives her age as fifteen.' },
    ]);
    await expect(await canvas.findByText('No open reports')).toBeVisible();
  },
};

/** The server refuses to hide: the dialog stays open with its reason and keeps the note. */
export const HideRefused: Story = {
  parameters: {
    app: ADMIN,
    msw: { handlers: api(mockEndpointError('/admin/hideMate', 4004, 'There is no such mate')) },
  },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Hide Rowan Ashdown' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Hide Rowan Ashdown' }));
    await userEvent.click(dialog.getByRole('combobox', { name: 'Reason' }));
    await userEvent.click(await body.findByRole('option', { name: 'Something else' }));
    await userEvent.type(dialog.getByLabelText('Note to the creator (optional)'), 'Spam.');
    await userEvent.click(dialog.getByRole('button', { name: 'Hide mate' }));
    await expect(await dialog.findByText('There is no such mate')).toBeVisible();
    await expect(dialog.getByLabelText('Note to the creator (optional)')).toHaveValue('Spam.');
  },
};

/** "Dismiss reports" asks first; only the confirmation calls the server. */
export const DismissReports: Story = {
  loaders: [reset],
  parameters: { app: ADMIN, msw: { handlers: statefulQueue } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(
      await canvas.findByRole('button', { name: 'Dismiss reports of Rowan Ashdown' }),
    );
    const dialog = within(
      await body.findByRole('dialog', { name: 'Dismiss the reports of Rowan Ashdown?' }),
    );
    await expect(server.dismissed).toEqual([]);
    await userEvent.click(dialog.getByRole('button', { name: 'Dismiss reports' }));
    await expectNotice(canvasElement, 'The reports of Rowan Ashdown are dismissed.');
    await expect(server.dismissed).toEqual(['mate-4']);
    await expect(await canvas.findByText('No open reports')).toBeVisible();
  },
};

/** "Cancel" in the confirmation dismisses nothing. */
export const CancelDismissing: Story = {
  loaders: [reset],
  parameters: { app: ADMIN, msw: { handlers: statefulQueue } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(
      await canvas.findByRole('button', { name: 'Dismiss reports of Rowan Ashdown' }),
    );
    const dialog = await body.findByRole('dialog', {
      name: 'Dismiss the reports of Rowan Ashdown?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(server.dismissed).toEqual([]);
    await expect(canvas.getByRole('listitem', { name: 'Rowan Ashdown' })).toBeVisible();
  },
};

/** "Restore" in the Hidden tab calls `/admin/restoreMate` and the mate leaves the tab. */
export const RestoreAMate: Story = {
  loaders: [() => void (restored.length = 0)],
  parameters: {
    app: ADMIN,
    msw: {
      handlers: api(
        mockEndpoint('/admin/restoreMate', ({ body }) => {
          restored.push((body as { mateId: string }).mateId);
          return null;
        }),
        mockEndpoint('/admin/reports', ({ query }) =>
          createPageFixture(
            query.state === 'hidden' && restored.length === 0
              ? [
                  createReportedMateFixture({
                    mate: {
                      ...createReportedMateFixture().mate,
                      moderation: {
                        reason: 'copyright',
                        note: 'Copied from a novel.',
                        hiddenAt: '2026-11-21T10:00:00Z',
                      },
                    },
                    reports: [],
                    openReports: 0,
                  }),
                ]
              : [],
          ),
        ),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('tab', { name: 'Hidden' }));
    await expect(
      await canvas.findByText('Note to the creator: Copied from a novel.'),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Restore Rowan Ashdown' }));
    await expectNotice(canvasElement, 'Rowan Ashdown is visible again.');
    await expect(restored).toEqual(['mate-4']);
    await expect(await canvas.findByText('No hidden mates')).toBeVisible();
  },
};
const restored: string[] = [];

/** Dismissing fails: the row says why and stays. */
export const DismissRefused: Story = {
  parameters: {
    app: ADMIN,
    msw: {
      handlers: api(mockEndpointError('/admin/dismissReports', 5000, 'The queue is resting')),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(
      await canvas.findByRole('button', { name: 'Dismiss reports of Rowan Ashdown' }),
    );
    const dialog = await body.findByRole('dialog', {
      name: 'Dismiss the reports of Rowan Ashdown?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss reports' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('The queue is resting');
    await expect(canvas.getByRole('listitem', { name: 'Rowan Ashdown' })).toBeVisible();
  },
};

/** On a small phone (320 × 568): the row and its actions fit. */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app: ADMIN },
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    const hide = await canvas.findByRole('button', { name: 'Hide Rowan Ashdown' });
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(
      view.innerWidth,
    );
    await expect(hide.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
  },
};
